import Foundation
import Testing

/// `record --salt` and `synthesize --salt`: the same input gives the same log, byte for
/// byte, however it arrives (a golden file in a test). Without it each log has a random
/// salt, and a batch is also written after a quarter second's wait.
@Suite("logs with a given salt are reproducible")
struct ReproducibleLogTests {
    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("synthesize --salt twice: the same bytes; without it, not")
    func synthesize() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var logs: [String] = []
        for (i, salt) in [["--salt", "7"], ["--salt", "7"], [], []].enumerated() {
            let path = dir.appendingPathComponent("s\(i).slog").path
            let r = try CLI.run(["synthesize", "--generator", "random-walk", "--events", "50000", "--seed", "3", "-o", path] + salt)
            #expect(r.status == 0, "\(r.stderr)")
            logs.append(path)
        }
        #expect(try bytes(logs[0]) == bytes(logs[1]))
        #expect(try bytes(logs[2]) != bytes(logs[3]))
        // The salt changes no event: every log replays to the same state.
        let states = try logs.map { try CLI.run(["replay", $0, "--json"]).stdout }
        #expect(Set(states).count == 1)
        let script = try CLI.run(["synthesize", "--script", "--salt", "7", "-o", dir.appendingPathComponent("s.jsonl").path])
        #expect(script.status == 64 && script.stderr.contains("--salt is for a log; --script writes a script"), "\(script.stderr)")
    }

    @Test("record --salt of a script piped with pauses longer than the flush wait: the bytes of the file's recording")
    func recordThroughASlowPipe() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("s.jsonl").path
        #expect(try CLI.run(["synthesize", "--script", "--events", "20000", "--seed", "5", "-o", script]).status == 0)
        let fromFile = dir.appendingPathComponent("file.slog").path
        #expect(try CLI.run(["record", script, "-o", fromFile, "--salt", "42"]).status == 0)

        let text = try bytes(script)
        let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let fromPipe = dir.appendingPathComponent("pipe.slog").path
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["record", "-", "-o", fromPipe, "--salt", "42"]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Three pieces, each cut mid-gesture, with pauses twice the writer's flush wait.
        let cuts = [0, lines.count / 3, 2 * lines.count / 3, lines.count]
        for k in 0..<3 {
            let piece = lines[cuts[k]..<cuts[k + 1]].joined(separator: [UInt8(ascii: "\n")]) + (k < 2 ? [UInt8(ascii: "\n")] : [])
            CLI.feed(input.fileHandleForWriting, Data(piece))
            usleep(600_000)
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try bytes(fromPipe) == bytes(fromFile))
    }
}
