/// A static rANS coder (range asymmetric numeral systems, after Duda; the 32-bit state
/// with 16-bit renormalization and the two interleaved states of Giesen's `ryg_rans`),
/// the entropy coder planned for a later format version's coded batches (docs/PERFORMANCE.md,
/// "A multi-symbol coder").
///
/// Unlike the adaptive binary `RangeCoder`, whose models learn bit by bit, a symbol here
/// is coded under a fixed table (`RANSTable`) of frequencies in units of 1/`total`. Its
/// decoding is one table load, a multiply and an add, and a refill about once every 16
/// bits of output, whatever the alphabet: the spike that measured it decoded format 6's
/// items in 195–231 instructions an event, against format 6's 913–1,700.
///
/// The encoder codes the symbols last to first (rANS is a stack) so that the decoder reads
/// them first to last. Symbols 0..<`singleStateSymbols` are all coded on the first state;
/// from there on, symbol i is on the first state when i - `singleStateSymbols` is even, on
/// the second when odd: the two chains of dependent arithmetic interleave, which halves
/// the latency a decoder waits on (a short stream's one state saves bytes instead).
///
/// The stream: the first state's final value, little-endian, in three bytes when the
/// stream's length is odd and four when even, then the 16-bit words the encoder shifted
/// out, in the order the decoder reads them; the second state's final value (two words,
/// low first) is among them where the decoder reaches symbol `singleStateSymbols`. A
/// finished stream ends with both states back at `lower`, where the encoder started them
/// (the second never leaves it in a stream of fewer symbols): a decoder that reads every
/// symbol and then sees anything else was given other bytes.
enum RANS {
    /// Frequencies are in units of 2^-`precisionBits`.
    static let precisionBits = 11
    /// The sum of a table's frequencies.
    static let total: UInt32 = 1 << 11
    /// The bottom of a state's range [`lower`, 2^32).
    static let lower: UInt32 = 1 << 16
    /// The largest alphabet a table holds: with its escape, 512 symbols (a decoding entry
    /// keeps the symbol in 9 bits).
    static let maxAlphabet = 511
    /// The symbol a decoding entry gives for a table's escape, whatever its alphabet (so
    /// that a decoder tells an escape by one comparison with a constant).
    static let escape = 511
    /// A stream's first `singleStateSymbols` symbols (at least one) are coded on one state,
    /// the rest on two interleaved. A gesture's batch (about 100 events, a few hundred
    /// symbols) then carries one final state, not two.
    static let singleStateSymbols = 4096
}

/// The encoding side: collects the symbols (their starts and frequencies) in order and
/// codes them, last first, in `finished()`.
struct RANSEncoder {
    /// Each symbol as start << 16 | frequency.
    private var pending: [UInt32] = []

    init(capacity: Int = 0) { pending.reserveCapacity(capacity) }

    /// Adds a symbol of frequency `frequency` (1...`RANS.total`) starting at `start` (with
    /// `start + frequency` at most `RANS.total`): an entry of a `RANSTable`.
    @inline(__always)
    mutating func encode(start: UInt32, frequency: UInt32) {
        assert(frequency >= 1 && start + frequency <= RANS.total)
        pending.append(start << 16 | frequency)
    }

    /// The stream for the symbols so far.
    func finished() -> [UInt8] {
        // Symbols 0..<K on state a alone; from K on, symbol i on a when (i - K) is even,
        // on b when odd. b's final state is shifted out where the decoder reaches symbol K.
        let k = RANS.singleStateSymbols, n = pending.count
        var a = RANS.lower, b = RANS.lower
        // Shifted out last to first; the decoder reads them first to last.
        var words: [UInt16] = []
        words.reserveCapacity(n / 4 + 4)
        var i = n
        while i > 0 {
            i -= 1
            if i == k - 1 {
                words.append(UInt16(truncatingIfNeeded: b >> 16))
                words.append(UInt16(truncatingIfNeeded: b))
            }
            let entry = pending[i]
            let frequency = entry & 0xFFFF, start = entry >> 16
            let onA = i < k || (i - k) & 1 == 0
            var x = onA ? a : b
            // A state past this would leave [lower, 2^32) after coding: shift 16 bits out.
            // (`lower` >> precisionBits << 16 is 2^21; times a frequency of `total`, 2^32.)
            if UInt64(x) >= UInt64(frequency) << (32 - RANS.precisionBits) {
                words.append(UInt16(truncatingIfNeeded: x))
                x >>= 16
            }
            x = (x / frequency) << RANS.precisionBits + x % frequency + start
            if onA { a = x } else { b = x }
        }
        var out: [UInt8] = []
        out.reserveCapacity(4 + 2 * words.count)
        // a in three bytes when it fits: the stream's odd length says so.
        let short = a < 1 << 24
        for k in 0..<(short ? 3 : 4) { out.append(UInt8(truncatingIfNeeded: a >> (8 * k))) }
        for word in words.reversed() {
            out.append(UInt8(truncatingIfNeeded: word))
            out.append(UInt8(truncatingIfNeeded: word >> 8))
        }
        return out
    }
}

/// The decoder's registers and a pointer to its bytes, which the caller keeps alive (as
/// `RangeDecoderCore`'s are). Every read is checked against `count`: past the end it reads
/// zeros, and `overran` says so. Arithmetic wraps, so a state made of any bytes decodes
/// to some symbol of the table and never traps; `isFinished` tells a whole stream apart.
struct RANSDecoderCore {
    let bytes: UnsafePointer<UInt8>
    let count: Int
    private(set) var position = 0
    /// The state of the next symbol, and of the one after it.
    private var x0: UInt32 = 0, x1: UInt32 = RANS.lower
    /// Symbols still to decode on x0 alone before x1 is read.
    private var single = RANS.singleStateSymbols

    /// A decoder of the `count` bytes at `bytes`, which start with the first state (three
    /// bytes when `count` is odd).
    init(_ bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
        if count & 1 == 1 {
            x0 = UInt32(read16())
            position = 3
            x0 |= (count >= 3 ? UInt32(bytes[2]) : 0) << 16
        } else {
            x0 = UInt32(read16()) | UInt32(read16()) << 16
        }
    }

    /// True when a read went past the bytes.
    var overran: Bool { position > count }

    /// True when the stream ended where its encoder began: every byte read, none past
    /// the end, and both states at `RANS.lower`. Only after the last symbol.
    var isFinished: Bool { position == count && x0 == RANS.lower && x1 == RANS.lower }

    @inline(__always)
    private mutating func read16() -> UInt32 {
        let p = position
        position = p &+ 2
        guard p &+ 2 <= count else { return 0 }
        return UInt32(bytes[p]) | UInt32(bytes[p &+ 1]) << 8
    }

    /// The next symbol, decoded with the table `RANSDecodingTable.entries(for:)` gave
    /// (`RANS.total` packed entries).
    @inline(__always)
    mutating func decode(_ table: UnsafePointer<UInt32>) -> Int {
        let x = x0
        let entry = table[Int(x & (RANS.total &- 1))]
        var y = (entry &>> 20) &* (x &>> UInt32(RANS.precisionBits)) &+ (entry &>> 9 & 0x7FF)
        if y < RANS.lower { y = y &<< 16 | read16() }
        if single > 0 {
            x0 = y
            single &-= 1
            if single == 0 { x1 = read16() | read16() << 16 }
        } else {
            x0 = x1
            x1 = y
        }
        return Int(entry & 0x1FF)
    }
}
