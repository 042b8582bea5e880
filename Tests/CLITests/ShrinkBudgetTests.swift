import Foundation
import SelectLog
import Testing

/// `Shrinker.maxTests` and `selectlog shrink --max-replays`: a bound on a shrink whose
/// work grows with the square of a session it cannot reduce.
@Suite("Shrink within a budget")
struct ShrinkBudgetTests {
    /// A session no event of which can go: `events == N` holds only after all N.
    static let irreducible = Array(SyntheticSession(seed: 3, count: 3_000))

    @Test("past maxTests the shrink stops replaying and returns a script that still passes, marked not minimal")
    func library() throws {
        let expectation = try StateExpectation("events == 3000")
        let bounded = try Shrinker(expectation: expectation, maxTests: 200).shrink(ShrinkBudgetTests.irreducible)
        #expect(bounded.tests == 200)
        #expect(!bounded.isMinimal)
        #expect(ShrinkTests.passes(bounded.events, expectation))
        // Without a limit the same shrink runs to the end: every event stays, and it is minimal.
        let whole = try Shrinker(expectation: expectation).shrink(ShrinkBudgetTests.irreducible)
        #expect(whole.isMinimal)
        #expect(whole.tests > 200)
        // (Simplified, as the "simplify" stage makes a reload and a configure: none removed.)
        #expect(whole.events.count == ShrinkBudgetTests.irreducible.count)
        #expect(zip(whole.events, ShrinkBudgetTests.irreducible).allSatisfy { $0.t == $1.t && $0.event.type == $1.event.type })
        // A budget the shrink does not reach changes nothing.
        let roomy = try Shrinker(expectation: expectation, maxTests: whole.tests).shrink(ShrinkBudgetTests.irreducible)
        #expect(roomy.isMinimal && roomy.events == whole.events && roomy.tests == whole.tests)
    }

    @Test("a budget spent halfway keeps what it removed: fewer events than the cut, no fewer than the whole shrink")
    func partial() throws {
        let (events, planted) = try ShrinkTests.plantedSession(seed: 21, count: 12_000, depth: 9_000)
        let expectation = try StateExpectation(ShrinkTests.bug)
        let whole = try Shrinker(expectation: expectation).shrink(events)
        #expect(whole.isMinimal)
        let half = try Shrinker(expectation: expectation, maxTests: whole.tests / 2).shrink(events)
        #expect(!half.isMinimal)
        #expect(half.tests == whole.tests / 2)
        #expect(half.events.count < planted, "the cut alone is \(planted) events")
        #expect(half.events.count >= whole.events.count)
        #expect(ShrinkTests.passes(half.events, expectation))
        // No replay at all: the input cut where the expectation first holds, untouched.
        let none = try Shrinker(expectation: expectation, maxTests: 0).shrink(events)
        #expect(none.tests == 0 && !none.isMinimal)
        #expect(none.events == Array(events[..<planted]))
    }

    @Test("--max-replays writes the smallest script so far, says it may not be minimal, and still replays")
    func command() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = ShrinkBudgetTests.irreducible.map { EventEncoder.line($0) }.joined(separator: "\n") + "\n"
        let input = try CLI.write(script, to: "session.jsonl", in: dir)
        let shrunk = try CLI.run(["shrink", input, "--expect", "events == 3000", "--max-replays", "50", "-o", "min.jsonl"], in: dir)
        #expect(shrunk.status == 0, "\(shrunk.stderr)")
        #expect(shrunk.stderr.contains("in 50 replays"), "\(shrunk.stderr)")
        #expect(shrunk.stderr.contains("stopped at --max-replays: the script may not be minimal"), "\(shrunk.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("min.jsonl"), encoding: .utf8)
        #expect(text.contains("\n# may not be minimal: stopped at --max-replays 50\n"), "\(text.prefix(300))")
        let replay = try CLI.run(["replay", "min.jsonl", "--expect", "events == 3000"], in: dir)
        #expect(replay.status == 0, "\(replay.stderr)")
        let negative = try CLI.run(["shrink", input, "--expect", "events == 3000", "--max-replays", "-1", "-o", "min2.jsonl"], in: dir)
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("--max-replays must be 0 or more, not -1"), "\(negative.stderr)")
    }
}
