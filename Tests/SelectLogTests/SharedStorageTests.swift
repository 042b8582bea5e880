import Testing
@testable import SelectLog

/// A selection and its copy share the lists of the sections neither changed; the
/// difference of the two skips those sections. It must still be the plain difference.
@Suite("Differences of sets that share storage")
struct SharedStorageTests {
    @Test("a copy changed in a few sections differs from the original by exactly those rows", arguments: [21, 22, 23])
    func copyDifference(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var original = RowSet()
        for _ in 0..<60 {
            let section = Int.random(in: 0..<6, using: &rng), lower = Int.random(in: 0..<80, using: &rng)
            original.insert(lower..<lower + Int.random(in: 1...5, using: &rng), in: section)
        }
        for step in 0..<200 {
            var copy = original
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                let section = Int.random(in: 0..<7, using: &rng), lower = Int.random(in: 0..<80, using: &rng)
                let rows = lower..<lower + Int.random(in: 1...4, using: &rng)
                if Bool.random(using: &rng) { copy.insert(rows, in: section) } else { copy.remove(rows, in: section) }
            }
            let a = Set(copy.paths), b = Set(original.paths)
            #expect(Set(copy.subtracting(original).paths) == a.subtracting(b), "seed \(seed) step \(step)")
            #expect(Set(original.subtracting(copy).paths) == b.subtracting(a), "seed \(seed) step \(step)")
            var added: [RowRun] = [], removed: [RowRun] = []
            copy.appendRuns(subtracting: original, to: &added)
            original.appendRuns(subtracting: copy, to: &removed)
            #expect(RowRun.paths(added) == a.subtracting(b).sorted() && RowRun.paths(removed) == b.subtracting(a).sorted(), "seed \(seed) step \(step)")
            #expect(copy.subtracting(copy).isEmpty && copy.isSubset(of: copy), "seed \(seed) step \(step)")
            original = copy
        }
    }
}
