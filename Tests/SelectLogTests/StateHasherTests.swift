import Testing
@testable import SelectLog

@Suite("StateHasher: hashValue64 with the table's part kept")
struct StateHasherTests {
    /// Random sessions with every event type (reloads, row and section edits, configure
    /// with another editor height or undo limit, the editor): the hasher that saw every
    /// state before gives each state's own `hashValue64`.
    @Test("gives every state's hashValue64, whatever changed since the state before", arguments: 0..<4)
    func sameAsHashValue64(shard: Int) throws {
        var tableChanges = 0
        for k in 0..<60 {
            let seed = UInt64(100 + shard * 60 + k)
            var rng = SeededRandom(seed: seed)
            var state = TableState()
            try state.apply(.configure({ var c = ConfigurationPatch(); c.allowsMultipleSelection = true; return c }()))
            try state.apply(.reload(sections: [SectionSpec(rows: 12, rowHeight: Points(50)), SectionSpec(rows: 6, rowHeight: Points(40))]))
            var hasher = StateHasher()
            var previous = state
            #expect(hasher.hash(state) == state.hashValue64)
            for step in 0..<80 {
                let event = TimedEvent(RandomEvents.event(using: &rng, rows: 14, sections: 3),
                                       t: RandomEvents.time(after: state.t, using: &rng))
                guard (try? state.apply(event)) != nil else { continue }
                if state.layout != previous.layout || state.configuration != previous.configuration { tableChanges += 1 }
                #expect(hasher.hash(state) == state.hashValue64, "seed \(seed) step \(step) after \(EventEncoder.line(event))")
                previous = state
            }
        }
        // The kept part was made again many times, not only once per session.
        #expect(tableChanges > 200, "only \(tableChanges) events changed the table")
    }

    /// States of unrelated sessions in turn, and a state after one whose table differs
    /// only in a height or in the editor row's height: never the other table's part.
    @Test("states of different tables in turn, and tables that differ in one height")
    func differentTables() throws {
        func table(_ heights: [Int], editorHeight: Int = 44) throws -> TableState {
            var s = TableState()
            var c = ConfigurationPatch()
            c.editorHeight = Points(editorHeight)
            try s.apply(.configure(c))
            try s.apply(.reload(sections: [SectionSpec(rows: heights.count, rowHeights: heights.map { Points($0) })]))
            return s
        }
        let states = [try table([44, 60, 88]), try table([44, 60, 89]), try table([44, 60, 88], editorHeight: 50),
                      try table([44, 60, 88]), TableState(), try table([44, 60, 89])]
        var hasher = StateHasher()
        for round in 0..<2 {
            for (i, s) in states.enumerated() {
                #expect(hasher.hash(s) == s.hashValue64, "round \(round), state \(i)")
            }
        }
        #expect(Set(states.map(\.hashValue64)).count == 4)
    }
}
