import Foundation
import Testing

/// A second review of the command line as a new user would use it (2026-12-06, later).
@Suite("A new user's second review of the command line")
struct SecondReviewTests {
    static let example = CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path
    static let expect = "selected contains [0, 6] and optionOpen == [0, 3]"

    private func shrink(to output: String, _ extra: [String] = []) throws -> CLI.Result {
        try CLI.run(["shrink", Self.example, "--expect", Self.expect, "-o", output] + extra)
    }

    @Test("shrink -o replaces an existing file only when shrink wrote it, or with --force; another file is left as it was (64)")
    func shrinkKeepsOtherFiles() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A bundled example, a script of comments alone, and notes that are no script.
        for text in [try String(contentsOfFile: Self.example, encoding: .utf8), "# a script of no events\n", "notes\n"] {
            let output = try CLI.write(text, to: "out.jsonl", in: dir)
            let refused = try shrink(to: output)
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.stderr.contains(output) && refused.stderr.contains("--force"), "\(refused.stderr)")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == text)
            let forced = try shrink(to: output, ["--force"])
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(try CLI.run(["replay", output, "--expect", Self.expect]).status == 0)
        }
        // What shrink wrote is replaced without --force, and so is an empty file.
        let own = dir.appendingPathComponent("min.jsonl").path
        #expect(try shrink(to: own).status == 0)
        let again = try shrink(to: own)
        #expect(again.status == 0, "\(again.stderr)")
        let empty = try CLI.write("", to: "empty.jsonl", in: dir)
        #expect(try shrink(to: empty).status == 0)
        #expect(try CLI.run(["replay", empty, "--expect", Self.expect]).status == 0)
    }
}
