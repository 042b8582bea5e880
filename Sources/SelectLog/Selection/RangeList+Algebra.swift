/// The set algebra of range lists: union, difference and intersection, each one pass over
/// both lists, and the in-place forms a row set uses for many runs at once.
extension RangeList {
    /// The rows in either list: one pass over both.
    public func union(_ other: RangeList) -> RangeList {
        if other.isEmpty { return self }
        if isEmpty { return other }
        var out: [Range<Int>] = []
        out.reserveCapacity(ranges.count + other.ranges.count)
        var i = 0, j = 0
        while i < ranges.count || j < other.ranges.count {
            let next: Range<Int>
            if j == other.ranges.count || (i < ranges.count && ranges[i].lowerBound <= other.ranges[j].lowerBound) {
                next = ranges[i]
                i += 1
            } else {
                next = other.ranges[j]
                j += 1
            }
            if let last = out.last, last.upperBound >= next.lowerBound {
                if next.upperBound > last.upperBound { out[out.count - 1] = last.lowerBound..<next.upperBound }
            } else {
                out.append(next)
            }
        }
        var result = RangeList()
        result.ranges = out
        return result
    }

    /// Adds every row of `other`, in place: the ranges of `other` are merged in from the
    /// back into room made at the end, then touching ranges are joined in one forward
    /// pass. O(n + m), with no second list (a `select` of many runs over a large
    /// selection held both before).
    mutating func formUnion(_ other: RangeList) {
        guard !other.isEmpty else { return }
        guard !isEmpty else { return self = other }
        let n = ranges.count, m = other.ranges.count
        ranges.append(contentsOf: other.ranges)
        var i = n - 1, j = m - 1, w = n + m - 1
        while j >= 0 {
            if i >= 0 && ranges[i].lowerBound > other.ranges[j].lowerBound {
                ranges[w] = ranges[i]
                i -= 1
            } else {
                ranges[w] = other.ranges[j]
                j -= 1
            }
            w -= 1
        }
        var k = 0
        for r in 0..<n + m {
            let next = ranges[r]
            if k > 0 && ranges[k - 1].upperBound >= next.lowerBound {
                if next.upperBound > ranges[k - 1].upperBound { ranges[k - 1] = ranges[k - 1].lowerBound..<next.upperBound }
            } else {
                ranges[k] = next
                k += 1
            }
        }
        ranges.removeLast(n + m - k)
        assert(isSound, "formUnion left \(ranges)")
    }

    /// Removes every row of `other`, in place: the ranges move back by `other`'s count,
    /// then the pieces left are written from the front. Each cut adds at most one piece,
    /// so writing never passes the range being read. O(n + m), with no second list.
    mutating func subtract(_ other: RangeList) {
        guard !other.isEmpty, !isEmpty else { return }
        if sharesStorage(with: other) { return ranges.removeAll() }
        let n = ranges.count, m = other.ranges.count
        ranges.append(contentsOf: other.ranges)
        var r = n - 1
        while r >= 0 {
            ranges[r + m] = ranges[r]
            r -= 1
        }
        var w = 0, j = 0
        for p in m..<n + m {
            let range = ranges[p]
            var lower = range.lowerBound
            while j < m && other.ranges[j].upperBound <= lower { j += 1 }
            var k = j
            while k < m && other.ranges[k].lowerBound < range.upperBound {
                let cut = other.ranges[k]
                if cut.lowerBound > lower {
                    ranges[w] = lower..<cut.lowerBound
                    w += 1
                }
                lower = Swift.max(lower, cut.upperBound)
                k += 1
            }
            if lower < range.upperBound {
                ranges[w] = lower..<range.upperBound
                w += 1
            }
        }
        ranges.removeLast(n + m - w)
        assert(isSound, "subtract left \(ranges)")
    }

    /// Whether the two lists share their storage, and so are equal. A set and its copy
    /// keep sharing the lists of the sections neither has changed since (copy on write),
    /// so comparing a selection with the one before an event skips all but a few.
    @inline(__always)
    func sharesStorage(with other: RangeList) -> Bool {
        ranges.withUnsafeBufferPointer { mine in
            other.ranges.withUnsafeBufferPointer { mine.baseAddress == $0.baseAddress && mine.count == $0.count }
        }
    }

    /// The rows of this list that are not in `other`.
    public func subtracting(_ other: RangeList) -> RangeList {
        if sharesStorage(with: other) { return RangeList() }
        var out: [Range<Int>] = []
        forEachRun(subtracting: other) { out.append($0) }
        var result = RangeList()
        result.ranges = out
        return result
    }

    /// Calls `body` with the ranges of `subtracting(other)`, ascending, without building it.
    func forEachRun(subtracting other: RangeList, _ body: (Range<Int>) -> Void) {
        if sharesStorage(with: other) { return }
        var j = 0
        for r in ranges {
            var lower = r.lowerBound
            while j < other.ranges.count && other.ranges[j].upperBound <= lower { j += 1 }
            var k = j
            while k < other.ranges.count && other.ranges[k].lowerBound < r.upperBound {
                let cut = other.ranges[k]
                if cut.lowerBound > lower { body(lower..<cut.lowerBound) }
                lower = max(lower, cut.upperBound)
                k += 1
            }
            if lower < r.upperBound { body(lower..<r.upperBound) }
        }
    }

    /// The rows in both lists.
    public func intersection(_ other: RangeList) -> RangeList {
        var out: [Range<Int>] = []
        var i = 0, j = 0
        while i < ranges.count && j < other.ranges.count {
            let a = ranges[i], b = other.ranges[j]
            let lower = max(a.lowerBound, b.lowerBound), upper = min(a.upperBound, b.upperBound)
            if lower < upper { out.append(lower..<upper) }
            if a.upperBound < b.upperBound { i += 1 } else { j += 1 }
        }
        var result = RangeList()
        result.ranges = out
        return result
    }
}
