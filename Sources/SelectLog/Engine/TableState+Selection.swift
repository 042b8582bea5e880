extension TableState {
    /// The rows from `a` to `b` (either order), both included, in content order across sections.
    func rows(between a: RowPath, and b: RowPath) -> RowSet {
        var set = RowSet()
        setRows(between: a, and: b, to: true, in: &set)
        return set
    }

    /// Sets every row from `a` to `b` (either order), both included, to `member`, in place.
    func setRows(between a: RowPath, and b: RowPath, to member: Bool, in set: inout RowSet) {
        var layout = layout
        TableState.setRows(between: a, and: b, to: member, in: &set, layout: &layout)
    }

    /// The same, on the selection, for a selection pan's move rule: records the rows
    /// that changed, and flips them in the pan's `changedRows` (a row the pan changes
    /// again is back as it was). Rows already set to `member` change nothing and
    /// allocate nothing. A mutating method, so that reading the layout while writing the
    /// selection needs no copy of `self`.
    @inline(__always)  // most pan samples end at the first test
    mutating func setSelectedRows(between a: RowPath, and b: RowPath, to member: Bool, recording changed: inout SelectionDelta) {
        // One row, already as wanted (a pan sample that stays in its row): one lookup.
        if a == b && selection.contains(a) == member { return }
        changeSelectedRows(between: a, and: b, to: member, recording: &changed)
    }

    /// `setSelectedRows` past its one-row test, out of line.
    private mutating func changeSelectedRows(between a: RowPath, and b: RowPath, to member: Bool, recording changed: inout SelectionDelta) {
        // The runs that change: none means nothing to set.
        guard TableState.noteChanges(between: a, and: b, to: member, in: history.selection, layout: &layout,
                                     pan: &gesture, &changed) else { return }
        TableState.setRows(between: a, and: b, to: member, in: &history.selection, layout: &layout)
    }

    /// Notes in the pan, and records, the rows from `a` to `b` whose selection is
    /// not `member` yet: the runs of each section that setting them to `member` changes.
    /// Returns whether there were any (whether the rows are not all `member` already).
    /// Static, on the parts it reads and writes: a method would copy the whole state to
    /// pass `self`. The layout is only read; it is `inout` to be passed by address, as
    /// borrowed the caller copied it (16 words) on every step that changed rows.
    private static func noteChanges(between a: RowPath, and b: RowPath, to member: Bool, in selection: borrowing RowSet,
                                    layout: inout TableLayout, pan: inout PanState, _ changed: inout SelectionDelta) -> Bool {
        var any = false
        let (lo, hi) = a <= b ? (a, b) : (b, a)
        for s in lo.section...hi.section {
            let first = s == lo.section ? lo.row : 0
            let end = s == hi.section ? hi.row + 1 : layout.rowCount(in: s)
            // The walk only gathers the runs, and they are noted after it: with the pan's
            // and the delta's calls inside it, the walk retained and released the
            // section's ranges on every step that changed a row. A step changes one run
            // or two; more are noted in a second walk, as before.
            var runs = FirstRuns()
            selection.forEachRun(in: first..<end, section: s, members: !member) { runs.add($0) }
            guard runs.count <= 2 else {
                selection.forEachRun(in: first..<end, section: s, members: !member) {
                    pan.noteChanged($0, in: s)
                    changed.record(section: s, rows: $0, selected: member)
                }
                any = true
                continue
            }
            if let run = runs.first {
                any = true
                pan.noteChanged(run, in: s)
                changed.record(section: s, rows: run, selected: member)
            }
            if let run = runs.second {
                pan.noteChanged(run, in: s)
                changed.record(section: s, rows: run, selected: member)
            }
        }
        return any
    }

    /// The first two runs a walk found, and how many it found.
    private struct FirstRuns {
        var first: Range<Int>?
        var second: Range<Int>?
        var count = 0

        mutating func add(_ run: Range<Int>) {
            if count == 0 { first = run } else if count == 1 { second = run }
            count += 1
        }
    }

    /// The layout is only read, and `inout` to be passed by address, as in `noteChanges`.
    private static func setRows(between a: RowPath, and b: RowPath, to member: Bool, in set: inout RowSet, layout: inout TableLayout) {
        let (lo, hi) = a <= b ? (a, b) : (b, a)
        for s in lo.section...hi.section {
            let first = s == lo.section ? lo.row : 0
            let end = s == hi.section ? hi.row + 1 : layout.rowCount(in: s)
            if member { set.insert(first..<end, in: s) } else { set.remove(first..<end, in: s) }
        }
    }

    /// Every data row.
    var allRows: RowSet {
        var set = RowSet()
        for s in 0..<layout.sectionCount { set.insert(0..<layout.rowCount(in: s), in: s) }
        return set
    }

    /// Replaces the selection and records the change as one undo step, if it changed
    /// anything, and in `changed`.
    mutating func changeSelection(to new: RowSet, _ changed: inout SelectionDelta) {
        let added = new.subtracting(selection)
        let removed = selection.subtracting(new)
        guard !added.isEmpty || !removed.isEmpty else { return }
        selection = new
        pushStep(.selection(added: added, removed: removed))
        changed.record(added: added, removed: removed)
    }

    /// Whether a selection pan owns the selection right now; programmatic selection then does nothing.
    var selectionIsTracking: Bool { gesture.isSelecting }

    mutating func tap(_ p: ViewportPoint, _ changed: inout SelectionDelta) {
        // A finger that is panning cannot tap.
        guard !gesture.isActive, case .row(let r) = element(at: p) else { return }
        if options.open == r {
            options.open = nil
            return
        }
        guard isSelectable else { return }
        if isMultiple {
            // One row toggles: the step is that row, without comparing the two selections.
            let one = RowSet(section: r.section, rows: r.row..<r.row + 1)
            let wasSelected = selection.contains(r)
            selection.set(r, to: !wasSelected)
            pushStep(wasSelected ? .selection(added: RowSet(), removed: one) : .selection(added: one, removed: RowSet()))
            changed.record(section: r.section, rows: r.row..<r.row + 1, selected: !wasSelected)
        } else {
            changeSelection(to: RowSet([r]), &changed)
        }
    }

    mutating func select(_ rows: [RowPath], _ changed: inout SelectionDelta) throws(InvalidEvent) {
        try checkRows(rows, "select", "rows")
        let set = RowSet(rows)
        if !isMultiple && set.count > 1 {
            throw InvalidEvent(.notAllowedNow, "select", field: EventField.rows.rawValue, "cannot select \(set.count) rows in single-selection mode")
        }
        guard !selectionIsTracking, !set.isEmpty else { return }
        guard isMultiple else { return changeSelection(to: set, &changed) }
        // In place, run by run: the step is the rows not yet selected. Building the union
        // and comparing it with the selection both ways cost O(R log R) for R selected
        // ranges, however few rows the event names.
        let added = selection.rows(of: set, members: false)
        guard !added.isEmpty else { return }
        selection.formUnion(added)
        pushStep(.selection(added: added, removed: RowSet()))
        changed.record(added: added, removed: RowSet())
    }

    mutating func deselect(_ rows: [RowPath], _ changed: inout SelectionDelta) throws(InvalidEvent) {
        try checkRows(rows, "deselect", "rows")
        guard !selectionIsTracking else { return }
        // In place, run by run: the step is the named rows that were selected.
        let removed = selection.rows(of: RowSet(rows), members: true)
        guard !removed.isEmpty else { return }
        selection.subtract(removed)
        pushStep(.selection(added: RowSet(), removed: removed))
        changed.record(added: RowSet(), removed: removed)
    }

    mutating func selectAll(_ changed: inout SelectionDelta) throws(InvalidEvent) {
        if !isMultiple { throw InvalidEvent(.notAllowedNow, "selectAll", "selectAll is not allowed in single-selection mode") }
        // Every row selected already (the selected rows all exist, so counting them
        // says so): nothing changes, and building every row to compare would cost an
        // allocation a section (60 ms a `selectAll` on 250,000 sections).
        guard !selectionIsTracking, selection.count != layout.rowCount else { return }
        changeSelection(to: allRows, &changed)
    }

    mutating func deselectAll(_ changed: inout SelectionDelta) {
        guard !selectionIsTracking, !selection.isEmpty else { return }
        changeSelection(to: RowSet(), &changed)
    }
}
