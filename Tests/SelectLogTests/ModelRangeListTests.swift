import Testing
@testable import SelectLog

/// The queries of `RangeList` (membership, containment, intersection, counts, union)
/// against a plain `[Bool]`, on ranges that touch, overlap or miss the members.
@Suite("Range-list queries agree with a plain [Bool]")
struct ModelRangeListTests {
    @Test("contains, containsAll, intersects, count, first, last and union, after inserts, removals and flips", arguments: [11, 12])
    func queries(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var reference = [Bool](repeating: false, count: 120)
        var list = RangeList()
        for step in 0..<800 {
            let a = Int.random(in: 0..<reference.count, using: &rng)
            let b = min(reference.count, a + Int.random(in: 1...9, using: &rng))
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                list.insert(a..<b)
                for i in a..<b { reference[i] = true }
            case 1:
                list.remove(a..<b)
                for i in a..<b { reference[i] = false }
            default:
                // One row flipped: inside a range, at its ends, beside one, between two.
                list.toggle(a)
                reference[a].toggle()
                #expect(list == RangeList(normalizing: reference.indices.filter { reference[$0] }.map { $0..<$0 + 1 }), "seed \(seed) step \(step) toggle \(a)")
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

    @Test("a row set adds and removes another's rows, few runs or many, as a plain set of paths does", arguments: [13, 14])
    func formUnionAndSubtract(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var set = RowSet()
        var reference = Set<RowPath>()
        func random(_ most: Int) -> [RowPath] {
            // Scattered rows and short runs in up to three sections: many runs a section when `most` is large.
            (0..<Int.random(in: 0...most, using: &rng)).flatMap { _ -> [RowPath] in
                let s = Int.random(in: 0..<3, using: &rng), r = Int.random(in: 0..<600, using: &rng)
                return (r..<r + Int.random(in: 1...3, using: &rng)).map { RowPath(s, $0) }
            }
        }
        var manyUnions = 0, manySubtractions = 0
        for step in 0..<300 {
            let rows = random(Bool.random(using: &rng) ? 4 : 300)
            let other = RowSet(rows)
            let runs = other.sections.map(\.rows.ranges.count).max() ?? 0
            let lists = set.sections.map(\.rows)
            if Bool.random(using: &rng) {
                set.formUnion(other)
                reference.formUnion(rows)
                if runs > RowSet.runByRun { manyUnions += 1 }
            } else {
                set.subtract(other)
                reference.subtract(rows)
                if runs > RowSet.runByRun { manySubtractions += 1 }
            }
            #expect(set == RowSet(Array(reference)), "seed \(seed) step \(step)")
            // The list union on its own, with many ranges on both sides.
            if let a = lists.first, let b = other.sections.first?.rows {
                let expected = RangeList(normalizing: a.ranges + b.ranges)
                #expect(a.union(b) == expected && b.union(a) == expected, "seed \(seed) step \(step): \(a.ranges) ∪ \(b.ranges)")
                var inPlace = a
                inPlace.formUnion(b)
                #expect(inPlace == expected, "seed \(seed) step \(step): \(a.ranges) ∪ \(b.ranges) in place")
                let left = RangeList(normalizing: a.ranges.flatMap { r in r.filter { !b.contains($0) }.map { $0..<$0 + 1 } })
                inPlace = a
                inPlace.subtract(b)
                #expect(inPlace == left && a.subtracting(b) == left, "seed \(seed) step \(step): \(a.ranges) − \(b.ranges)")
            }
        }
        // Both ways of each: run by run, and in one pass.
        #expect(manyUnions > 30 && manySubtractions > 30, "only \(manyUnions) unions and \(manySubtractions) subtractions took one pass")
    }

    /// `formUnion` and `subtract` work only on the ranges that meet the span of the other
    /// list: other lists of a few runs clustered anywhere (before every range, after them,
    /// in a gap, touching a range's ends, across many ranges) against a plain [Bool].
    @Test("the in-place union and difference of clustered runs, at every place a span can fall", arguments: [51, 52])
    func clusteredAlgebra(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for step in 0..<2_000 {
            var reference = [Bool](repeating: false, count: 400)
            var list = RangeList()
            for _ in 0..<Int.random(in: 0...40, using: &rng) {
                let r = Int.random(in: 20..<380, using: &rng), n = Int.random(in: 1...6, using: &rng)
                list.insert(r..<r + n)
                for k in r..<r + n { reference[k] = true }
            }
            // A cluster: a few runs inside a window of 0-60 rows placed anywhere.
            let start = Int.random(in: 0..<390, using: &rng), width = Int.random(in: 0...60, using: &rng)
            var runs: [Range<Int>] = []
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                let r = Int.random(in: start...min(start + width, 398), using: &rng)
                runs.append(r..<min(r + Int.random(in: 1...4, using: &rng), 400))
            }
            // Runs that end exactly where a range starts or start where one ends, now and then.
            if let r = list.ranges.randomElement(using: &rng), Bool.random(using: &rng) {
                runs.append(Bool.random(using: &rng) ? max(r.lowerBound - 2, 0)..<r.lowerBound : r.upperBound..<min(r.upperBound + 2, 400))
            }
            let other = RangeList(normalizing: runs)
            var union = list, difference = list
            union.formUnion(other)
            difference.subtract(other)
            let inOther = (0..<400).map { other.contains($0) }
            let expectedUnion = RangeList(normalizing: (0..<400).filter { reference[$0] || inOther[$0] }.map { $0..<$0 + 1 })
            let expectedDifference = RangeList(normalizing: (0..<400).filter { reference[$0] && !inOther[$0] }.map { $0..<$0 + 1 })
            #expect(union == expectedUnion && union.isSound, "seed \(seed) step \(step): \(list.ranges) ∪ \(other.ranges) gave \(union.ranges)")
            #expect(difference == expectedDifference && difference.isSound, "seed \(seed) step \(step): \(list.ranges) − \(other.ranges) gave \(difference.ranges)")
        }
    }

    @Test("many rows deleted or inserted at once: the rows a plain [Bool] keeps, and what one at a time gives", arguments: [21, 22, 23])
    func rowsAtOnce(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for step in 0..<300 {
            let n = Int.random(in: 0...80, using: &rng)
            // Members in runs of every length, with gaps of every length, touching both ends sometimes.
            var reference = [Bool](repeating: false, count: n)
            var list = RangeList()
            var row = Int.random(in: 0...2, using: &rng)
            while row < n {
                let end = min(n, row + Int.random(in: 1...6, using: &rng))
                list.insert(row..<end)
                for i in row..<end { reference[i] = true }
                row = end + Int.random(in: 1...5, using: &rng)
            }
            // Deleted rows: a random subset, ascending (whole runs, run edges and gaps among them).
            let deleted = (0..<n).filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }
            var expected = RangeList()
            for (k, r) in reference.indices.filter({ !deleted.contains($0) }).enumerated() where reference[r] { expected.insert(k) }
            var atOnce = list, oneByOne = list
            atOnce.removeRows(deleted)
            for r in deleted.reversed() { oneByOne.removeRow(at: r) }
            #expect(atOnce == expected, "seed \(seed) step \(step): deleting \(deleted) from \(list.ranges)")
            #expect(oneByOne == expected, "seed \(seed) step \(step)")

            // New rows: distinct positions in the table after the insertions, ascending.
            let k = Int.random(in: 0...30, using: &rng)
            var isNew = [Bool](repeating: true, count: k) + [Bool](repeating: false, count: n)
            isNew.shuffle(using: &rng)
            let inserted = isNew.indices.filter { isNew[$0] }
            var after = [Bool](), old = 0
            for position in 0..<(n + inserted.count) {
                if inserted.contains(position) {
                    after.append(false)
                } else {
                    after.append(reference[old])
                    old += 1
                }
            }
            expected = RangeList()
            for r in after.indices where after[r] { expected.insert(r) }
            atOnce = list
            oneByOne = list
            atOnce.insertRows(inserted)
            for r in inserted { oneByOne.insertRow(at: r, member: false) }
            #expect(atOnce == expected, "seed \(seed) step \(step): inserting \(inserted) into \(list.ranges)")
            #expect(oneByOne == expected, "seed \(seed) step \(step)")
        }
    }

    @Test("a row set follows runs of an edit at once as it follows them one at a time", arguments: [31, 32])
    func setFollowsRuns(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for step in 0..<200 {
            var set = RowSet()
            for section in 0..<3 {
                var row = Int.random(in: 0...3, using: &rng)
                while row < 40 {
                    let end = row + Int.random(in: 1...4, using: &rng)
                    set.insert(row..<end, in: section)
                    row = end + Int.random(in: 1...4, using: &rng)
                }
            }
            // Deletes and inserts in several sections, and a move between them that breaks the runs.
            func paths(_ count: Int) -> [RowPath] {
                // Distinct, in a shuffled order (`operations` sorts them).
                var all = (0..<120).map { RowPath($0 / 40, $0 % 40) }
                all.shuffle(using: &rng)
                return Array(all.prefix(count))
            }
            let deletes = paths(Int.random(in: 0...25, using: &rng))
            var inserts = paths(Int.random(in: 0...25, using: &rng))
            var moves: [BatchUpdate.Move] = []
            if Bool.random(using: &rng), let from = (0..<40).map({ RowPath(1, $0) }).first(where: { !deletes.contains($0) }) {
                let to = RowPath(2, 20)
                inserts.removeAll { $0 == to }
                moves.append(.init(from: from, to: to))
            }
            let operations = BatchUpdate(deletes: deletes, inserts: inserts, moves: moves).operations
            var oneByOne = set, carry = RowCarry()
            for operation in operations { oneByOne.follow(operation, carry: &carry) }
            #expect(set.applying(operations) == oneByOne, "seed \(seed) step \(step): \(operations)")
        }
    }

    @Test("sections inserted or deleted in one event: the state of one event per section", arguments: [41, 42, 43])
    func sectionRuns(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        for step in 0..<40 {
            // Sections of a few rows with titles, a selection across them, undo steps, and
            // sometimes the editor open below a row.
            let count = Int.random(in: 1...30, using: &rng)
            var lines = [#"{"type": "configure", "allowsMultipleSelection": true}"#,
                         #"{"type": "viewport", "width": 390, "height": 600}"#]
            let sections = (0..<count).map { #"{"rows": \#(1 + $0 % 4), "rowHeight": 20, "title": "S\#($0)"}"# }
            lines.append(#"{"type": "reload", "sections": [\#(sections.joined(separator: ", "))]}"#)
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                let section = Int.random(in: 0..<count, using: &rng)
                lines.append(#"{"type": "select", "rows": [[\#(section), 0]]}"#)
            }
            if Bool.random(using: &rng) {
                lines.append(#"{"type": "toggleEditor", "row": [\#(Int.random(in: 0..<count, using: &rng)), 0], "options": ["a"]}"#)
            }
            let base = lines.joined(separator: "\n")
            let deleting = Bool.random(using: &rng)
            var at: [Int]
            if deleting {
                at = (0..<count).filter { _ in Bool.random(using: &rng) }
                if at.isEmpty { at = [0] }
            } else {
                let k = Int.random(in: 1...12, using: &rng)
                var isNew = [Bool](repeating: true, count: k) + [Bool](repeating: false, count: count)
                isNew.shuffle(using: &rng)
                at = isNew.indices.filter { isNew[$0] }
            }
            let one: String, each: [String]
            if deleting {
                one = #"{"type": "deleteSections", "at": \#(at)}"#
                // From the last: the indices before it stay where they are.
                each = at.reversed().map { #"{"type": "deleteSections", "at": [\#($0)]}"# }
            } else {
                let new = { (i: Int) in #"{"rows": 2, "rowHeight": 30, "title": "N\#(i)"}"# }
                one = #"{"type": "insertSections", "at": \#(at), "sections": [\#(at.map(new).joined(separator: ", "))]}"#
                // From the first: each index is where the section ends up.
                each = at.map { #"{"type": "insertSections", "at": [\#($0)], "sections": [\#(new($0))]}"# }
            }
            let together = try play(base + "\n" + one)
            let apart = try play(base + "\n" + each.joined(separator: "\n"))
            #expect(together.hashValue64 == apart.hashValue64, "seed \(seed) step \(step): \(one)")
            #expect(together.layout == apart.layout && together.selection == apart.selection && together.undoStack == apart.undoStack
                    && together.editor == apart.editor, "seed \(seed) step \(step): \(one)")
        }
    }
}
