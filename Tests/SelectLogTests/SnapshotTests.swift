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

    @Test("the hash of a large state, taken 64 KiB at a time, is the hash of its whole encoding")
    func hashInChunks() throws {
        // 10,000 titled sections, an editor of 60,000 chosen options and 30 choose steps:
        // an encoding of over a megabyte, which `hashValue64` spills into the hasher as
        // it writes.
        var s = try play(#"{"type": "configure", "allowsMultipleSelection": true}"#)
        try s.apply(.viewport(width: Points(390), height: Points(600)))
        try s.apply(.reload(sections: (0..<10_000).map { SectionSpec(rows: 1 + $0 % 7, rowHeight: Points(44), title: "Section \($0)") }))
        try s.apply(.toggleEditor(row: RowPath(0, 0), options: (0..<60_000).map { "option \($0)" },
                                  multiple: true, chosen: Array(0..<60_000)))
        for k in 0..<30 { try s.apply(.choose(option: k * 1_009)) }
        var whole = BinaryWriter()
        s.writeCanonical(into: &whole)
        #expect(whole.count > 1 << 20)
        var reference = CanonicalHasher()
        reference.bytes(whole.bytes)
        #expect(s.hashValue64 == reference.digest)
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
