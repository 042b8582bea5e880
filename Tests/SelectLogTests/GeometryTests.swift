import Testing
@testable import SelectLog

@Suite("2. The table")
struct GeometryTests {
    @Test("rowHeight defaults to 44; rowHeights is positional and entries past rows are ignored")
    func sectionDefaults() throws {
        let s = try play(#"{"type": "reload", "sections": [{"rows": 3, "rowHeights": [10, 20, 30, 40, 50]}, {"rows": 2}]}"#)
        #expect(s.layout.contentHeight == Points(10 + 20 + 30 + 44 + 44))
        let t = try play(#"{"type": "reload", "sections": [{"rows": 3, "rowHeight": 10, "rowHeights": [25]}]}"#)
        #expect(t.layout.sections[0].rows.heights == [Points(25), Points(10), Points(10)])
    }

    @Test("content stacks header, rows and footer of every section")
    func contentStacksSections() throws {
        let s = try play(#"{"type": "reload", "sections": [{"rows": 2, "rowHeight": 50, "header": 30, "footer": 10}, {"rows": 1, "rowHeight": 40, "header": 20}]}"#)
        #expect(s.layout.contentHeight == Points(30 + 100 + 10 + 20 + 40))
        #expect(s.layout.element(at: Points(0)) == .header(0))
        #expect(s.layout.element(at: Points(30)) == .row(p(0, 0)))
        #expect(s.layout.element(at: Points(129)) == .row(p(0, 1)))
        #expect(s.layout.element(at: Points(130)) == .footer(0))
        #expect(s.layout.element(at: Points(140)) == .header(1))
        #expect(s.layout.element(at: Points(160)) == .row(p(1, 0)))
        #expect(s.layout.element(at: Points(200)) == .nothing)
    }

    @Test("a point outside [0, width) × [0, height) hits nothing")
    func pointsOutsideViewportHitNothing() throws {
        let s = try play(singleTable)
        #expect(s.element(at: ViewportPoint(x: Points(-1), y: Points(10))) == .nothing)
        #expect(s.element(at: ViewportPoint(x: Points(390), y: Points(10))) == .nothing)
        #expect(s.element(at: ViewportPoint(x: Points(389), y: Points(10))) == .row(p(0, 0)))
        #expect(s.element(at: ViewportPoint(x: Points(10), y: Points(600))) == .nothing)
        #expect(s.element(at: ViewportPoint(x: Points(10), y: Points(-1))) == .nothing)
    }

    @Test("hit testing adds the content offset and spans are half-open")
    func hitTestingUsesOffset() throws {
        var s = try play(singleTable)
        try apply(&s, #"{"type": "scroll", "y": 120}"#)
        // y 0 is content 120: row 2 spans [100, 150).
        #expect(s.row(at: ViewportPoint(x: Points(5), y: Points(0))) == p(0, 2))
        #expect(s.row(at: ViewportPoint(x: Points(5), y: Points(30))) == p(0, 3))
    }

    @Test("zero-height rows are never hit and never visible")
    func zeroHeightRows() throws {
        let s = try play(#"{"type": "viewport", "width": 100, "height": 100}"# + "\n" +
            #"{"type": "reload", "sections": [{"rows": 4, "rowHeights": [0, 50, 0, 50]}]}"#)
        #expect(s.layout.element(at: Points(0)) == .row(p(0, 1)))
        #expect(s.layout.element(at: Points(50)) == .row(p(0, 3)))
        #expect(s.visibleRows == p(0, 1)...p(0, 3))
        let t = try play(#"{"type": "viewport", "width": 100, "height": 50}"# + "\n" +
            #"{"type": "reload", "sections": [{"rows": 3, "rowHeights": [50, 0, 50]}]}"#)
        #expect(t.visibleRows == p(0, 0)...p(0, 0))
    }

    @Test("contentOffset is clamped to [0, max(0, contentHeight - height)]")
    func offsetIsClamped() throws {
        var s = try play(singleTable)
        try apply(&s, #"{"type": "scroll", "y": 99999}"#)
        #expect(s.offset == 4400)
        try apply(&s, #"{"type": "scroll", "dy": -99999}"#)
        #expect(s.offset == 0)
        var short = try play(#"{"type": "reload", "sections": [{"rows": 2}]}"#)
        try apply(&short, #"{"type": "scroll", "y": 50}"#)
        #expect(short.offset == 0)
    }

    @Test("visible rows are the data rows intersecting [offset, offset + height)")
    func visibleRows() throws {
        var s = try play(singleTable)
        try apply(&s, #"{"type": "scroll", "y": 120}"#)
        // [120, 720): rows 2 (100..150) through 14 (700..750).
        #expect(s.visibleRows == p(0, 2)...p(0, 14))
        try apply(&s, #"{"type": "scroll", "y": 100}"#)
        // [100, 700): row 14 starts at 700, outside.
        #expect(s.visibleRows == p(0, 2)...p(0, 13))
    }

    @Test("the viewport defaults to 390 × 844")
    func viewportDefault() {
        let s = TableState()
        #expect(s.viewport == ViewportSize(width: Points(390), height: Points(844)))
    }
}

@Suite("Height tree against a plain array")
struct HeightTreeTests {
    @Test("random inserts, removes and height changes agree with [Points]", arguments: [1, 2, 3, 4])
    func agreesWithArray(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var reference = (0..<Int.random(in: 0...600, using: &rng)).map { _ in Points(raw: Int64.random(in: 0...4000, using: &rng)) }
        var tree = HeightTree(reference)
        for step in 0..<3000 {
            let op = Int.random(in: 0..<10, using: &rng)
            if op < 4 || reference.isEmpty {
                let i = Int.random(in: 0...reference.count, using: &rng)
                let h = Points(raw: Int64.random(in: 0...4000, using: &rng))
                reference.insert(h, at: i)
                tree.insert(h, at: i)
            } else if op < 8 {
                let i = Int.random(in: 0..<reference.count, using: &rng)
                let removed = tree.remove(at: i)
                #expect(removed == reference.remove(at: i), "seed \(seed) step \(step)")
            } else {
                let i = Int.random(in: 0..<reference.count, using: &rng)
                let h = Points(raw: Int64.random(in: 0...4000, using: &rng))
                reference[i] = h
                tree.setHeight(h, at: i)
            }
            if step % 50 == 0 {
                #expect(tree.heights == reference, "seed \(seed) step \(step)")
                var acc = Points.zero
                for (i, h) in reference.enumerated() {
                    #expect(tree.offset(of: i) == acc)
                    if h > .zero {
                        #expect(tree.index(containing: acc) == i)
                        #expect(tree.index(containing: acc + h - Points(raw: 1)) == i)
                    }
                    acc += h
                }
                #expect(tree.total == acc)
                #expect(tree.index(containing: acc) == nil)
            }
        }
    }

    @Test("copies are independent (copy on write)")
    func copiesAreIndependent() {
        let original = HeightTree(repeating: Points(10), count: 10_000)
        var copy = original
        copy.insert(Points(99), at: 5000)
        copy.setHeight(Points(1), at: 0)
        #expect(original.count == 10_000)
        #expect(original.total == Points(100_000))
        #expect(copy.count == 10_001)
        #expect(copy.height(at: 5000) == Points(99))
        #expect(original.height(at: 0) == Points(10))
    }
}

@Suite("Range lists against a plain [Bool]")
struct RangeListTests {
    @Test("insert, remove, row insertion and row removal agree with [Bool]", arguments: [7, 8, 9])
    func agreesWithBools(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var reference = [Bool](repeating: false, count: 200)
        var list = RangeList()
        for step in 0..<4000 {
            let a = Int.random(in: 0..<reference.count, using: &rng)
            let b = min(reference.count, a + Int.random(in: 1...20, using: &rng))
            switch Int.random(in: 0..<6, using: &rng) {
            case 0:
                list.insert(a..<b)
                for i in a..<b { reference[i] = true }
            case 1:
                list.remove(a..<b)
                for i in a..<b { reference[i] = false }
            case 2:
                let member = Bool.random(using: &rng)
                list.insertRow(at: a, member: member)
                reference.insert(member, at: a)
            case 3:
                let was = list.removeRow(at: a)
                #expect(was == reference.remove(at: a), "seed \(seed) step \(step)")
            case 4:
                let other = RangeList(normalizing: [a..<b])
                let expected = RangeList(normalizing: reference.indices.filter { reference[$0] && !(a..<b).contains($0) }.map { $0..<$0 + 1 })
                #expect(list.subtracting(other) == expected, "seed \(seed) step \(step)")
            default:
                let other = RangeList(normalizing: [a..<b])
                let expected = RangeList(normalizing: reference.indices.filter { reference[$0] && (a..<b).contains($0) }.map { $0..<$0 + 1 })
                #expect(list.intersection(other) == expected, "seed \(seed) step \(step)")
            }
            if reference.count < 50 { reference.append(contentsOf: repeatElement(false, count: 50)) }
            let expected = RangeList(normalizing: reference.indices.filter { reference[$0] }.map { $0..<$0 + 1 })
            #expect(list == expected, "seed \(seed) step \(step)")
            // Normal form: sorted, non-empty, with gaps.
            for (x, y) in zip(list.ranges, list.ranges.dropFirst()) { #expect(x.upperBound < y.lowerBound) }
        }
    }
}
