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
            uncompressed). Without -o the log is replaced once the compacted copy is complete \
            and replays to the same state. A build without zstd cannot compact (exit 65).
            """)

    @Argument(help: "A selectlog log.")
    var log: String

    @Option(name: .shortAndLong, help: "Where to write the compacted log (replaced if it exists); default: LOG itself.")
    var output: String?

    func run() throws {
        let before = try readPrefixSize(log)
        // `-o LOG` (the same file under any name) is compacting in place.
        let inPlace = output.map { isSameFile($0, log) } ?? true
        let target = inPlace ? log : output ?? log
        let destination = inPlace ? "\(log).compact-\(getpid())" : target
        let state: TableState
        do {
            state = try Recorder.compact(log, into: destination, replacingExisting: true)
        } catch {
            if inPlace { unlink(destination) }
            ReadFailure.report(error, log: log)
            throw error.code == .io ? Exit.io : Exit.invalidInput
        }
        if inPlace, rename(destination, log) != 0 {
            complain("\(log): cannot replace it with \(destination): \(String(cString: strerror(errno)))")
            throw Exit.io
        }
        let after = try readPrefixSize(target)
        print("\(target): \(state.events) events, \(before) -> \(after) bytes, hash \(state.hashHex)")
    }

    /// Whether two paths name the same existing file.
    private func isSameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// The size of a file in bytes, or exits 74.
    private func readPrefixSize(_ path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            complain("\(path): cannot stat: \(String(cString: strerror(errno)))")
            throw Exit.io
        }
        return Int(info.st_size)
    }
}
