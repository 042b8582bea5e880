import ArgumentParser
import SelectLog
import SelectLogStore

extension Inspect {
    // MARK: Events

    func listEvents(_ reader: LogReader, _ range: InspectRange) throws {
        var state = try reader.state(at: range.from)
        var out = OutputBuffer()
        try reader.forEachEvent(from: range.from, to: range.to) { (i, e) throws(LogError) -> Bool in
            let before = state
            try reader.apply(e, index: i, to: &state)
            let changes = state.changes(since: before, across: e.event)
            if json {
                var o = ObjectWriter()
                o.raw("index", String(i + 1))
                o.raw("t", state.t.description)
                o.raw("type", JSONText.quote(e.event.typeName))
                o.raw("event", EventEncoder.line(e))
                o.raw("changes", changesJSON(changes))
                out.line(o.text)
            } else {
                // The event's fields without its type: `{"x": 30, "y": 175}`, or nothing.
                let fields = EventEncoder.line(TimedEvent(e.event)).dropFirst(("{\"type\": \"" + e.event.typeName + "\"").count)
                let body = fields.hasPrefix(", ") ? "{" + fields.dropFirst(2) : ""
                let changed = changes.isEmpty ? "" : "  -> " + changes.map(\.description).joined(separator: "; ")
                out.line("\(pad(String(i + 1), 8)) \(pad(state.t.description, 10)) ms  \(e.event.typeName)\(body.isEmpty ? "" : " " + body)\(changed)")
            }
            return true
        }
        out.flush()
    }

    // MARK: Diff

    func showDiff(_ reader: LogReader, _ range: InspectRange) throws {
        let a = try reader.state(at: range.from), b = try reader.state(at: range.to)
        let changes = b.changes(since: a)
        if json {
            print("{\"from\": \(range.from), \"to\": \(range.to), \"changes\": \(changesJSON(changes))}")
            return
        }
        print("after \(range.from) events -> after \(range.to) events: \(changes.isEmpty ? "no differences" : "\(changes.count) fields differ")")
        for c in changes {
            if c.field == "selected" {
                print("  selected       \(c.before) -> \(c.after) rows")
                if let added = c.added, !added.isEmpty { print("    added        \(StateChange.ranges(added))") }
                if let removed = c.removed, !removed.isEmpty { print("    removed      \(StateChange.ranges(removed))") }
            } else {
                print("  \(c.field.padding(toLength: 15, withPad: " ", startingAt: 0))\(c.before) -> \(c.after)")
            }
        }
    }

    // MARK: Helpers

    func changesJSON(_ changes: [StateChange]) -> String {
        "[" + changes.map { c in
            if c.field == "selected" {
                return "{\"field\": \"selected\", \"added\": \(StateChange.jsonRanges(c.added ?? RowSet())), \"removed\": \(StateChange.jsonRanges(c.removed ?? RowSet()))}"
            }
            return "{\"field\": \(JSONText.quote(c.field)), \"before\": \(JSONText.quote(c.before)), \"after\": \(JSONText.quote(c.after))}"
        }.joined(separator: ", ") + "]"
    }
}
