extension RowSet {
    /// The set after `operations`, each row following itself (moved rows carry their membership).
    /// An operation naming a row or section outside `RangeList.domain` changes nothing
    /// (no member is there).
    public func applying(_ operations: [RowOperation]) -> RowSet {
        // Checked first, so the engine's edits (always in the domain) copy nothing.
        let operations = operations.allSatisfy(\.isInDomain) ? operations : operations.filter(\.isInDomain)
        var set = self
        var carry = RowCarry()
        for (range, run) in OperationRun.split(operations) {
            if let run {
                set.follow(run)
            } else {
                for op in operations[range] { set.follow(op, carry: &carry) }
            }
        }
        return set
    }

    /// Rows in exactly one of the two sets.
    public func symmetricDifference(_ other: RowSet) -> RowSet {
        subtracting(other).union(other.subtracting(self))
    }
}

extension RowOperation {
    /// Whether the operation's row or section is in `RangeList.domain`.
    var isInDomain: Bool {
        switch self {
        case .remove(let p, _), .insert(let p, _): p.isInDomain
        case .insertSection(let s), .removeSection(let s): RangeList.domain.contains(s)
        }
    }
}
