import SelectLog

/// The pieces of the reports' descriptions, written as the command line writes them (which
/// uses them too).
package enum ReportText {
    /// `1 event`, `2 events`.
    package static func counted(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

    /// Sixteen lowercase hex digits, zero-padded; `none` for nil.
    package static func hex16(_ v: UInt64?) -> String {
        guard let v else { return "none" }
        return TableState.hex(v)
    }

    /// 0-based event indices as text numbers them, from 1: `event 5`, `events 5-9`.
    package static func events(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "event \(number(range.lowerBound))"
            : "events \(number(range.lowerBound))-\(number(range.upperBound))"
    }

    /// A 0-based event index as text numbers it, from 1. Never traps: the reports' fields
    /// are public `var`s, and `Int.max + 1` (or a range's `count`) would.
    package static func number(_ index: Int) -> String {
        index >= 0 ? String(UInt(index) + 1) : String(index + 1)
    }

    /// `end - start`, held at `Int64.max` or `.min` where it does not fit (a summary's times
    /// are public `var`s; wrapped, the span of the widest times read as negative).
    package static func span(from start: Int64, to end: Int64) -> Int64 {
        let (d, overflow) = end.subtractingReportingOverflow(start)
        return overflow ? (end > start ? .max : .min) : d
    }

    /// `n / d` as a ratio to two decimals, rounded half up: `2.35x`. Exact and never a
    /// trap, whatever `n` (a summary's byte counts are public `var`s): the whole part
    /// and the hundredths of the rest are computed apart, the rest's times 100 wide.
    package static func ratio(_ n: Int, over d: Int) -> String {
        guard d > 0 else { return "-" }
        let q = UInt(d)
        var whole = n.magnitude / q
        let scaled = (n.magnitude % q).multipliedFullWidth(by: 100)
        let (low, carry) = scaled.low.addingReportingOverflow(q / 2)
        // Below 101: the rest is less than `q`.
        var hundredths = q.dividingFullWidth((high: scaled.high + (carry ? 1 : 0), low: low)).quotient
        if hundredths >= 100 {
            // Rounded up into the next whole (never past `UInt.max`: `q` ≥ 2 here).
            hundredths -= 100
            whole += 1
        }
        return "\(n < 0 ? "-" : "")\(whole).\(hundredths < 10 ? "0" : "")\(hundredths)x"
    }

    /// Bytes as two uppercase hex digits each, spaced: `58 45 4C 45`.
    package static func bytes(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
    }

    /// `raw` microseconds as m:ss.mmm, or h:mm:ss.mmm from an hour on (a session recorded
    /// over an afternoon reads `4:04:50.580`, not `244:50.580`), truncated to the millisecond.
    /// Never traps: a forged log's times may run backwards, so a span may be negative.
    package static func duration(_ raw: Int64) -> String {
        let ms = raw.magnitude / 1000
        let hours = ms / 3_600_000, minutes = ms / 60_000 % 60, seconds = ms / 1000 % 60, millis = ms % 1000
        func two(_ v: UInt64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let three = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        let clock = hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
        return "\(raw < 0 ? "-" : "")\(clock).\(three)"
    }
}
