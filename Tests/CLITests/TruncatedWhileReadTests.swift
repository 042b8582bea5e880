#if canImport(Glibc)
import Foundation
import Glibc
import Testing

/// A log that another process cuts shorter while a command reads it (a `verify --repair`
/// or a recorder dropping a torn tail, run beside it): the command says so and exits as
/// for damage, where the read of a page past the new end raised SIGBUS.
@Suite("A log truncated while a command reads it")
struct TruncatedWhileReadTests {
    @Test("replay and verify report the truncation, exit as for damage, and suggest no repair", arguments: ["replay", "verify"])
    func truncatedUnderTheCommand(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("cut.slog").path
        #expect(try CLI.run(["synthesize", "--events", "30000", "-o", path]).status == 0)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = command == "replay" ? ["replay", path, "--from-start"] : ["verify", path, "--deep"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Once the command has the log mapped, cut the log to its first page.
        let maps = "/proc/\(process.processIdentifier)/maps"
        let name = dir.lastPathComponent + "/cut.slog"
        var mapped = false
        for _ in 0..<10_000 where process.isRunning {
            // Read to the end: a /proc file says its size is 0.
            if let text = FileHandle(forReadingAtPath: maps).map({ String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) }),
               text.contains(name) {
                mapped = true
                break
            }
            usleep(500)
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        #expect(truncate(path, off_t(page)) == 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(mapped, "the command ended before it was seen mapping the log: \(stderr)")
        #expect(process.terminationReason == .exit, "\(stderr)")
        #expect(process.terminationStatus == (command == "replay" ? 65 : 1), "\(stderr)")
        #expect(stderr.contains("cut.slog: the file was truncated by another process while it was read (it is now \(page) bytes); read it again"),
                "\(stderr)")
        #expect(!stderr.contains("verify --repair"), "\(stderr)")
    }
}
#endif
