/// What rows carry through one edit: a moved row's attachments between its removal
/// and its insertion, and what new rows and sections are made of.
struct RowCarry {
    /// Per move index: what the moved row took with it.
    var moved: [Int: CarriedRow] = [:]
    /// Heights of new rows by insert index; nil or missing: the section's row height.
    var insertHeights: [Points]?
    /// New sections by their post-update index (`insertSections`).
    var newSections: [Int: LayoutSection] = [:]
}

/// What one moved row takes to its new index path.
struct CarriedRow {
    var height = Points.zero
    /// Its membership in each row set that follows it, in the order the sets followed it.
    var memberships: [Bool] = []
    /// How many memberships its insertion has given back so far.
    var restored = 0
    var optionOpen = false
    var swipeOffset: Points?
    var editorBelow = false
    /// Where its selection history stands (`RowOrigins`), or nil when nothing follows it.
    var origin: RowOrigins.Value?
}

/// A part of the state that holds rows and follows them through row and section
/// edits. This is the one mechanism: the engine, `TableChanges` and the log's time
/// travel replay the same `RowOperation`s through it, one at a time, in order.
protocol RowFollowing {
    /// Follows one operation. A moved row is removed by one `.remove` and inserted
    /// by a later `.insert(_, source: .move)`; what it carries goes through `carry`.
    mutating func follow(_ operation: RowOperation, carry: inout RowCarry)
}

extension RowOperation {
    /// Where the row at `path` is after this operation, or nil when the operation
    /// removes it (a moved row comes back through its insertion, not through this).
    func follow(_ path: RowPath) -> RowPath? {
        switch self {
        case .remove(let p, _):
            if path == p { return nil }
            return path.section == p.section && path.row > p.row ? RowPath(path.section, path.row - 1) : path
        case .insert(let p, _):
            return path.section == p.section && path.row >= p.row ? RowPath(path.section, path.row + 1) : path
        case .insertSection(let i):
            return path.section >= i ? RowPath(path.section + 1, path.row) : path
        case .removeSection(let i):
            if path.section == i { return nil }
            return path.section > i ? RowPath(path.section - 1, path.row) : path
        }
    }
}

extension RowSet: RowFollowing {
    mutating func follow(_ operation: RowOperation, carry: inout RowCarry) {
        switch operation {
        case let .remove(p, move):
            let was = removeRow(at: p)
            if let move { carry.moved[move, default: CarriedRow()].memberships.append(was) }
        case let .insert(p, .move(m)):
            var member = false
            if var c = carry.moved[m], c.restored < c.memberships.count {
                member = c.memberships[c.restored]
                c.restored += 1
                carry.moved[m] = c
            }
            insertRow(at: p, member: member)
        case let .insert(p, .new):
            insertRow(at: p, member: false)
        case .insertSection(let i):
            insertSection(at: i)
        case .removeSection(let i):
            removeSection(at: i)
        }
    }
}
