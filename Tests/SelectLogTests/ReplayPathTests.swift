import Testing
@testable import SelectLog

/// `applyDiscardingChanges` (the replay path) must leave exactly the state `apply` leaves,
/// and reject exactly what it rejects, with the same error.
@Suite("Replay path")
struct ReplayPathTests {
    /// Applies `e` both ways and checks that the two agree: the whole states after every
    /// event, and their hashes too when `hashes` (the hash walks the whole state, and
    /// after every event of a long session it was most of this suite's time).
    private func step(_ e: TimedEvent, _ full: inout TableState, _ fast: inout TableState, _ what: String, hashes: Bool = true) {
        var fullError: InvalidEvent?
        var fastError: InvalidEvent?
        do throws(InvalidEvent) { try full.apply(e) } catch { fullError = error }
        do throws(InvalidEvent) { try fast.applyDiscardingChanges(e) } catch { fastError = error }
        #expect(fastError == fullError, "\(what): \(EventEncoder.line(e))")
        #expect(fast == full, "\(what): \(EventEncoder.line(e))")
        #expect(fast.events == full.events && fast.t == full.t)
        if hashes { #expect(fast.hashHex == full.hashHex) }
    }

    @Test("synthetic sessions: the same state after every event")
    func syntheticSessions() {
        // Three sessions of 4,000 events (each compares whole states after every event).
        for seed: UInt64 in [1, 5, 9] {
            var full = TableState(), fast = TableState()
            for (k, e) in SyntheticSession(seed: seed, count: 4_000).enumerated() {
                step(e, &full, &fast, "seed \(seed)", hashes: k % 97 == 0)
            }
            #expect(fast.hashHex == full.hashHex)
            #expect(full.events == 4_000)
        }
    }

    @Test("random events, valid and invalid: the same state and the same errors")
    func randomEvents() throws {
        for seed: UInt64 in 0..<60 {
            var rng = SeededRandom(seed: 70_000 + seed)
            var full = TableState()
            try full.apply(.reload(sections: [SectionSpec(rows: 12, rowHeight: Points(50)),
                                              SectionSpec(rows: 6, header: Points(20), title: "B")]))
            var fast = full
            for _ in 0..<150 {
                let e = TimedEvent(RandomEvents.event(using: &rng, rows: 14, sections: 3),
                                   t: RandomEvents.time(after: full.t, using: &rng))
                step(e, &full, &fast, "seed \(70_000 + seed)")
            }
        }
    }
}
