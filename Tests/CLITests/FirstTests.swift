import Foundation
import SelectLog
import SelectLogStore
import Testing

/// `selectlog inspect --first EXPR` on long sessions, against a naive replay that
/// evaluates the expectation after every event.
@Suite("selectlog inspect --first")
struct FirstTests {
    /// The first N after which `expectation` holds, by brute force; nil if never.
    func naiveFirst(_ events: [TimedEvent], _ expectation: StateExpectation) throws -> Int? {
        var state = TableState()
        if expectation.holds(in: state) { return 0 }
        for (i, e) in events.enumerated() {
            try state.apply(e)
            if expectation.holds(in: state) { return i + 1 }
        }
        return nil
    }

    @Test("a long event's line is cut, saying how long it is and how to print it whole; --json keeps it whole")
    func longEventLineIsCut() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("s.jsonl").path
        let sections = (0..<2_000).map { #"{"rows": 1, "title": "S\#($0)"}"# }.joined(separator: ", ")
        let insert = #"{"type": "insertSections", "at": [\#((1...2_000).map(String.init).joined(separator: ", "))], "sections": [\#(sections)]}"#
        try ([#"{"type": "reload", "sections": [{"rows": 3}]}"#, insert].joined(separator: "\n") + "\n")
            .write(toFile: script, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["record", script, "-o", log]).status == 0)
        let r = try CLI.run(["inspect", log, "--first", "count(sections) > 1000"])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("  event 2: ") })
        #expect(line.utf8.count < 600, "\(line.utf8.count) bytes")
        #expect(line.hasPrefix(#"  event 2: {"type": "insertSections", "at": [1, 2, 3"#), "\(line)")
        let whole = EventEncoder.line(TimedEvent(try #require(try LogReader(path: log).events().last).event))
        #expect(line.hasSuffix(" ... (cut: the event's line is \(whole.utf8.count) bytes; `selectlog export \(log) --from 2 --to 2` prints it whole)"), "\(line)")
        let json = try CLI.run(["inspect", log, "--first", "count(sections) > 1000", "--json"])
        #expect(json.stdout.contains(whole), "--json keeps the event whole")
    }

    @Test("the first event after which the expectation holds, its gesture, and the states around it")
    func synthetic() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "30000", "--seed", "9", "-o", path, "--checkpoint-interval", "1000"]).status == 0)
        let events = Array(SyntheticSession(seed: 9, count: 30000))
        let log = try LogReader(path: path)
        for text in ["count(selected) >= 5", "editing", "optionOpen != null and count(selected) > 1", "events == 0"] {
            let expectation = try StateExpectation(text)
            let expected = try naiveFirst(events, expectation)
            let r = try CLI.run(["inspect", path, "--first", text, "--json"])
            guard let n = expected else {
                #expect(r.status == 1, "\(text)")
                continue
            }
            #expect(r.status == 0, "\(text): \(r.stderr)")
            #expect(r.stdout.hasPrefix("{\"expect\": \(JSONText.quote(text)), \"event\": \(n), "), "\(text): \(r.stdout.prefix(120))")
            #expect(r.stdout.contains("\"after\": \(try log.state(at: n).json)}"))
            if n > 0 {
                #expect(r.stdout.contains("\"before\": \(try log.state(at: n - 1).json), "))
                #expect(r.stdout.contains("\"type\": \"\(events[n - 1].event.typeName)\""))
            }
        }
        // The second generator, as a script (inspect takes scripts and logs alike).
        let walk = Array(RandomWalkSession(seed: 9, count: 15_000))
        let script = try CLI.write(walk.map { EventEncoder.line($0) }.joined(separator: "\n") + "\n", to: "walk.jsonl", in: dir)
        for text in ["count(selected) >= 3", "optionOpen != null", "contentOffset > 500"] {
            let expectation = try StateExpectation(text)
            let r = try CLI.run(["inspect", script, "--first", text, "--json"])
            if let n = try naiveFirst(walk, expectation) {
                #expect(r.stdout.hasPrefix("{\"expect\": \(JSONText.quote(text)), \"event\": \(n), "), "\(text): \(r.stdout.prefix(120)) \(r.stderr)")
            } else {
                #expect(r.status == 1)
            }
        }
        let never = try CLI.run(["inspect", path, "--first", "count(sections) > 1000"])
        #expect(never.status == 1)
        #expect(never.stdout.contains("never holds in the 30000 events"))
        let bad = try CLI.run(["inspect", path, "--first", "pan.kinds == 1"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("column 5: expected a field of pan"))
    }

    @Test("a script's invalid line after the answer is noted, as replay --at notes it; one before the answer is the error (exit 65)")
    func badLineAfterTheAnswer() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 3}]}
            {"type": "tap", "x": 1, "y": 1}
            {"type": "panMoved", "x": 1, "y": 1}
            {"type": "tap", "x": 1, "y": 50}

            """, to: "bad.jsonl", in: dir)
        let found = try CLI.run(["inspect", script, "--first", "count(selected) == 1"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("first holds after event 2 of 2"), "\(found.stdout)")
        #expect(found.stderr.contains("line 3: panMoved"), "\(found.stderr)")
        #expect(found.stderr.contains("reading the 2 events before it"), "\(found.stderr)")
        let json = try CLI.run(["inspect", script, "--first", "count(selected) == 1", "--json"])
        #expect(json.status == 0 && json.stdout.contains("\"event\": 2"), "\(json.stdout)")
        // An answer the bad line hides: the line is the error, as every view that needs it.
        let hidden = try CLI.run(["inspect", script, "--first", "count(selected) == 2"])
        #expect(hidden.status == 65, "\(hidden.stdout)")
        #expect(hidden.stderr.contains("line 3: panMoved"), "\(hidden.stderr)")
        #expect(!hidden.stdout.contains("never holds"), "\(hidden.stdout)")
    }
}

/// A gate's expectation that no state can make true is its own mistake: every command that
/// takes one says so (64, naming the column) before it reads the log, rather than answer
/// 1 as for a bug that no longer reproduces (a CI review, 2026-12-07).
@Suite("Expectations no state decides, at the command line")
struct ShapeMistakeCommandTests {
    @Test("replay, inspect --first, shrink and testgen refuse `selected contains 6` (64), --json as an error object")
    func refusedEverywhere() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 20}]}
            {"type": "tap", "x": 10, "y": 310}

            """, to: "s.jsonl", in: dir)
        let mistake = "column 10: selected holds rows [section, row]; 6 is a number, which it never contains"
        for arguments in [["replay", script, "--expect"], ["inspect", script, "--first"],
                          ["shrink", script, "-o", dir.appendingPathComponent("out.jsonl").path, "--expect"],
                          ["testgen", script, "-o", dir.appendingPathComponent("T.swift").path, "--expect"]] {
            let r = try CLI.run(arguments + ["selected contains 6"])
            #expect(r.status == 64, "\(arguments[0]): \(r.stderr)")
            #expect(r.stderr.contains(mistake), "\(arguments[0]): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(arguments[0])")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["s.jsonl"], "nothing written")
        let json = try CLI.run(["replay", script, "--expect", "selected contains 6", "--json"])
        #expect(json.status == 64)
        #expect(json.stdout.contains("\"kind\": \"usage\"") && json.stdout.contains("never contains"), "\(json.stdout)")
        // What was meant holds: exit 0.
        #expect(try CLI.run(["replay", script, "--expect", "count(selected) == 1"]).status == 0)
    }
}
