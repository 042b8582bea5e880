import Foundation
import SelectLog
import SelectLogStore
import Testing

/// A write that fails stops the recorder for good, and what was acknowledged stays readable.
/// The helper runs under a file-size limit (`ulimit -f`, SIGXFSZ ignored), so its writes
/// fail with EFBIG once the log reaches the limit — the same path a failed fsync takes.
@Suite("Write failures")
struct WriteFailureTests {
    @Test("a failed write stops appending with an error; acknowledged events stay readable")
    func failedWriteIsFinal() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("full.slog").path
        let command = "trap '' XFSZ; ulimit -f 48; exec '\(CLI.executable.path)' synthesize --events 200000 -o '\(path)' "
            + "--durability always --flush-every 100 --print-acknowledged --batch-events 64"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        let result = try CLI.collect(process)
        let printed = result.stdout, message = result.stderr
        #expect(result.status == 74, "\(message)")
        #expect(message.contains("write failed"), "\(message)")
        let acknowledged = printed.split(separator: "\n").compactMap { Int($0) }.last ?? 0
        #expect(acknowledged > 1000)
        // Everything acknowledged is there, in order.
        let log = try LogReader(path: path)
        #expect(log.eventCount >= acknowledged)
        let expected = Array(SyntheticSession(seed: 1, count: log.eventCount))
        #expect(try log.events() == expected)
    }
}
