/// One context's frequencies for the rANS coder (`RANS`): symbols `0..<alphabet`, and an
/// escape, symbol `alphabet`, which every table made from counts holds. A symbol the
/// table lacks (a recorder codes a window with tables counted over the window before it)
/// is coded as the escape followed by the symbol in `escapeBits` raw bits.
///
/// Frequencies are stored coarsely: every symbol but the most frequent one on a grid of
/// four steps an octave (exact below 8), and the most frequent takes what is left of
/// `RANS.total`. Rounding down to the grid costs at most a fifth of a symbol's
/// probability.
struct RANSTable: Equatable {
    /// Symbols `0..<alphabet`; the escape is `alphabet`.
    let alphabet: Int
    /// Per symbol, the escape last: start << 16 | frequency, 0 for a symbol not in the table.
    private(set) var entries: [UInt32]

    /// The raw bits an escaped symbol takes.
    var escapeBits: Int { Self.escapeBits(alphabet) }

    static func escapeBits(_ alphabet: Int) -> Int { alphabet <= 1 ? 0 : Int.bitWidth - (alphabet - 1).leadingZeroBitCount }

    /// A table for symbols seen `counts[s]` times (`counts.count` is the alphabet, at most
    /// `RANS.maxAlphabet`): each symbol seen twice or more gets its share of `RANS.total`,
    /// rounded down to the grid and at least 1; the escape the share of the symbols seen
    /// once (at least 1), which it codes; and the most counted symbol the rest.
    init(counts: [UInt32]) {
        precondition(counts.count <= RANS.maxAlphabet)
        let alphabet = counts.count
        let sum = counts.reduce(UInt64(0)) { $0 + UInt64($1) }
        // Symbols seen once are left to the escape, which gets their count: the chance of
        // a symbol not seen before, as Good and Turing estimate it.
        let once = counts.reduce(UInt64(0)) { $0 + ($1 == 1 ? 1 : 0) }
        func code(_ n: UInt64) -> Int { Self.code(forAtMost: Swift.max(1, Int(n * UInt64(RANS.total) / Swift.max(sum, 1)))) }
        var symbols: [Int] = []
        var codes: [Int] = []
        var largest = -1
        for (s, n) in counts.enumerated() where n > 1 {
            if largest < 0 || n > counts[symbols[largest]] { largest = symbols.count }
            symbols.append(s)
            codes.append(code(UInt64(n)))
        }
        symbols.append(alphabet)
        codes.append(code(Swift.max(once, 1)))
        if largest < 0 { largest = symbols.count - 1 }
        self.init(alphabet: alphabet, symbols: symbols, codes: codes, largest: largest)
    }

    /// The table of `symbols` (ascending, the escape possibly among them) with grid codes
    /// `codes`; the one at `largest` takes the rest. Lowers the largest others while the
    /// rest would be under 1.
    private init(alphabet: Int, symbols: [Int], codes: [Int], largest: Int) {
        self.alphabet = alphabet
        var codes = codes
        func rest() -> Int {
            var used = 0
            for (i, c) in codes.enumerated() where i != largest { used += Self.frequency(ofCode: c) }
            return Int(RANS.total) - used
        }
        while rest() < 1 {
            var top = -1
            for (i, c) in codes.enumerated() where i != largest && c > 1 && (top < 0 || c > codes[top]) { top = i }
            guard top >= 0 else { break }
            codes[top] -= 1
        }
        entries = [UInt32](repeating: 0, count: alphabet + 1)
        var start: UInt32 = 0
        for (i, s) in symbols.enumerated() {
            let f = i == largest ? UInt32(rest()) : UInt32(Self.frequency(ofCode: codes[i]))
            entries[s] = start << 16 | f
            start += f
        }
        // The largest's code is not stored: equal tables compare equal.
        codes[largest] = 0
        self.codes = codes
        self.largest = largest
        self.symbols = symbols
    }

    /// What `write(to:)` writes.
    private let symbols: [Int]
    private let codes: [Int]
    private let largest: Int

    // MARK: The frequency grid

    /// The largest grid code: 7 + 4 × 8, for 1,792.
    static let maxCode = 39

    /// The frequency of grid code `code` (1...`maxCode`): the code itself below 8, else
    /// m << e with e = code / 4 - 1 and m = 4...7.
    static func frequency(ofCode code: Int) -> Int {
        guard code >= 8 else { return code }
        let e = code / 4 - 1
        return (code - 4 * e) << e
    }

    /// The grid code of the largest grid frequency at most `f` (1...`RANS.total` - 1).
    static func code(forAtMost f: Int) -> Int {
        guard f >= 8 else { return f }
        let e = Int.bitWidth - f.leadingZeroBitCount - 3
        return 4 * e + (f >> e)
    }

    // MARK: Coding the table

    /// The table in bits: the number of symbols it holds, the escape included (gamma);
    /// each symbol's distance from the one before (gamma; the first from -1), the escape
    /// left out, as it is always there and last; and with two symbols or more, which one
    /// takes the rest (gamma of its place plus one) and every other one's grid code, as
    /// the gamma code of its zigzagged difference from the code before it (the first's
    /// from 0).
    func write(to w: inout BitWriter) {
        w.writeGamma(UInt32(symbols.count))
        var previous = -1
        for s in symbols.dropLast() {
            w.writeGamma(UInt32(s - previous))
            previous = s
        }
        guard symbols.count >= 2 else { return }
        w.writeGamma(UInt32(largest + 1))
        // Each code as its difference from the code before (zigzag, then gamma): a
        // residual's classes fall off smoothly, so most differences are small.
        var before = 0
        for (i, c) in codes.enumerated() where i != largest {
            let d = c - before
            w.writeGamma(UInt32(d >= 0 ? 2 * d + 1 : -2 * d))
            before = c
        }
    }

    /// The table `write(to:)` wrote for an alphabet of `alphabet`, or nil when the bits
    /// do not make one (a symbol past the alphabet, a grid code out of range, frequencies
    /// that leave nothing for the largest).
    init?(reading r: inout BitReaderCore, alphabet: Int) {
        guard alphabet <= RANS.maxAlphabet, let k = r.readGamma(), k <= alphabet + 1 else { return nil }
        var symbols: [Int] = []
        var previous = -1
        for _ in 1..<Int(k) {
            guard let gap = r.readGamma(), Int(gap) < alphabet - previous else { return nil }
            previous += Int(gap)
            symbols.append(previous)
        }
        symbols.append(alphabet)
        var largest = 0
        var codes = [Int](repeating: 1, count: symbols.count)
        if k >= 2 {
            guard let place = r.readGamma(), place <= k else { return nil }
            largest = Int(place) - 1
            var used = 0, before = 0
            for i in codes.indices where i != largest {
                guard let z = r.readGamma(), z <= 2 * Self.maxCode + 1 else { return nil }
                let c = before + (z & 1 == 1 ? Int(z / 2) : -Int(z / 2))
                guard c >= 1, c <= Self.maxCode else { return nil }
                before = c
                codes[i] = c
                used += Self.frequency(ofCode: c)
            }
            guard used < Int(RANS.total) else { return nil }
        }
        guard !r.overran else { return nil }
        self.init(alphabet: alphabet, symbols: symbols, codes: codes, largest: largest)
    }

    // MARK: Using the table

    /// Codes `symbol` (0..<alphabet): its entry, or the escape and the symbol in raw bits.
    @inline(__always)
    func encode(_ symbol: Int, into e: inout RANSEncoder, raw: inout BitWriter) {
        let entry = entries[symbol]
        if entry != 0 {
            e.encode(start: entry >> 16, frequency: entry & 0xFFFF)
        } else {
            let escape = entries[alphabet]
            e.encode(start: escape >> 16, frequency: escape & 0xFFFF)
            raw.write(UInt64(symbol), bits: escapeBits)
        }
    }

    /// Fills `RANS.total` decoding entries at `table`, for `RANSDecoderCore.decode(_:)`:
    /// frequency << 20 | (slot - start) << 9 | symbol, the escape as `RANS.escape`.
    func fillDecoding(_ table: UnsafeMutablePointer<UInt32>) {
        for (s, entry) in entries.enumerated() where entry != 0 {
            let start = Int(entry >> 16), f = entry & 0xFFFF
            let symbol = UInt32(s == alphabet ? RANS.escape : s)
            for j in 0..<Int(f) { table[start + j] = f << 20 | UInt32(j) << 9 | symbol }
        }
    }
}
