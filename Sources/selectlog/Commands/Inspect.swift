import ArgumentParser
import SelectLog
import SelectLogStore

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Look inside a log: a summary, events, the table at any event, differences, and why a row changed.",
        discussion: """
            Without options, prints a summary. Ranges A..B name the states after A and after B events:
            --events A..B lists events A through B-1 (the events between those states), and
            --diff A..B compares the two states. Either end may be left out (A.. or ..B).
            Every view has a --json form (see the README's "Inspect JSON" section).
            """)

    @Argument(help: "A selectlog log.")
    var log: String

    @Option(help: "List events A..B, one line each, with what each changed.")
    var events: String?

    @Option(help: "Draw the table after N events (with --why: the row's path after N events).")
    var at: Int?

    @Option(help: "What differs between the states after A and after B events, field by field.")
    var diff: String?

    @Option(help: "The event that last changed a row's selection, and its gesture. ROW is S,R or S:R.")
    var why: String?

    @Flag(help: "Machine-readable output.")
    var json = false

    func validate() throws {
        let views = [events != nil, diff != nil, why != nil, at != nil && why == nil].filter { $0 }.count
        if views > 1 { throw ValidationError("choose one of --events, --at, --diff and --why") }
        if let at, at < 0 { throw ValidationError("--at takes a number of events, 0 or more") }
    }

    func run() throws {
        let reader = try Input.openLog(log)
        do {
            if let events {
                try listEvents(reader, try InspectRange(events, count: reader.eventCount))
            } else if let diff {
                try showDiff(reader, try InspectRange(diff, count: reader.eventCount))
            } else if let why {
                try explain(reader, row: try parseRow(why))
            } else if let at {
                guard at <= reader.eventCount else {
                    complain("--at \(at): \(log) has only \(reader.eventCount) events")
                    throw Exit.usage
                }
                let state = try reader.state(at: at)
                print(json ? state.json : TablePicture(state).text)
            } else {
                try summarize(reader)
            }
        } catch let error as LogError {
            complain("\(error)")
            throw error.code == .outOfRange ? Exit.usage : Exit.invalidInput
        }
    }

    func parseRow(_ text: String) throws -> RowPath {
        let digits = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard digits.count == 2 else { throw ValidationError("--why takes a row as S,R (section and row), not \"\(text)\"") }
        return RowPath(digits[0], digits[1])
    }

    // MARK: Summary

    func summarize(_ reader: LogReader) throws {
        let progress = Progress("inspect", total: reader.eventCount)
        let summary = try reader.summary { progress.update($0) }
        progress.finish()
        let batches = summary.batches, checkpoints = summary.checkpoints
        let raw = summary.rawBytes, stored = summary.storedBytes
        let pans = summary.pans, taps = summary.taps, swipes = summary.swipes
        let histogram = summary.types
        let firstT = summary.firstT
        let lastT = summary.lastT ?? .zero
        let n = max(reader.eventCount, 1)
        let types = histogram.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let first = firstT ?? .zero
        if json {
            var o = ObjectWriter()
            o.string("log", log)
            o.raw("bytes", String(reader.fileSize))
            o.raw("version", String(reader.header.version))
            o.raw("events", String(reader.eventCount))
            o.raw("firstT", first.description)
            o.raw("lastT", lastT.description)
            o.raw("batches", String(batches))
            o.raw("checkpoints", String(checkpoints))
            o.raw("checkpointInterval", String(reader.header.checkpointInterval))
            o.raw("storedIndex", String(reader.usedStoredIndex))
            o.raw("bytesPerEvent", decimal(Double(reader.fileSize) / Double(n)))
            o.raw("compressionRatio", decimal(Double(raw) / Double(max(stored, 1))))
            o.raw("gestures", "{\"pans\": \(pans), \"taps\": \(taps), \"swipes\": \(swipes)}")
            o.raw("types", "{" + types.map { "\(JSONText.quote($0.key)): \($0.value)" }.joined(separator: ", ") + "}")
            o.raw("tornTail", reader.tail.map { "{\"offset\": \($0.offset), \"reason\": \(JSONText.quote($0.reason))}" } ?? "null")
            print(o.text)
            return
        }
        print("log         \(log): \(reader.fileSize) bytes, format \(reader.header.version)")
        print("events      \(reader.eventCount), t \(first) ms to \(lastT) ms (\(duration(Micros(raw: lastT.raw - first.raw))))")
        print("records     \(batches) batches, \(checkpoints) checkpoints (every \(reader.header.checkpointInterval) events), index \(reader.usedStoredIndex ? "stored" : "rebuilt by scanning")")
        print("size        \(decimal(Double(reader.fileSize) / Double(n))) bytes/event; batches \(decimal(Double(raw) / Double(n))) -> \(decimal(Double(stored) / Double(n))) bytes/event compressed (\(decimal(Double(raw) / Double(max(stored, 1))))x)")
        print("gestures    \(pans) pans, \(taps) taps, \(swipes) swipes")
        if let tail = reader.tail { print("torn tail   at byte offset \(tail.offset): \(tail.reason)") }
        print("types")
        let widest = types.map(\.value).max() ?? 1
        for (name, count) in types {
            let bar = String(repeating: "#", count: max(1, count * 30 / widest))
            let label = name.padding(toLength: 18, withPad: " ", startingAt: 0)
            let number = String(count)
            print("  \(label)\(String(repeating: " ", count: max(1, 9 - number.count)))\(number) \(percent(count, n)) \(bar)")
        }
    }

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
                o.raw("index", String(i))
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
                out.line("\(pad(String(i), 8)) \(pad(state.t.description, 10)) ms  \(e.event.typeName)\(body.isEmpty ? "" : " " + body)\(changed)")
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

    // MARK: Why

    func explain(_ reader: LogReader, row: RowPath) throws {
        let n = at ?? reader.eventCount
        guard n <= reader.eventCount else {
            complain("--at \(n): \(log) has only \(reader.eventCount) events")
            throw Exit.usage
        }
        let progress = Progress("why", total: n)
        let history = try reader.lastChange(of: row, at: n) { progress.update($0) }
        progress.finish()
        var gesture: Gesture?
        var event: TimedEvent?
        var t = Micros.zero
        if let i = history.event {
            gesture = try reader.gesture(containing: i)
            event = try reader.events(from: i, to: i + 1).first
            t = try reader.state(at: i + 1).t
        }
        let kind: String
        switch history.kind {
        case .changed: kind = "changed"
        case .inserted: kind = "inserted"
        case .untouched: kind = "untouched"
        }
        if json {
            var o = ObjectWriter()
            o.raw("row", "[\(row.section), \(row.row)]")
            o.raw("at", String(n))
            o.string("kind", kind)
            o.raw("event", history.event.map(String.init) ?? "null")
            o.raw("type", event.map { JSONText.quote($0.event.typeName) } ?? "null")
            o.raw("t", history.event == nil ? "null" : t.description)
            o.raw("pathThen", history.pathThen.map { "[\($0.section), \($0.row)]" } ?? "null")
            o.raw("gesture", gesture.map { "{\"kind\": \(JSONText.quote($0.kind)), \"first\": \($0.events.lowerBound), \"last\": \($0.events.upperBound)}" } ?? "null")
            print(o.text)
            return
        }
        let selected = try reader.state(at: n).selection.contains(row)
        print("row \(row) after \(n) events is \(selected ? "selected" : "not selected")")
        switch history.kind {
        case .untouched:
            print("  no event changed its selection: it has been as it is since the table was loaded")
        case .changed, .inserted:
            let i = history.event ?? 0
            let verb = history.kind == .changed ? "last changed by" : "created by"
            print("  \(verb) event \(i) at t \(t) ms: \(event.map { EventEncoder.line($0) } ?? "")")
            if let then = history.pathThen, then != row { print("  the row was \(then) then; edits since moved it") }
            if let g = gesture, g.events.count > 1 { print("  part of a \(g.kind), events \(g.events.lowerBound) to \(g.events.upperBound)") }
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

/// A range `A..B` of states (events after A and after B), with open ends.
struct InspectRange {
    var from: Int
    var to: Int

    init(_ text: String, count: Int) throws {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2 else { throw ValidationError("a range is A..B, not \"\(text)\"") }
        let a = parts[0].isEmpty ? 0 : Int(parts[0])
        let b = parts[1].isEmpty ? count : Int(parts[1])
        guard let a, let b, a >= 0, a <= b else { throw ValidationError("a range is A..B with 0 <= A <= B, not \"\(text)\"") }
        guard b <= count else {
            complain("\(text): the log has only \(count) events")
            throw Exit.usage
        }
        from = a
        to = b
    }
}

func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }

/// `x` with two decimals, rounded half away from zero, without Foundation.
func decimal(_ x: Double) -> String {
    let hundredths = Int((x * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let m = abs(hundredths)
    return "\(sign)\(m / 100).\(m % 100 < 10 ? "0" : "")\(m % 100)"
}

func percent(_ part: Int, _ whole: Int) -> String {
    let tenths = (part * 1000 + max(whole, 1) / 2) / max(whole, 1)
    return pad("\(tenths / 10).\(tenths % 10)%", 6)
}

/// A duration as m:ss.mmm.
func duration(_ t: Micros) -> String {
    let ms = t.raw / 1000
    let minutes = ms / 60_000, seconds = (ms / 1000) % 60, millis = ms % 1000
    return "\(minutes):\(seconds < 10 ? "0" : "")\(seconds).\(String(repeating: "0", count: 3 - String(millis).count))\(millis)"
}
