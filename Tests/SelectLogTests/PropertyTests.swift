import Testing
@testable import SelectLog

@Suite("Properties over random event sequences")
struct PropertyTests {
    /// 2,000 random sequences of 60 events each, every event type, valid and invalid.
    @Test("invariants hold after every event; rejected events change nothing; undo+redo and replay are stable",
          arguments: 0..<8)
    func randomSequences(shard: Int) throws {
        for k in 0..<250 {
            let seed = UInt64(shard * 250 + k)
            var rng = SeededRandom(seed: seed)
            var state = TableState()
            try state.apply(.configure({ var c = ConfigurationPatch(); c.allowsMultipleSelection = Bool.random(using: &rng); return c }()))
            try state.apply(.viewport(width: Points(390), height: Points(300)))
            try state.apply(.reload(sections: [SectionSpec(rows: 12, rowHeight: Points(50)), SectionSpec(rows: 6, rowHeight: Points(40), header: Points(20))]))
            var accepted: [TimedEvent] = []
            for step in 0..<60 {
                let event = TimedEvent(RandomEvents.event(using: &rng, rows: 14, sections: 3),
                                       t: RandomEvents.time(after: state.t, using: &rng))
                let before = state
                let undoBefore = state.undoStack.count
                let topBefore = state.undoStack.last
                do {
                    try state.apply(event)
                    accepted.append(event)
                } catch {
                    #expect(state == before, "seed \(seed) step \(step): rejected \(event) changed the state")
                    #expect(state.hashHex == before.hashHex, "seed \(seed) step \(step)")
                    continue
                }
                let problems = state.invariantViolations()
                #expect(problems.isEmpty, "seed \(seed) step \(step) after \(EventEncoder.line(event)): \(problems)")
                // A step just recorded by a step-making event: undo then redo gives back the same hash.
                if PropertyTests.makesSteps(event.event), state.pan == nil, let top = state.undoStack.last,
                   state.undoStack.count != undoBefore || top != topBefore {
                    var copy = state
                    try copy.apply(.undo)
                    try copy.apply(.redo)
                    #expect(copy.hashHex == state.hashHex, "seed \(seed) step \(step): undo+redo after \(EventEncoder.line(event))")
                }
            }
            // Replaying the accepted events gives the same hash.
            var replayed = TableState()
            var rng2 = SeededRandom(seed: seed)
            try replayed.apply(.configure({ var c = ConfigurationPatch(); c.allowsMultipleSelection = Bool.random(using: &rng2); return c }()))
            try replayed.apply(.viewport(width: Points(390), height: Points(300)))
            try replayed.apply(.reload(sections: [SectionSpec(rows: 12, rowHeight: Points(50)), SectionSpec(rows: 6, rowHeight: Points(40), header: Points(20))]))
            for e in accepted { try replayed.apply(e) }
            #expect(replayed.hashHex == state.hashHex, "seed \(seed): replay differs")
            #expect(replayed == state, "seed \(seed): replay differs")
        }
    }

    static func makesSteps(_ e: Event) -> Bool {
        switch e {
        case .tap, .select, .deselect, .selectAll, .deselectAll, .choose, .panEnded: true
        default: false
        }
    }
}
