import Foundation
import SelectLog
import Testing

/// `--expect` (and `inspect --first`) given more than once: every one must hold, as one
/// expectation joined with `and`. ArgumentParser keeps the last of a repeated option, so
/// before this a CI job that wrote two `--expect`s passed on the second alone.
@Suite("--expect given more than once")
struct RepeatedExpectationTests {
    static let session = "Examples/debugging-session.jsonl"
    // After the session: rows 5-8 of section 0 selected, the option view of row 3 open.
    static let holds = "selected contains [0, 6]"
    static let alsoHolds = "optionOpen == [0, 3]"
    static let fails = "editing"

    @Test("replay exits 0 only when every --expect holds, in either order, as their `and` does")
    func replayChecksThemAll() throws {
        for (first, second) in [(Self.holds, Self.alsoHolds), (Self.holds, Self.fails), (Self.fails, Self.holds)] {
            let joined = try StateExpectation("\(first) and \(second)")
            let state = try TableState.replaying(Self.session)
            let r = try CLI.run(["replay", Self.session, "--expect", first, "--expect", second])
            #expect(r.status == (joined.holds(in: state) ? 0 : 1), "\(first) / \(second): \(r.stdout) \(r.stderr)")
            #expect(r.stdout.hasPrefix("\(first) and \(second) \(joined.holds(in: state) ? "holds" : "does not hold") after 12 events"), "\(r.stdout)")
            // What each one read is listed.
            #expect(r.stdout.contains("  selected = "), "\(r.stdout)")
        }
        let json = try CLI.run(["replay", Self.session, "--expect", Self.holds, "--expect", Self.fails, "--json"])
        #expect(json.status == 1)
        #expect(json.stdout.hasPrefix(#"{"expect": "selected contains [0, 6] and editing", "at": 12, "holds": false, "reads": "#), "\(json.stdout)")
    }

    @Test("an `or` in one of them stays inside its parentheses")
    func precedenceIsKept() throws {
        // Joined without parentheses, `selected contains [0, 6] or editing and editing`
        // would hold (`and` binds tighter); joined as written, it does not.
        let r = try CLI.run(["replay", Self.session, "--expect", "\(Self.holds) or editing", "--expect", Self.fails])
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stdout.hasPrefix("(\(Self.holds) or editing) and editing does not hold"), "\(r.stdout)")
        #expect(try CLI.run(["replay", Self.session, "--expect", "\(Self.holds) or editing and editing"]).status == 0)
    }

    @Test("an expectation 100 levels deep joins with another; an `or` that deep cannot, and the message says why")
    func nestingLimit() throws {
        // No list in them: `[0, 6]` would be a level more.
        let deep = String(repeating: "(", count: 100) + "dragging == false" + String(repeating: ")", count: 100)
        let r = try CLI.run(["replay", Self.session, "--expect", deep, "--expect", Self.alsoHolds])
        #expect(r.status == 0, "\(r.stderr)")
        let deepOr = String(repeating: "(", count: 100) + "dragging == false or editing" + String(repeating: ")", count: 100)
        #expect(try CLI.run(["replay", Self.session, "--expect", deepOr]).status == 0)
        let refused = try CLI.run(["replay", Self.session, "--expect", deepOr, "--expect", Self.alsoHolds])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--expect: given 2 times, they are joined with `and`, which puts an `or` among them in parentheses, and then nested more than 100 levels deep"), "\(refused.stderr)")
    }

    @Test("a mistake in the second is shown in what was typed, at its column, exit 64")
    func mistakeInTheSecond() throws {
        let r = try CLI.run(["replay", Self.session, "--expect", Self.holds, "--expect", "selected ==="])
        #expect(r.status == 64)
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("selectlog: --expect: column 12: ") == true, "\(r.stderr)")
        #expect(lines.dropFirst().first == "selectlog:   selected ===", "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("inspect --first twice: the first event after which both hold")
    func firstOfBoth() throws {
        let events = try TableState.events(of: Self.session)
        let a = try StateExpectation("count(selected) >= 2"), b = try StateExpectation("not dragging")
        var state = TableState(), expected: Int?
        for (i, e) in events.enumerated() {
            try state.apply(e)
            if a.holds(in: state) && b.holds(in: state) { expected = i + 1; break }
        }
        let n = try #require(expected)
        let r = try CLI.run(["inspect", Self.session, "--first", a.text, "--first", b.text, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("{\"expect\": \"count(selected) >= 2 and not dragging\", \"event\": \(n), "), "\(r.stdout.prefix(160))")
    }

    @Test("shrink and testgen keep every --expect, and say so in what they write; without one they are a usage error")
    func shrinkAndTestgen() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shrunk = dir.appendingPathComponent("min.jsonl").path
        let s = try CLI.run(["shrink", Self.session, "--expect", Self.holds, "--expect", Self.alsoHolds, "-o", shrunk])
        #expect(s.status == 0, "\(s.stderr)")
        let script = try String(contentsOfFile: shrunk, encoding: .utf8)
        #expect(script.contains("# expect: \(Self.holds) and \(Self.alsoHolds)"), "\(script)")
        // The shrunk script ends with both holding, each checked on its own.
        for text in [Self.holds, Self.alsoHolds] {
            #expect(try CLI.run(["replay", shrunk, "--expect", text]).status == 0, "\(text)")
        }
        let test = dir.appendingPathComponent("min.swift").path
        let t = try CLI.run(["testgen", shrunk, "--expect", Self.holds, "--expect", Self.alsoHolds, "-o", test])
        #expect(t.status == 0, "\(t.stderr)")
        #expect(try String(contentsOfFile: test, encoding: .utf8).contains("--expect '\(Self.holds) and \(Self.alsoHolds)'"))
        for command in ["shrink", "testgen"] {
            let missing = try CLI.run([command, Self.session, "-o", dir.appendingPathComponent("x").path])
            #expect(missing.status == 64, "\(command): \(missing.stderr)")
            #expect(missing.stderr.contains("Missing expected argument '--expect <expr> ...'"), "\(command): \(missing.stderr)")
        }
    }
}

private extension TableState {
    /// The events of the script at `path` (relative to the package root).
    static func events(of path: String) throws -> [TimedEvent] {
        try Script(bytes: Data(contentsOf: CLI.root.appendingPathComponent(path))).events
    }

    /// The state after the script at `path`.
    static func replaying(_ path: String) throws -> TableState {
        var state = TableState()
        for e in try events(of: path) { try state.apply(e) }
        return state
    }
}
