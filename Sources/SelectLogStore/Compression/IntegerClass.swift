/// An integer as one rANS symbol, its *class*, plus raw bits: the class says whether it
/// is zero, its sign, its bit length and the bit below its leading one, which together
/// carry most of what a residual's distribution knows; the bits under those are close to
/// uniform and go raw. A pan sample's two coordinates are then two symbols, where format
/// 6 takes a zero decision, a sign, a four-decision length and a modelled bit each.
///
/// The classes (`alphabet` of them):
/// - 0: zero;
/// - 1 and 2: +1 and -1;
/// - 3 + 4(n - 2) + 2b + s for bit lengths n of 2...`maxLength`, b the bit below the
///   leading one and s the sign (1 negative), followed by the n - 2 bits below b;
/// - `alphabet` - 2 and - 1, longer values (positive, negative): followed by n - 25 in
///   six bits and the n - 1 bits below the leading one.
enum IntegerClass {
    /// The longest bit length with classes of its own.
    static let maxLength = 24
    /// The classes: 95 for lengths up to `maxLength`, and two for longer values.
    static let alphabet = 3 + 4 * (maxLength - 1) + 2

    /// `v` as its class and the raw bits after it: `low` in `lowBits` bits, preceded for
    /// a value longer than `maxLength` bits by its length less `maxLength` + 1 in six bits
    /// (`longLength`).
    @inline(__always)
    static func split(_ v: Int64) -> (symbol: Int, low: UInt64, lowBits: Int, longLength: Int?) {
        let magnitude = v.magnitude
        let n = UInt64.bitWidth - magnitude.leadingZeroBitCount
        let s = v < 0 ? 1 : 0
        switch n {
        case 0: return (0, 0, 0, nil)
        case 1: return (1 + s, 0, 0, nil)
        case 2...maxLength: return (3 + 4 * (n - 2) + 2 * Int(magnitude >> (n - 2) & 1) + s, magnitude, n - 2, nil)
        default: return (alphabet - 2 + s, magnitude, n - 1, n - maxLength - 1)
        }
    }

    /// `v` as its class, written with `table` into `e`, and its raw bits into `raw`.
    static func encode(_ v: Int64, with table: RANSTable, into e: inout RANSEncoder, raw: inout BitWriter) {
        let c = split(v)
        table.encode(c.symbol, into: &e, raw: &raw)
        if let long = c.longLength { raw.write(UInt64(long), bits: 6) }
        raw.writeWide(c.low, bits: c.lowBits)
    }

    /// The value of class `symbol` (0..<`alphabet`), its raw bits read from `raw`; nil
    /// for a longer value out of Int64's range or with a length that no value has (bits
    /// no encoder wrote).
    @inline(__always)
    static func decode(_ symbol: Int, raw: inout BitReaderCore) -> Int64? {
        if symbol >= 3, symbol < alphabet - 2 {
            let t = symbol &- 3
            let extra = t &>> 2
            let top = UInt64(2 | (t &>> 1 & 1)) &<< UInt64(extra)
            let magnitude = Int64(bitPattern: top | raw.read(bits: extra))
            let sign = Int64(t & 1)
            return (magnitude ^ (0 &- sign)) &+ sign
        }
        if symbol < 3 { return symbol == 0 ? 0 : symbol == 1 ? 1 : -1 }
        return decodeLong(negative: symbol == alphabet - 1, raw: &raw)
    }

    /// A value longer than `maxLength` bits.
    private static func decodeLong(negative: Bool, raw: inout BitReaderCore) -> Int64? {
        let n = Int(raw.read(bits: 6)) + maxLength + 1
        guard n <= 64 else { return nil }
        let magnitude = UInt64(1) << UInt64(n - 1) | raw.readWide(bits: n - 1)
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }
}
