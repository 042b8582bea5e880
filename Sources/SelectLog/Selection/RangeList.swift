/// A set of row numbers within one section, stored as sorted, disjoint,
/// non-adjacent half-open ranges. Every operation costs O(ranges), never O(rows).
///
/// Members are rows of ``domain``. Rows outside it name no member: adding, removing,
/// opening or closing a row there does nothing, a range is cut to it, and a member
/// pushed past its end by a new row above falls off. So no argument makes a list's
/// arithmetic overflow or trap, whatever the width of `Int`.
public struct RangeList: Hashable, Sendable {
    /// The ranges, sorted, non-empty, with a gap between neighbours.
    public internal(set) var ranges: [Range<Int>]

    /// The rows a list can hold: 0 up to 2^30 (1,073,741,824), ten times the most rows
    /// a table may have (`EventLimits.tableRows`), so the engine never reaches its end.
    public static let domain: Range<Int> = 0..<(1 << 30)

    /// No rows.
    public init() { ranges = [] }
    /// The rows of `range` (within ``domain``).
    public init(_ range: Range<Int>) {
        let range = range.clamped(to: Self.domain)
        ranges = range.isEmpty ? [] : [range]
    }
    /// Ranges in any order; they are cut to ``domain``, sorted and merged.
    public init<S: Sequence>(normalizing input: S) where S.Element == Range<Int> {
        let sorted = input.lazy.map { $0.clamped(to: Self.domain) }.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
        var out: [Range<Int>] = []
        out.reserveCapacity(sorted.count)
        for r in sorted {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        ranges = out
    }

    /// Whether the ranges are what the type promises: each non-empty and within
    /// ``domain``, in order, with a gap between neighbours. Every operation keeps it;
    /// the in-place algebra asserts it in debug builds, and `TableState`'s invariant
    /// check asks it of the selection.
    package var isSound: Bool {
        var previous = Int.min
        for r in ranges {
            guard !r.isEmpty, r.lowerBound >= Self.domain.lowerBound, r.upperBound <= Self.domain.upperBound,
                  previous == Int.min || r.lowerBound > previous else { return false }
            previous = r.upperBound
        }
        return true
    }

    /// Whether no row is a member.
    public var isEmpty: Bool { ranges.isEmpty }
    /// The number of rows.
    public var count: Int { ranges.reduce(0) { $0 + $1.count } }
    /// The lowest member, if any.
    public var first: Int? { ranges.first?.lowerBound }
    /// The highest member, if any.
    public var last: Int? { ranges.last.map { $0.upperBound - 1 } }

    /// The position of the first range whose upper bound is greater than `row`.
    func firstIndex(endingAfter row: Int) -> Int {
        // `lo` and `hi` stay in 0...count, so neither the midpoint nor the index can
        // overflow or leave the storage: the search skips both checks (a pan sample asks
        // whether the row under the finger is selected).
        ranges.withUnsafeBufferPointer { ranges in
            var lo = 0, hi = ranges.count
            while lo < hi {
                let mid = Int(bitPattern: UInt(bitPattern: lo &+ hi) &>> 1)
                if ranges[mid].upperBound <= row { lo = mid &+ 1 } else { hi = mid }
            }
            return lo
        }
    }

    /// Whether `row` is a member.
    @inline(__always)  // a binary search; asked on every pan sample
    public func contains(_ row: Int) -> Bool {
        let i = firstIndex(endingAfter: row)
        return i < ranges.count && ranges[i].lowerBound <= row
    }

    /// Whether every row of `range` is a member (true for an empty range). O(log ranges).
    public func containsAll(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return true }
        let i = firstIndex(endingAfter: range.lowerBound)
        return i < ranges.count && ranges[i].lowerBound <= range.lowerBound && ranges[i].upperBound >= range.upperBound
    }

    /// Whether some row of `range` is a member. O(log ranges).
    public func intersects(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        let i = firstIndex(endingAfter: range.lowerBound)
        return i < ranges.count && ranges[i].lowerBound < range.upperBound
    }

    /// Calls `body` with the maximal runs of `range`, ascending, whose rows are
    /// members (`members`) or not. No allocation.
    func forEachRun(in range: Range<Int>, members: Bool, _ body: (Range<Int>) -> Void) {
        guard !range.isEmpty else { return }
        var i = firstIndex(endingAfter: range.lowerBound)
        if members {
            while i < ranges.count && ranges[i].lowerBound < range.upperBound {
                body(max(ranges[i].lowerBound, range.lowerBound)..<min(ranges[i].upperBound, range.upperBound))
                i += 1
            }
            return
        }
        var lower = range.lowerBound
        while lower < range.upperBound {
            if i < ranges.count && ranges[i].lowerBound <= lower {
                lower = ranges[i].upperBound
                i += 1
                continue
            }
            let next = i < ranges.count ? min(ranges[i].lowerBound, range.upperBound) : range.upperBound
            body(lower..<next)
            lower = next
        }
    }

    /// Adds every row of `range` (within ``domain``).
    public mutating func insert(_ range: Range<Int>) {
        let range = range.clamped(to: Self.domain)
        guard !range.isEmpty else { return }
        // Ranges that touch or overlap `range` are [i, j).
        var i = firstIndex(endingAfter: range.lowerBound - 1)
        if i > 0 && ranges[i - 1].upperBound >= range.lowerBound { i -= 1 }
        var j = i
        var lower = range.lowerBound, upper = range.upperBound
        while j < ranges.count && ranges[j].lowerBound <= upper {
            lower = min(lower, ranges[j].lowerBound)
            upper = max(upper, ranges[j].upperBound)
            j += 1
        }
        // In place: a pan that grows a run by a row widens one range (the generic
        // `replaceSubrange` cost more than the rest of the insertion).
        switch j - i {
        case 0: ranges.insert(lower..<upper, at: i)
        case 1: ranges[i] = lower..<upper
        default:
            ranges[i] = lower..<upper
            ranges.removeSubrange(i + 1..<j)
        }
    }

    /// Removes every row of `range`. In place: at most the two ends of the ranges it
    /// cuts survive, so nothing is allocated when the storage is not shared.
    public mutating func remove(_ range: Range<Int>) {
        let range = range.clamped(to: Self.domain)
        guard !range.isEmpty else { return }
        let i = firstIndex(endingAfter: range.lowerBound)
        var j = i
        while j < ranges.count && ranges[j].lowerBound < range.upperBound { j += 1 }
        guard i < j else { return }
        let head = ranges[i].lowerBound < range.lowerBound ? ranges[i].lowerBound..<range.lowerBound : nil
        let tail = ranges[j - 1].upperBound > range.upperBound ? range.upperBound..<ranges[j - 1].upperBound : nil
        switch (head, tail) {
        case (nil, nil): ranges.removeSubrange(i..<j)
        case (let h?, nil): replace(i..<j, with: h)
        case (nil, let t?): replace(i..<j, with: t)
        case (let h?, let t?):
            if j - i >= 2 {
                ranges[i] = h
                ranges[i + 1] = t
                ranges.removeSubrange(i + 2..<j)
            } else {
                ranges[i] = h
                ranges.insert(t, at: i + 1)
            }
        }
    }

    /// Replaces the ranges at `positions` (not empty) by `range`, in place when they are one.
    private mutating func replace(_ positions: Range<Int>, with range: Range<Int>) {
        ranges[positions.lowerBound] = range
        if positions.count > 1 { ranges.removeSubrange(positions.lowerBound + 1..<positions.upperBound) }
    }

    /// Adds `row` (nothing outside ``domain``).
    public mutating func insert(_ row: Int) {
        guard Self.domain.contains(row) else { return }
        insert(row..<row &+ 1)
    }
    /// Removes `row`.
    public mutating func remove(_ row: Int) {
        guard Self.domain.contains(row) else { return }
        remove(row..<row &+ 1)
    }

    /// Opens a gap for a new row at `row`: rows at or after it move down by one,
    /// and the new row is a member iff `member`. A member in the last row of
    /// ``domain`` falls off; a row outside it opens nothing.
    public mutating func insertRow(at row: Int, member: Bool) {
        guard Self.domain.contains(row) else { return }
        if let last = ranges.last, last.upperBound == Self.domain.upperBound {
            remove(Self.domain.upperBound - 1)
        }
        let i = firstIndex(endingAfter: row)
        if i < ranges.count && ranges[i].lowerBound < row {
            // `row` falls strictly inside a range: split it around the new row.
            let r = ranges[i]
            ranges.replaceSubrange(i...i, with: [r.lowerBound..<row, row + 1..<r.upperBound + 1])
            shift(from: i + 2, by: 1)
        } else {
            shift(from: i, by: 1)
        }
        if member { insert(row) }
    }

    /// Moves the ranges from index `start` on by `delta` rows, in one pass over the
    /// storage (the array's uniqueness checked once, not once a range): a row edit moves
    /// every kept undo step's rows after it, most of them one range or two.
    @inline(__always)
    private mutating func shift(from start: Int, by delta: Int) {
        guard start < ranges.count else { return }
        ranges.withUnsafeMutableBufferPointer { b in
            // Row numbers stay far from overflow (at most `EventLimits`' rows), and a shift
            // keeps each range's order: no checks.
            for k in start..<b.count {
                b[k] = Range(uncheckedBounds: (b[k].lowerBound &+ delta, b[k].upperBound &+ delta))
            }
        }
    }

    /// Closes the gap of a removed row: rows after it move up by one. Returns whether it
    /// was a member (a row outside ``domain`` never was, and closes nothing).
    @discardableResult
    public mutating func removeRow(at row: Int) -> Bool {
        guard Self.domain.contains(row) else { return false }
        let i = firstIndex(endingAfter: row)
        guard i < ranges.count else { return false }
        let wasMember = ranges[i].lowerBound <= row
        var k = i
        if wasMember {
            let r = ranges[i]
            if r.count == 1 {
                ranges.remove(at: i)
            } else {
                ranges[i] = r.lowerBound..<r.upperBound - 1
                k = i + 1
            }
        }
        shift(from: k, by: -1)
        // The removal may have made two ranges touch.
        let seam = wasMember ? i : i - 1
        if seam >= 0 && seam + 1 < ranges.count && ranges[seam].upperBound == ranges[seam + 1].lowerBound {
            ranges.replaceSubrange(seam...seam + 1, with: CollectionOfOne(ranges[seam].lowerBound..<ranges[seam + 1].upperBound))
        }
        return wasMember
    }

    /// Flips the membership of `row`, with one search: a selection pan's record of the
    /// rows it changed takes a row at each step, usually at the end of a range.
    mutating func toggle(_ row: Int) {
        let i = firstIndex(endingAfter: row)
        if i < ranges.count && ranges[i].lowerBound <= row {
            let r = ranges[i]
            if r.count == 1 {
                ranges.remove(at: i)
            } else if row == r.lowerBound {
                ranges[i] = row + 1..<r.upperBound
            } else if row == r.upperBound - 1 {
                ranges[i] = r.lowerBound..<row
            } else {
                ranges[i] = r.lowerBound..<row
                ranges.insert(row + 1..<r.upperBound, at: i + 1)
            }
            return
        }
        // Not a member: it may join the range before it, the one after it, or both.
        let joinsBefore = i > 0 && ranges[i - 1].upperBound == row
        let joinsAfter = i < ranges.count && ranges[i].lowerBound == row + 1
        switch (joinsBefore, joinsAfter) {
        case (true, true):
            ranges[i - 1] = ranges[i - 1].lowerBound..<ranges[i].upperBound
            ranges.remove(at: i)
        case (true, false): ranges[i - 1] = ranges[i - 1].lowerBound..<row + 1
        case (false, true): ranges[i] = row..<ranges[i].upperBound
        case (false, false): ranges.insert(row..<row + 1, at: i)
        }
    }

    /// Closes the gaps of the removed rows `rows` (ascending, distinct): what
    /// `removeRow(at:)` of each, from the last, does, in one pass over the ranges
    /// (O(ranges + rows), where one at a time costs O(ranges × rows)).
    mutating func removeRows(_ rows: [Int]) {
        guard !rows.isEmpty, !ranges.isEmpty else { return }
        var out: [Range<Int>] = []
        out.reserveCapacity(ranges.count)
        var d = 0
        for r in ranges {
            while d < rows.count && rows[d] < r.lowerBound { d += 1 }
            let before = d
            while d < rows.count && rows[d] < r.upperBound { d += 1 }
            // The members left in `r` close up into one run, after the `before` removed rows.
            let lower = r.lowerBound - before, upper = r.upperBound - d
            guard lower < upper else { continue }
            if let last = out.last, last.upperBound == lower {
                out[out.count - 1] = last.lowerBound..<upper  // the rows between were all removed
            } else {
                out.append(lower..<upper)
            }
        }
        ranges = out
    }

    /// Opens gaps for new rows, not members, at `rows` (ascending, distinct, in the
    /// frame after the insertions): what `insertRow(at:member: false)` of each, from the
    /// first, does, in one pass over the ranges.
    mutating func insertRows(_ rows: [Int]) {
        guard !rows.isEmpty, !ranges.isEmpty else { return }
        // The i-th new row lands before old row rows[i] - i (non-decreasing), so an old
        // row r moves down by the number of new rows that land at or before it.
        var out: [Range<Int>] = []
        out.reserveCapacity(ranges.count)
        var i = 0
        for r in ranges {
            var lower = r.lowerBound
            while lower < r.upperBound {
                while i < rows.count && rows[i] - i <= lower { i += 1 }
                let upper = i < rows.count ? Swift.min(rows[i] - i, r.upperBound) : r.upperBound
                out.append(lower + i..<upper + i)
                lower = upper
            }
        }
        // Members pushed past the domain's end fall off (never in the engine's tables).
        while let last = out.last, last.upperBound > Self.domain.upperBound {
            if last.lowerBound >= Self.domain.upperBound {
                out.removeLast()
            } else {
                out[out.count - 1] = last.lowerBound..<Self.domain.upperBound
            }
        }
        ranges = out
    }
}
