/// Bridges from the floating-point values an app holds (`CGFloat`, `Double`) to the
/// engine's fixed-point grid, and back. The core imports nothing, so these take
/// `Double`; `CGFloat` converts with `Double(value)`.
extension Points {
    /// `value` points rounded onto the 1/64 pt grid, half-way cases to even (spec 5.10.1),
    /// as the script decoder rounds numbers.
    ///
    /// A value beyond ±`EventLimits.offset` (about 1.02e17 pt, the largest a field may
    /// hold: a content offset's) is clamped to it and NaN gives zero, so no input traps.
    /// A content offset past 1e9 pt (a table of tens of millions of rows) keeps its
    /// value; a length past 1e9 pt is rejected by the engine, as in scripts, rather than
    /// taken as a different, clamped value.
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
    /// A value beyond ±`Micros.limit` is clamped to it and NaN gives zero, so no input traps.
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
    /// `value * scale` rounded half to even and clamped to `[-limit, limit]`; NaN gives 0.
    static func round(_ value: Double, scale: Double, limit: Int64) -> Int64 {
        guard !value.isNaN else { return 0 }
        let scaled = toNearestOrEven(value * scale)
        if scaled >= Double(limit) { return limit }
        if scaled <= -Double(limit) { return -limit }
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
