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
            records them. Without -o, replaces LOG only once the new log is complete. Fails, leaving \
            LOG untouched, if this build rejects an event (exit 65) or LOG is damaged (exit 1).
            """)

    @Argument(help: "A selectlog log.")
    var log: String

    @Option(name: .shortAndLong, help: "Where to write the upgraded log (default: replace LOG).")
    var output: String?

    @Flag(help: "Replace the -o output if it exists.")
    var force = false

    func run() throws {
        if let output, !force, FileIdentity(path: output) != nil {
            complain("\(output): already exists; pass --force to replace it")
            throw Exit.usage
        }
        let target = output ?? log + ".upgrading"
        do throws(LogError) {
            let reader = try LogReader(path: log)
            let writer = try LogRewriter(path: target, checkpointInterval: Int(reader.header.checkpointInterval > 0 ? reader.header.checkpointInterval : 8192))
            try reader.forEachEvent { (_, e) throws(LogError) -> Bool in
                try writer.append(e)
                return true
            }
            try writer.close()
            if output == nil, rename(target, log) != 0 {
                throw LogError(.io, "rename failed: \(String(cString: strerror(errno)))", path: target)
            }
            print("\(output ?? log): \(writer.state.events) events, format version \(LogFormat.version), state \(writer.state.hashHex)")
        } catch {
            if output == nil { unlink(target) }
            ReadFailure.report(error, log: log)
            switch error.code {
            case .invalidEvent, .unsupported: throw Exit.invalidInput
            case .damaged, .notALog: throw Exit.damaged
            default: throw Exit.io
            }
        }
    }
}
