/// Thirds of a point (a 3x screen's pixels) on the engine's 1/64 pt grid, where each is
/// 21 or 22 grid steps: the log's channels code values on it in thirds (format 6), and
/// the random walk of a 3x screen puts its lengths on it. Public and inlinable, as
/// `Points`' arithmetic is: the coder, in another module, asks them of every value, and
/// a `package` function is not inlined across modules (a call each cost a replay 27
/// instructions an event on the standard session).
public enum ThirdsGrid {
    /// The third of a point nearest to `v` (in 1/64 pt): floor((3v + 32) / 64).
    @inlinable @inline(__always)
    public static func third(_ v: Int64) -> Int64 { (v &* 3 &+ 32) &>> 6 }

    /// Third `k` in 1/64 pt, rounded to the nearest (halves up): floor((128k + 3) / 6).
    /// `third` takes it back to `k` for every |k| < 2^56 (it is within 1/3 of 64k/3, so 3
    /// times it is within 1 of 64k), far past any length. Wrapping: a damaged batch's
    /// value is wrong, never a trap.
    @inlinable @inline(__always)
    public static func sixtyFourths(third k: Int64) -> Int64 {
        let a = k &* 128 &+ 3
        let q = a / 6
        return a % 6 < 0 ? q &- 1 : q
    }

    /// Whether `v` lies on the grid of thirds.
    @inlinable @inline(__always)
    public static func isThird(_ v: Int64) -> Bool { sixtyFourths(third: third(v)) == v }
}
