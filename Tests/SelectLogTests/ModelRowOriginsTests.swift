import Testing
@testable import SelectLog

/// `RowOrigins` (runs of rows with the event that last touched them) against a plain
/// array of origins per section, one entry per row, edited with `Array.insert`/`remove`.
@Suite("Row origins agree with a plain array per section")
struct ModelRowOriginsTests {
    @Test("random removals, insertions, moves, section edits and selection changes", arguments: 0..<2)
    func randomOperations(shard: Int) throws {
        for k in 0..<60 {
            let seed = UInt64(60_000 + shard * 60 + k)
            var rng = SeededRandom(seed: seed)
            let counts = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Int.random(in: 0...40, using: &rng) }
            var state = TableState()
            try state.apply(.reload(sections: counts.map { SectionSpec(rows: $0) }))
            let reloaded = Bool.random(using: &rng)
            var origins = reloaded ? RowOrigins(layout: state.layout, insertedAt: 0) : RowOrigins(layout: state.layout)
            var model: [[RowOrigin]] = counts.enumerated().map { s, n in
                (0..<n).map { reloaded ? .inserted(0) : .existing(RowPath(s, $0)) }
            }
            for index in 1...40 {
                var carried: [Int: RowOrigin] = [:]
                var operations: [RowOperation] = []
                switch Int.random(in: 0..<5, using: &rng) {
                case 0:
                    // Selection changes: a few random rows of random sections.
                    var rows: [RowPath] = []
                    for _ in 0..<Int.random(in: 0...6, using: &rng) {
                        guard let s = model.indices.randomElement(using: &rng), !model[s].isEmpty else { continue }
                        let first = Int.random(in: 0..<model[s].count, using: &rng)
                        for r in first..<min(first + Int.random(in: 1...5, using: &rng), model[s].count) { rows.append(RowPath(s, r)) }
                    }
                    origins.markChanged(RowSet(rows), at: index)
                    for p in rows { model[p.section][p.row] = .changed(index) }
                case 1:
                    // A new section with rows.
                    let i = Int.random(in: 0...model.count, using: &rng)
                    let n = Int.random(in: 0...5, using: &rng)
                    origins.apply([.insertSection(i)], at: index)
                    origins.markInserted(section: i, rows: n, at: index)
                    model.insert(Array(repeating: .inserted(index), count: n), at: i)
                case 2 where !model.isEmpty:
                    let i = Int.random(in: 0..<model.count, using: &rng)
                    operations = [.removeSection(i)]
                    model.remove(at: i)
                default:
                    // Removals (some carried as moves), then insertions (some of the carried rows).
                    var moves = 0
                    for _ in 0..<Int.random(in: 0...3, using: &rng) {
                        guard let s = model.indices.randomElement(using: &rng), !model[s].isEmpty else { continue }
                        let r = Int.random(in: 0..<model[s].count, using: &rng)
                        let move: Int? = Bool.random(using: &rng) ? moves : nil
                        operations.append(.remove(RowPath(s, r), move: move))
                        let origin = model[s].remove(at: r)
                        if let move {
                            carried[move] = origin
                            moves += 1
                        }
                    }
                    var pending = Array(0..<moves)
                    for n in 0..<Int.random(in: 0...3, using: &rng) + moves {
                        guard let s = model.indices.randomElement(using: &rng) else { continue }
                        let r = Int.random(in: 0...model[s].count, using: &rng)
                        if let m = pending.popLast() {
                            operations.append(.insert(RowPath(s, r), source: .move(m)))
                            model[s].insert(carried[m] ?? .inserted(index), at: r)
                        } else {
                            operations.append(.insert(RowPath(s, r), source: .new(n)))
                            model[s].insert(.inserted(index), at: r)
                        }
                    }
                }
                if !operations.isEmpty { origins.apply(operations, at: index) }
                if Int.random(in: 0..<8, using: &rng) == 0 {
                    // Operations naming a section past the end are ignored, never a trap.
                    let past = model.count
                    origins.apply([.removeSection(past), .remove(RowPath(past, 0), move: nil), .insert(RowPath(past, 0), source: .new(0))], at: index)
                    origins.markInserted(section: past, rows: 3, at: index)
                    origins.markChanged(RowSet([RowPath(past, 0), RowPath(past + 1, 2)]), at: index)
                }
                for (s, rows) in model.enumerated() {
                    for (r, expected) in rows.enumerated() {
                        let actual = origins.origin(of: RowPath(s, r))
                        #expect(actual == expected, "seed \(seed) step \(index): row [\(s), \(r)] after \(operations)")
                        if actual != expected { return }
                    }
                    #expect(origins.origin(of: RowPath(s, rows.count)) == nil, "seed \(seed) step \(index): a row past section \(s)")
                }
                #expect(origins.origin(of: RowPath(model.count, 0)) == nil, "seed \(seed) step \(index): a section past the end")
            }
        }
    }
}
