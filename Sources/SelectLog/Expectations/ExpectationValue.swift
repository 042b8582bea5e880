/// A value an expectation reads from the state or writes as a literal: the shapes of
/// the state JSON (spec 6).
///
/// Numbers are exact fixed-point values (`ExpectationNumber`), never binary floating
/// point, so that comparisons are deterministic and follow the contract's grid.
public enum ExpectationValue: Sendable, CustomStringConvertible {
    /// JSON `null`: an absent pan, option view, editor, … and any path through one.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An exact number on a grid, or a decimal literal.
    case number(ExpectationNumber)
    /// A string, such as `pan.kind`.
    case string(String)
    /// A list, such as `selected` or a row path `[section, row]`.
    case list([ExpectationValue])
    /// An object (`pan`, `swipe`, `editor`), keys in the order of spec 6.
    case object([(key: String, value: ExpectationValue)])

    /// The value as JSON text, e.g. `[[0, 3], [0, 4]]` or `{"kind": "strip"}`.
    /// The value as JSON text.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): String(b)
        case .number(let n): n.description
        case .string(let s): JSONText.quote(s)
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let fields): "{" + fields.map { JSONText.quote($0.key) + ": " + $0.value.description }.joined(separator: ", ") + "}"
        }
    }

    /// Whether the value makes an expectation hold: everything but `false` and `null`.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let b): b
        default: true
        }
    }

    /// Structural equality; numbers compare on the grid (see `ExpectationNumber.compare`),
    /// strings by their Unicode scalars, as the engine compares titles (`"é"` and `e` with
    /// a combining accent differ, as they do in the state JSON), not by Swift's `==`,
    /// which calls them equal by the Unicode data of the Swift that built it.
    public func isEqual(to other: ExpectationValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a.compare(b) == 0
        case let (.string(a), .string(b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case let (.list(a), .list(b)): a.count == b.count && zip(a, b).allSatisfy { $0.isEqual(to: $1) }
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value.isEqual(to: $1.value) }
        default: false
        }
    }

    /// A row path as the state JSON writes it, `[section, row]`.
    static func row(_ r: RowPath?) -> ExpectationValue {
        guard let r else { return .null }
        return .list([.number(.count(r.section)), .number(.count(r.row))])
    }
}

/// An exact number: `raw / scale`.
///
/// Values read from the state carry their grid — 1 for counts, 64 for lengths (1/64 pt,
/// spec 5.10.1), 1000 for times in milliseconds (1 µs). A literal written in an
/// expression is a decimal; when it meets a value from the state it is first rounded
/// onto that value's grid (half to even, as the contract rounds event fields), so
/// `contentOffset == 120.3` holds when the offset is 120.296875 pt, the grid point
/// nearest 120.3.
public struct ExpectationNumber: Sendable, CustomStringConvertible {
    /// The value times `scale`.
    public var raw: Int64
    /// 1, 64, 1000 or a power of ten; at least 1 (a smaller one is taken as 1).
    public var scale: Int64 { didSet { scale = Swift.max(scale, 1) } }
    /// Whether this is a literal from the expression (rounded onto the other side's grid).
    public var isLiteral: Bool

    /// A value from the state.
    public init(raw: Int64, scale: Int64) {
        self.raw = raw
        self.scale = Swift.max(scale, 1)
        isLiteral = false
    }

    /// A literal decimal `raw / scale` (`scale` a power of ten).
    public init(literal raw: Int64, scale: Int64) {
        self.raw = raw
        self.scale = Swift.max(scale, 1)
        isLiteral = true
    }

    /// A count (an integer from the state).
    static func count(_ n: Int) -> ExpectationNumber { ExpectationNumber(raw: Int64(n), scale: 1) }
    static func points(_ p: Points) -> ExpectationNumber { ExpectationNumber(raw: p.raw, scale: Points.scale) }
    static func millis(_ t: Micros) -> ExpectationNumber { ExpectationNumber(raw: t.raw, scale: 1000) }

    /// The exact decimal value, e.g. `120.296875`.
    public var description: String { Decimal.format(raw, scale: scale) }

    /// `raw` moved onto grid `scale`, rounded half to even.
    func rounded(to grid: Int64) -> Int64 {
        if grid == scale { return raw }
        // |raw| * grid / scale with an exact 128-bit product.
        let negative = raw < 0
        let (high, magnitude) = raw.magnitude.multipliedFullWidth(by: UInt64(grid))
        guard high < UInt64(scale) else { return negative ? Int64.min : Int64.max }
        let (q, r) = UInt64(scale).dividingFullWidth((high, magnitude))
        var quotient = q
        let twice = r &* 2
        if twice > UInt64(scale) || (twice == UInt64(scale) && quotient % 2 == 1) { quotient &+= 1 }
        let value = Int64(clamping: quotient)
        return negative ? -value : value
    }

    /// -1, 0 or 1. A literal meeting a state value is rounded onto the state value's
    /// grid first; otherwise the two are compared exactly.
    public func compare(_ other: ExpectationNumber) -> Int {
        if isLiteral != other.isLiteral {
            let (state, literal) = isLiteral ? (other, self) : (self, other)
            let l = literal.rounded(to: state.scale)
            let c = state.raw < l ? -1 : (state.raw > l ? 1 : 0)
            return isLiteral ? -c : c
        }
        // Exact: raw₁ × scale₂ against raw₂ × scale₁, full width.
        let a = raw.multipliedFullWidth(by: other.scale), b = other.raw.multipliedFullWidth(by: scale)
        if a.high != b.high { return a.high < b.high ? -1 : 1 }
        if a.low != b.low { return a.low < b.low ? -1 : 1 }
        return 0
    }
}
