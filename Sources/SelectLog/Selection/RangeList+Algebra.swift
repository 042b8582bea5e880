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

    /// Adds every row of `other`, in place. Only the ranges that touch or overlap the span
    /// of `other` can change: room for `other`'s ranges is made after them (the ranges
    /// after the span move once, as one block), `other`'s ranges are merged in from the
    /// back, then touching ranges are joined in one forward pass over the span. O(span + m)
    /// plus the move, with no second list (a `select` of many runs over a large selection
    /// held both before).
    mutating func formUnion(_ other: RangeList) {
        guard !other.isEmpty else { return }
        guard !isEmpty else { return self = other }
        let m = other.ranges.count
        let end = other.ranges[m - 1].upperBound
        // [a, b): the ranges that reach `other`'s first row (touching it joins them) and
        // start at or before its end. A range before `a` ends short of the span, and one
        // after `b` starts past it, each with a gap: neither can join the merged ranges.
        let a = firstIndex(endingAfter: other.ranges[0].lowerBound - 1)
        var b = firstIndex(endingAfter: end)
        if b < ranges.count && ranges[b].lowerBound <= end { b += 1 }
        ranges.insert(contentsOf: other.ranges, at: b)
        // On the buffers: one uniqueness check, where each write through the array checked it
        // again (3x slower). Every index stays in a..<b + m of `ranges` and 0..<m of `other`.
        let k = ranges.withUnsafeMutableBufferPointer { mine in
            other.ranges.withUnsafeBufferPointer { theirs in
                var i = b - 1, j = m - 1, w = b + m - 1
                while j >= 0 {
                    if i >= a && mine[i].lowerBound > theirs[j].lowerBound {
                        mine[w] = mine[i]
                        i -= 1
                    } else {
                        mine[w] = theirs[j]
                        j -= 1
                    }
                    w -= 1
                }
                var k = a
                for r in a..<b + m {
                    let next = mine[r]
                    if k > a && mine[k - 1].upperBound >= next.lowerBound {
                        if next.upperBound > mine[k - 1].upperBound { mine[k - 1] = mine[k - 1].lowerBound..<next.upperBound }
                    } else {
                        mine[k] = next
                        k += 1
                    }
                }
                return k
            }
        }
        ranges.removeSubrange(k..<b + m)
        assert(isSound, "formUnion left \(ranges)")
    }

    /// Removes every row of `other`, in place. Only the ranges that overlap the span of
    /// `other` can change: they move back by `other`'s count (with the ranges after them,
    /// as one block), then the pieces left are written from the span's front. Each cut adds
    /// at most one piece, so writing never passes the range being read. O(span + m) plus
    /// the moves, with no second list.
    mutating func subtract(_ other: RangeList) {
        guard !other.isEmpty, !isEmpty else { return }
        if sharesStorage(with: other) { return ranges.removeAll() }
        let m = other.ranges.count
        let end = other.ranges[m - 1].upperBound
        // [a, b): the ranges that overlap the span of `other`.
        let a = firstIndex(endingAfter: other.ranges[0].lowerBound)
        var b = firstIndex(endingAfter: end - 1)
        if b < ranges.count && ranges[b].lowerBound < end { b += 1 }
        guard a < b else { return }
        ranges.insert(contentsOf: other.ranges, at: a)
        // On the buffers, as in `formUnion`. Every index stays in a..<b + m and 0..<m.
        let w = ranges.withUnsafeMutableBufferPointer { mine in
            other.ranges.withUnsafeBufferPointer { theirs in
                var w = a, j = 0
                for p in a + m..<b + m {
                    let range = mine[p]
                    var lower = range.lowerBound
                    while j < m && theirs[j].upperBound <= lower { j += 1 }
                    var k = j
                    while k < m && theirs[k].lowerBound < range.upperBound {
                        let cut = theirs[k]
                        if cut.lowerBound > lower {
                            mine[w] = lower..<cut.lowerBound
                            w += 1
                        }
                        lower = Swift.max(lower, cut.upperBound)
                        k += 1
                    }
                    if lower < range.upperBound {
                        mine[w] = lower..<range.upperBound
                        w += 1
                    }
                }
                return w
            }
        }
        ranges.removeSubrange(w..<b + m)
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
