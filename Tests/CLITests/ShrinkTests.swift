import Foundation
import SelectLog
import Testing

/// The shrinker (library and `selectlog shrink`) on long sessions with a planted bug.
@Suite("Shrink")
struct ShrinkTests {
    /// A synthetic session with a planted bug deep inside: at the first quiet moment after
    /// event `depth` (no pan, no swipe, rows selectable), a `select` of
    /// [5, 42] and its option view opened. The expectation first holds there.
    static func plantedSession(seed: UInt64, count: Int, depth: Int) throws -> (events: [TimedEvent], planted: Int) {
        var iterator = SyntheticSession(seed: seed, count: count).makeIterator()
        var events: [TimedEvent] = []
        var planted = -1
        var state = TableState()
        while let e = iterator.next() {
            events.append(e)
            try state.apply(e)
            if planted < 0, events.count >= depth, state.pan == nil, state.options.swipe == nil,
               state.isSelectable, state.layout.contains(RowPath(5, 42)), !state.selection.contains(RowPath(5, 42)) {
                for bug in [Event.select(rows: [RowPath(5, 42)]), .setOptionVisible(row: RowPath(5, 42), visible: true)] {
                    let timed = TimedEvent(bug, t: state.t)
                    try state.apply(timed)
                    events.append(timed)
                }
                planted = events.count
            }
        }
        return (events, planted)
    }

    static let bug = "selected contains [5, 42] and optionOpen == [5, 42]"

    /// Whether `events` replays from an empty table with `expectation` holding at the end.
    static func passes(_ events: [TimedEvent], _ expectation: StateExpectation) -> Bool {
        var state = TableState()
        for e in events {
            do { try state.apply(e) } catch { return false }
        }
        return expectation.holds(in: state)
    }

    @Test("a planted bug deep in 12,000 events shrinks to a handful, and the result is 1-minimal")
    func plantedBug() throws {
        let (events, planted) = try ShrinkTests.plantedSession(seed: 21, count: 12_000, depth: 9_000)
        #expect(planted >= 9_000)
        let expectation = try StateExpectation(ShrinkTests.bug)
        // It first holds at the planted events, deep inside.
        var state = TableState()
        var first: Int?
        for (i, e) in events.enumerated() {
            try state.apply(e)
            if first == nil, expectation.holds(in: state) { first = i + 1 }
        }
        #expect(first == planted)
        let result = try Shrinker(expectation: expectation).shrink(events)
        #expect(result.events.count <= 8, "\(result.events.map { EventEncoder.line($0) })")
        #expect(events.count / result.events.count >= 100)
        #expect(ShrinkTests.passes(result.events, expectation))
        // 1-minimal: deleting any single event makes the expectation false or an event invalid.
        for k in result.events.indices {
            var fewer = result.events
            fewer.remove(at: k)
            #expect(!ShrinkTests.passes(fewer, expectation), "event \(k + 1) could be deleted")
        }
    }

    @Test("natural sessions of both generators shrink >= 100x to a 1-minimal script", arguments: [
        ("standard", UInt64(4)), ("standard", 15), ("random walk", 11),
    ])
    func naturalSessions(generator: String, seed: UInt64) throws {
        let events = generator == "standard" ? Array(SyntheticSession(seed: seed, count: 10_000))
                                             : Array(RandomWalkSession(seed: seed, count: 10_000))
        var state = TableState()
        for e in events { try state.apply(e) }
        // Something true at the end that took a gesture: a selected row far down the table.
        guard let row = state.selection.paths.last else { return }
        let expectation = try StateExpectation("selected contains [\(row.section), \(row.row)]")
        var stages: [String] = []
        let result = try Shrinker(expectation: expectation).shrink(events) { p in
            if stages.last != p.stage { stages.append(p.stage) }
        }
        #expect(ShrinkTests.passes(result.events, expectation))
        #expect(events.count / max(result.events.count, 1) >= 100, "\(generator) \(seed): \(result.events.count) events")
        #expect(stages.first == "cut")
        // Single events last, or after them the set-up simplified.
        #expect(stages.contains("gestures") && stages.contains("events") && ["events", "simplify"].contains(stages.last))
        for k in result.events.indices {
            var fewer = result.events
            fewer.remove(at: k)
            #expect(!ShrinkTests.passes(fewer, expectation), "seed \(seed): event \(k + 1) could be deleted")
        }
    }

    @Test("every pan's samples are collapsed, the pan after a collapsed one too (the scan went on from an index of the longer list)")
    func everyPanCollapses() throws {
        // Two strip pans, each straight down in steps of 10 pt: only their last samples matter.
        var lines = [#"{"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}"#,
                     #"{"type": "reload", "sections": [{"rows": 100, "rowHeight": 20}]}"#]
        var t = 1_000
        for (from, samples) in [(50, 15), (500, 20)] {
            lines.append(#"{"type": "panBegan", "x": 20, "y": \#(from), "t": \#(t)}"#)
            for k in 1...samples {
                t += 8
                lines.append(#"{"type": "panMoved", "x": 20, "y": \#(from + 10 * k), "t": \#(t)}"#)
            }
            t += 8
            lines.append(#"{"type": "panEnded", "t": \#(t)}"#)
            t += 100
        }
        let events = try Script(bytes: Array(lines.joined(separator: "\n").utf8)).events
        var collapsed: [Int] = []
        let result = try Shrinker(expectation: try StateExpectation("selected contains [0, 9] and selected contains [0, 34]"))
            .shrink(events) { progress in
                if progress.stage == "samples" { collapsed.append(progress.events) }
            }
        #expect(collapsed.count == 2, "one collapse a pan: \(collapsed)")
        #expect(result.events.count < events.count)
    }

    @Test("an expectation that never holds, or an invalid input, is an error naming it")
    func errors() throws {
        let events = Array(SyntheticSession(seed: 2, count: 500))
        #expect(throws: ShrinkError.expectationNeverHolds(events: 500)) {
            try Shrinker(expectation: try StateExpectation("count(sections) > 999")).shrink(events)
        }
        let bad = [TimedEvent(.select(rows: [RowPath(0, 0)]))]
        #expect(throws: ShrinkError.self) {
            try Shrinker(expectation: try StateExpectation("events > 1")).shrink(bad + events)
        }
        #expect(try Shrinker(expectation: try StateExpectation("events == 0")).shrink(events).events.isEmpty)
    }

    @Test("selectlog shrink writes a script that replays to the expectation, from a log or a script")
    func command() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (events, _) = try ShrinkTests.plantedSession(seed: 21, count: 12_000, depth: 9_000)
        let script = events.map { EventEncoder.line($0) }.joined(separator: "\n") + "\n"
        let input = try CLI.write(script, to: "session.jsonl", in: dir)
        #expect(try CLI.run(["record", input, "-o", "session.slog"], in: dir).status == 0)
        for source in ["session.jsonl", "session.slog"] {
            let r = try CLI.run(["shrink", source, "--expect", ShrinkTests.bug, "-o", "min.jsonl"], in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("shrunk \(events.count) events to "), "\(r.stderr)")
            let check = try CLI.run(["replay", "min.jsonl", "--expect", ShrinkTests.bug], in: dir)
            #expect(check.status == 0, "\(check.stdout)")
            let lines = try String(contentsOf: dir.appendingPathComponent("min.jsonl"), encoding: .utf8).split(separator: "\n")
            #expect(lines.filter { !$0.hasPrefix("#") }.count <= 8)
        }
        let never = try CLI.run(["shrink", "session.slog", "--expect", "count(sections) > 999", "-o", "x.jsonl"], in: dir)
        #expect(never.status == 1)
        #expect(never.stderr.contains("never holds"))
        // With what it read after the last event, as replay --expect shows it.
        let sections = try CLI.run(["replay", "session.slog", "--expect", "count(sections) > 999"], in: dir)
        let read = try #require(sections.stdout.split(separator: "\n").first { $0.contains("sections = ") })
        #expect(never.stderr.contains("  after the last event: \(read.trimmingCharacters(in: .whitespaces))"), "\(never.stderr)")
        let bad = try CLI.run(["shrink", "session.slog", "--expect", "selected contains", "-o", "x.jsonl"], in: dir)
        #expect(bad.status == 64)
        let badTest = try CLI.run(["testgen", "session.slog", "--expect", "selected contains", "-o", "T.swift"], in: dir)
        #expect(badTest.status == 64 && badTest.stderr.contains("--expect: column 18"), "\(badTest.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.jsonl").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("T.swift").path))
    }
}
