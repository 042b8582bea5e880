import Foundation
import SelectLogStore
import Testing

/// A log whose name is within a few bytes of the file system's 255-byte limit: the files
/// written beside it (`LOG.cut-OFFSET`, a rewrite's temporary file) take a shortened
/// name. `verify --repair` looped forever on such a log (every `LOG.cut-OFFSET-N` was
/// too long to open, and taken for an existing file), and `compact` and `upgrade` in
/// place failed with "File name too long".
@Suite("A log whose name is near the 255-byte limit")
struct LongLogNameTests {
    /// A 250-byte name of two-byte characters, so that a shortened name must cut
    /// between characters.
    static let name = String(repeating: "é", count: 122) + "x.slog"

    @Test("compact and upgrade rewrite it in place", arguments: ["compact", "upgrade"])
    func rewrittenInPlace(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(Self.name).path
        #expect(Self.name.utf8.count == 250)
        #expect(try CLI.run(["synthesize", "--events", "2000", "-o", path]).status == 0)
        let before = try LogReader(path: path).state(at: 2_000).hashHex
        let r = try CLI.run([command, path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try LogReader(path: path).state(at: 2_000).hashHex == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [Self.name])
    }

    @Test("verify --repair cuts its torn tail and saves the bytes under a shortened name")
    func repaired() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(Self.name).path
        #expect(try CLI.run(["synthesize", "--events", "2000", "-o", path]).status == 0)
        let intact = try Data(contentsOf: URL(fileURLWithPath: path))
        let tail = Data("\u{0}not a record".utf8)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: tail)
        try handle.close()
        let r = try CLI.run(["verify", "--repair", path])
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == intact)
        let saved = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != Self.name }
        try #require(saved.count == 1, "\(saved)")
        #expect(saved[0].utf8.count <= 255)
        #expect(saved[0].hasSuffix(".cut-\(intact.count)"))
        #expect(saved[0].hasPrefix(String(repeating: "é", count: 100)))
        #expect(try Data(contentsOf: dir.appendingPathComponent(saved[0])) == tail)
        #expect(r.stdout.contains("saved \(tail.count) cut bytes in \(dir.appendingPathComponent(saved[0]).path)"), "\(r.stdout)")
    }
}
