/// Bits written least significant first into bytes: the raw bits beside a `RANSEncoder`'s
/// symbols (an integer's bits below its class) and the coded `RANSTable`s.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var filled = 0

    init() {}

    /// Bits written so far.
    var bitCount: Int { bytes.count * 8 + filled }

    /// The low `count` bits of `value` (0...56 of them).
    mutating func write(_ value: UInt64, bits count: Int) {
        assert(count >= 0 && count <= 56)
        guard count > 0 else { return }
        buffer |= (value & (UInt64(1) << count &- 1)) << filled
        filled += count
        while filled >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            filled -= 8
        }
    }

    /// The low `count` bits of `value` (0...64 of them).
    mutating func writeWide(_ value: UInt64, bits count: Int) {
        if count > 32 {
            write(value, bits: 32)
            write(value >> 32, bits: count - 32)
        } else {
            write(value, bits: count)
        }
    }

    /// `value` (1...2^32 - 1) in Elias's gamma code: as many zeros as it has bits after
    /// its leading one, a one, then those bits.
    mutating func writeGamma(_ value: UInt32) {
        precondition(value >= 1)
        let extra = 31 - value.leadingZeroBitCount
        write(1 << UInt64(extra), bits: extra + 1)
        write(UInt64(value), bits: extra)
    }

    /// The bytes, the last one padded with zeros.
    func finished() -> [UInt8] {
        var out = bytes
        if filled > 0 { out.append(UInt8(truncatingIfNeeded: buffer)) }
        return out
    }
}

/// The reading side of `BitWriter`, on bytes the caller keeps alive. Past the end it reads
/// zeros, and `overran` says so.
struct BitReaderCore {
    let bytes: UnsafePointer<UInt8>
    let count: Int
    private(set) var position = 0
    private var buffer: UInt64 = 0
    private var available = 0

    init(_ bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    /// True when more bits were read than the bytes hold. (`position` runs up to eight
    /// bytes ahead of what was read, into the buffer.)
    var overran: Bool { bitsRead > count * 8 }

    /// Bits read so far, those past the end included.
    var bitsRead: Int { position * 8 - available }

    /// True when the bits read are those a `BitWriter` wrote: all of its bytes, the last
    /// one's padding aside, and none past them (as `RANSDecoderCore.isFinished`).
    var isFinished: Bool { !overran && (bitsRead + 7) / 8 == count }

    /// The next `count` bits (0...56).
    @inline(__always)
    mutating func read(bits count: Int) -> UInt64 {
        if available < count { refill() }
        let v = buffer & (UInt64(1) &<< UInt64(count) &- 1)
        buffer &>>= UInt64(count)
        available &-= count
        return v
    }

    /// The next `count` bits (0...64).
    mutating func readWide(bits count: Int) -> UInt64 {
        guard count > 32 else { return read(bits: count) }
        let low = read(bits: 32)
        return low | read(bits: count - 32) << 32
    }

    @inline(never)
    private mutating func refill() {
        while available <= 56 {
            let b: UInt64 = position < count ? UInt64(bytes[position]) : 0
            buffer |= b << UInt64(available)
            available += 8
            position += 1
        }
    }

    /// A gamma-coded value (`BitWriter.writeGamma`); nil when it would not fit 32 bits (no
    /// writer made it).
    mutating func readGamma() -> UInt32? {
        var extra = 0
        while read(bits: 1) == 0 {
            extra += 1
            if extra > 31 || overran { return nil }
        }
        return UInt32(truncatingIfNeeded: 1 << UInt64(extra) | read(bits: extra))
    }
}
