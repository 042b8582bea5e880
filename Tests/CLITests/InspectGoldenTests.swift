import Foundation
import Testing

/// `selectlog inspect` on Examples/debugging-session.jsonl against golden files in Golden/,
/// reviewed by hand. Byte counts depend on the zstd version, so those lines and fields are
/// compared by shape only.
@Suite("selectlog inspect (golden)")
struct InspectGoldenTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    func recordSession(in dir: URL) throws {
        let r = try CLI.run(["record", CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path,
                             "-o", "session.slog", "--checkpoint-interval", "4", "--batch-events", "3"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Lines with byte counts, and JSON byte fields, reduced to their shape.
    func masked(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("log ") || line.hasPrefix("size ") { return String(line.prefix(12)) + "…" }
            var s = String(line)
            for key in ["\"bytes\": ", "\"bytesPerEvent\": ", "\"compressionRatio\": "] {
                while let r = s.range(of: key), let end = s[r.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) {
                    s.replaceSubrange(r.lowerBound..<end, with: key.replacingOccurrences(of: "\": ", with: "\"=…"))
                }
            }
            return s
        }.joined(separator: "\n")
    }

    @Test("every view matches its golden file", arguments: [
        (["inspect", "session.slog"], "summary.txt"),
        (["inspect", "session.slog", "--json"], "summary.json"),
        (["inspect", "session.slog", "--events", "0..12"], "events.txt"),
        (["inspect", "session.slog", "--events", "3..5", "--json"], "events-3-5.jsonl"),
        (["inspect", "session.slog", "--at", "5"], "at-5.txt"),
        (["inspect", "session.slog", "--at", "12"], "at-12.txt"),
        (["inspect", "session.slog", "--diff", "7..12"], "diff.txt"),
        (["inspect", "session.slog", "--diff", "7..12", "--json"], "diff.json"),
        (["inspect", "session.slog", "--why", "0,6"], "why.txt"),
        (["inspect", "session.slog", "--why", "0:6", "--json"], "why.json"),
    ])
    func golden(arguments: [String], file: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try recordSession(in: dir)
        let r = try CLI.run(arguments, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = try String(contentsOf: InspectGoldenTests.golden.appendingPathComponent(file), encoding: .utf8)
        #expect(masked(r.stdout) == masked(expected))
    }

    @Test("the picture fits 80 columns and is plain ASCII, with NO_COLOR or without")
    func pictureIsPlain() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try recordSession(in: dir)
        for n in [0, 3, 5, 8, 12] {
            let r = try CLI.run(["inspect", "session.slog", "--at", String(n)], in: dir)
            for line in r.stdout.split(separator: "\n") {
                #expect(line.count <= 80)
                #expect(line.allSatisfy { $0.isASCII })
            }
        }
    }

    @Test("bad ranges and rows are usage errors; --why on a missing row says so")
    func badArguments() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try recordSession(in: dir)
        #expect(try CLI.run(["inspect", "session.slog", "--events", "5..2"], in: dir).status == 64)
        #expect(try CLI.run(["inspect", "session.slog", "--events", "0..99"], in: dir).status == 64)
        #expect(try CLI.run(["inspect", "session.slog", "--why", "zero"], in: dir).status == 64)
        #expect(try CLI.run(["inspect", "session.slog", "--at", "3", "--diff", "0..1"], in: dir).status == 64)
        let missing = try CLI.run(["inspect", "session.slog", "--why", "0,99"], in: dir)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("row [0, 99] does not exist after 12 events"))
    }
}
