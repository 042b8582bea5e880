/// A JSON number as written: a view of its literal in the parsed line, read exactly
/// when asked for (`scaled(by:limit:)`, `integer(limit:)`), never through binary
/// floating point. It holds no digits of its own, so a long literal costs nothing
/// until it is read, and reading it walks the literal once.
package struct JSONNumber: Hashable, Sendable {
    /// Values at or above 10^1001 are rejected by the parser ("number out of range").
    static let maxMagnitude = 1001

    private let source: CheckedJSON
    private let start: UInt32
    private let end: UInt32

    init(text: CheckedJSON, range: Range<Int>) {
        source = text
        start = UInt32(clamping: range.lowerBound)
        end = UInt32(clamping: max(range.upperBound, range.lowerBound))
    }

    /// The layout of a literal: sign, integer and fraction digits, exponent.
    struct Parts {
        var negative = false
        var integer: Range<Int>
        var fraction: Range<Int>
        /// The written exponent, clamped to ±2^40: past any literal's length (positions in
        /// a line are 32-bit), so the digits' own position can never bring a clamped value
        /// back (`0.` and 150,000 zeros then `2e150003` is 200).
        var exponent = 0
        let bytes: [UInt8]

        init(_ bytes: [UInt8], _ range: Range<Int>) {
            self.bytes = bytes
            var i = range.lowerBound
            func isDigit(_ k: Int) -> Bool { k < range.upperBound && bytes[k] >= 0x30 && bytes[k] <= 0x39 }
            if i < range.upperBound, bytes[i] == UInt8(ascii: "-") {
                negative = true
                i += 1
            }
            let intStart = i
            while isDigit(i) { i += 1 }
            integer = intStart..<i
            fraction = i..<i
            if i < range.upperBound, bytes[i] == UInt8(ascii: ".") {
                i += 1
                let fracStart = i
                while isDigit(i) { i += 1 }
                fraction = fracStart..<i
            }
            if i < range.upperBound, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                var expNegative = false
                if i < range.upperBound, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                    expNegative = bytes[i] == UInt8(ascii: "-")
                    i += 1
                }
                var e = 0
                while isDigit(i) {
                    e = min(e * 10 + Int(bytes[i] - 0x30), 1 << 40)
                    i += 1
                }
                exponent = expNegative ? -e : e
            }
        }

        /// Digits written, integer then fraction.
        var count: Int { integer.count + fraction.count }

        /// The p-th written digit (0 outside the literal).
        func digit(_ p: Int) -> Int64 {
            if p >= 0 && p < integer.count { return Int64(bytes[integer.lowerBound + p] - 0x30) }
            if p >= integer.count && p < count { return Int64(bytes[fraction.lowerBound + p - integer.count] - 0x30) }
            return 0
        }

        /// Where the decimal point falls among the written digits.
        var point: Int { integer.count + exponent }

        /// The first and last non-zero digits, or nil for zero.
        var significant: ClosedRange<Int>? {
            var first = 0
            while first < count, digit(first) == 0 { first += 1 }
            guard first < count else { return nil }
            var last = count - 1
            while digit(last) == 0 { last -= 1 }
            return first...last
        }

        /// Digits before the point once leading zeros are dropped (≤ 0 below 1).
        var magnitude: Int { significant.map { point - $0.lowerBound } ?? 0 }
    }

    private var parts: Parts { Parts(source.bytes, Int(start)..<Int(end)) }

    /// `self × scale` rounded to the nearest integer, half-way cases to even; nil when
    /// the magnitude exceeds `limit`. Exact for every scale that divides 5·10^14 (the
    /// engine's 1, 64 and 1000); `scale` must be in 1...9000, else the result is nil.
    package func scaled(by scale: Int, limit: Int64) -> Int64? {
        guard scale >= 1, scale <= 9000 else { return nil }
        let p = parts
        guard let significant = p.significant else { return 0 }
        let point = p.point
        if point - significant.lowerBound > 19 { return nil }
        var whole: Int64 = 0
        if point > significant.lowerBound {
            for q in significant.lowerBound..<point {
                let (m, o1) = whole.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(p.digit(q))
                if o1 || o2 { return nil }
                whole = a
            }
        }
        // The first 15 fraction digits, and whether any non-zero digit follows them.
        var fraction: Int64 = 0
        for q in point..<(point + 15) { fraction = fraction * 10 + p.digit(q) }
        let sticky = significant.upperBound >= point + 15
        let (scaledWhole, o1) = whole.multipliedReportingOverflow(by: Int64(scale))
        if o1 { return nil }
        let product = fraction * Int64(scale)
        let unit: Int64 = 1_000_000_000_000_000
        var (result, o2) = scaledWhole.addingReportingOverflow(product / unit)
        let remainder = product % unit, half = unit / 2
        if remainder > half || (remainder == half && (sticky || result % 2 == 1)) {
            let (up, o3) = result.addingReportingOverflow(1)
            result = up
            if o3 { return nil }
        }
        if o2 || result > limit { return nil }
        return p.negative ? -result : result
    }

    /// The value as an integer, or nil when it has a fraction or exceeds `limit`.
    package func integer(limit: Int64) -> Int64? {
        let p = parts
        if let significant = p.significant, significant.upperBound >= p.point { return nil }
        return scaled(by: 1, limit: limit)
    }

    /// Whether the number is below zero (zero is never negative).
    package var negative: Bool { let p = parts; return p.negative && p.significant != nil }

    /// Decimal digits, most significant first, without leading or trailing zeros
    /// (empty for zero): the value is `digits × 10^exponent`.
    package var digits: [UInt8] {
        let p = parts
        guard let s = p.significant else { return [] }
        return s.map { UInt8(p.digit($0)) }
    }

    /// The power of ten that `digits` are scaled by.
    package var exponent: Int {
        let p = parts
        guard let s = p.significant else { return 0 }
        return p.point - (s.upperBound + 1)
    }

    /// The literal as the line wrote it (`1.5`, where `text` is `15e-1`): what an error
    /// quotes.
    package var written: String { String(decoding: source.bytes[Int(start)..<Int(end)], as: UTF8.self) }

    /// Whether the value is a whole number (`3`, `3.0`, `3e2`), however large.
    package var isWhole: Bool { exponent >= 0 }

    /// The literal as JSON text, normalised.
    package var text: String {
        let p = parts
        guard let s = p.significant else { return "0" }
        var out = p.negative ? "-" : ""
        out.reserveCapacity(s.count + 8)
        for q in s { out.unicodeScalars.append(Unicode.Scalar(UInt8(0x30 + p.digit(q)))) }
        let e = p.point - (s.upperBound + 1)
        if e != 0 { out += "e\(e)" }
        return out
    }

    /// Numbers are equal when their values are: `1.50` equals `15e-1`.
    package static func == (a: JSONNumber, b: JSONNumber) -> Bool {
        a.negative == b.negative && a.exponent == b.exponent && a.digits == b.digits
    }

    /// Hashes the normalised value, consistently with `==`.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(negative)
        hasher.combine(exponent)
        hasher.combine(digits)
    }
}
