extension RowSet {
    /// The set after `operations`, each row following itself (moved rows carry their membership).
    public func applying(_ operations: [RowOperation]) -> RowSet {
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
