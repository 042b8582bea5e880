/// Appends little-endian integers, LEB128 varints and length-prefixed bytes to a buffer.
package struct BinaryWriter: Sendable {
    /// What has been written so far (since the last `spill()` into `hasher`, if any).
    package var bytes: [UInt8]
    /// When set, `spill()` hashes the bytes written so far into it and forgets them, so
    /// that hashing a large state holds a bounded part of its encoding at a time.
    var hasher: CanonicalHasher?

    package init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    package var count: Int { bytes.count }

    /// Moves the bytes into `hasher` once they pass 64 KiB (nothing without a hasher).
    @inline(__always)
    mutating func spill() {
        if bytes.count >= 1 << 16, var h = hasher {
            h.bytes(bytes)
            hasher = h
            bytes.removeAll(keepingCapacity: true)
        }
    }
    package mutating func removeAll(keepingCapacity: Bool = true) { bytes.removeAll(keepingCapacity: keepingCapacity) }

    @inlinable package mutating func u8(_ v: UInt8) { bytes.append(v) }
    package mutating func bool(_ b: Bool) { bytes.append(b ? 1 : 0) }

    package mutating func u32(_ v: UInt32) {
        for k in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(k)))) }
    }

    package mutating func u64(_ v: UInt64) {
        for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) }
    }

    /// Unsigned LEB128.
    @inlinable package mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    package mutating func varint(_ v: Int) { varint(UInt64(max(v, 0))) }

    /// Signed values, zigzag-coded so that small magnitudes stay short.
    @inlinable package mutating func signed(_ v: Int64) {
        varint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    package mutating func points(_ p: Points) { signed(p.raw) }

    package mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        varint(utf8.count)
        bytes.append(contentsOf: utf8)
    }

    package mutating func append(_ other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }
    /// The same for an array: called from the store, where the generic one runs unspecialised
    /// (about 950 instructions an event in the recorder's encoder).
    package mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    /// Overwrites four bytes at `offset` with `v`, little-endian.
    package mutating func patchU32(_ v: UInt32, at offset: Int) {
        for k in 0..<4 { bytes[offset + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
    }
}

/// What went wrong reading binary data, and where.
package struct BinaryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Offset in the buffer being read.
    package var offset: Int
    package var reason: String
    package init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
    package var description: String { "\(reason) at offset \(offset)" }
}

/// Reads what `BinaryWriter` wrote; every read is bounds-checked and throws on bad input.
package struct BinaryReader {
    package let bytes: [UInt8]
    /// The read position.
    package var offset: Int
    package let end: Int

    package init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.offset = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    package var isAtEnd: Bool { offset >= end }
    package var remaining: Int { end - offset }

    package func fail(_ reason: String) -> BinaryError { BinaryError(offset: offset, reason: reason) }

    package mutating func u8() throws(BinaryError) -> UInt8 {
        guard offset < end else { throw fail("unexpected end of data") }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func bool() throws(BinaryError) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw BinaryError(offset: offset - 1, reason: "bad boolean")
        }
    }

    package mutating func u32() throws(BinaryError) -> UInt32 {
        guard end - offset >= 4 else { throw fail("unexpected end of data") }
        var v: UInt32 = 0
        for k in 0..<4 { v |= UInt32(bytes[offset + k]) << (8 * UInt32(k)) }
        offset += 4
        return v
    }

    package mutating func u64() throws(BinaryError) -> UInt64 {
        guard end - offset >= 8 else { throw fail("unexpected end of data") }
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(bytes[offset + k]) << (8 * UInt64(k)) }
        offset += 8
        return v
    }

    /// Unsigned LEB128; most values are one byte, and take the inlined fast path.
    @inlinable
    package mutating func varint() throws(BinaryError) -> UInt64 {
        if offset < end {
            let b = bytes[offset]
            if b < 0x80 {
                offset += 1
                return UInt64(b)
            }
        }
        return try longVarint()
    }

    @usableFromInline
    mutating func longVarint() throws(BinaryError) -> UInt64 {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else { throw fail("unexpected end of data in a varint") }
            let b = bytes[offset]
            offset += 1
            if shift == 63 && b > 1 { throw BinaryError(offset: offset - 1, reason: "varint overflow") }
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
            if shift > 63 { throw BinaryError(offset: offset - 1, reason: "varint too long") }
        }
    }

    /// A varint that must fit `0...limit`.
    package mutating func count(limit: Int = 100_000_000) throws(BinaryError) -> Int {
        let start = offset
        let v = try varint()
        guard v <= UInt64(limit) else { throw BinaryError(offset: start, reason: "count \(v) exceeds \(limit)") }
        return Int(v)
    }

    package mutating func signed() throws(BinaryError) -> Int64 {
        let z = try varint()
        return Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
    }

    /// A length of at most `limit` either way: an event's (`Points.limit`, by default),
    /// or a state's offset (`Points.contentLimit`).
    package mutating func points(limit: Points = Points.limit) throws(BinaryError) -> Points {
        let start = offset
        let v = try signed()
        guard v.magnitude <= UInt64(limit.raw) else { throw BinaryError(offset: start, reason: "length out of range") }
        return Points(raw: v)
    }

    package mutating func string() throws(BinaryError) -> String {
        let start = offset
        let n = try count(limit: Int(Int32.max))
        guard n <= remaining else { throw BinaryError(offset: start, reason: "string runs past the end of the data") }
        let slice = bytes[offset..<offset + n]
        offset += n
        guard let s = validUTF8(slice) else { throw BinaryError(offset: offset - n, reason: "invalid UTF-8") }
        return s
    }

    package mutating func skip(_ n: Int) throws(BinaryError) {
        guard n >= 0, n <= remaining else { throw fail("unexpected end of data") }
        offset += n
    }
}

/// `bytes` as a string if they are valid UTF-8, else nil. (Decoding repairs invalid
/// sequences, so a repaired string no longer encodes to the same bytes.)
func validUTF8<C: Collection<UInt8>>(_ bytes: C) -> String? {
    let s = String(decoding: bytes, as: UTF8.self)
    return s.utf8.elementsEqual(bytes) ? s : nil
}
