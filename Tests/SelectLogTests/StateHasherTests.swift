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

    /// `inspect --first` evaluates an expectation on the hash with the hasher's value: the
    /// same answer as the expectation's own, for expectations that read the hash alone,
    /// with other fields, negated and inside `or`.
    @Test("an expectation given the state's hash holds exactly when it holds on its own")
    func expectationWithKnownHash() throws {
        var rng = SeededRandom(seed: 7)
        var state = TableState()
        try state.apply(.configure({ var c = ConfigurationPatch(); c.allowsMultipleSelection = true; return c }()))
        try state.apply(.reload(sections: [SectionSpec(rows: 12, rowHeight: Points(50)), SectionSpec(rows: 6, rowHeight: Points(40))]))
        var hasher = StateHasher()
        var earlier: [String] = [state.hashHex]
        var held = 0
        for step in 0..<400 {
            let event = TimedEvent(RandomEvents.event(using: &rng, rows: 14, sections: 3), t: RandomEvents.time(after: state.t, using: &rng))
            guard (try? state.apply(event)) != nil else { continue }
            let hash = hasher.hash(state)
            // A hash seen a few states ago (taps that toggle back reach it again), and this one.
            let target = earlier[max(earlier.count - 3, 0)]
            earlier.append(state.hashHex)
            for text in ["hash == \"\(target)\"", "hash != \"\(target)\"", "not (hash == \"\(state.hashHex)\")",
                         "hash == \"\(target)\" or undo > 2", "hash == \"\(state.hashHex)\" and editing == false"] {
                let expectation = try StateExpectation(text)
                let own = expectation.holds(in: state)
                #expect(expectation.holds(in: state, hash: { hash }) == own, "step \(step): \(text)")
                if own { held += 1 }
            }
            // The hash given is the one read: a wrong one gives the wrong answer.
            #expect(try StateExpectation("hash == \"0000000000000001\"").holds(in: state, hash: { 1 }), "step \(step)")
        }
        #expect(held > 300, "the expectations held only \(held) times")
        // Read only when the evaluation reaches it.
        var asked = 0
        let notEditing = try StateExpectation("editing == true and hash == \"0000000000000001\"")
        #expect(!notEditing.holds(in: TableState(), hash: { asked += 1; return 1 }) && asked == 0)
        #expect(try StateExpectation("hash == \"0000000000000001\"").holds(in: TableState(), hash: { asked += 1; return 1 }) && asked == 1)
    }
}
