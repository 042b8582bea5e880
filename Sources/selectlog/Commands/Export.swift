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

    @Option(name: .shortAndLong, help: "Where to write the script (default: standard output). An existing file is replaced only with --force, and never a selectlog log or the input.", transform: OutputPath.nonEmpty)
    var output: String?

    @Flag(help: "Replace the file at -o when it exists (never a selectlog log or the input).")
    var force = false

    func validate() throws {
        if let from, from < 1 { throw ValidationError("--from takes an event number, 1 or more") }
        if let to, to < 1 { throw ValidationError("--to takes an event number, 1 or more") }
        if force, output == nil { throw ValidationError("--force replaces the file at -o; name one, or leave --force out") }
    }

    func run() throws {
        let file = output.flatMap { $0 == "-" || namesStandardOutput($0) ? nil : $0 }
        // Whether the file at -o is made whole or not at all (`writeFile`), or written in
        // place, as a shell's `>` would: a FIFO, a device, a file with other links.
        var whole = true
        if let file {
            try refuseOutputOverInput(file, input: log)
            // Before the work: a mistyped -o fails at once.
            try checkOutput(file, input: log)
            // A FIFO or a device (`/dev/null`) takes the script without --force, as every -o
            // does; a regular file is replaced only with it, never a log (`writeFile`).
            if !force, isRegularFile(file) { throw alreadyExists(file) }
            whole = writesWhole(file, replacing: true)
        }
        let (reader, isScript, _, _) = try Session.open(log, upTo: to)
        do {
            // Where the slice starts, and its notes, found once: the lines may be made twice
            // (`writeFile` starts again when it cannot replace the file whole).
            let plan = try from == nil && to == nil ? nil : slicePlan(reader)
            if let file {
                try writeFile(file) { write in
                    var chunk: [UInt8] = []
                    do {
                        try lines(of: reader, plan) { line in
                            chunk.append(contentsOf: line.utf8)
                            chunk.append(0x0A)
                            if chunk.count >= 1 << 16 {
                                try write(chunk)
                                chunk.removeAll(keepingCapacity: true)
                            }
                        }
                    } catch let failure where !(failure is ExitCode) {
                        // A read failure: the lines made before it are written all the same
                        // (written in place, the file then holds what standard output would).
                        // After a failed write (`ExitCode`), nothing more is tried.
                        try? write(chunk)
                        throw failure
                    }
                    try write(chunk)
                }
            } else {
                var out = OutputBuffer()
                defer { out.flush() }
                try lines(of: reader, plan) { out.line($0) }
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            ReadFailure.report(error, log: log, mapped: reader.path, isLog: !isScript)
            if let file, whole {
                complain("\(file): not written (export to standard output keeps the events before the failure)")
            }
            throw Exit.invalidInput
        }
    }

    /// A slice's first event (a gesture's start, 0-based), its last (1-based, inclusive)
    /// and the set-up that rebuilds the state before it (nil from the start).
    struct SlicePlan {
        var start: Int
        var last: Int
        var setUp: SetUpScript?
    }

    func slicePlan(_ reader: LogReader) throws -> SlicePlan {
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
        guard start > 0 else {
            // From the start: the state before event 1 is a new table's, which needs no
            // set-up (one would only repeat the defaults and renumber the events).
            return SlicePlan(start: 0, last: last, setUp: nil)
        }
        let setUp = SetUpScript(reproducing: try reader.state(at: start))
        if !setUp.notCarried.isEmpty {
            complain("note: the set-up cannot carry \(setUp.notCarried.joined(separator: ", ")) from before event \(start + 1)")
        }
        return SlicePlan(start: start, last: last, setUp: setUp)
    }

    /// Hands `line` the script's lines, without their line breaks: the whole log's events
    /// when `plan` is nil, else the slice's comments, set-up and events.
    func lines(of reader: LogReader, _ plan: SlicePlan?, _ line: (String) throws -> Void) throws {
        // A failed write (`ExitCode`) carried out of the reader's walk, whose body throws
        // only `LogError`, and out of the set-up's.
        var failure: (any Error)?
        func each(_ event: TimedEvent) -> Bool {
            do {
                try line(EventEncoder.line(event))
                return true
            } catch {
                failure = error
                return false
            }
        }
        guard let plan else {
            try reader.forEachEvent { _, event in each(event) }
            if let failure { throw failure }
            return
        }
        // The log's name, controls escaped: a line break in it would start a line of the
        // script that is not a comment.
        let name = log.escapingControls
        let (start, last) = (plan.start, plan.last)
        if let setUp = plan.setUp {
            try line("# events \(start + 1) to \(last) of \(name), after \(setUp.eventCount) set-up events for the state before event \(start + 1)")
            // Each set-up event written as it is made: a list of millions of rows is never held.
            setUp.forEachEvent { event in
                if failure == nil { _ = each(event) }
            }
            if let failure { throw failure }
            try line("# event \(start + 1) of \(name)")
        } else {
            try line("# events 1 to \(last) of \(name)")
        }
        try reader.forEachEvent(from: start, to: last) { _, event in each(event) }
        if let failure { throw failure }
    }
}
