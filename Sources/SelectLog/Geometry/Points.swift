/// A length or coordinate on the engine's fixed-point grid of 1/64 pt.
///
/// Every length read from an event is rounded onto this grid once (spec 5.10.1),
/// after which all layout arithmetic is exact integer arithmetic, so that a log
/// replays to the same state on every platform.
public struct Points: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The value in 1/64 pt.
    public var raw: Int64

    /// Grid steps per point.
    public static let scale: Int64 = 64
    /// No length.
    public static let zero = Points(raw: 0)
    /// The largest magnitude an event may carry, so sums over millions of rows cannot overflow.
    public static let limit = Points(raw: 1_000_000_000 * 64)
    /// The tallest content a table can have: 100,000,000 rows, and 1,000,000 sections'
    /// headers and footers, of `limit` each, and the editor row (about 1.02e17 pt, within
    /// 64 bits on the grid). A content offset, which scrolls by relative deltas, can pass
    /// `limit`; it never passes this.
    package static let contentLimit = Points(raw: 1_000_000_000 * 64 * (100_000_000 + 2 * 1_000_000 + 1))

    /// A length of `raw` 64ths of a point.
    @inlinable public init(raw: Int64) { self.raw = raw }
    /// A whole number of points. Past about ±1.4e17 (64 bits on the grid) it saturates
    /// rather than trapping; every event refuses such a length as out of range.
    @inlinable public init(_ points: Int) {
        let (raw, overflow) = Int64(points).multipliedReportingOverflow(by: Points.scale)
        self.raw = overflow ? (points < 0 ? .min : .max) : raw
    }

    @inlinable public static func < (a: Points, b: Points) -> Bool { a.raw < b.raw }
    /// The sum of two lengths. Like the other operators here it wraps rather than traps
    /// past `Int64` (2^57 pt): lengths within `EventLimits` never get there, and the
    /// engine refuses an event that holds a wrapped value, as any out of its limits.
    @inlinable public static func + (a: Points, b: Points) -> Points { Points(raw: a.raw &+ b.raw) }
    /// The difference of two lengths.
    @inlinable public static func - (a: Points, b: Points) -> Points { Points(raw: a.raw &- b.raw) }
    /// Adds `b` to `a`.
    @inlinable public static func += (a: inout Points, b: Points) { a.raw &+= b.raw }
    /// Subtracts `b` from `a`.
    @inlinable public static func -= (a: inout Points, b: Points) { a.raw &-= b.raw }
    @inlinable public static prefix func - (a: Points) -> Points { Points(raw: 0 &- a.raw) }

    /// `self` limited to `[lower, upper]`.
    @inlinable public func clamped(_ lower: Points, _ upper: Points) -> Points {
        self < lower ? lower : (upper < self ? upper : self)
    }

    /// The exact decimal value in points, e.g. `12.515625`.
    public var description: String { Decimal.format(raw, scale: Points.scale) }
}

/// A time on the engine's grid of 1 µs. Scripts carry milliseconds.
public struct Micros: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The value in microseconds.
    public var raw: Int64
    /// Time zero: the start of a session.
    public static let zero = Micros(raw: 0)
    /// The latest time the event contract and the log accept: 8e12 ms, so that times an
    /// app takes from the wall clock (milliseconds since 1970, about 1.8e12 today) fit
    /// until the year 2223, and every time, written in milliseconds to the microsecond,
    /// reads back exactly as a double (below 2^43 ms its spacing is under 1 µs), as the
    /// viewer's script and a JSON reader read `t`.
    public static let limit = Micros(raw: 8_000_000_000_000_000)

    /// A time of `raw` microseconds.
    @inlinable public init(raw: Int64) { self.raw = raw }
    /// A whole number of milliseconds. Past about ±9.2e15 it saturates rather than
    /// trapping; every event refuses such a time as out of range.
    public static func milliseconds(_ ms: Int) -> Micros {
        let (raw, overflow) = Int64(ms).multipliedReportingOverflow(by: 1000)
        return Micros(raw: overflow ? (ms < 0 ? .min : .max) : raw)
    }

    @inlinable public static func < (a: Micros, b: Micros) -> Bool { a.raw < b.raw }

    /// The exact decimal value in milliseconds, e.g. `16.667`.
    public var description: String { Decimal.format(raw, scale: 1000) }
}

/// Exact decimal formatting of fixed-point values.
enum Decimal {
    /// `raw / scale` written exactly, with no trailing zeros: in decimals when `scale`'s
    /// only prime factors are 2 and 5 (64, a power of ten), so that the expansion ends;
    /// otherwise as the fraction `raw/scale`. A scale below 1 is taken as 1.
    static func format(_ raw: Int64, scale: Int64) -> String {
        let scale = UInt64(Swift.max(scale, 1))
        if scale != 64 && scale != 1000 {
            var rest = scale
            while rest % 2 == 0 { rest /= 2 }
            while rest % 5 == 0 { rest /= 5 }
            if rest != 1 { return "\(raw)/\(scale)" }
        }
        let negative = raw < 0
        let magnitude = raw.magnitude
        let whole = magnitude / scale
        var remainder = magnitude % scale
        var text = negative ? "-" : ""
        text += String(whole)
        if remainder != 0 {
            text += "."
            while remainder != 0 {
                // remainder × 10 in full width: a scale past 2^60 would overflow it.
                let (digit, next) = scale.dividingFullWidth(remainder.multipliedFullWidth(by: 10))
                text += String(digit)
                remainder = next
            }
        }
        return text
    }
}
