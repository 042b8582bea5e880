/// A static rANS coder (range asymmetric numeral systems, after Duda; the 32-bit state
/// with 16-bit renormalization and the two interleaved states of Giesen's `ryg_rans`),
/// the entropy coder planned for format version 7's coded batches (docs/PERFORMANCE.md,
/// "A multi-symbol coder").
///
/// Unlike the adaptive binary `RangeCoder`, whose models learn bit by bit, a symbol here
/// is coded under a fixed table (`RANSTable`) of frequencies in units of 1/`total`. Its
/// decoding is one table load, a multiply and an add, and a refill about once every 16
/// bits of output, whatever the alphabet: the spike that measured it decoded format 6's
/// items in 195–231 instructions an event, against format 6's 913–1,700.
///
/// The encoder codes the symbols last to first (rANS is a stack) so that the decoder reads
/// them first to last. Symbol `i` is coded on state `i % 2`: the two chains of dependent
/// arithmetic interleave, which halves the latency a decoder waits on.
///
/// The stream: the two final states, four bytes each (little-endian), then the 16-bit
/// words the encoder shifted out, in the order the decoder reads them. A finished stream
/// ends with both states back at `lower`, where the encoder started them: a decoder that
/// reads every symbol and then sees anything else was given other bytes.
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
        var states: (UInt32, UInt32) = (RANS.lower, RANS.lower)
        // Shifted out last to first; the decoder reads them first to last.
        var words: [UInt16] = []
        words.reserveCapacity(pending.count / 4 + 4)
        var i = pending.count
        while i > 0 {
            i -= 1
            let entry = pending[i]
            let frequency = entry & 0xFFFF, start = entry >> 16
            var x = i & 1 == 0 ? states.0 : states.1
            // A state past this would leave [lower, 2^32) after coding: shift 16 bits out.
            // (`lower` >> precisionBits << 16 is 2^21; times a frequency of `total`, 2^32.)
            if UInt64(x) >= UInt64(frequency) << (32 - RANS.precisionBits) {
                words.append(UInt16(truncatingIfNeeded: x))
                x >>= 16
            }
            x = (x / frequency) << RANS.precisionBits + x % frequency + start
            if i & 1 == 0 { states.0 = x } else { states.1 = x }
        }
        var out: [UInt8] = []
        out.reserveCapacity(8 + 2 * words.count)
        for state in [states.0, states.1] {
            for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: state >> (8 * k))) }
        }
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
    private var x0: UInt32 = 0, x1: UInt32 = 0

    /// A decoder of the `count` bytes at `bytes`, which start with the two states.
    init(_ bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
        x0 = UInt32(read16()) | UInt32(read16()) << 16
        x1 = UInt32(read16()) | UInt32(read16()) << 16
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
        x0 = x1
        x1 = y
        return Int(entry & 0x1FF)
    }
}
