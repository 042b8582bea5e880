extension RowSet {
    /// The set after `operations`, each row following itself (moved rows carry their membership).
    public func applying(_ operations: [RowOperation]) -> RowSet {
        var set = self
        var carry = RowCarry()
        for op in operations { set.follow(op, carry: &carry) }
        return set
    }

    /// Rows in exactly one of the two sets.
    public func symmetricDifference(_ other: RowSet) -> RowSet {
        subtracting(other).union(other.subtracting(self))
    }
}
