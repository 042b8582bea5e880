#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SelectLog
import SelectLogStore

struct Upgrade: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-record a log with this build: the current format version, this engine's fingerprints and checkpoints.",
        discussion: """
            Reads every event of LOG (any format version this build reads, 1 to 7) and writes them again as this build \
            records them, into a file beside the output that replaces it only once the new log is complete: \
            LOG itself without -o. Fails, leaving LOG and the output untouched, if this build rejects an event \
            or LOG is not a log or a newer selectlog's (exit 65), or LOG is damaged (exit 1). A torn tail (the last record cut short) is left out with a \
            note when writing to -o, and refused in place (exit 1): `selectlog verify --repair` cuts it and \
            keeps its bytes.
            """)

    @Argument(help: "A selectlog log (or - for standard input, with -o).")
    var log: String

    @Option(name: .shortAndLong, help: "Where to write the upgraded log (default: replace LOG; LOG itself under any name is the same).", transform: OutputPath.nonEmpty)
    var output: String?

    @Flag(help: "Replace the -o output if it exists.")
    var force = false

    func run() throws {
        // Where the new log goes, settled before LOG is read (standard input is refused
        // in place before it is copied).
        let target = try Rewrite.target(log: log, output: output, suffix: "upgrading", command: "upgrade")
        if !target.inPlace, target.replaces, !force {
            throw alreadyExists(target.shown)
        }
        try Input.withLogPath(log) { mapped, _ in
            try upgrade(mapped, into: target)
        }
    }

    /// Writes the upgraded log beside the output and puts it in place once complete
    /// (`Rewrite`), so that a failure leaves the output as it was.
    private func upgrade(_ mapped: String, into target: Rewrite) throws {
        let reader: LogReader
        do throws(LogError) {
            // Another build's log gets the notice: its events are re-recorded as this
            // build replays them, and `check` says whether that is as recorded.
            reader = try LogReader(path: mapped, engine: .standard, shownAs: log)
        } catch {
            try fail(error, mapped: mapped)
        }
        try target.checkTornTail(reader.tail, of: log, command: "upgrade", doing: "upgrading", refusal: Exit.damaged,
                                 "upgrading its \(counted(reader.eventCount, "complete event", "complete events")) to \(target.shown)")
        let writer: LogRewriter
        do throws(LogError) {
            let interval = reader.header.checkpointInterval > 0 ? Int(reader.header.checkpointInterval) : 8192
            // Every checkpoint where LOG has every one (recorded with an exact interval).
            let everyOne = try reader.checkpointsAtEveryInterval()
            target.removeIfInterrupted()
            // As private as LOG from its first byte (its mode is carried over at the end too).
            let mode = FileIO.readWriteBits(of: mapped) ?? 0o644
            writer = try TemporaryFiles.creatingLog(at: target.partial) { () throws(LogError) in
                try LogRewriter(path: target.partial, checkpointInterval: interval, putsOffLargeCheckpoints: !everyOne, exclusive: true, mode: mode)
            }
            try reader.forEachEvent { (_, e) throws(LogError) -> Bool in
                try writer.append(e)
                return true
            }
            try writer.close()
        } catch {
            target.discard(after: error)
            if error.code == .invalidEvent {
                // An event of LOG, not of the output, which is never made (or left as it was).
                var rejected = error
                rejected.path = log
                complain("\(rejected); \(target.inPlace ? "\(log) is unchanged" : "\(target.shown) is not written")")
                throw Exit.invalidInput
            }
            guard target.complainAboutCopy(error, of: log, copy: "upgraded") else { try fail(error, mapped: mapped) }
            throw [.invalidEvent, .unsupported].contains(error.code) ? Exit.invalidInput : Exit.io
        }
        try target.commit()
        print("\(target.shown.escapingControls): \(counted(writer.state.events, "event", "events")), format version \(LogFormat.version), hash \(writer.state.hashHex)")
    }

    private func fail(_ error: LogError, mapped: String) throws -> Never {
        ReadFailure.report(error, log: log, mapped: mapped)
        switch error.code {
        // A file that is no log at all (a script, say) is invalid input, as for every
        // other command; a damaged log is upgrade's negative answer.
        case .invalidEvent, .unsupported, .notALog: throw Exit.invalidInput
        case .damaged: throw Exit.damaged
        default: throw Exit.io
        }
    }
}
