import Foundation
@testable import SelectLog
import SelectLogStore
import Testing

@Suite("Damaged logs and guarded outputs through the CLI")
struct DamagedLogTests {
    @Test("synthesize refuses an existing output without --force, and replaces it with --force")
    func synthesizeRefusesExisting() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CLI.write("keep me\n", to: "existing.slog", in: dir)
        let refused = try CLI.run(["synthesize", "--events", "50", "-o", path])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("already exists; pass --force"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
        let script = try CLI.run(["synthesize", "--events", "50", "--script", "-o", path])
        #expect(script.status == 64)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
        #expect(try CLI.run(["synthesize", "--events", "50", "-o", path, "--force"]).status == 0)
        #expect(try LogReader(path: path).eventCount == 50)
    }

    @Test("synthesize rejects a negative --events or --flush-every with the option's own message",
          arguments: ["--events=-5", "--flush-every=-1"])
    func synthesizeRejectsNegative(option: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("n.slog").path
        let r = try CLI.run(["synthesize", "-o", path, option])
        #expect(r.status == 64)
        #expect(r.stderr.contains(String(option.prefix { $0 != "=" })), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
