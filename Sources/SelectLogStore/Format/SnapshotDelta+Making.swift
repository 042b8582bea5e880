import SelectLog

extension SnapshotDelta {
    /// The delta payload that makes `snapshot` from `base` (the snapshot of the checkpoint
    /// before it, after `baseEvents` events, of depth `depth − 1`), or nil when either is
    /// longer than a delta may describe or the delta would not be under half the snapshot.
    ///
    /// The common prefix and suffix are found first: between two checkpoints most of a
    /// snapshot stays where it was, and what changed (the undo steps added, a selection)
    /// is found by matching 8-byte keys of the rest against every fourth position of the
    /// base. Deterministic: the same snapshots make the same delta.
    static func make(from base: [UInt8], to snapshot: [UInt8], depth: Int, baseEvents: Int) -> [UInt8]? {
        guard depth >= 1, depth <= maxDepth, !snapshot.isEmpty, snapshot.count <= maxBytes, base.count <= maxBytes else { return nil }
        var w = BinaryWriter(capacity: 256)
        w.u8(marker)
        w.u8(UInt8(depth))
        w.varint(baseEvents)
        w.varint(snapshot.count)
        let limit = Swift.min(snapshot.count / 2, maxDeltaBytes)
        var ops = Operations(writer: w)
        let ok = base.withUnsafeBufferPointer { b in
            snapshot.withUnsafeBufferPointer { s in
                ops.describe(s, from: b, limit: limit)
            }
        }
        return ok ? ops.writer.bytes : nil
    }

    /// The operations of a delta, written as they are found.
    private struct Operations {
        var writer: BinaryWriter
        /// Where the last copy from the base ended.
        var expected = 0

        mutating func insert(_ s: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            guard !range.isEmpty else { return }
            writer.varint(UInt64(range.count) << 1)
            writer.append(UnsafeBufferPointer(rebasing: s[range]))
        }

        mutating func copy(from: Int, count: Int) {
            guard count > 0 else { return }
            writer.varint(UInt64(count) << 1 | 1)
            writer.signed(Int64(from - expected))
            expected = from + count
        }

        /// Writes the operations that make `s` from `b`; false once they pass `limit` bytes.
        mutating func describe(_ s: UnsafeBufferPointer<UInt8>, from b: UnsafeBufferPointer<UInt8>, limit: Int) -> Bool {
            let common = Swift.min(s.count, b.count)
            var prefix = 0
            while prefix < common, s[prefix] == b[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < common - prefix, s[s.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
            if prefix < minimumMatch { prefix = 0 }
            if suffix < minimumMatch { suffix = 0 }
            copy(from: 0, count: prefix)
            let middle = prefix..<(s.count - suffix)
            if middle.count >= minimumMatch, b.count >= minimumMatch {
                match(s, middle, from: b, limit: limit)
            } else {
                insert(s, middle)
            }
            copy(from: b.count - suffix, count: suffix)
            return writer.count <= limit
        }

        /// Greedy matching of `s[range]` against `b`: at each position, the place where the
        /// last copy ended, then the base position its 8-byte key was last seen at.
        private mutating func match(_ s: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, from b: UnsafeBufferPointer<UInt8>, limit: Int) {
            let bits = Swift.max(8, Swift.min(20, (b.count / 4 * 2).bitWidthNeeded))
            var table = [Int32](repeating: -1, count: 1 << bits)
            var i = 0
            while i + minimumMatch <= b.count {
                table[Self.slot(Self.key(b, i), bits)] = Int32(i)
                i += 4
            }
            var literal = range.lowerBound
            i = range.lowerBound
            while i + minimumMatch <= range.upperBound {
                if writer.count > limit { return }
                let k = Self.key(s, i)
                var j = expected
                if j + minimumMatch > b.count || Self.key(b, j) != k {
                    j = Int(table[Self.slot(k, bits)])
                    if j < 0 || Self.key(b, j) != k {
                        i += 1
                        continue
                    }
                }
                var end = i + minimumMatch, from = j + minimumMatch
                while end < range.upperBound, from < b.count, s[end] == b[from] {
                    end += 1
                    from += 1
                }
                var start = i
                while start > literal, j > 0, s[start - 1] == b[j - 1] {
                    start -= 1
                    j -= 1
                }
                insert(s, literal..<start)
                copy(from: j, count: end - start)
                literal = end
                i = end
            }
            insert(s, literal..<range.upperBound)
        }

        @inline(__always)
        private static func key(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt64 {
            UnsafeRawPointer(p.baseAddress.unsafelyUnwrapped + i).loadUnaligned(as: UInt64.self)
        }

        @inline(__always)
        private static func slot(_ key: UInt64, _ bits: Int) -> Int {
            Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
        }
    }
}

private extension Int {
    /// The bits needed to hold the value (0 for 0).
    var bitWidthNeeded: Int { Int.bitWidth - leadingZeroBitCount }
}
