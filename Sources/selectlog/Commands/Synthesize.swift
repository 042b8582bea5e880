import ArgumentParser
import SelectLog
import SelectLogStore

struct Synthesize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a synthetic session (seeded, deterministic) as a log or a script.",
        discussion: """
            The standard generator is a realistic mix: strip pans sampled at 120 Hz with 60 Hz \
            auto-scroll ticks, drag scrolls, taps, option swipes, row edits, the editor row. Ten \
            minutes is about 33,000 events. The random-walk generator differs in every respect a \
            codec could be tuned to: random-walk fingers with Gaussian steps, relative scrolls, \
            jittered sample times, taps anywhere, irregular tables; ten minutes of it is about \
            14,000 events. A seed gives the same events on every machine (and, with --script, \
            the same bytes); a log's bytes differ from run to run all the same, as each log has \
            a salt of its own (docs/LOG-FORMAT.md), unless --salt gives it one.
            """)

    /// The two synthetic generators.
    enum Generator: String, ExpressibleByArgument, CaseIterable {
        case standard
        case randomWalk = "random-walk"
        /// The random walk on a 3x screen (lengths in thirds of a point).
        case randomWalk3x = "random-walk-3x"
    }

    @Option(help: "Which generator: standard, random-walk (a 2x screen) or random-walk-3x (the same on a 3x screen).")
    var generator = Generator.standard

    @Option(help: "How many events.")
    var events = 60_000

    @Option(help: "The generator's seed.")
    var seed: UInt64 = 1

    @Option(name: .shortAndLong, help: "The log to write; with --script, the script (- for standard output).", transform: OutputPath.nonEmpty)
    var output: String

    @Flag(help: "Write a JSON Lines script instead of a log.")
    var script = false

    @Option(name: .customLong("flush-every"), help: "Flush after every this many events (0: at the end only).")
    var flushEvery = 0

    @Flag(name: .customLong("print-acknowledged"), help: "After each flush (and the close at the end), print the count of acknowledged events.")
    var printAcknowledged = false

    @Flag(help: "Replace the output if it exists (a file only once the new log or script is whole).")
    var force = false

    @OptionGroup var writing: LogWriting

    mutating func validate() throws {
        guard events >= 0 else { throw ValidationError("--events must be 0 or more, not \(events)") }
        guard flushEvery >= 0 else { throw ValidationError("--flush-every must be 0 or more, not \(flushEvery)") }
        if script {
            let given = [("--flush-every", flushEvery != 0), ("--print-acknowledged", printAcknowledged),
                         ("--checkpoint-interval", writing.checkpointInterval != nil), ("--durability", writing.durability != nil),
                         ("--batch-events", writing.batchEvents != nil), ("--salt", writing.salt != nil)].filter(\.1).map(\.0)
            if !given.isEmpty {
                throw ValidationError("\(given.joined(separator: ", ")) \(given.count == 1 ? "is" : "are") for a log; --script writes a script")
            }
        }
    }

    /// The chosen generator's events.
    var session: AnySequence<TimedEvent> {
        switch generator {
        case .standard: AnySequence(SyntheticSession(seed: seed, count: events))
        case .randomWalk: AnySequence(RandomWalkSession(seed: seed, count: events))
        case .randomWalk3x: AnySequence(RandomWalkSession(seed: seed, count: events, screenScale: 3))
        }
    }

    func run() throws {
        if !script { try refuseStandardOutputForLog(output) }
        // A directory, or a path that cannot be made, said as such (not "already exists").
        try checkOutput(output, input: nil, replacingLog: true)
        if !force, output != "-", FileIdentity(path: output) != nil {
            throw alreadyExists(output)
        }
        if script {
            // Written as it is made, a megabyte at a time: the script is never held whole.
            // A log there is replaced only with --force, as a log replaces it.
            try writeFile(output, replacing: force, replacingLog: force) { write in
                var text: [UInt8] = []
                text.reserveCapacity(1 << 20 + 4096)
                for e in session {
                    text.append(contentsOf: EventEncoder.line(e).utf8)
                    text.append(0x0A)
                    if text.count >= 1 << 20 {
                        try write(text)
                        text.removeAll(keepingCapacity: true)
                    }
                }
                if !text.isEmpty { try write(text) }
            }
            return
        }
        // A file replaced with --force is replaced only by a complete log (`Rewrite.forcedLog`).
        let replacement = try Rewrite.forcedLog(output: output, input: nil, force: force)
        if replacement != nil, printAcknowledged {
            // The counts would be of events in the new log beside the file, which replaces
            // it only at the end: no event is acknowledged at the path until then.
            replacement?.discard()
            complain("\(output): --print-acknowledged counts the events written to the log at -o, and --force writes the new log beside an existing file until it is whole; remove \(output) first")
            throw Exit.usage
        }
        // A FIFO as the output: its reader waited for (not for good), and held until the end.
        let fifoWriter = try force && replacement == nil ? InputFile.openFIFOForWriting(output) : nil
        defer { if let fifoWriter { closeDescriptor(fifoWriter) } }
        do throws(LogError) {
            let recorder = try Rewrite.recorder(for: output, replacement: replacement, force: force, options: writing.options)
            var n = 0
            var out = OutputBuffer()
            // Read once: an option's wrapped value is looked up through generic metadata on every read.
            let flushEvery = self.flushEvery, printAcknowledged = self.printAcknowledged
            for e in session {
                try recorder.append(e)
                n += 1
                if flushEvery > 0 && n % flushEvery == 0 {
                    try recorder.flush()
                    if printAcknowledged {
                        out.line(String(recorder.acknowledged))
                        out.flush()
                    }
                }
            }
            try recorder.close()
            // The close flushes the rest: its count too, unless the last flush said it.
            if printAcknowledged, flushEvery == 0 || n % flushEvery != 0 {
                out.line(String(recorder.acknowledged))
                out.flush()
            }
        } catch {
            replacement?.discard(after: error)
            if error.code == .alreadyExists, replacement == nil {
                // Something appeared there, or a link that leads nowhere is there.
                throw alreadyExists(output)
            }
            complain("\(replacement?.naming(error) ?? error)\(replacement == nil ? "" : "; \(output) is unchanged")")
            throw error.code == .invalidEvent ? Exit.invalidInput : Exit.io
        }
        try replacement?.commit()
    }
}
