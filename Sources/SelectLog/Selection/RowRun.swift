/// Consecutive rows of one section: rows `rows` of section `section`.
public struct RowRun: Hashable, Sendable {
    /// The section.
    public var section: Int
    /// The rows, a non-empty range.
    public var rows: Range<Int>

    /// Rows `rows` of section `section`.
    public init(section: Int, rows: Range<Int>) {
        self.section = section
        self.rows = rows
    }

    /// Appends rows `rows` of `section` to `runs`, joined to the last run when they
    /// continue it, so that a list built only by this is maximal; an empty range adds
    /// nothing.
    static func append(_ section: Int, _ rows: Range<Int>, to runs: inout [RowRun]) {
        guard !rows.isEmpty else { return }
        if let last = runs.last, last.section == section, last.rows.upperBound == rows.lowerBound {
            runs[runs.count - 1].rows = last.rows.lowerBound..<rows.upperBound
        } else {
            runs.append(RowRun(section: section, rows: rows))
        }
    }

    /// `paths` ascending, each once (already so, as the engine makes them: as they are).
    static func ascending(_ paths: [RowPath]) -> [RowPath] {
        var ordered = true
        for i in paths.indices.dropFirst() where !(paths[i - 1] < paths[i]) {
            ordered = false
            break
        }
        guard !ordered else { return paths }
        var out: [RowPath] = []
        out.reserveCapacity(paths.count)
        for p in paths.sorted() where out.last != p { out.append(p) }
        return out
    }

    /// `paths` as maximal runs, in their order (`paths(_:)` gives them back exactly).
    static func runs(_ paths: [RowPath]) -> [RowRun] {
        var out: [RowRun] = []
        // A path outside the domain is no row (`Int.max` has no run to end at).
        for p in paths where p.isInDomain { append(p.section, p.row..<p.row &+ 1, to: &out) }
        return out
    }

    /// Every row of `runs`, in order.
    static func paths(_ runs: [RowRun]) -> [RowPath] {
        var out: [RowPath] = []
        out.reserveCapacity(runs.reduce(0) { $0 + $1.rows.count })
        for run in runs { for row in run.rows { out.append(RowPath(run.section, row)) } }
        return out
    }
}
