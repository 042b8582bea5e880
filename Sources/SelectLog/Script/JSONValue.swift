/// A parsed JSON value. Numbers keep their decimal digits, so that rounding onto
/// the engine's grid is exact (spec 5.10.1), not at the mercy of binary floating point.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o):
            for (k, v) in o {
                hasher.combine(k)
                hasher.combine(v)
            }
        }
    }

    /// What a message calls this kind of value.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON number as written: `digits × 10^exponent`, with a sign.
public struct JSONNumber: Hashable, Sendable {
    public var negative: Bool
    /// Decimal digits, most significant first, values 0...9.
    public var digits: [UInt8]
    public var exponent: Int

    /// `self × scale` rounded to the nearest integer, half-way cases to even; nil when
    /// the magnitude exceeds `limit`.
    public func scaled(by scale: Int, limit: Int64) -> Int64? {
        // product = digits × scale, as decimal digits.
        var product = digits
        var carry = 0
        for i in stride(from: product.count - 1, through: 0, by: -1) {
            let v = Int(product[i]) * scale + carry
            product[i] = UInt8(v % 10)
            carry = v / 10
        }
        while carry > 0 {
            product.insert(UInt8(carry % 10), at: 0)
            carry /= 10
        }
        // Split into integer and fraction digits at the decimal point.
        let pointAt = product.count + exponent
        var whole: Int64 = 0
        if pointAt > 0 {
            for i in 0..<pointAt {
                let d = i < product.count ? Int64(product[i]) : 0
                let (m, o1) = whole.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(d)
                if o1 || o2 || a > limit { return nil }
                whole = a
            }
        }
        // Round the fraction: first digit, and whether anything non-zero follows.
        let fractionStart = max(pointAt, 0)
        var first: UInt8 = 0
        var rest = false
        if pointAt >= 0 {
            if fractionStart < product.count {
                first = product[fractionStart]
                rest = product[(fractionStart + 1)...].contains { $0 != 0 }
            }
        } else {
            // The fraction begins with -pointAt zeros, so it is below one half unless empty.
            first = 0
            rest = product.contains { $0 != 0 }
        }
        if first > 5 || (first == 5 && (rest || whole % 2 == 1)) {
            whole += 1
            if whole > limit { return nil }
        }
        return negative ? -whole : whole
    }

    /// The value as an integer, or nil when it has a fraction or exceeds `limit`.
    public func integer(limit: Int64) -> Int64? {
        let pointAt = digits.count + exponent
        if pointAt < digits.count, digits[max(pointAt, 0)...].contains(where: { $0 != 0 }) { return nil }
        return scaled(by: 1, limit: limit)
    }

    /// The literal as JSON text, normalised.
    public var text: String {
        var s = negative ? "-" : ""
        s += digits.map { String($0) }.joined()
        if exponent != 0 { s += "e\(exponent)" }
        return s
    }
}
