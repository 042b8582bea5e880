extension HeightTree {
    /// The last row of the run of zero-height rows that starts at `index`, or nil when row
    /// `index` is not zero-height (or out of range). A picture of the rows near the
    /// viewport steps over such a run at once: 50,000,000 hidden rows (a collapsed
    /// section's, say) would otherwise be walked one by one.
    ///
    /// Rows `index...j` are all zero-height exactly when row `j` is and starts where row
    /// `index` does (heights are never negative), which holds for a prefix of the rows
    /// from `index`: a binary search finds its end in O(log² n).
    package func lastOfZeroHeightRun(from index: Int) -> Int? {
        guard index >= 0, index < count, height(at: index) == .zero else { return nil }
        let start = offset(of: index)
        var low = index, high = count - 1
        while low < high {
            let mid = low + (high - low + 1) / 2
            if height(at: mid) == .zero && offset(of: mid) == start { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
