import Testing
@testable import SelectLog

/// What a tree holds, node by node: how many nodes, and what is wrong with them (a
/// count or sum that is not its children's, leaves at different depths, an empty run).
extension HeightTree {
    func audit() -> (nodes: Int, problems: [String]) {
        var nodes = 0
        var problems: [String] = []
        var leafDepths = Set<Int>()
        func visit(_ node: Node, depth: Int) {
            nodes += 1
            if node.isLeaf {
                leafDepths.insert(depth)
                if let run = node.run {
                    if !node.heights.isEmpty { problems.append("a run leaf with heights") }
                    if node.sum != run &* Int64(node.count) { problems.append("a run leaf's sum") }
                } else {
                    if node.count != node.heights.count { problems.append("a leaf's count") }
                    if node.sum != node.heights.reduce(0, &+) { problems.append("a leaf's sum") }
                    if node.heights.count > HeightTree.leafCapacity { problems.append("an overfull leaf") }
                }
                return
            }
            if node.children.count > HeightTree.fanout { problems.append("an overfull inner node") }
            if node.childCounts != node.children.map(\.count) { problems.append("child counts") }
            if node.childSums != node.children.map(\.sum) { problems.append("child sums") }
            if node.count != node.childCounts.reduce(0, +) { problems.append("an inner node's count") }
            if node.sum != node.childSums.reduce(0, &+) { problems.append("an inner node's sum") }
            if node.childCounts.contains(0) { problems.append("an empty child") }
            for child in node.children { visit(child, depth: depth + 1) }
        }
        visit(root, depth: 0)
        if leafDepths.count > 1 { problems.append("leaves at depths \(leafDepths.sorted())") }
        return (nodes, problems)
    }
}

@Suite("Height tree runs: rows of one height cost nothing per row")
struct HeightTreeRunTests {
    /// `heights` as runs (adjacent equal heights merged).
    static func runs(_ heights: [Points]) -> [(Points, Int)] {
        var out: [(Points, Int)] = []
        for h in heights {
            if let last = out.last, last.0 == h { out[out.count - 1].1 += 1 } else { out.append((h, 1)) }
        }
        return out
    }

    static func runs(of tree: HeightTree) -> [(Points, Int)] {
        var out: [(Points, Int)] = []
        tree.forEachRun { out.append(($0, $1)) }
        return out
    }

    @Test("random edits of a tree built from runs agree with [Points], and it stays a valid tree", arguments: [1, 2, 3, 4, 5, 6])
    func editsAgreeWithArray(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        // Few distinct heights, so that edits often give a run its own height back.
        let palette = [Points(0), Points(10), Points(44), Points(44), Points(60)]
        func height() -> Points { palette[Int.random(in: 0..<palette.count, using: &rng)] }
        var builder = HeightTree.Builder()
        var reference: [Points] = []
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
            let h = height()
            let n = [1, 3, 15, 16, 17, 200, 3000][Int.random(in: 0..<7, using: &rng)]
            builder.append(h, count: n)
            reference.append(contentsOf: repeatElement(h, count: n))
        }
        var tree = builder.build()
        for step in 0..<1500 {
            let op = Int.random(in: 0..<10, using: &rng)
            if op < 4 || reference.isEmpty {
                let i = Int.random(in: 0...reference.count, using: &rng)
                let h = height()
                reference.insert(h, at: i)
                tree.insert(h, at: i)
            } else if op < 7 {
                let i = Int.random(in: 0..<reference.count, using: &rng)
                let removed = tree.remove(at: i)
                #expect(removed == reference.remove(at: i), "seed \(seed) step \(step)")
            } else {
                let i = Int.random(in: 0..<reference.count, using: &rng)
                let h = height()
                reference[i] = h
                tree.setHeight(h, at: i)
            }
            if step % 100 == 0 || step == 1499 {
                let audit = tree.audit()
                #expect(audit.problems.isEmpty, "seed \(seed) step \(step): \(audit.problems)")
                #expect(tree.count == reference.count)
                #expect(tree.heights == reference, "seed \(seed) step \(step)")
                let expected = Self.runs(reference), got = Self.runs(of: tree)
                #expect(got.count == expected.count && zip(got, expected).allSatisfy { $0 == $1 },
                        "forEachRun gives maximal runs: seed \(seed) step \(step)")
                #expect(tree == HeightTree(reference), "equal to the same heights stored one by one")
                var acc = Points.zero
                for (i, h) in reference.enumerated() {
                    if i % 7 == 0 || h > .zero && i % 3 == 0 {
                        #expect(tree.offset(of: i) == acc)
                        #expect(tree.height(at: i) == h)
                        if h > .zero {
                            #expect(tree.index(containing: acc) == i)
                            #expect(tree.span(containing: acc + h - Points(raw: 1))?.index == i)
                            #expect(tree.span(containing: acc)?.start == acc.raw)
                            #expect(tree.span(containing: acc)?.end == (acc + h).raw)
                        }
                    }
                    acc += h
                }
                #expect(tree.total == acc)
                #expect(tree.offset(of: reference.count) == acc)
                #expect(tree.index(containing: acc) == nil)
            }
        }
    }

    @Test("a short leaf keeps only its rows, not a whole leaf's storage (a million one-row sections took 1.3 GB)",
          arguments: [1, 2, 5, 15])
    func shortLeafStorage(rows: Int) {
        var builder = HeightTree.Builder()
        for i in 0..<rows { builder.append(Points(i % 2 == 0 ? 44 : 10), count: 1) }
        let tree = builder.build()
        #expect(tree.count == rows)
        #expect(tree.root.isLeaf && tree.root.heights.count == rows)
        #expect(tree.root.heights.capacity < HeightTree.leafCapacity / 4, "\(tree.root.heights.capacity)")
        #expect((0..<rows).map { tree.height(at: $0) } == (0..<rows).map { Points($0 % 2 == 0 ? 44 : 10) })
    }

    @Test("a section of 50,000,000 rows of one height is one node, and each edit inside it adds at most a few")
    func hugeSectionsAreRuns() {
        let section = LayoutSection(count: 50_000_000, rowHeight: Points(44), heights: [Points(10), Points(20)])
        var tree = section.rows
        #expect(tree.count == 50_000_000)
        #expect(tree.total == Points(10 + 20 + 44 * 49_999_998))
        #expect(tree.audit().nodes <= 3, "the two given heights in a leaf, the rest one run")
        #expect(tree.offset(of: 40_000_000) == Points(10 + 20 + 44 * 39_999_998))
        #expect(tree.index(containing: Points(10 + 20 + 44 * 39_999_998)) == 40_000_000)
        // 1,000 edits at random rows: the tree grows with the edits, not the rows.
        var rng = SeededRandom(seed: 9)
        var edited: [Int: Points] = [:]
        for _ in 0..<1000 {
            let i = Int.random(in: 2..<tree.count, using: &rng)
            let h = Points(raw: Int64.random(in: 1...4000, using: &rng))
            tree.setHeight(h, at: i)
            edited[i] = h
        }
        let audit = tree.audit()
        #expect(audit.problems.isEmpty, "\(audit.problems)")
        #expect(audit.nodes <= 3 * 1000 + 3 + 1000 / 8, "\(audit.nodes) nodes after 1,000 edits")
        for (i, h) in edited { #expect(tree.height(at: i) == h) }
        #expect(tree.height(at: 1) == Points(20))
        let expectedTotal = edited.reduce(Points(10 + 20 + 44 * 49_999_998)) { $0 + $1.value - Points(44) }
        #expect(tree.total == expectedTotal)
        #expect(section.rows.count == 50_000_000 && section.rows.audit().nodes <= 3, "the copy edited, not the original")
    }

    @Test("a reload of 100,000,000 rows holds runs, and its canonical form and hash are the heights' (not how they are stored)")
    func reloadOfAHundredMillionRows() throws {
        let s = try play(#"{"type": "reload", "sections": [{"rows": 50000000, "rowHeights": [60, 60, 10]}, {"rows": 50000000, "rowHeight": 30}]}"#)
        #expect(s.layout.rowCount == 100_000_000)
        #expect(s.layout.sections.allSatisfy { $0.rows.audit().nodes <= 3 })
        // The same heights stored one by one (small enough to store) hash alike.
        let small = try play(#"{"type": "reload", "sections": [{"rows": 5000, "rowHeights": [60, 60, 10]}, {"rows": 3000, "rowHeight": 30}]}"#)
        var explicit = small
        explicit.layout = TableLayout(sections: small.layout.sections.map { s in
            LayoutSection(rows: HeightTree(s.rows.heights), rowHeight: s.rowHeight, header: s.header, footer: s.footer, title: s.title)
        }, editorHeight: small.layout.editorHeight)
        #expect(explicit.layout.sections[0].rows.audit().nodes > 10, "stored one by one")
        #expect(explicit.hashValue64 == small.hashValue64)
        #expect(explicit == small)
        // A snapshot reads back as runs.
        let back = try TableState(snapshot: s.snapshot())
        #expect(back.hashValue64 == s.hashValue64)
        #expect(back.layout.sections.allSatisfy { $0.rows.audit().nodes <= 3 })
    }

    @Test("selecting and deselecting all of 100,000,000 rows reports one run per section, not a path per row")
    func changesOfAHundredMillionRowsAreRuns() throws {
        var s = try play("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 50000000}, {"rows": 50000000, "rowHeight": 30}]}
            """)
        let all = [RowRun(section: 0, rows: 0..<50_000_000), RowRun(section: 1, rows: 0..<50_000_000)]
        let selected = try apply(&s, #"{"type": "selectAll"}"#)
        #expect(selected.selectedRuns == all)
        #expect(selected.deselectedRuns.isEmpty)
        #expect(s.selection.count == 100_000_000)
        let undone = try apply(&s, #"{"type": "undo"}"#)
        #expect(undone.deselectedRuns == all)
        _ = try apply(&s, #"{"type": "redo"}"#)
        _ = try apply(&s, #"{"type": "deselect", "rows": [[0, 7], [1, 49999999]]}"#)
        let cleared = try apply(&s, #"{"type": "deselectAll"}"#)
        #expect(cleared.deselectedRuns == [RowRun(section: 0, rows: 0..<7), RowRun(section: 0, rows: 8..<50_000_000),
                                          RowRun(section: 1, rows: 0..<49_999_999)])
        #expect(cleared.selectedRuns.isEmpty)
    }

    @Test("an edit inside a run, undone, folds back into one run")
    func undoneEditFoldsBack() {
        var tree = HeightTree(repeating: Points(44), count: 1000)
        tree.setHeight(Points(60), at: 500)
        #expect(tree.audit().nodes > 1)
        tree.setHeight(Points(44), at: 500)
        #expect(tree.audit().nodes == 1, "\(tree.audit())")
        #expect(tree == HeightTree(repeating: Points(44), count: 1000))
        // Near the start: the heights beside the edit fold back as well.
        tree.setHeight(Points(0), at: 3)
        tree.setHeight(Points(44), at: 3)
        #expect(tree.audit().nodes == 1, "\(tree.audit())")
    }
}

