/// Where a row's selection history stands, seen from the end of a window of events.
package enum RowOrigin: Hashable, Sendable {
    /// Event `index` last changed the row's selection.
    case changed(Int)
    /// Event `index` created the row (an insert or a reload), and nothing changed its selection since.
    case inserted(Int)
    /// Untouched since the window began, when the row was at `path`.
    case existing(RowPath)
}

/// Follows every row through a window of events and remembers, per row, the event
/// that last changed its selection — or, for rows untouched in the window, where
/// they were when it began. Rows are kept as runs, so a million untouched rows are
/// one run and `selectAll` is one assignment.
///
/// This is what answers "who selected row 42?": the row's path at the end of the
/// window leads to its origin, and an `.existing` origin leads into the window before.
/// It follows rows through edits as every part of the engine does, through `RowFollowing`.
package struct RowOrigins: Sendable {
    enum Value: Hashable, Sendable {
        case changed(Int)
        case inserted(Int)
        /// Rows untouched since the window began; the run's first row was `firstRow` of `section`.
        case existing(section: Int, firstRow: Int)
    }

    struct Run: Hashable, Sendable {
        var start: Int
        var count: Int
        var value: Value
    }

    /// Runs per section, sorted by start, covering every row.
    private var sections: [[Run]]
    /// The event being followed: the rows `follow` creates are created by it.
    private var creator = 0

    /// Every row of `layout` as untouched, at its own path.
    package init(layout: TableLayout) {
        sections = (0..<layout.sectionCount).map { s in
            let n = layout.rowCount(in: s)
            return n > 0 ? [Run(start: 0, count: n, value: .existing(section: s, firstRow: 0))] : []
        }
    }

    /// Every row of `layout` as created by event `index` (a reload).
    package init(layout: TableLayout, insertedAt index: Int) {
        sections = (0..<layout.sectionCount).map { s in
            let n = layout.rowCount(in: s)
            return n > 0 ? [Run(start: 0, count: n, value: .inserted(index))] : []
        }
    }

    /// The origin of the row at `path`, which must exist.
    package func origin(of path: RowPath) -> RowOrigin? {
        guard path.section >= 0, path.section < sections.count,
              let k = Self.runIndex(sections[path.section], containing: path.row) else { return nil }
        let run = sections[path.section][k]
        switch run.value {
        case .changed(let i): return .changed(i)
        case .inserted(let i): return .inserted(i)
        case let .existing(s, first): return .existing(RowPath(s, first + path.row - run.start))
        }
    }

    private static func runIndex(_ runs: [Run], containing row: Int) -> Int? {
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].start + runs[mid].count <= row { lo = mid + 1 } else { hi = mid }
        }
        return lo < runs.count && runs[lo].start <= row ? lo : nil
    }

    /// Makes `row` the start of a run (if it is inside one); returns the index of the run starting at `row`.
    private mutating func split(_ s: Int, at row: Int) -> Int {
        // Taken out of `sections` rather than copied: a copy made every split cost the
        // section's runs (and every row edit and selection change makes two).
        var runs: [Run] = []
        swap(&runs, &sections[s])
        defer { sections[s] = runs }
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].start + runs[mid].count <= row { lo = mid + 1 } else { hi = mid }
        }
        guard lo < runs.count, runs[lo].start < row else { return lo }
        let run = runs[lo]
        let left = row - run.start
        var right = Run(start: row, count: run.count - left, value: run.value)
        if case let .existing(section, first) = run.value { right.value = .existing(section: section, firstRow: first + left) }
        runs[lo].count = left
        runs.insert(right, at: lo + 1)
        return lo + 1
    }

    private mutating func shift(_ s: Int, from k: Int, by delta: Int) {
        for i in k..<sections[s].count { sections[s][i].start += delta }
    }

    /// Sets the rows of `rows` in section `s` to `value`.
    private mutating func assign(_ s: Int, _ rows: Range<Int>, _ value: Value) {
        guard !rows.isEmpty, s < sections.count else { return }
        let first = split(s, at: rows.lowerBound)
        let end = split(s, at: rows.upperBound)
        sections[s].replaceSubrange(first..<end, with: [Run(start: rows.lowerBound, count: rows.count, value: value)])
    }

    /// Whether following `event` needs the selection from before it and after it
    /// (`follow(_:at:to:selection:)`): a reload or a row or section edit, which moves rows.
    /// Any other event is followed from what it reported (`markChanged(reported:at:)`),
    /// with no copy of the selection kept to compare.
    package static func movesRows(_ event: Event) -> Bool {
        if case .reload = event { return true }
        return event.rowOperations != nil
    }

    /// Marks the rows event `index`, one that moves no rows, selected or deselected (its
    /// `TableChanges.selectedRuns` and `deselectedRuns`) as changed by it.
    package mutating func markChanged(reported changes: TableChanges, at index: Int) {
        for run in changes.selectedRuns { assign(run.section, run.rows, .changed(index)) }
        for run in changes.deselectedRuns { assign(run.section, run.rows, .changed(index)) }
    }

    /// Marks every row of `rows` as changed by event `index`.
    package mutating func markChanged(_ rows: RowSet, at index: Int) {
        for (s, list) in rows.sections {
            for r in list.ranges { assign(s, r, .changed(index)) }
        }
    }

    /// Follows the rows through event `index`, after which the table is laid out as
    /// `layout`: a `reload` creates every row; a row or section edit removes, moves and
    /// creates rows, replayed through `RowFollowing` as the engine replays it (a new
    /// section's rows are created by the event). With `selection`, the selection before
    /// and after the event, the rows whose selection it changed are marked changed by it;
    /// a selected row that only moved through the event's own edits is not.
    package mutating func follow(_ event: Event, at index: Int, to layout: TableLayout,
                                 selection: (before: RowSet, after: RowSet)? = nil) {
        if case .reload = event {
            self = RowOrigins(layout: layout, insertedAt: index)
            return
        }
        var before = selection?.before
        if let operations = event.rowOperations {
            var carry = RowCarry()
            for case .insertSection(let i) in operations where i < layout.sectionCount { carry.newSections[i] = layout.sections[i] }
            follow(operations, of: index, carry: &carry)
            before = before?.applying(operations)
        }
        if let before, let after = selection?.after, before != after {
            markChanged(before.symmetricDifference(after), at: index)
        }
    }

    /// Follows the rows through `operations` of event `index`: the rows they create are
    /// created by it, a new section has the rows of `carry.newSections`.
    mutating func follow(_ operations: [RowOperation], of index: Int, carry: inout RowCarry) {
        creator = index
        for operation in operations { follow(operation, carry: &carry) }
    }
}

extension RowOrigins: RowFollowing {
    /// A removed row's origin goes with it when it moves and comes back at its insertion;
    /// a new row, and every row of a new section, is created by the event being followed.
    /// Operations naming a section past the end are ignored.
    mutating func follow(_ operation: RowOperation, carry: inout RowCarry) {
        switch operation {
        case let .remove(p, move):
            guard p.section < sections.count else { return }
            let k = split(p.section, at: p.row)
            _ = split(p.section, at: p.row + 1)
            var value: Value?
            if k < sections[p.section].count, sections[p.section][k].start == p.row { value = sections[p.section].remove(at: k).value }
            shift(p.section, from: k, by: -1)
            if let move { carry.moved[move, default: CarriedRow()].origin = value }
        case let .insert(p, source):
            guard p.section < sections.count else { return }
            let k = split(p.section, at: p.row)
            shift(p.section, from: k, by: 1)
            var value = Value.inserted(creator)
            if case .move(let m) = source, let carried = carry.moved[m]?.origin { value = carried }
            sections[p.section].insert(Run(start: p.row, count: 1, value: value), at: k)
        case .insertSection(let i):
            let n = carry.newSections[i]?.rowCount ?? 0
            sections.insert(n > 0 ? [Run(start: 0, count: n, value: .inserted(creator))] : [], at: Swift.min(i, sections.count))
        case .removeSection(let i):
            if i < sections.count { sections.remove(at: i) }
        }
    }
}
