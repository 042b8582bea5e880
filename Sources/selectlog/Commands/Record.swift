import ArgumentParser
import SelectLog
import SelectLogStore

/// Options shared by the commands that write logs.
struct LogWriting: ParsableArguments {
    @Option(name: .customLong("checkpoint-interval"), help: "A state checkpoint every this many events.")
    var checkpointInterval = 8192

    @Option(help: "When to fsync: none, interval (every second), or always (every flush).")
    var durability: DurabilityChoice = .interval

    @Option(name: .customLong("batch-events"), help: "Events per batch, at most.")
    var batchEvents = 4096

    enum DurabilityChoice: String, ExpressibleByArgument, CaseIterable {
        case none, interval, always
    }

    func validate() throws {
        if checkpointInterval < 1 { throw ValidationError("--checkpoint-interval must be at least 1") }
        if batchEvents < 1 { throw ValidationError("--batch-events must be at least 1") }
    }

    var options: Recorder.Options {
        var o = Recorder.Options()
        o.checkpointInterval = checkpointInterval
        o.batchEvents = batchEvents
        switch durability {
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
            On an invalid event, stops, keeps the valid log of the events before it, names the
            line, and exits 65.
            """)

    @Argument(help: "A JSON Lines script.")
    var script: String

    @Option(name: .shortAndLong, help: "The log to write (replaced if it exists).")
    var output: String

    @OptionGroup var writing: LogWriting

    func run() throws {
        let bytes = try readFile(script)
        let recorder: Recorder
        do {
            recorder = try Recorder(creating: output, options: writing.options, replacingExisting: true)
        } catch {
            complain("\(error)")
            throw Exit.io
        }
        var failure: String?
        Script.forEachLine(in: bytes) { number, line in
            do throws(InvalidEvent) {
                guard let event = try EventDecoder.decode(line: line) else { return true }
                do throws(LogError) {
                    try recorder.append(event)
                } catch {
                    failure = "\(script): line \(number): \(error.invalidEvent.map { "\($0)" } ?? error.description)"
                    return false
                }
                return true
            } catch {
                failure = "\(script): line \(number): \(error)"
                return false
            }
        }
        do {
            try recorder.close()
        } catch {
            complain("\(error)")
            throw Exit.io
        }
        if let failure {
            complain(failure)
            complain("\(output): kept the \(recorder.state.events) valid events before it")
            throw Exit.invalidInput
        }
    }
}
