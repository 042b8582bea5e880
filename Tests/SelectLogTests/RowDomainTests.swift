import Testing
@testable import SelectLog

/// `RangeList` and `RowSet` are public: an app may call them with any `Int`. Rows and
/// sections outside `RangeList.domain` name no member, and members pushed past its end
/// fall off; nothing traps (before, `insert(Int.max)` overflowed `row + 1`).
@Suite("Row sets take any Int without trapping")
struct RowDomainTests {
    static let end = RangeList.domain.upperBound
    static let extremes = [Int.min, Int.min + 1, -1, 0, 1, end - 2, end - 1, end, end + 1, Int.max - 1, Int.max]

    @Test("every public operation of RangeList, at every extreme, keeps members in the domain")
    func rangeListExtremes() {
        for a in Self.extremes {
            for b in Self.extremes {
                var list = RangeList(normalizing: [0..<3, (Self.end - 3)..<Self.end])
                list.insert(a)
                list.remove(b)
                if a <= b { list.insert(a..<b) }
                list.insertRow(at: a, member: true)
                list.removeRow(at: b)
                list.insertRow(at: b, member: false)
                if a <= b { list.remove(a..<b) }
                _ = list.contains(a)
                if a <= b { _ = (list.containsAll(a..<b), list.intersects(a..<b)) }
                if a <= b { _ = list.union(RangeList(a..<b)).intersection(RangeList(normalizing: [a..<b])).subtracting(list) }
                #expect(list.ranges.allSatisfy { RangeList.domain.lowerBound <= $0.lowerBound && $0.upperBound <= Self.end }, "\(a), \(b): \(list.ranges)")
                #expect(list.count <= RangeList.domain.count)
            }
        }
    }

    @Test("rows outside the domain are never members, and ranges are cut to it")
    func outsideIsNoMember() {
        var list = RangeList()
        for row in [Int.min, -1, Self.end, Int.max] {
            list.insert(row)
            #expect(!list.contains(row))
        }
        #expect(list.isEmpty)
        #expect(RangeList(-5..<3) == RangeList(0..<3))
        #expect(RangeList(normalizing: [Int.min..<Int.max]) == RangeList(RangeList.domain))
        #expect(RangeList(RangeList.domain).count == 1 << 30)
        list.insert(Int.min..<Int.max)
        #expect(list == RangeList(RangeList.domain))
        // Opening or closing a row outside the domain moves nothing.
        var three = RangeList(0..<3)
        three.insertRow(at: -1, member: true)
        let removed = three.removeRow(at: Int.max)
        #expect(!removed)
        #expect(three == RangeList(0..<3))

        var set = RowSet([RowPath(0, Int.max), RowPath(Int.max, 0), RowPath(-1, 2), RowPath(1, 1)])
        #expect(set.paths == [RowPath(1, 1)])
        set.insert(RowPath(Int.min, Int.min))
        set.insert(0..<Int.max, in: Int.max)
        set.insertSection(at: -1)
        set.removeSection(at: Int.max)
        set.insertRow(at: RowPath(1, -1), member: true)
        let wasMember = set.removeRow(at: RowPath(-1, 0))
        #expect(!wasMember)
        #expect(set.paths == [RowPath(1, 1)])
    }

    @Test("a member in the domain's last row falls off when a row opens above it, one at a time or as a run")
    func lastRowFallsOff() {
        var list = RangeList((Self.end - 2)..<Self.end)
        list.insertRow(at: 0, member: false)
        #expect(list == RangeList((Self.end - 1)..<Self.end))
        list.insertRow(at: Self.end - 1, member: true)  // the new row takes the last place
        #expect(list == RangeList((Self.end - 1)..<Self.end))

        let start = RowSet([RowPath(0, 5), RowPath(0, Self.end - 2), RowPath(0, Self.end - 1)])
        let two: [RowOperation] = [.insert(RowPath(0, 0), source: .new(0)), .insert(RowPath(0, 1), source: .new(1))]
        #expect(OperationRun.split(two).count == 1, "the two insertions follow as one run")
        #expect(start.applying(two).paths == [RowPath(0, 7)])
        var oneByOne = start
        for case let .insert(p, _) in two { oneByOne.insertRow(at: p, member: false) }
        #expect(oneByOne == start.applying(two))

        // A section whose last members fall off is no longer in the set, one row or a run.
        let lonely = RowSet([RowPath(0, Self.end - 1)])
        var one = lonely
        one.insertRow(at: RowPath(0, 0), member: false)
        #expect(one.isEmpty && one == RowSet() && one.sections.isEmpty)
        let run = RowSet([RowPath(0, Self.end - 2), RowPath(0, Self.end - 1)]).applying(two)
        #expect(run.isEmpty && run == RowSet())
    }

    @Test("a section in the domain's last place falls off when a section opens above it")
    func lastSectionFallsOff() {
        let start = RowSet([RowPath(3, 1), RowPath(Self.end - 1, 4)])
        var one = start
        one.insertSection(at: 0)
        #expect(one.paths == [RowPath(4, 1)])
        let run: [RowOperation] = [.insertSection(0), .insertSection(1)]
        #expect(OperationRun.split(run).count == 1)
        #expect(RowSet([RowPath(3, 1), RowPath(Self.end - 2, 4)]).applying(run).paths == [RowPath(5, 1)])
        // Operations outside the domain change nothing, alone or among others.
        let outside: [RowOperation] = [.insertSection(-1), .removeSection(Int.max), .insert(RowPath(0, Int.max), source: .new(0)), .remove(RowPath(-3, 0), move: nil)]
        #expect(start.applying(outside) == start)
        #expect(start.applying(outside + [.insertSection(0)]) == one)
    }

    @Test("the count of four whole sections: exact where Int has 64 bits, Int.max where it has 32")
    func countSaturates() {
        var set = RowSet()
        for s in 0..<4 { set.insert(RangeList.domain, in: s) }
        #expect(set.count == Int(clamping: Int64(4) << 30))
    }
}
