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
            Reads every event of LOG (any format version this build reads, 1 to 6) and writes them again as this build \
            records them, into a file beside the output that replaces it only once the new log is complete: \
            LOG itself without -o. Fails, leaving LOG and the output untouched, if this build rejects an event \
            (exit 65) or LOG is damaged (exit 1). A torn tail (the last record cut short) is left out with a \
            note when writing to -o, and refused in place (exit 1): `selectlog verify --repair` cuts it and \
            keeps its bytes.
            """)

    @Argument(help: "A selectlog log (or - for standard input, with -o).")
    var log: String

    @Option(name: .shortAndLong, help: "Where to write the upgraded log (default: replace LOG; LOG itself under any name is the same).")
    var output: String?

    @Flag(help: "Replace the -o output if it exists.")
    var force = false

    func run() throws {
        try Input.withLogPath(log) { mapped, realFile in
            // In place: without -o, or with -o naming LOG itself under any path.
            let inPlace = output.map { FileIdentity(path: $0) != nil && FileIdentity(path: $0) == FileIdentity(path: log) } ?? true
            if inPlace, !realFile {
                complain("\(log): a log read from a pipe cannot be replaced; pass -o OUTPUT")
                throw Exit.usage
            }
            let destination = inPlace ? log : output ?? log
            if !inPlace, !force, FileIdentity(path: destination) != nil {
                complain("\(destination): already exists; pass --force to replace it")
                throw Exit.usage
            }
            try upgrade(mapped, into: destination, inPlace: inPlace)
        }
    }

    /// Writes the upgraded log beside `destination` and renames it there once complete,
    /// so that a failure leaves `destination` as it was (and no partial log behind).
    private func upgrade(_ mapped: String, into destination: String, inPlace: Bool) throws {
        let partial = "\(destination).upgrading-\(getpid())"
        let reader: LogReader
        do throws(LogError) {
            reader = try LogReader(path: mapped)
        } catch {
            try fail(error, mapped: mapped)
        }
        if let tail = reader.tail {
            // Upgrading in place would drop the torn bytes for good; `verify --repair` keeps them.
            guard !inPlace else {
                complain("\(log): torn tail at byte offset \(tail.offset) (\(tail.reason)), which upgrading in place would drop; run `selectlog verify --repair \(log)` first (it keeps the cut bytes in a file), or upgrade with -o OUTPUT")
                throw Exit.damaged
            }
            complain("\(log): note: ignoring a torn tail at byte offset \(tail.offset) (\(tail.reason)); \(reader.eventCount) complete events, upgraded to \(destination)")
        }
        let writer: LogRewriter
        do throws(LogError) {
            let interval = reader.header.checkpointInterval > 0 ? Int(reader.header.checkpointInterval) : 8192
            writer = try LogRewriter(path: partial, checkpointInterval: interval)
            try reader.forEachEvent { (_, e) throws(LogError) -> Bool in
                try writer.append(e)
                return true
            }
            try writer.close()
        } catch {
            unlink(partial)
            try fail(error, mapped: mapped)
        }
        if rename(partial, destination) != 0 {
            let reason = systemReason()
            unlink(partial)
            complain("\(destination): cannot replace it with \(partial): \(reason)")
            throw Exit.io
        }
        print("\(destination): \(writer.state.events) events, format version \(LogFormat.version), state \(writer.state.hashHex)")
    }

    private func fail(_ error: LogError, mapped: String) throws -> Never {
        ReadFailure.report(error, log: log, mapped: mapped)
        switch error.code {
        case .invalidEvent, .unsupported: throw Exit.invalidInput
        case .damaged, .notALog: throw Exit.damaged
        default: throw Exit.io
        }
    }
}
