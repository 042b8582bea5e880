#if canImport(Glibc)
import Foundation
import Glibc
import Testing

/// A log that another process cuts shorter while a command reads it (a `verify --repair`
/// or a recorder dropping a torn tail, run beside it): the command says so and exits as
/// for damage, where the read of a page past the new end raised SIGBUS.
@Suite("A log truncated while a command reads it")
struct TruncatedWhileReadTests {
    /// How an attempt to cut the log under the command went.
    private enum Attempt {
        /// The cut did not land while the command read the log, so the run says nothing
        /// about the guard: why.
        case inconclusive(String)
        /// The cut landed while the command read the log: how the command ended.
        case cut(reason: Process.TerminationReason, status: Int32, stderr: String)
        /// The command never mapped the log, so it was killed: why.
        case stuck(String)
    }

    /// How many times a cut that lands too late is tried again before the test fails.
    private static let attempts = 5

    @Test("replay and verify report the truncation, exit as for damage, and suggest no repair", arguments: ["replay", "verify"])
    func truncatedUnderTheCommand(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A long log (`CLI.synthesizeLongLog`), written once: a cut that lands too late
        // anyway is tried again on a fresh copy (below).
        let pristine = dir.appendingPathComponent("pristine.slog").path
        try CLI.synthesizeLongLog(at: pristine)
        let path = dir.appendingPathComponent("cut.slog").path
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var missed: [String] = []
        for _ in 0..<Self.attempts {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: pristine, toPath: path)
            switch try cutUnder(command, path: path, name: dir.lastPathComponent + "/cut.slog", page: page) {
            case .inconclusive(let why):
                missed.append(why)
            case let .cut(reason, status, stderr):
                #expect(reason == .exit, "\(stderr)")
                #expect(status == (command == "replay" ? 65 : 1), "\(stderr)")
                #expect(stderr.contains("cut.slog: the file was truncated by another process while it was read (it is now \(page) bytes); read it again"),
                        "\(stderr)")
                #expect(!stderr.contains("verify --repair"), "\(stderr)")
                return
            case .stuck(let why):
                Issue.record("\(why)")
                return
            }
        }
        // Never a pass without a cut that landed: a command that always finishes, or that
        // ignores a cut and succeeds, ends here.
        Issue.record("in \(Self.attempts) attempts no cut landed while \(command) read the log: \(missed.joined(separator: "; "))")
    }

    /// Runs `command` on the log at `path` (`name`: its directory's name and its own, as
    /// /proc/PID/maps shows it) and, once the command has it mapped, cuts it to its first
    /// `page` bytes.
    private func cutUnder(_ command: String, path: String, name: String, page: Int) throws -> Attempt {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = command == "replay" ? ["replay", path, "--from-start"] : ["verify", path, "--deep"]
        // Standard output is not read: the verdict is the exit status and standard error,
        // and a pipe nobody drains could stall the command.
        process.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        process.standardError = err
        try process.run()
        // Once the command has the log mapped, cut the log to its first page. A command
        // still running at the deadline without having mapped its log is a failure, not
        // bad luck; one that ended first read the whole log unseen.
        let maps = "/proc/\(process.processIdentifier)/maps"
        let (mapped, stuck) = CLI.watch(process, every: 500) {
            // Read to the end: a /proc file says its size is 0.
            FileHandle(forReadingAtPath: maps).map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) }?.contains(name) ?? false
        }
        if mapped { #expect(truncate(path, off_t(page)) == 0) }
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if stuck {
            return .stuck("the command did not map the log within 30 seconds: \(stderr)")
        }
        guard mapped else {
            return .inconclusive("the command ended before it was seen mapping the log (exit \(process.terminationStatus): \(stderr))")
        }
        // A command that succeeded and never met the cut had finished its reads before the
        // cut landed (this thread was descheduled between seeing the mapping and cutting).
        // Anything else, a crash, another status or another message, is the verdict.
        if process.terminationReason == .exit && process.terminationStatus == 0 && !stderr.contains("truncated") {
            return .inconclusive("the command read the whole log before the cut landed (\(stderr))")
        }
        return .cut(reason: process.terminationReason, status: process.terminationStatus, stderr: stderr)
    }
}
#endif
