import Testing
@testable import SelectLog

@Suite("Synthetic session")
struct SyntheticSessionTests {
    @Test("the same seed gives the same events; every event is valid and the mix is realistic")
    func deterministicAndValid() throws {
        let a = Array(SyntheticSession(seed: 7, count: 30_000))
        let b = Array(SyntheticSession(seed: 7, count: 30_000))
        #expect(a == b)
        #expect(a.count == 30_000)
        #expect(Array(SyntheticSession(seed: 8, count: 1000)) != Array(a.prefix(1000)))
        var state = TableState()
        var kinds: [String: Int] = [:]
        for e in a {
            try state.apply(e)
            kinds[e.event.typeName, default: 0] += 1
        }
        #expect(state.invariantViolations().isEmpty)
        for kind in ["panBegan", "panMoved", "panEnded", "tick", "tap", "swipeBegan", "swipeMoved", "scroll"] {
            #expect(kinds[kind, default: 0] > 0, "no \(kind) events")
        }
        #expect(kinds["panMoved", default: 0] > 5_000)
        // Ten minutes of session time is on the order of a few tens of thousands of events.
        #expect(state.t > Micros(raw: 60_000_000))
    }

    /// A table whose first sections are too short for some of a generator's plans (an
    /// edit of a section of 0 or 1 rows plans nothing), after `rows` of the last section.
    static func shortSections(_ short: [Int], rows: Int) throws -> TableState {
        var state = TableState()
        var c = ConfigurationPatch()
        c.allowsMultipleSelection = true
        try state.apply(TimedEvent(.configure(c), t: Micros(raw: 0)))
        try state.apply(TimedEvent(.viewport(width: Points(390), height: Points(844)), t: Micros(raw: 0)))
        let sections = short.map { SectionSpec(rows: $0, rowHeight: Points(44)) } + [SectionSpec(rows: rows, rowHeight: Points(44))]
        try state.apply(TimedEvent(.reload(sections: sections), t: Micros(raw: 0)))
        return state
    }

    /// The events `iterator` gives, `count` of them, applied to `state`: each must be valid.
    static func run<I: IteratorProtocol<TimedEvent>>(_ iterator: inout I, _ count: Int, on state: TableState) throws -> TableState {
        var state = state
        for _ in 0..<count {
            guard let e = iterator.next() else { Issue.record("the generator stopped early"); break }
            try state.apply(e)
        }
        return state
    }

    // A plan can come to nothing: an edit of a section too short for it, a swipe or a tap
    // with no row in view. The generators plan again then; they indexed an empty plan and
    // trapped (`synthesize --generator random-walk --seed 3 --events 2623197` did).
    @Test("a plan that comes to nothing is planned again: a table of short sections, both generators")
    func emptyPlans() throws {
        let standardStart = try Self.shortSections([0, 0, 0], rows: 600)
        var standard = SyntheticSession.Iterator(seed: 5, remaining: 5_000, from: standardStart)
        let afterStandard = try Self.run(&standard, 5_000, on: standardStart)
        #expect(afterStandard.events == standardStart.events + 5_000)
        #expect(afterStandard == standard.state)
        let walkStart = try Self.shortSections([1, 1, 1], rows: 300)
        var walk = RandomWalkSession.Iterator(seed: 5, remaining: 5_000, thirds: false, from: walkStart)
        let afterWalk = try Self.run(&walk, 5_000, on: walkStart)
        #expect(afterWalk.events == walkStart.events + 5_000)
        #expect(afterWalk == walk.state)
    }
}
