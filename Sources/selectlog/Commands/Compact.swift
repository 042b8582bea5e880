#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SelectLog
import SelectLogStore

struct Compact: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rewrite a log with zstd: the same events, the same hash, fewer bytes.",
        discussion: """
            For logs recorded by a build without zstd (an iOS app's, with its batches stored \
            uncompressed). The compacted copy is written beside the output (LOG itself without -o) and \
            replaces it only once it is complete and replays to the same state; a failure leaves both \
            as they were. A damaged LOG exits 65; a torn tail is left out with a note when writing to -o, \
            and refused in place (exit 65: `selectlog verify --repair` cuts it and keeps its bytes). \
            A build without zstd cannot compact (exit 65).
            """)

    @Argument(help: "A selectlog log (or - for standard input, with -o).")
    var log: String

    @Option(name: .shortAndLong, help: "Where to write the compacted log (replaced if it exists); default: LOG itself.")
    var output: String?

    func run() throws {
        try Input.withLogPath(log) { mapped, realFile in
            // `-o LOG` (the same file under any name) is compacting in place.
            let inPlace = output.map { FileIdentity(path: $0) != nil && FileIdentity(path: $0) == FileIdentity(path: log) } ?? true
            if inPlace, !realFile {
                complain("\(log): a log read from a pipe cannot be replaced; pass -o OUTPUT")
                throw Exit.usage
            }
            try compact(mapped, into: inPlace ? log : output ?? log, inPlace: inPlace)
        }
    }

    /// Compacts into a file beside `destination` and renames it there once it is complete
    /// and replays to the source's state, so that a failure leaves `destination` as it
    /// was (and no partial log behind).
    private func compact(_ mapped: String, into destination: String, inPlace: Bool) throws {
        let before = try fileSize(mapped, naming: log)
        let partial = "\(destination).compact-\(getpid())"
        func fail(_ error: LogError) -> ExitCode {
            unlink(partial)
            ReadFailure.report(error, log: log, mapped: mapped)
            return error.code == .io ? Exit.io : Exit.invalidInput
        }
        let tail: LogProblem?
        do throws(LogError) { tail = try LogReader(path: mapped).tail } catch { throw fail(error) }
        if let tail {
            // Compacting in place would drop the torn bytes for good; `verify --repair` keeps them.
            guard !inPlace else {
                complain("\(log): torn tail at byte offset \(tail.offset) (\(tail.reason)), which compacting in place would drop; run `selectlog verify --repair \(log)` first (it keeps the cut bytes in a file), or compact with -o OUTPUT")
                throw Exit.invalidInput
            }
            complain("\(log): note: ignoring a torn tail at byte offset \(tail.offset) (\(tail.reason)); compacted the complete events into \(destination)")
        }
        let state: TableState
        do throws(LogError) { state = try Recorder.compact(mapped, into: partial, replacingExisting: true) } catch { throw fail(error) }
        if rename(partial, destination) != 0 {
            let reason = systemReason()
            unlink(partial)
            complain("\(destination): cannot replace it with \(partial): \(reason)")
            throw Exit.io
        }
        let after = try fileSize(destination, naming: destination)
        print("\(destination): \(state.events) events, \(before) -> \(after) bytes, hash \(state.hashHex)")
    }

    /// The size of a file in bytes, or exits 74 naming it as `name`.
    private func fileSize(_ path: String, naming name: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            complain("\(name): cannot stat: \(systemReason())")
            throw Exit.io
        }
        return Int(info.st_size)
    }
}
