extension RowSet {
    /// The set after `operations`, each row following itself (moved rows carry their membership).
    public func applying(_ operations: [RowOperation]) -> RowSet {
        var set = self
        var carried: [Int: Bool] = [:]
        for op in operations {
            switch op {
            case let .remove(p, move):
                let was = set.removeRow(at: p)
                if let move { carried[move] = was }
            case let .insert(p, .move(m)):
                set.insertRow(at: p, member: carried[m] ?? false)
            case let .insert(p, .new):
                set.insertRow(at: p, member: false)
            case .insertSection(let i):
                set.insertSection(at: i)
            case .removeSection(let i):
                set.removeSection(at: i)
            }
        }
        return set
    }

    /// Rows in exactly one of the two sets.
    public func symmetricDifference(_ other: RowSet) -> RowSet {
        subtracting(other).union(other.subtracting(self))
    }
}
