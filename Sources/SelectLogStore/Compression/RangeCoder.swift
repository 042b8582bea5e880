/// An adaptive binary range coder of the LZMA kind, used by format version 3's coded
/// batches (docs/LOG-FORMAT.md, "Coded batches").
///
/// Every decision is coded under a model: a 16-bit probability that the bit is 0
/// (bits 0-15) and how many bits the model has seen, up to 30 (bits 16-23). After each
/// bit the probability moves 1/2^s of the way towards it, with s = 2 + floor(log2(seen + 1)),
/// so a fresh model learns fast and a seasoned one (s = 6) is steady; it stays within
/// 64...65472. "Direct" bits are coded at one half. The output has no leading zero
/// byte (LZMA's first byte is always 0 and is left out), and up to four trailing zero
/// bytes of the final flush are left out: the decoder reads zeros past the end.
enum RangeCoder {
    /// A fresh model: probability one half, nothing seen.
    static let fresh: UInt32 = 1 << 15
    static let top: UInt32 = 1 << 24
    /// A model that has seen 30 bits or more: its step is fixed at 1/64.
    static let seasoned: UInt32 = 30 << 16

    @inline(__always)
    static func adapt(_ p: inout UInt32, _ bit: Bool) { p = adapted(p, bit) }

    /// The model `p` after coding `bit`, computed without branches on the bit. Both ways
    /// are one formula, prob + (target - prob) >> s (an arithmetic shift), with target
    /// 65536 for a 0 and 2^s - 1 for a 1: floor((2^s - 1 - prob) / 2^s) is
    /// -floor(prob / 2^s), so this is the same as prob - prob >> s.
    @inline(__always)
    static func adapted(_ p: UInt32, _ bit: Bool) -> UInt32 {
        let prob = Int32(bitPattern: p & 0xFFFF)
        if p >= seasoned {
            // Most decisions: a model that has seen 30 bits, whose step is 1/64 for good.
            let target: Int32 = bit ? 63 : 65_536
            let q = Swift.min(Swift.max(prob &+ ((target &- prob) &>> 6), 64), 65_472)
            return seasoned | UInt32(bitPattern: q)
        }
        let seen = p >> 16
        let shift = Int32(truncatingIfNeeded: 33 &- (seen &+ 1).leadingZeroBitCount)   // 2 + floor(log2(seen + 1))
        let target: Int32 = bit ? (1 &<< shift) &- 1 : 65_536
        let q = Swift.min(Swift.max(prob &+ ((target &- prob) &>> shift), 64), 65_472)
        return (seen &+ 1) << 16 | UInt32(bitPattern: q)
    }

    /// `adapted` for a model whose probability is within 64...65472, as every model an
    /// encoder or decoder holds is: it starts fresh (32768) and changes only by
    /// adaptation, which clamps there. For a seasoned model, only one at a bound can step
    /// past it (64 by a 1, 65472 by a 0), and clamping puts it back where it was: so the
    /// clamp is one comparison, not two. The step fits in the probability's 16 bits, so
    /// it is added to the whole model. In the decoder, with the tag cache that came with
    /// it, it made decoding 18 instructions an event cheaper on the standard synthetic
    /// session and 44 on the random walk, whose residuals take more modelled decisions.
    @inline(__always)
    static func adaptedInRange(_ p: UInt32, _ bit: Bool) -> UInt32 {
        guard p >= seasoned else { return adapted(p, bit) }
        let q = seasonedStep(p, bit)
        return (q & 0xFFFF) &- 64 > 65_408 ? p : q
    }

    /// A seasoned model `p` after `bit`, before the clamp: its probability's step, added
    /// to the whole model.
    @inline(__always)
    private static func seasonedStep(_ p: UInt32, _ bit: Bool) -> UInt32 {
        let prob = Int32(bitPattern: p & 0xFFFF)
        let target: Int32 = bit ? 63 : 65_536
        return p &+ UInt32(bitPattern: (target &- prob) &>> 6)
    }

    /// `adaptedInRange` as the encoder takes it: a young model (fewer than 30 bits seen)
    /// is the unlikely way, laid out of the straight line, so a seasoned one jumps nowhere:
    /// about one instruction a decision (10 an event on the standard session, 15 on the
    /// random walk). The decoder keeps `adaptedInRange`.
    @inline(__always)
    static func adaptedInRangeSeasonedFirst(_ p: UInt32, _ bit: Bool) -> UInt32 {
        guard _fastPath(p >= seasoned) else { return adapted(p, bit) }
        let q = seasonedStep(p, bit)
        return (q & 0xFFFF) &- 64 > 65_408 ? p : q
    }

    /// `adaptedInRangeSeasonedFirst` for a bit the code names (a literal): a seasoned model
    /// then passes a bound only one way, so clamping is one comparison with the whole
    /// model (its count is 30 either side), not a test of its probability's 16 bits.
    @inline(__always)
    static func adaptedInRangeKnownBit(_ p: UInt32, _ bit: Bool) -> UInt32 {
        guard _fastPath(p >= seasoned) else { return adapted(p, bit) }
        let q = seasonedStep(p, bit)
        return bit ? Swift.max(q, seasoned | 64) : Swift.min(q, seasoned | 65_472)
    }

    /// `adapted` as first written, kept as the specification the tests hold it to.
    static func adaptedReference(_ p: UInt32, _ bit: Bool) -> UInt32 {
        let prob = p & 0xFFFF
        let seen = p >> 16
        let shift = UInt32(truncatingIfNeeded: 33 &- (seen &+ 1).leadingZeroBitCount)
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
///
/// The registers every decision updates, `low` and `range`, are `core`, a plain value of
/// two words: the functions that code many decisions copy it into a local, so that the
/// compiler keeps it in registers although they write models through pointers, and store
/// it once. Normalizing (about once per output byte) is out of line and takes and returns
/// the registers by value; what only it touches (the pending byte and its carry run, the
/// output) stays in `self`.
///
/// A copy of an encoder shares its output allocation, as it shares its models: only one
/// copy may go on coding; a copy may be flushed (`finished()`), which writes past the
/// original's bytes and leaves them as they were.
struct RangeEncoder {
    /// The bytes written are `output.base[0..<written]`.
    private var output: RangeOutput
    private var written = 0
    var core = EncoderCore()
    /// The byte waiting for a possible carry, and how many bytes it stands for (itself and
    /// the 0xFF bytes after it, which a carry turns into 0x00).
    private var cache: UInt8 = 0
    private var cacheSize = 1
    /// LZMA's first output byte (always 0) is not written.
    private var skipsFirst = true

    /// The registers of the coder.
    struct EncoderCore {
        var low: UInt64 = 0
        var range: UInt32 = 0xFFFF_FFFF
    }

    init(capacity: Int = 1 << 12) {
        output = RangeOutput(capacity: Swift.max(capacity, 16))
    }

    /// About how many bytes the finished output will take.
    var count: Int { written &+ cacheSize &+ 4 }

    mutating func reset() {
        written = 0
        core = EncoderCore()
        cache = 0
        cacheSize = 1
        skipsFirst = true
    }

    /// Codes `bit` under the model `p` and adapts it.
    @inline(__always)
    mutating func encode(_ bit: Bool, _ p: inout UInt32) {
        var c = core
        encode(bit, &p, &c)
        core = c
    }

    /// Codes `bit` under the model `p` on the registers `c` (this coder's, in a local).
    @inline(__always)
    mutating func encode(_ bit: Bool, _ p: inout UInt32, _ c: inout EncoderCore) {
        let model = p
        Self.narrow(bit, model, &c)
        p = RangeCoder.adaptedInRangeSeasonedFirst(model, bit)
        if c.range < RangeCoder.top { c = normalized(c) }
    }

    /// The registers' interval narrowed to `bit`'s share under `model`.
    @inline(__always)
    private static func narrow(_ bit: Bool, _ model: UInt32, _ c: inout EncoderCore) {
        let bound = (c.range &>> 16) &* (model & 0xFFFF)
        if bit {
            c.low &+= UInt64(bound)
            c.range &-= bound
        } else {
            c.range = bound
        }
    }

    /// Codes `bit` under the model at `model` on the registers `c`.
    @inline(__always)
    mutating func encode(_ bit: Bool, _ model: UnsafeMutablePointer<UInt32>, _ c: inout EncoderCore) {
        encode(bit, &model.pointee, &c)
    }

    /// `encode` for a bit the caller names as a literal (the zero of an integer, its
    /// nonzero flag, a bit length of 1): its clamp is cheaper (`adaptedInRangeKnownBit`).
    @inline(__always)
    mutating func encode(known bit: Bool, _ model: UnsafeMutablePointer<UInt32>, _ c: inout EncoderCore) {
        let p = model.pointee
        Self.narrow(bit, p, &c)
        model.pointee = RangeCoder.adaptedInRangeKnownBit(p, bit)
        if c.range < RangeCoder.top { c = normalized(c) }
    }

    /// The registers `c` normalized: the top bytes of `low` shifted out until `range` is at
    /// least 2^24. Rare (about once per output byte), so out of line, on values.
    @inline(never)
    mutating func normalized(_ c: EncoderCore) -> EncoderCore {
        var c = c
        repeat {
            c.range <<= 8
            shiftLow(&c.low)
        } while c.range < RangeCoder.top
        return c
    }

    /// Codes the low `count` bits of `value` (at most 64), most significant first, at one half each.
    mutating func encodeDirect(_ value: UInt64, count: Int) {
        var c = core
        encodeDirect(value, count: count, &c)
        core = c
    }

    /// `encodeDirect` on the registers `c`. The bits are taken from the top of `value`
    /// shifted left, so each 1 is a sign mask that selects the halved range, without a branch.
    @inline(__always)
    mutating func encodeDirect(_ value: UInt64, count: Int, _ c: inout EncoderCore) {
        guard count > 0 else { return }
        var bits = Int64(bitPattern: value &<< UInt64(truncatingIfNeeded: 64 &- count))
        var i = count
        repeat {
            c.range &>>= 1
            c.low &+= UInt64(c.range) & UInt64(bitPattern: bits &>> 63)
            bits &<<= 1
            if c.range < RangeCoder.top { c = normalized(c) }
            i &-= 1
        } while i > 0
    }

    private mutating func shiftLow(_ low: inout UInt64) {
        if low < 0xFF00_0000 || low > 0xFFFF_FFFF {
            let carry = UInt8(truncatingIfNeeded: low >> 32)
            var temp = cache
            repeat {
                if skipsFirst { skipsFirst = false } else { emit(temp &+ carry) }
                temp = 0xFF
                cacheSize -= 1
            } while cacheSize != 0
            cache = UInt8(truncatingIfNeeded: low >> 24)
        }
        cacheSize += 1
        low = (low & 0x00FF_FFFF) << 8
    }

    @inline(__always)
    private mutating func emit(_ byte: UInt8) {
        if written == output.capacity { grow() }
        output.base[written] = byte
        written &+= 1
    }

    /// Moves the output to an allocation twice as large, this encoder's alone (a copy that
    /// shares the old one keeps it).
    @inline(never)
    private mutating func grow() {
        let larger = RangeOutput(capacity: output.capacity * 2)
        larger.base.initialize(from: output.base, count: written)
        output = larger
    }

    /// The finished output: the coder is flushed on a copy, so this one can go on.
    /// The flush picks the value in the final interval with the most trailing zero
    /// bytes, and those bytes are left out.
    func finished() -> [UInt8] {
        var e = self
        var low = e.core.low
        let high = low &+ UInt64(e.core.range) &- 1
        for keep in 1...4 {
            let mask: UInt64 = (1 << UInt64(32 - 8 * keep)) - 1
            let v = (low &+ mask) & ~mask
            if v <= high {
                low = v
                break
            }
        }
        for _ in 0..<5 { e.shiftLow(&low) }
        // At most the flush's four bytes are left out, so a decoder reads at most four zeros past the end.
        var n = e.written
        for _ in 0..<4 where n > 0 && e.output.base[n - 1] == 0 { n -= 1 }
        return Array(UnsafeBufferPointer(start: e.output.base, count: n))
    }
}

/// A range encoder's output bytes: one allocation that never moves (a larger output gets a
/// new one), written through a pointer without a uniqueness or bounds check per byte.
/// Unchecked `Sendable`: written only by the encoder that owns it, on one thread at a time.
final class RangeOutput: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }
}
