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
}
