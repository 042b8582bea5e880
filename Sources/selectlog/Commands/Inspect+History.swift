import ArgumentParser
import SelectLog
import SelectLogStore

extension Inspect {
    /// `--history S,R`: every change of the row's selection, oldest first, following the
    /// row through edits, each with its gesture.
    /// `whole`: false when `reader` holds a stream's events only up to `--at`
    /// (`InspectGesture`).
    func history(_ reader: LogReader, _ text: String, whole: Bool = true) throws {
        let row = try Inspect.parseRow(text, option: "--history")
        let n = at ?? reader.eventCount
        guard n <= reader.eventCount else {
            complain("--at \(n): \(log) has only \(counted(reader.eventCount, "event", "events"))")
            throw Exit.usage
        }
        let progress = Progress("history", total: n)
        let changes = try reader.selectionHistory(of: row, at: n) { progress.update($0) }
        progress.finish()
        var lines: [String] = []
        for c in changes {
            let event = try reader.events(from: c.event, to: c.event + 1).first
            let gesture = try reader.gesture(containing: c.event)
            let t = try reader.state(at: c.event + 1).t
            let type = event?.event.typeName ?? ""
            let g = gesture.events.count > 1 ? gesture : nil
            if json {
                var o = ObjectWriter()
                o.raw("event", String(c.event + 1))
                o.string("type", type)
                o.raw("t", t.description)
                o.raw("path", "[\(c.path.section), \(c.path.row)]")
                o.string("kind", c.kind == .inserted ? "inserted" : "changed")
                o.raw("before", c.kind == .inserted ? "null" : String(!c.selected))
                o.raw("after", String(c.selected))
                o.raw("gesture", InspectGesture.json(g, whole: whole))
                lines.append(o.text)
            } else {
                let change = c.kind == .inserted
                    ? "created \(c.selected ? "selected" : "not selected")"
                    : (c.selected ? "not selected -> selected" : "selected -> not selected")
                let more = g.map { InspectGesture.endUnknown($0, whole: whole) } == true ? " \(InspectGesture.maybeLater)" : ""
                let within = g.map { "  (\($0.kind), events \($0.events.lowerBound + 1) to \($0.events.upperBound + 1)\(more))" } ?? ""
                let path = c.path == row ? "" : "  as \(c.path)"
                lines.append("  event \(pad(String(c.event + 1), 7)) t \(t) ms  \(type): \(change)\(path)\(within)")
            }
        }
        if json {
            print("{\"row\": [\(row.section), \(row.row)], \"at\": \(n), \"changes\": [" + lines.joined(separator: ", ") + "]}")
            return
        }
        let count = changes.filter { $0.kind == .changed }.count
        let created = changes.first?.kind == .inserted
        // "0 changes" above a "created" line read as a contradiction: creation is not a change.
        let summary = count == 0
            ? (created ? "no change of its selection since it was created" : "no change of its selection")
            : "\(count) change\(count == 1 ? "" : "s") of its selection"
        print("row \(row) after \(counted(n, "event", "events")): \(summary)")
        for line in lines { print(line) }
        if !created {
            print(changes.isEmpty ? "  (the row is as the table was loaded)" : "  (before these, the row was as the table was loaded)")
        }
    }
}
