import ArgumentParser
import SelectLog
import SelectLogStore

/// Options shared by the commands that write logs.
struct LogWriting: ParsableArguments {
    @Option(name: .customLong("checkpoint-interval"),
            help: ArgumentHelp("A state checkpoint exactly every this many events (a snapshot over the 16 MiB record limit is left out); 0: none, every view replays from the start.",
                               discussion: "Without it, a checkpoint every 8192 events, put off (up to twice as far) while a snapshot outweighs an eighth of the events since the last one; most are stored as the changes from the one before."))
    var checkpointInterval: Int?

    @Option(help: "When to fsync: none, interval (every second), or always (every flush). (default: interval)")
    var durability: DurabilityChoice?

    @Option(name: .customLong("batch-events"), help: "Events per batch, at most (up to 1048576, the format's limit). (default: 4096)")
    var batchEvents: Int?

    @Option(help: ArgumentHelp("Give the log this checksum salt (0 to 18446744073709551615) and write a batch only at a gesture's end, its event count or its bytes, never after a wait, so that the same input gives the same bytes on every run: a golden file in a test. (default: a random salt, and a batch also written once it has waited a quarter of a second)", valueName: "n"))
    var salt: UInt64?

    /// The flush interval of `--salt`: 24 days, longer than any recording is expected to
    /// wait between two gesture ends (a longer `Duration` wait is not what the lock's
    /// timed wait was written for).
    static let neverByTheClock = Int(Int32.max)

    enum DurabilityChoice: String, ExpressibleByArgument, CaseIterable {
        case none, interval, always
    }

    func validate() throws {
        if let n = checkpointInterval, UInt32(exactly: n) == nil { throw ValidationError("--checkpoint-interval must be from 0 (no checkpoints) to 4294967295") }
        if let batchEvents, batchEvents < 1 || batchEvents > 1 << 20 { throw ValidationError("--batch-events must be from 1 to 1048576 (a batch's most events)") }
    }

    var options: Recorder.Options {
        var o = Recorder.Options()
        if let checkpointInterval {
            o.checkpointInterval = checkpointInterval
            o.putsOffLargeCheckpoints = false
        }
        if let batchEvents { o.batchEvents = batchEvents }
        if let salt {
            // The salt is the file header's only random bytes; the clock's flushes are the
            // only other thing that makes two recordings of one input differ (where a batch
            // ends). Without them a batch waits for its gesture's end, 4,096 events or 64 KiB.
            o.salt = salt
            o.flushIntervalMilliseconds = LogWriting.neverByTheClock
        }
        switch durability ?? .interval {
        case .none: o.durability = .none
        case .interval: o.durability = .interval(milliseconds: 1000)
        case .always: o.durability = .always
        }
        return o
    }
}

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a script and write it as a compressed log.",
        discussion: """
            The script is read as it arrives (a file, a pipe, or - for standard input). On an \
            invalid event, stops, keeps the valid log of the events before it, names the line, \
            and exits 65. Refuses to write over the script, and over an existing file unless \
            --force. With --force, an existing file is replaced only once the whole script is \
            recorded (the new log is written beside it until then): an invalid line, a failed \
            write or Ctrl-C leaves it as it was.
            """)

    @Argument(help: "A JSON Lines script (- for standard input).")
    var script: String

    @Option(name: .shortAndLong, help: "The log to write.", transform: OutputPath.nonEmpty)
    var output: String

    @Flag(help: "Replace the output if it exists (a file only once the new log is whole).")
    var force = false

    @OptionGroup var writing: LogWriting

    func run() throws {
        try refuseStandardOutputForLog(output)
        let input = try InputFile(script)
        // Before any output exists: a log, or a file that is no script at all.
        let head = try input.peek(LogFormat.magic.count)
        if Input.isLog(head: head) {
            complain("\(script): is a log, not a script; record reads JSON Lines scripts (`selectlog upgrade` or `compact` rewrites a log)")
            throw Exit.invalidInput
        }
        try Input.checkScript(head, of: input, path: script)
        // A directory, or a path that cannot be made, said as such (not "already exists").
        try checkOutput(output, input: script, replacingLog: true)
        if let existing = FileIdentity(path: output) {
            if existing == input.identity {
                complain("\(output): is the script being recorded; choose another output")
                throw Exit.usage
            }
            if !force {
                throw alreadyExists(output)
            }
        }
        // A file replaced with --force is replaced only by a complete log (`Rewrite.forcedLog`).
        let replacement = try Rewrite.forcedLog(output: output, input: script, force: force)
        // A FIFO as the output: its reader waited for (not for good), and held until the end.
        let fifoWriter = try force && replacement == nil ? InputFile.openFIFOForWriting(output) : nil
        defer { if let fifoWriter { closeDescriptor(fifoWriter) } }
        let recorder: Recorder
        do throws(LogError) {
            recorder = try Rewrite.recorder(for: output, replacement: replacement, force: force, options: writing.options)
        } catch {
            replacement?.discard(after: error)
            // Something appeared there, or a link that leads nowhere is there.
            if error.code == .alreadyExists, replacement == nil { throw alreadyExists(output) }
            complain("\(replacement?.naming(error) ?? error)")
            throw Exit.io
        }
        let kept = { (events: Int) in
            complain(replacement == nil
                     ? "\(output): kept the \(counted(events, "valid event", "valid events")) before it; once the line is mended, record again with --force to replace it"
                     : "\(output): unchanged (--force replaces it only with a whole recording\(events == 0 ? "" : "; the \(counted(events, "valid event", "valid events")) before the bad line \(events == 1 ? "was" : "were") not kept"))")
        }
        var failure: String?
        do {
            try Input.forEachScriptEvent(input) { number, event in
                do throws(LogError) {
                    try recorder.append(event)
                } catch {
                    failure = "\(script): line \(number): \(error.invalidEvent.map { "\($0)" } ?? (replacement?.naming(error) ?? error).description)"
                    return false
                }
                return true
            }
        } catch {
            // The script went bad: keep the log of the events before it (a new file), or
            // leave the file --force would have replaced as it was.
            try close(recorder, replacement)
            replacement?.discard()
            kept(recorder.state.events)
            throw error
        }
        try close(recorder, replacement)
        if let failure {
            replacement?.discard()
            complain(failure)
            kept(recorder.state.events)
            throw Exit.invalidInput
        }
        try replacement?.commit(keepingOnFailure: true)
    }

    private func close(_ recorder: Recorder, _ replacement: Rewrite?) throws {
        do {
            try recorder.close()
        } catch {
            replacement?.discard()
            complain("\(replacement?.naming(error) ?? error)\(replacement == nil ? "" : "; \(output) is unchanged")")
            throw Exit.io
        }
    }
}
