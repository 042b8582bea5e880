/// An adaptive binary range coder of the LZMA kind, used by format version 3's coded
/// batches (docs/LOG-FORMAT.md, "Coded batches").
///
/// Every decision is coded under a model: a 16-bit probability that the bit is 0
/// (bits 0-15) and how many bits the model has seen, up to 30 (bits 16-23). After each
/// bit the probability moves 1/2^s of the way towards it, with s = 1 + floor(log2(seen + 1)),
/// so a fresh model learns fast and a seasoned one is steady; it stays within
/// 64...65472. "Direct" bits are coded at one half. The output has no leading zero
/// byte (LZMA's first byte is always 0 and is left out), and up to four trailing zero
/// bytes of the final flush are left out: the decoder reads zeros past the end.
enum RangeCoder {
    /// A fresh model: probability one half, nothing seen.
    static let fresh: UInt32 = 1 << 15
    static let top: UInt32 = 1 << 24

    @inline(__always)
    static func adapt(_ p: inout UInt32, _ bit: Bool) { p = adapted(p, bit) }

    /// The model `p` after coding `bit`, computed without branches (both ways, then a select).
    @inline(__always)
    static func adapted(_ p: UInt32, _ bit: Bool) -> UInt32 {
        let prob = p & 0xFFFF
        let seen = p >> 16
        let shift = UInt32(truncatingIfNeeded: 33 &- (seen &+ 1).leadingZeroBitCount)   // 1 + floor(log2(seen + 1))
        let down = prob &- (prob &>> shift)
        let up = prob &+ ((65_536 &- prob) &>> shift)
        var q = bit ? down : up
        q = q < 64 ? 64 : q
        q = q > 65_472 ? 65_472 : q
        let n = seen < 30 ? seen &+ 1 : 30
        return n << 16 | q
    }
}

/// The encoding side of `RangeCoder`.
struct RangeEncoder {
    private(set) var bytes: [UInt8]
    private var low: UInt64 = 0
    private var range: UInt32 = 0xFFFF_FFFF
    private var cache: UInt8 = 0
    private var cacheSize = 1
    /// LZMA's first output byte (always 0) is not written.
    private var skipsFirst = true

    init(capacity: Int = 1 << 12) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// About how many bytes the finished output will take.
    var count: Int { bytes.count + cacheSize + 4 }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        low = 0
        range = 0xFFFF_FFFF
        cache = 0
        cacheSize = 1
        skipsFirst = true
    }

    /// Codes `bit` under the model `p` and adapts it.
    @inline(__always)
    mutating func encode(_ bit: Bool, _ p: inout UInt32) {
        let bound = (range >> 16) &* (p & 0xFFFF)
        if bit {
            low &+= UInt64(bound)
            range &-= bound
        } else {
            range = bound
        }
        RangeCoder.adapt(&p, bit)
        while range < RangeCoder.top {
            range <<= 8
            shiftLow()
        }
    }

    /// Codes the low `count` bits of `value` (at most 64), most significant first, at one half each.
    mutating func encodeDirect(_ value: UInt64, count: Int) {
        var i = count
        while i > 0 {
            i -= 1
            range >>= 1
            if (value >> UInt64(i)) & 1 != 0 { low &+= UInt64(range) }
            while range < RangeCoder.top {
                range <<= 8
                shiftLow()
            }
        }
    }

    private mutating func shiftLow() {
        if low < 0xFF00_0000 || low > 0xFFFF_FFFF {
            let carry = UInt8(truncatingIfNeeded: low >> 32)
            var temp = cache
            repeat {
                if skipsFirst { skipsFirst = false } else { bytes.append(temp &+ carry) }
                temp = 0xFF
                cacheSize -= 1
            } while cacheSize != 0
            cache = UInt8(truncatingIfNeeded: low >> 24)
        }
        cacheSize += 1
        low = (low & 0x00FF_FFFF) << 8
    }

    /// The finished output: the coder is flushed on a copy, so this one can go on.
    /// The flush picks the value in the final interval with the most trailing zero
    /// bytes, and those bytes are left out.
    func finished() -> [UInt8] {
        var e = self
        let high = e.low &+ UInt64(e.range) &- 1
        for keep in 1...4 {
            let mask: UInt64 = (1 << UInt64(32 - 8 * keep)) - 1
            let v = (e.low &+ mask) & ~mask
            if v <= high {
                e.low = v
                break
            }
        }
        for _ in 0..<5 { e.shiftLow() }
        // At most the flush's four bytes are left out, so a decoder reads at most four zeros past the end.
        for _ in 0..<4 where e.bytes.last == 0 { e.bytes.removeLast() }
        return e.bytes
    }
}

/// The decoding side of `RangeCoder`. It reads zeros past the end of its bytes, and
/// `overran` says when it has read more of them than any encoder's output implies.
struct RangeDecoder {
    private let bytes: [UInt8]
    private(set) var position = 0
    private var range: UInt32 = 0xFFFF_FFFF
    private var code: UInt32 = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        for _ in 0..<4 { code = code << 8 | nextByte() }
    }

    /// True when the decoder has read past the bytes by more than a finished stream's
    /// left-out zeros: the input was not written by `RangeEncoder`.
    var overran: Bool { position > bytes.count + 4 }

    @inline(__always)
    private mutating func nextByte() -> UInt32 {
        defer { position &+= 1 }
        return position < bytes.count ? UInt32(bytes[position]) : 0
    }

    @inline(__always)
    mutating func decode(_ p: inout UInt32) -> Bool { decodeBit(&p) != 0 }

    /// A decision as 0 or 1, without branches on its value: the bits of a residual are
    /// hard to predict, and a mispredicted branch costs more than the arithmetic.
    @inline(__always)
    mutating func decodeBit(_ p: inout UInt32) -> Int {
        let model = p
        let prob = model & 0xFFFF
        let bound = (range >> 16) &* prob
        // All ones when the bit is 0 (code < bound), else zero.
        let zero = UInt32(truncatingIfNeeded: (Int64(code) &- Int64(bound)) >> 63)
        code &-= bound & ~zero
        range = (bound & zero) | ((range &- bound) & ~zero)
        let seen = model >> 16
        let shift = UInt32(truncatingIfNeeded: 33 &- (seen &+ 1).leadingZeroBitCount)   // 1 + floor(log2(seen + 1))
        let up = prob &+ ((65_536 &- prob) &>> shift)
        let down = prob &- (prob &>> shift)
        var q = (up & zero) | (down & ~zero)
        q = Swift.min(Swift.max(q, 64), 65_472)
        p = Swift.min(seen &+ 1, 30) << 16 | q
        while range < RangeCoder.top {
            range <<= 8
            code = code << 8 | nextByte()
        }
        return Int(truncatingIfNeeded: ~zero & 1)
    }

    mutating func decodeDirect(count: Int) -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<count {
            range >>= 1
            let zero = UInt32(truncatingIfNeeded: (Int64(code) &- Int64(range)) >> 63)
            code &-= range & ~zero
            v = v << 1 | UInt64(~zero & 1)
            while range < RangeCoder.top {
                range <<= 8
                code = code << 8 | nextByte()
            }
        }
        return v
    }
}
