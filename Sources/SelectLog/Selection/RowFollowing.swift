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
/// travel replay the same `RowOperation`s through it, in order; row sets (the
/// selection, its undo steps, `RowSet.applying`) and the layout's sections follow a run
/// of them at once (`OperationRun`), with the same result as one at a time.
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

/// Consecutive operations that a row set (and, for sections, the layout) follows in one
/// pass: rows deleted from one section (`remove` without a move), new rows inserted into
/// one section, sections removed, or new sections inserted. Followed one at a time, each
/// shifts every range (or section) after it, so one `deleteRows` of k rows above a
/// selection of R ranges cost O(k × R) in the selection and in every undo step (one of
/// 50,000 rows above 100,000 ranges: 15 s), and one `insertSections` of k sections at
/// the top of S cost O(k × S) (40,000 into 40,000: 1.8 s); as a run, O(k + R), O(k + S).
struct OperationRun {
    enum Kind { case deletions, insertions, sectionRemovals, sectionInsertions }
    let kind: Kind
    /// The rows' section (row kinds only).
    let section: Int
    /// Ascending and distinct: pre-update rows (or sections) for deletions and removals,
    /// post-update ones for insertions (as the operations name them).
    let rows: [Int]

    /// `operations` split into consecutive pieces, in order, each with the run it is
    /// (two operations or more, of one kind, in one section, in the order the engine
    /// lists them: deletions descending, insertions ascending) or nil (followed one at
    /// a time). `BatchUpdate.operations` lists deletions and new rows this way; any
    /// other order only makes shorter runs.
    static func split(_ operations: [RowOperation]) -> [(operations: Range<Int>, run: OperationRun?)] {
        var pieces: [(operations: Range<Int>, run: OperationRun?)] = []
        var i = 0
        while i < operations.count {
            var j = i + 1
            var kind: Kind?
            var section = 0
            switch operations[i] {
            case let .remove(p, nil):
                kind = .deletions
                section = p.section
                var row = p.row
                while j < operations.count, case let .remove(q, nil) = operations[j], q.section == section, q.row < row {
                    row = q.row
                    j += 1
                }
            case let .insert(p, .new):
                kind = .insertions
                section = p.section
                var row = p.row
                while j < operations.count, case let .insert(q, .new) = operations[j], q.section == section, q.row > row {
                    row = q.row
                    j += 1
                }
            case .removeSection(var last):
                kind = .sectionRemovals
                while j < operations.count, case let .removeSection(next) = operations[j], next < last {
                    last = next
                    j += 1
                }
            case .insertSection(var last):
                kind = .sectionInsertions
                while j < operations.count, case let .insertSection(next) = operations[j], next > last {
                    last = next
                    j += 1
                }
            default:
                break
            }
            if let kind, j - i >= 2 {
                var rows: [Int] = []
                rows.reserveCapacity(j - i)
                for operation in operations[i..<j] {
                    switch operation {
                    case let .remove(p, _), let .insert(p, _): rows.append(p.row)
                    case let .insertSection(k), let .removeSection(k): rows.append(k)
                    }
                }
                if kind == .deletions || kind == .sectionRemovals { rows.reverse() }
                pieces.append((i..<j, OperationRun(kind: kind, section: section, rows: rows)))
            } else {
                pieces.append((i..<j, nil))
            }
            i = j
        }
        return pieces
    }
}

extension OperationRun {
    /// Where single indices (sections, or an editor's section) go through this run,
    /// asked in ascending order: one pass over the run's indices for all of them.
    struct Cursor {
        let run: OperationRun
        /// How many of the run's indices the indices asked so far have passed.
        private var passed = 0

        init(_ run: OperationRun) { self.run = run }

        /// Where index `old` is after the run, or nil when the run removes it. A removed
        /// index moves everything after it up by one; the i-th new index lands before old
        /// index `rows[i] - i` (the insertions name their final places), moving it down.
        mutating func follow(_ old: Int) -> Int? {
            let rows = run.rows
            switch run.kind {
            case .deletions, .sectionRemovals:
                while passed < rows.count && rows[passed] < old { passed += 1 }
                return passed < rows.count && rows[passed] == old ? nil : old - passed
            case .insertions, .sectionInsertions:
                while passed < rows.count && rows[passed] - passed <= old { passed += 1 }
                return old + passed
            }
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

extension RowSet {
    /// Follows every operation of `run` at once (the same rows as one at a time).
    mutating func follow(_ run: OperationRun) {
        switch run.kind {
        case .deletions: removeRows(run.rows, in: run.section)
        case .insertions: insertRows(run.rows, in: run.section)
        case .sectionRemovals, .sectionInsertions: followSections(run)
        }
    }
}
