import ArgumentParser
import SelectLog
import SelectLogStore

extension Inspect {
    // MARK: Events

    func listEvents(_ reader: LogReader, _ range: InspectRange) throws {
        var state = try reader.state(at: range.from)
        var out = OutputBuffer()
        // Also when a read fails part-way: the events listed before the damage are shown.
        defer { out.flush() }
        // The columns widen to the widest number seen so far and stay that wide: times never
        // go back, so a long session (a clock since boot passes 10^7 ms in under three hours)
        // shifts the columns once, not at every time with fewer decimals.
        var indexWidth = 8, timeWidth = 10
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
                let index = String(i + 1), time = state.t.description
                indexWidth = max(indexWidth, index.count)
                timeWidth = max(timeWidth, time.count)
                out.line("\(pad(index, indexWidth)) \(pad(time, timeWidth)) ms  \(e.event.typeName)\(body.isEmpty ? "" : " " + body)\(changed)")
            }
            return true
        }
    }

    // MARK: Diff

    func showDiff(_ reader: LogReader, _ range: InspectRange) throws {
        let a = try reader.state(at: range.from)
        // Replay A..B for the row operations, to follow rows through edits.
        var b = a
        var operations: [RowOperation] = []
        var reloadedAt: Int?
        try reader.forEachEvent(from: range.from, to: range.to) { (i, e) throws(LogError) -> Bool in
            do throws(InvalidEvent) {
                let changes = try b.apply(e)
                if changes.reloaded {
                    reloadedAt = i
                    operations = []
                } else {
                    operations += changes.rowOperations
                }
            } catch {
                throw reader.rejection(error, index: i)
            }
            return true
        }
        let followed = SelectionDiff(from: a.selection, to: b.selection, operations: operations, reloaded: reloadedAt != nil)
        // In the JSON's order: sections and editing come before the selection.
        let changes = b.changes(since: a).filter { $0.field != "selected" }
        let head = changes.prefix { $0.field == "sections" || $0.field == "editing" }
        let tail = changes.dropFirst(head.count)
        let count = changes.count + (followed.isEmpty ? 0 : 1)
        if json {
            let parts = head.map(changeJSON) + (followed.isEmpty ? [] : [followed.json]) + tail.map(changeJSON)
            print("{\"from\": \(range.from), \"to\": \(range.to), \"changes\": [" + parts.joined(separator: ", ") + "]}")
            return
        }
        func line(_ c: StateChange) -> String { "  \(c.field.padding(toLength: 15, withPad: " ", startingAt: 0))\(c.before) -> \(c.after)" }
        print("after \(counted(range.from, "event", "events")) -> after \(counted(range.to, "event", "events")): \(count == 0 ? "no differences" : count == 1 ? "1 field differs" : "\(count) fields differ")")
        for c in head { print(line(c)) }
        if !followed.isEmpty {
            for l in followed.lines(before: a.selection.count, after: b.selection.count, reloadedAt: reloadedAt) { print(l) }
        }
        for c in tail { print(line(c)) }
    }

    // MARK: Helpers

    func changesJSON(_ changes: [StateChange]) -> String {
        "[" + changes.map(changeJSON).joined(separator: ", ") + "]"
    }

    func changeJSON(_ c: StateChange) -> String {
        if c.field == "selected" {
            return "{\"field\": \"selected\", \"added\": \(StateChange.jsonRanges(c.added ?? RowSet())), \"removed\": \(StateChange.jsonRanges(c.removed ?? RowSet()))}"
        }
        return "{\"field\": \(JSONText.quote(c.field)), \"before\": \(JSONText.quote(c.before)), \"after\": \(JSONText.quote(c.after))}"
    }
}

/// How the selection changed between two states, following rows through the row
/// operations between them: rows that only moved are reported as moved, not as added
/// and removed; rows deleted while selected are counted.
struct SelectionDiff {
    /// Rows selected after B that were not selected (or did not exist) at A, in B's frame.
    var added: RowSet
    /// Rows selected at A, still there after B and no longer selected, in B's frame.
    var removed: RowSet
    /// Selected rows that kept their selection but changed path (A's path, B's path);
    /// listed when A has at most `movedLimit` selected rows.
    var moved: [(from: RowPath, to: RowPath)] = []
    /// Selected rows at A that an edit (or a reload) deleted.
    var deleted: Int
    static let movedLimit = 10_000

    init(from a: RowSet, to b: RowSet, operations: [RowOperation], reloaded: Bool) {
        let mapped = reloaded ? RowSet() : a.applying(operations)
        added = b.subtracting(mapped)
        removed = mapped.subtracting(b)
        deleted = a.count - mapped.count
        if !reloaded, !operations.isEmpty, a.count <= SelectionDiff.movedLimit {
            for p in a.paths {
                if let to = RowSet([p]).applying(operations).first, to != p, b.contains(to) { moved.append((p, to)) }
            }
        }
    }

    var isEmpty: Bool { added.isEmpty && removed.isEmpty && moved.isEmpty && deleted == 0 }

    var json: String {
        let pairs = moved.map { "[[\($0.from.section), \($0.from.row)], [\($0.to.section), \($0.to.row)]]" }.joined(separator: ", ")
        return "{\"field\": \"selected\", \"added\": \(StateChange.jsonRanges(added)), \"removed\": \(StateChange.jsonRanges(removed)), \"moved\": [\(pairs)], \"deleted\": \(deleted)}"
    }

    func lines(before: Int, after: Int, reloadedAt: Int?) -> [String] {
        var out = ["  selected       \(before) -> \(after) rows (rows followed through edits)"]
        if !moved.isEmpty {
            let shown = moved.prefix(6).map { "\($0.from) -> \($0.to)" }.joined(separator: ", ")
            out.append("    moved        \(moved.count) row\(moved.count == 1 ? "" : "s"): \(shown)\(moved.count > 6 ? ", ..." : "")")
        }
        if !added.isEmpty { out.append("    added        \(StateChange.ranges(added))") }
        if !removed.isEmpty { out.append("    removed      \(StateChange.ranges(removed))") }
        if deleted > 0 {
            out.append("    deleted      \(deleted) selected row\(deleted == 1 ? "" : "s") \(reloadedAt.map { "replaced by the reload of event \($0 + 1)" } ?? "deleted by edits")")
        }
        return out
    }
}
