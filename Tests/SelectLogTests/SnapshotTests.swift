import Testing
@testable import SelectLog

@Suite("State snapshots (checkpoints)")
struct SnapshotTests {
    @Test("a snapshot of any reachable state reads back equal, hash included", arguments: 0..<4)
    func roundTrip(shard: Int) throws {
        for k in 0..<100 {
            let seed = UInt64(40_000 + shard * 100 + k)
            var rng = SeededRandom(seed: seed)
            var state = TableState()
            try state.apply(.reload(sections: [SectionSpec(rows: 12, rowHeight: Points(50)), SectionSpec(rows: 6, header: Points(20), title: "B")]))
            for _ in 0..<80 {
                let e = TimedEvent(RandomEvents.event(using: &rng, rows: 14, sections: 3), t: RandomEvents.time(after: state.t, using: &rng))
                _ = try? state.apply(e)
                let back = try TableState(snapshot: state.snapshot())
                #expect(back == state, "seed \(seed) after \(EventEncoder.line(e))")
                #expect(back.hashHex == state.hashHex)
                #expect(back.events == state.events && back.t == state.t)
            }
        }
    }

    @Test("snapshots of synthetic sessions read back equal")
    func syntheticRoundTrip() throws {
        var it = SyntheticSession(seed: 3, count: 20_000).makeIterator()
        var n = 0
        while it.next() != nil {
            n += 1
            if n % 997 == 0 {
                let s = it.state
                #expect(try TableState(snapshot: s.snapshot()) == s)
            }
        }
    }

    @Test("a damaged snapshot is an error, never a crash")
    func damagedSnapshot() throws {
        let s = try play(multipleTable + "\n" + #"{"type": "selectAll"}"#)
        let bytes = s.snapshot()
        for cut in stride(from: 0, to: bytes.count, by: 3) {
            #expect(throws: SnapshotError.self) { try TableState(snapshot: Array(bytes.prefix(cut))) }
        }
        var extra = bytes
        extra.append(0)
        #expect(throws: SnapshotError.self) { try TableState(snapshot: extra) }
    }
}
