/// Bridges from the floating-point values an app holds (`CGFloat`, `Double`) to the
/// engine's fixed-point grid, and back. The core imports nothing, so these take
/// `Double`; `CGFloat` converts with `Double(value)`.
extension Points {
    /// `value` points rounded onto the 1/64 pt grid, half-way cases to even (spec 5.10.1),
    /// as the script decoder rounds numbers.
    ///
    /// No input traps. A value beyond ±`EventLimits.offset` (about 1.02e17 pt, the
    /// largest a field may hold: a content offset's), an infinity and NaN give a value
    /// 1/64 pt past it, which every field rejects: an event made of it is refused by the
    /// engine, as such a number is in a script, rather than taken as a clamped offset or
    /// as zero (a `0 / 0` in an app's conversion tapping the first row). A content offset
    /// past 1e9 pt (a table of tens of millions of rows) keeps its value; a length past
    /// 1e9 pt is rejected by the engine, as in scripts, rather than taken as a different,
    /// clamped value.
    ///
    /// ```swift
    /// let offset = Points(rounding: Double(scrollView.contentOffset.y))
    /// ```
    public init(rounding value: Double) {
        self.init(raw: GridRounding.round(value, scale: Double(Points.scale), limit: EventLimits.offset.raw))
    }

    /// The value in points as a `Double` (exact: every grid value is a binary fraction).
    public var doubleValue: Double { Double(raw) / Double(Points.scale) }
}

extension Micros {
    /// `seconds` (a `TimeInterval`, `CACurrentMediaTime()` minus the session's start)
    /// rounded to the nearest microsecond, half-way cases to even.
    ///
    /// No input traps. A value beyond ±`Micros.limit`, an infinity and NaN give a time
    /// 1 µs past it, which every event refuses as out of range, rather than a clamped
    /// time or zero.
    ///
    /// ```swift
    /// let t = Micros(seconds: CACurrentMediaTime() - sessionStart)
    /// ```
    public init(seconds: Double) {
        self.init(raw: GridRounding.round(seconds, scale: 1_000_000, limit: Micros.limit.raw))
    }

    /// The time in seconds, as a `TimeInterval`-compatible `Double`.
    public var seconds: Double { Double(raw) / 1_000_000 }
}

/// Rounding a `Double` onto an integer grid without trapping.
enum GridRounding {
    /// `value * scale` rounded half to even within `[-limit, limit]`; past it (an infinity
    /// included), `limit + 1` with its sign, and for NaN `limit + 1`: out of range for the
    /// field whose limit it is, so the engine refuses it. (`limit` is below `Int64.max`.)
    static func round(_ value: Double, scale: Double, limit: Int64) -> Int64 {
        guard !value.isNaN else { return limit + 1 }
        let scaled = toNearestOrEven(value * scale)
        // The limit as a double may not be the limit exactly: that double is the limit.
        if scaled >= Double(limit) { return scaled == Double(limit) ? limit : limit + 1 }
        if scaled <= -Double(limit) { return scaled == -Double(limit) ? -limit : -(limit + 1) }
        return Int64(scaled)
    }

    /// `x` rounded to an integer, half-way cases to even, with IEEE addition alone:
    /// adding and subtracting 2^52 leaves no fraction bits, and the default rounding
    /// mode rounds half to even. (`Double.rounded` calls libm, which the core does not
    /// link: a program built from its objects alone must still link.)
    static func toNearestOrEven(_ x: Double) -> Double {
        let twoTo52 = 4_503_599_627_370_496.0
        guard x.magnitude < twoTo52 else { return x }   // already an integer (or infinite)
        return x >= 0 ? (x + twoTo52) - twoTo52 : (x - twoTo52) + twoTo52
    }
}
