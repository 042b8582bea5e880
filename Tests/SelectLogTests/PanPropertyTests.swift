import Testing
@testable import SelectLog

/// Thousands of random selection pans over a table of mixed heights with headers and an editor row.
@Suite("Properties of selection pans")
struct PanPropertyTests {
    static func table(_ reversal: Reversal, seed: UInt64) throws -> (TableState, SeededRandom) {
        var rng = SeededRandom(seed: seed)
        var s = TableState()
        var c = ConfigurationPatch()
        c.allowsMultipleSelection = true
        var strip = StripPatch()
        strip.enabled = true
        strip.reversal = reversal
        strip.rowsPerSecond = Points(Int.random(in: 1...40, using: &rng))
        strip.jitter = Points(Int.random(in: 0...6, using: &rng))
        c.scrollAndSelect = strip
        try s.apply(.configure(c))
        try s.apply(.viewport(width: Points(390), height: Points(500)))
        let sections = (0..<3).map { _ in
            SectionSpec(rows: Int.random(in: 1...30, using: &rng),
                        rowHeights: (0..<30).map { _ in Points(raw: Int64.random(in: 0...80, using: &rng) * 64 + Int64.random(in: 0..<64, using: &rng)) },
                        header: Points(Int.random(in: 0...40, using: &rng)))
        }
        try s.apply(.reload(sections: sections))
        if Bool.random(using: &rng) { try s.apply(.toggleEditor(row: RowPath(0, 0), options: ["a"], multiple: false, chosen: [])) }
        let rows = (0..<Int.random(in: 0...10, using: &rng)).map { _ in RowPath(Int.random(in: 0..<3, using: &rng), Int.random(in: 0..<s.layout.rowCount(in: 0), using: &rng)) }
            .filter { s.layout.contains($0) }
        try s.apply(.select(rows: rows))
        try s.apply(.scroll(.to(Points(Int.random(in: 0...800, using: &rng))), phase: nil, target: nil))
        return (s, rng)
    }

    /// Data rows strictly between `a` and `b` in content order, both included.
    static func between(_ s: TableState, _ a: RowPath, _ b: RowPath) -> [RowPath] {
        s.rows(between: a, and: b).paths
    }

    @Test("restore: after every event the selection is the pre-pan selection with the mode applied from S to R", arguments: 0..<4)
    func restoreInvariant(shard: Int) throws {
        for k in 0..<250 {
            let seed = UInt64(10_000 + shard * 250 + k)
            var (s, rng) = try PanPropertyTests.table(.restore, seed: seed)
            let before = s.selection
            var t = s.t
            try s.apply(TimedEvent(.panBegan(ViewportPoint(x: Points(10), y: Points(Int.random(in: 0...499, using: &rng))), fingers: 1), t: t))
            for step in 0..<30 {
                t = Micros(raw: t.raw + Int64.random(in: 0...40_000, using: &rng))
                let e: Event = Int.random(in: 0..<4, using: &rng) == 0
                    ? .tick
                    : .panMoved(ViewportPoint(x: Points(Int.random(in: -5...80, using: &rng)), y: Points(Int.random(in: -30...530, using: &rng))))
                try s.apply(TimedEvent(e, t: t))
                guard let pan = s.pan else { break }
                var expected = before
                if let start = pan.start, let end = pan.end, let mode = pan.mode {
                    let range = s.rows(between: start, and: end)
                    expected = mode == .select ? before.union(range) : before.subtracting(range)
                }
                #expect(s.selection == expected, "seed \(seed) step \(step)")
                #expect(s.invariantViolations().isEmpty, "seed \(seed) step \(step): \(s.invariantViolations())")
            }
        }
    }

    @Test("either policy: no row between two consecutive finger rows is left without the mode", arguments: [Reversal.flip, .restore])
    func noRowSkipped(reversal: Reversal) throws {
        for k in 0..<500 {
            let seed = UInt64(20_000 + k)
            var (s, rng) = try PanPropertyTests.table(reversal, seed: seed)
            var t = s.t
            try s.apply(TimedEvent(.panBegan(ViewportPoint(x: Points(10), y: Points(Int.random(in: 0...499, using: &rng))), fingers: 1), t: t))
            for step in 0..<30 {
                let previous = s.pan?.anchor
                let previousEnd = s.pan?.end
                t = Micros(raw: t.raw + Int64.random(in: 0...40_000, using: &rng))
                let e: Event = Int.random(in: 0..<4, using: &rng) == 0
                    ? .tick
                    : .panMoved(ViewportPoint(x: Points(Int.random(in: 0...60, using: &rng)), y: Points(Int.random(in: -30...530, using: &rng))))
                try s.apply(TimedEvent(e, t: t))
                guard let pan = s.pan, let mode = pan.mode, let end = pan.end else { continue }
                // flip: the rows from the previous finger row (the anchor) to the current one carry
                // the mode; restore: every row from the start row to the finger does.
                let from = reversal == .flip ? previous : pan.start
                if let from, reversal == .restore || end != previousEnd {
                    for r in PanPropertyTests.between(s, from, end) {
                        #expect(s.selection.contains(r) == (mode == .select), "seed \(seed) step \(step) row \(r)")
                    }
                }
                #expect(s.contentOffset >= .zero && s.contentOffset <= s.maxOffset, "seed \(seed) step \(step)")
            }
        }
    }

    @Test("panCancelled gives back the pre-pan selection; without scrolling, the pre-pan hash", arguments: [Reversal.flip, .restore])
    func cancelRestores(reversal: Reversal) throws {
        for k in 0..<500 {
            let seed = UInt64(30_000 + k)
            var (s, rng) = try PanPropertyTests.table(reversal, seed: seed)
            let hash = s.hashHex
            let selection = s.selection
            let withTicks = Bool.random(using: &rng)
            var t = s.t
            try s.apply(TimedEvent(.panBegan(ViewportPoint(x: Points(10), y: Points(Int.random(in: 0...499, using: &rng))), fingers: 1), t: t))
            for _ in 0..<20 {
                t = Micros(raw: t.raw + Int64.random(in: 0...40_000, using: &rng))
                let e: Event = withTicks && Bool.random(using: &rng)
                    ? .tick
                    : .panMoved(ViewportPoint(x: Points(Int.random(in: 0...60, using: &rng)), y: Points(Int.random(in: -30...530, using: &rng))))
                try s.apply(TimedEvent(e, t: t))
            }
            try s.apply(.panCancelled)
            #expect(s.selection == selection, "seed \(seed)")
            if !withTicks { #expect(s.hashHex == hash, "seed \(seed)") }
        }
    }
}
