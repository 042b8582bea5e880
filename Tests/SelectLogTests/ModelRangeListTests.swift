import Testing
@testable import SelectLog

/// The queries of `RangeList` (membership, containment, intersection, counts, union)
/// against a plain `[Bool]`, on ranges that touch, overlap or miss the members.
@Suite("Range-list queries agree with a plain [Bool]")
struct ModelRangeListTests {
    @Test("contains, containsAll, intersects, count, first, last and union", arguments: [11, 12])
    func queries(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var reference = [Bool](repeating: false, count: 120)
        var list = RangeList()
        for step in 0..<800 {
            let a = Int.random(in: 0..<reference.count, using: &rng)
            let b = min(reference.count, a + Int.random(in: 1...9, using: &rng))
            if Bool.random(using: &rng) {
                list.insert(a..<b)
                for i in a..<b { reference[i] = true }
            } else {
                list.remove(a..<b)
                for i in a..<b { reference[i] = false }
            }
            let members = reference.indices.filter { reference[$0] }
            #expect(list.count == members.count && list.first == members.first && list.last == members.last, "seed \(seed) step \(step)")
            #expect(list.isEmpty == members.isEmpty, "seed \(seed) step \(step)")
            var rows = RowSet()
            for r in list.ranges { rows.insert(r, in: 1) }
            // Query ranges start anywhere, including at a member range's edges, and may be empty.
            for _ in 0..<6 {
                let lower = Int.random(in: 0..<reference.count, using: &rng)
                let upper = min(reference.count, lower + Int.random(in: 0...6, using: &rng))
                let q = lower..<upper
                #expect(list.contains(lower) == reference[lower], "seed \(seed) step \(step) row \(lower)")
                #expect(list.containsAll(q) == q.allSatisfy { reference[$0] }, "seed \(seed) step \(step) \(q)")
                #expect(list.intersects(q) == q.contains { reference[$0] }, "seed \(seed) step \(step) \(q)")
                #expect(rows.intersects(q, in: 1) == q.contains { reference[$0] }, "seed \(seed) step \(step) \(q)")
                #expect(rows.containsAll(q, in: 1) == q.allSatisfy { reference[$0] }, "seed \(seed) step \(step) \(q)")
                #expect(!rows.intersects(q, in: 0) && rows.containsAll(q, in: 0) == q.isEmpty, "seed \(seed) step \(step) \(q)")
                let other = RangeList(normalizing: [q])
                let union = RangeList(normalizing: reference.indices.filter { reference[$0] || q.contains($0) }.map { $0..<$0 + 1 })
                #expect(list.union(other) == union, "seed \(seed) step \(step) \(q)")
            }
        }
    }
}
