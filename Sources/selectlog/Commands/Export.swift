import ArgumentParser
import SelectLog
import SelectLogStore

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a log as a JSON Lines script, or a slice of it as a standalone script.",
        discussion: """
            `record` of the output replays to the same hash (with a build that replays the log as \
            recorded: `selectlog check` says whether this one does; the script holds what the log holds). With --from A and/or --to B (events numbered \
            from 1), writes events A through B after a set-up prefix that rebuilds the state before A \
            (configuration, viewport, table, editing, selection, offset, option view, editor; none when \
            the slice starts at event 1). The slice \
            starts at the nearest gesture boundary at or before A; stderr says where. The prefix carries the \
            undo and redo history when each step is one event's (a tap, select, deselect, selectAll, a \
            single-selection row replacing another, choose in the editor still open), and then replaying the slice gives the state after B and its hash; stderr names what it \
            cannot carry (a history with a pan's mixed step, or a choose in an editor since closed), and the \
            slice's undo then differs from the log's.
            """)

    @Argument(help: ArgumentHelp("A selectlog log or a JSON Lines script; - reads standard input.", valueName: "file"))
    var log: String

    @Option(help: "The first event of a slice (numbered from 1).")
    var from: Int?

    @Option(help: "The last event of a slice (numbered from 1; default: the last).")
    var to: Int?

    func validate() throws {
        if let from, from < 1 { throw ValidationError("--from takes an event number, 1 or more") }
        if let to, to < 1 { throw ValidationError("--to takes an event number, 1 or more") }
    }

    func run() throws {
        let (reader, isScript, _, _) = try Session.open(log, upTo: to)
        var out = OutputBuffer()
        do {
            if from == nil && to == nil {
                try reader.forEachEvent { _, event in
                    out.line(EventEncoder.line(event))
                    return true
                }
            } else {
                try slice(reader, into: &out)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            out.flush()
            ReadFailure.report(error, log: log, mapped: reader.path, isLog: !isScript)
            throw Exit.invalidInput
        }
        out.flush()
    }

    func slice(_ reader: LogReader, into out: inout OutputBuffer) throws {
        let last = to ?? reader.eventCount
        let first = from ?? 1
        // At least one event: an empty slice ("events 13 to 12") is a set-up, not a slice.
        guard last <= reader.eventCount, first <= last else {
            let given = [from.map { "--from \($0)" }, to.map { "--to \($0)" }].compactMap { $0 }.joined(separator: " ")
            complain("\(given): \(log) has \(counted(reader.eventCount, "event", "events")); a slice needs 1 <= A <= B <= \(reader.eventCount)")
            throw Exit.usage
        }
        let start = try reader.gestureBoundary(atOrBefore: first - 1)
        if start != first - 1 {
            complain("note: the slice starts at event \(start + 1), the start of the gesture event \(first) belongs to")
        }
        // The log's name, controls escaped: a line break in it would start a line of the
        // script that is not a comment.
        let name = log.escapingControls
        if start == 0 {
            // From the start: the state before event 1 is a new table's, which needs no
            // set-up (one would only repeat the defaults and renumber the events).
            out.line("# events 1 to \(last) of \(name)")
        } else {
            let setUp = SetUpScript(reproducing: try reader.state(at: start))
            if !setUp.notCarried.isEmpty {
                complain("note: the set-up cannot carry \(setUp.notCarried.joined(separator: ", ")) from before event \(start + 1)")
            }
            out.line("# events \(start + 1) to \(last) of \(name), after \(setUp.eventCount) set-up events for the state before event \(start + 1)")
            // Each set-up event written as it is made: a list of millions of rows is never held.
            setUp.forEachEvent { out.line(EventEncoder.line($0)) }
            out.line("# event \(start + 1) of \(name)")
        }
        try reader.forEachEvent(from: start, to: last) { _, event in
            out.line(EventEncoder.line(event))
            return true
        }
    }
}
