/// The bytes a `RangeDecoder` reads, copied into an allocation of their own, which no
/// one writes after `init`: the decoder reads them through a pointer, without array
/// bounds checks or reference counting in its loop.
final class RangeInput: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        base = .allocate(capacity: Swift.max(bytes.count, 1))
        bytes.withUnsafeBufferPointer { b in
            if let a = b.baseAddress { base.initialize(from: a, count: b.count) }
        }
    }

    deinit { base.deallocate() }
}

/// The decoding side of `RangeCoder`. It reads zeros past the end of its bytes, and
/// `overran` says when it has read more of them than any encoder's output implies.
struct RangeDecoder {
    /// Owns the bytes `core` points into.
    private let input: RangeInput
    /// The decoder's registers. Functions that decode many decisions copy them into a
    /// local and store them back once (see `RangeDecoderCore`).
    var core: RangeDecoderCore

    init(_ bytes: [UInt8]) {
        input = RangeInput(bytes)
        core = RangeDecoderCore(UnsafePointer(input.base), count: input.count)
    }

    var position: Int { core.position }

    /// True when the decoder has read past the bytes by more than a finished stream's
    /// left-out zeros: the input was not written by `RangeEncoder`.
    var overran: Bool { core.overran }

    @inline(__always)
    mutating func decode(_ p: inout UInt32) -> Bool { core.decodeBit(&p) != 0 }

    @inline(__always)
    mutating func decodeBit(_ p: inout UInt32) -> Int { core.decodeBit(&p) }

    mutating func decodeDirect(count: Int) -> UInt64 { core.decodeDirect(count: count) }
}

/// A `RangeDecoder`'s registers and a pointer to its bytes, which the `RangeDecoder`
/// that made it owns: a core is used only while that decoder is alive (copied out of it
/// into a local and back). Every read is checked against `count`.
struct RangeDecoderCore {
    let bytes: UnsafePointer<UInt8>
    let count: Int
    var position = 0
    var range: UInt32 = 0xFFFF_FFFF
    var code: UInt32 = 0

    init(_ bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
        for _ in 0..<4 { code = code << 8 | nextByte() }
    }

    var overran: Bool { position > count &+ 4 }

    /// Takes the registers of `c`, a copy of this core: the byte pointer and count are
    /// the same in both.
    @inline(__always)
    mutating func store(_ c: RangeDecoderCore) {
        position = c.position
        range = c.range
        code = c.code
    }

    @inline(__always)
    private mutating func nextByte() -> UInt32 {
        let b = position < count ? UInt32(bytes[position]) : 0
        position &+= 1
        return b
    }

    @inline(__always)
    mutating func normalize() {
        if range < RangeCoder.top { (range, code, position) = Self.refilled(range, code, position, bytes, count) }
    }

    /// The registers after normalizing (about once per byte of input). Out of line and on
    /// values, so that the decoding functions keep their registers in registers and do not
    /// hold the byte pointer in one.
    @inline(never)
    static func refilled(_ range: UInt32, _ code: UInt32, _ position: Int, _ bytes: UnsafePointer<UInt8>, _ count: Int)
        -> (UInt32, UInt32, Int) {
        var range = range, code = code, position = position
        while range < RangeCoder.top {
            range <<= 8
            code = code << 8 | (position < count ? UInt32(bytes[position]) : 0)
            position &+= 1
        }
        return (range, code, position)
    }

    @inline(__always)
    mutating func decode(_ p: inout UInt32) -> Bool { decodeBit(&p) != 0 }

    /// A decision as 0 or 1, without branches on its value: the bits of a residual are
    /// hard to predict, and a mispredicted branch costs more than the arithmetic. The model
    /// `p` is adapted by `RangeCoder.adaptedInRange`, as the encoder's are: its probability
    /// is within 64...65472, as every model's is that starts fresh and changes only here.
    @inline(__always)
    mutating func decodeBit(_ p: inout UInt32) -> Int {
        let model = p
        let bound = (range &>> 16) &* (model & 0xFFFF)
        let one = code >= bound
        let rest = range &- bound
        code = one ? code &- bound : code
        range = one ? rest : bound
        p = RangeCoder.adaptedInRange(model, one)
        normalize()
        return one ? 1 : 0
    }

    /// `RangeCoder.adapted(model, false)`, the same value for every model, in the form a
    /// branch on the decision needs least work for: a 0 only moves a seasoned model's
    /// probability up, so only its upper bound can apply (the lower one is never reached
    /// from 16 bits).
    @inline(__always)
    static func adaptedZero(_ model: UInt32) -> UInt32 {
        if model >= RangeCoder.seasoned {
            let prob = model & 0xFFFF
            return RangeCoder.seasoned | Swift.min(prob &+ ((65_536 &- prob) &>> 6), 65_472)
        }
        return RangeCoder.adapted(model, false)
    }

    /// `RangeCoder.adapted(model, true)`, the same value for every model: a 1 moves a
    /// seasoned model's probability down, by prob >> 6 (prob + (63 - prob) >> 6, as
    /// `RangeCoder.adapted` writes it, with an arithmetic shift), so only its lower bound
    /// can apply.
    @inline(__always)
    static func adaptedOne(_ model: UInt32) -> UInt32 {
        if model >= RangeCoder.seasoned {
            let prob = model & 0xFFFF
            return RangeCoder.seasoned | Swift.max(prob &- (prob &>> 6), 64)
        }
        return RangeCoder.adapted(model, true)
    }

    /// A decision whose value is usually predictable (the kind of the next item, whether
    /// it is timed as the one before, a value on its grid): decoded with a branch on it,
    /// which does only the chosen side's work. Same result as `decodeBit`.
    @inline(__always)
    mutating func decodeLikely(_ p: inout UInt32) -> Bool {
        let model = p
        let bound = (range &>> 16) &* (model & 0xFFFF)
        let one: Bool
        if code < bound {
            range = bound
            p = Self.adaptedZero(model)
            one = false
        } else {
            code &-= bound
            range &-= bound
            p = Self.adaptedOne(model)
            one = true
        }
        normalize()
        return one
    }

    mutating func decodeDirect(count: Int) -> UInt64 {
        var c = self
        let v = c.directBits(count)
        store(c)
        return v
    }
}
