import Foundation
import Testing

/// Counts in messages agree with their noun when the count is one.
@Suite("Singular counts in messages")
struct SingularCountTests {
    @Test("a one-event input is named as holding 1 event by export, compact, upgrade, inspect --first, shrink and testgen")
    func oneEvent() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n", to: "one.jsonl", in: dir)
        let log = dir.appendingPathComponent("one.slog").path
        #expect(try CLI.run(["record", script, "-o", log]).status == 0)
        let slice = try CLI.run(["export", log, "--from", "2", "--to", "2"])
        #expect(slice.stderr.contains("has 1 event; a slice needs 1 <= A <= B <= 1"), "\(slice.stderr)")
        let compact = try CLI.run(["compact", log, "-o", dir.appendingPathComponent("c.slog").path])
        #expect(compact.stdout.contains(": 1 event, "), "\(compact.stdout)")
        let upgrade = try CLI.run(["upgrade", log, "-o", dir.appendingPathComponent("u.slog").path])
        #expect(upgrade.stdout.contains(": 1 event, format version"), "\(upgrade.stdout)")
        let first = try CLI.run(["inspect", log, "--first", "editing"])
        #expect(first.stdout.contains("never holds in the 1 event of"), "\(first.stdout)")
        let never = try CLI.run(["shrink", script, "--expect", "editing", "-o", "-"])
        #expect(never.stderr.contains("the expectation never holds in the 1 event"), "\(never.stderr)")
        let shrunk = try CLI.run(["shrink", script, "--expect", "count(sections) == 1", "-o", "-"])
        #expect(shrunk.status == 0 && shrunk.stderr.contains("shrunk 1 event to 1 in "), "\(shrunk.stderr)")
        #expect(!shrunk.stderr.contains(" 1 replays"), "\(shrunk.stderr)")
        let test = try CLI.run(["testgen", script, "--expect", "editing", "-o", dir.appendingPathComponent("T.swift").path])
        #expect(test.stderr.contains("does not hold after its 1 event;"), "\(test.stderr)")
    }
}
