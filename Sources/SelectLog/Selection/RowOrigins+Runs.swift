/// How `RowOrigins` follows a run of an edit's operations at once (`OperationRun`): a
/// section's runs rebuilt where the rows are removed or inserted, as one at a time would
/// leave them.
extension RowOrigins {
    /// `runs` without the rows of `rows` (ascending, distinct, before the removal); the rows
    /// after each close up.
    static func removing(_ rows: [Int], from runs: ArraySlice<Run>, into out: inout [Run]) {
        var d = 0
        for run in runs {
            let end = run.start + run.count
            var lower = run.start
            while lower < end {
                while d < rows.count && rows[d] < lower { d += 1 }
                let upper = d < rows.count ? Swift.min(rows[d], end) : end
                if lower < upper { append(run.piece(lower..<upper, at: lower - d), to: &out) }
                lower = upper < end ? upper + 1 : end  // past the removed row
            }
        }
    }

    /// `runs` with one new row of `value` at each of `rows` (ascending, distinct, after the
    /// insertions): the i-th lands before old row `rows[i] - i`, moving it down.
    static func inserting(_ rows: [Int], into runs: ArraySlice<Run>, value: Value, to out: inout [Run]) {
        var i = 0
        for run in runs {
            let end = run.start + run.count
            var lower = run.start
            while lower < end {
                while i < rows.count && rows[i] - i <= lower {
                    append(Run(start: rows[i], count: 1, value: value), to: &out)
                    i += 1
                }
                let upper = i < rows.count ? Swift.min(rows[i] - i, end) : end
                append(run.piece(lower..<upper, at: lower + i), to: &out)
                lower = upper
            }
        }
        for row in rows[i...] { append(Run(start: row, count: 1, value: value), to: &out) }
    }

    /// Appends `run`, joining it to the last run when it continues it.
    @inline(__always)
    static func append(_ run: Run, to out: inout [Run]) {
        if let last = out.last, last.start + last.count == run.start, last.continues(into: run) {
            out[out.count - 1].count += run.count
        } else {
            out.append(run)
        }
    }
}

extension RowOrigins.Run {
    /// The rows `rows` of this run (old rows), starting at `start` after an edit.
    @inline(__always)
    func piece(_ rows: Range<Int>, at start: Int) -> Self {
        var piece = Self(start: start, count: rows.count, value: value)
        if case let .existing(section, first) = value { piece.value = .existing(section: section, firstRow: first + rows.lowerBound - self.start) }
        return piece
    }

    /// Whether `next`, starting right after this run, gives its rows the origins this run
    /// would give them if it went on.
    @inline(__always)
    func continues(into next: Self) -> Bool {
        switch (value, next.value) {
        case let (.existing(s, first), .existing(t, nextFirst)): return s == t && first + count == nextFirst
        default: return value == next.value
        }
    }
}
