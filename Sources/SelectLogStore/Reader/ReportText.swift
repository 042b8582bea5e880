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
        range.count == 1 ? "event \(range.lowerBound + 1)" : "events \(range.lowerBound + 1)-\(range.upperBound + 1)"
    }
}
