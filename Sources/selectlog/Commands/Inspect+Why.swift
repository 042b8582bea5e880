import ArgumentParser
import SelectLog
import SelectLogStore

extension Inspect {
    /// The parts of the state other than a row's selection that `--why` explains.
    static let whyFields = ["optionOpen", "swipe", "editor", "contentOffset"]

    /// An event as one line; a `reload` summarised instead of listing every height, and
    /// any other line past `describedBytes` cut there, saying how long it is (an
    /// `insertSections` of 20,000 titled sections printed 2.8 MB on one line).
    static func describe(_ e: TimedEvent, number: Int, log: String) -> String {
        if case .reload(let sections) = e.event {
            let rows = sections.reduce(0) { $0 + $1.rows }
            return "{\"type\": \"reload\"\(e.t.map { ", \"t\": \($0)" } ?? ""), \"sections\": \(sections.count), \"rows\": \(rows)} (summarised)"
        }
        let line = EventEncoder.line(e)
        let bytes = line.utf8.count
        guard bytes > describedBytes else { return line }
        var kept = ""
        for c in line {
            if kept.utf8.count + c.utf8.count > describedBytes - 100 { break }
            kept.append(c)
        }
        let named = log.logArgument
        return kept + " ... (cut: the event's line is \(bytes) bytes; `selectlog export \(named) --from \(number) --to \(number)` prints it whole)"
    }

    /// The longest event line `describe` prints whole.
    static let describedBytes = 400

    /// `whole`: false when `reader` holds a stream's events only up to `--at` (see
    /// `Session.open`), so that a gesture reaching its last event may go on past it.
    func explain(_ reader: LogReader, what: String, whole: Bool = true) throws {
        let n = at ?? reader.eventCount
        guard n <= reader.eventCount else {
            complain("--at \(n): \(log) has only \(counted(reader.eventCount, "event", "events"))")
            throw Exit.usage
        }
        if Inspect.whyFields.contains(what) {
            try explain(reader, field: what, at: n, whole: whole)
        } else {
            try explain(reader, row: try Inspect.parseRow(what, option: "--why"), at: n, whole: whole)
        }
    }

    /// `--why FIELD`: the event that last changed the field, and its gesture.
    func explain(_ reader: LogReader, field: String, at n: Int, whole: Bool) throws {
        let expectation = try StateExpectation(field)
        let progress = Progress("why", total: n)
        let index = field == "editor"
            ? try reader.lastChange(at: n, of: EditorProbe.init) { progress.update($0) }
            : try reader.lastChange(at: n, of: { expectation.value(in: $0).description }) { progress.update($0) }
        progress.finish()
        let value = expectation.value(in: try reader.state(at: n))
        try report(reader, subject: field, at: n, kind: index == nil ? "untouched" : "changed", index: index, pathThen: nil,
                   headline: "\(field) after \(counted(n, "event", "events")) is \(value)", whole: whole)
    }

    /// `--why S,R`: the event that last changed the row's selection (or created it).
    func explain(_ reader: LogReader, row: RowPath, at n: Int, whole: Bool) throws {
        let progress = Progress("why", total: n)
        let history = try reader.lastChange(of: row, at: n) { progress.update($0) }
        progress.finish()
        let kind: String
        switch history.kind {
        case .changed: kind = "changed"
        case .inserted: kind = "inserted"
        case .untouched: kind = "untouched"
        }
        let selected = try reader.state(at: n).selection.contains(row)
        try report(reader, subject: "[\(row.section), \(row.row)]", at: n, kind: kind, index: history.event,
                   pathThen: history.pathThen.map { then in then == row ? nil : then } ?? nil,
                   headline: "row \(row) after \(counted(n, "event", "events")) is \(selected ? "selected" : "not selected")", rowThen: history.pathThen,
                   whole: whole)
    }

    /// Prints the answer. `index` is 0-based; the user sees event `index + 1`, the event
    /// after which `--at index + 1` shows the change.
    private func report(_ reader: LogReader, subject: String, at n: Int, kind: String, index: Int?, pathThen: RowPath?,
                        headline: String, rowThen: RowPath? = nil, whole: Bool) throws {
        var gesture: LoggedGesture?
        var event: TimedEvent?
        var t = Micros.zero
        if let i = index {
            gesture = try reader.gesture(containing: i)
            event = try reader.events(from: i, to: i + 1).first
            t = try reader.state(at: i + 1).t
        }
        if json {
            var o = ObjectWriter()
            if subject.hasPrefix("[") { o.raw("row", subject) } else { o.string("field", subject) }
            o.raw("at", String(n))
            o.string("kind", kind)
            o.raw("event", index.map { String($0 + 1) } ?? "null")
            o.raw("type", event.map { JSONText.quote($0.event.typeName) } ?? "null")
            o.raw("t", index == nil ? "null" : t.description)
            if subject.hasPrefix("[") { o.raw("pathThen", rowThen.map { "[\($0.section), \($0.row)]" } ?? "null") }
            o.raw("gesture", InspectGesture.json(gesture, whole: whole))
            print(o.text)
            return
        }
        print(headline)
        guard let i = index else {
            print(subject.hasPrefix("[")
                  ? "  no event changed its selection: it has been as it is since the table was loaded"
                  : "  no event changed it: it has had this value since the log's start")
            return
        }
        let verb = kind == "inserted" ? "created by" : "last changed by"
        print("  \(verb) event \(i + 1) at t \(t) ms: \(event.map { Inspect.describe($0, number: i + 1, log: log) } ?? "")")
        if let then = pathThen { print("  the row was \(then) then; edits since moved it") }
        if let g = gesture, g.events.count > 1 { print("  part of a \(InspectGesture.text(g, whole: whole))") }
    }
}

/// A gesture as `inspect` shows it (`--why`, `--first`, `--history`): in `--json`,
/// `{kind, first, last, unfinished}`, events numbered from 1, or null for an event alone,
/// as the text form shows none; in the text, its description.
///
/// `whole` false: the reader holds a stream's events only up to the answer (a pipe read
/// no further than `--at` or `--first` needs), so a gesture that reaches the last event
/// read may go on past it: `unfinished` is null then, not true ("unfinished when the log
/// ends" of a gesture the input goes on with was wrong), and the text says so.
enum InspectGesture {
    /// The `--json` object of `gesture`.
    static func json(_ gesture: LoggedGesture?, whole: Bool = true) -> String {
        guard let g = gesture, g.events.count > 1 else { return "null" }
        let unfinished = endUnknown(g, whole: whole) ? "null" : String(g.isUnfinished)
        return "{\"kind\": \(JSONText.quote(g.kind)), \"first\": \(g.events.lowerBound + 1), \"last\": \(g.events.upperBound + 1), \"unfinished\": \(unfinished)}"
    }

    /// `g`'s description, for a stream read no further (`whole` false) with "and maybe
    /// later ones" in place of "unfinished when the log ends".
    static func text(_ g: LoggedGesture, whole: Bool = true) -> String {
        guard endUnknown(g, whole: whole) else { return g.description }
        var read = g
        read.isUnfinished = false
        return "\(read) (\(maybeLater))"
    }

    /// Whether `g` reaches the last event of a stream read no further (`whole` false):
    /// its end is then not known.
    static func endUnknown(_ g: LoggedGesture, whole: Bool) -> Bool { g.isUnfinished && !whole }

    /// What the text says of a gesture whose end is not known.
    static let maybeLater = "and maybe later ones: the input read no further"
}

/// What `--why editor` compares after each event: the fields its value is made of
/// (`StateExpectation("editor")`: the row, the options, `multiple`, the chosen ones), so
/// that two values are equal exactly when the fields are. Its description listed every
/// option after every event: a log of editors of 200,000 options took minutes. Arrays
/// compare in constant time while they share their storage, as they do from one event
/// to the next until the editor changes.
struct EditorProbe: Equatable {
    struct Open: Equatable {
        var row: RowPath
        var options: [String]
        var multiple: Bool
        var chosen: [Int]
    }

    var open: Open?

    init(_ state: TableState) {
        guard let editor = state.editor, let row = state.layout.editorRow else { return }
        open = Open(row: row, options: editor.options, multiple: editor.multiple, chosen: editor.chosen)
    }
}
