/// The undo and redo history of a set-up (`SetUpScript`): the events that make each step
/// again, when one event can.
extension SetUpScript {
    /// The most rows the steps of a history carried list in all (each step its rows, a
    /// step of every row a `selectAll` or `deselectAll`): a history of 1,000 steps of
    /// 50,000 scattered rows each would list 50,000,000.
    static let historyRows = 1_000_000

    /// The history as steps from the selection before its oldest undo step: that
    /// selection, then for each undo step the `select`, `deselect` or `choose` that
    /// records it, then each redo step made and undone (a step of every row, or of all
    /// the selected ones, a `selectAll` or `deselectAll`). With `choose` steps, `chosen`
    /// is the open editor's choices before the oldest of them: the editor opens with
    /// those before the steps. Nil when a step is none of those: a pan's in a multiple
    /// mode (it selects and deselects at once), a `choose` in an editor since closed (or
    /// moved), or a step of more rows than one event lists; or when the steps list more
    /// than `rowLimit` rows in all.
    static func history(of state: TableState, rowLimit: Int = historyRows) -> (start: RowSet, steps: [Step], chosen: [Int]?)? {
        let undo = state.history.undoStack, redo = state.history.redoStack
        // The open editor's choices before the history's `choose`s: flipping back commutes.
        var chosen = state.editor?.chosen
        var chooses = false
        for step in undo {
            guard case let .choose(opening, toggled) = step else { continue }
            guard let now = chosen, opening == state.editor?.opening else { return nil }
            chosen = TableState.flipping(now, toggled)
            chooses = true
        }
        for step in redo {
            guard case let .choose(opening, _) = step else { continue }
            guard opening == state.editor?.opening else { return nil }
            chooses = true
        }
        let multiple = state.isMultiple
        let rowCount = state.layout.rowCount
        var listed = 0
        func rows(_ step: UndoStep) -> (added: RowSet, removed: RowSet)? {
            guard case let .selection(added, removed) = step else { return nil }
            return (added, removed)
        }
        /// The event that takes the selection from `before` and records `step`, its rows
        /// listed within `eventRows` and `rowLimit` in all.
        func event(_ step: (added: RowSet, removed: RowSet), from before: RowSet) -> Step? {
            let after = before.subtracting(step.removed).union(step.added)
            // Every row, or none: one event whatever the table's size.
            if multiple, step.removed.isEmpty, !step.added.isEmpty, after.count == rowCount { return .event(.selectAll) }
            if step.added.isEmpty, !step.removed.isEmpty, after.isEmpty { return .event(.deselectAll) }
            let count = step.added.count + step.removed.count
            guard step.added.count <= eventRows, step.removed.count <= eventRows, listed + count <= rowLimit else { return nil }
            listed += count
            if step.removed.isEmpty, !step.added.isEmpty, multiple || step.added.count == 1 { return .select(step.added) }
            if step.added.isEmpty, !step.removed.isEmpty { return .deselect(step.removed) }
            // Single selection: a row selected in place of the one before.
            if !multiple, step.added.count == 1, step.removed == before { return .select(step.added) }
            return nil
        }
        var start = state.selection
        for step in undo.reversed() {
            guard let r = rows(step) else { continue }
            start = start.subtracting(r.added).union(r.removed)
        }
        let chosenBefore = chooses ? chosen : nil
        var steps: [Step] = [], selection = start
        for step in undo + redo.reversed() {
            if case let .choose(_, toggled) = step, let before = chosen {
                // The option chosen: a multiple editor's one; a single one's new choice
                // (the option not chosen before it; the other is the one it replaced).
                let option = state.editor?.multiple == true ? toggled.first : toggled.first { !before.contains($0) }
                guard let option else { return nil }
                steps.append(.event(.choose(option: option)))
                chosen = TableState.flipping(before, toggled)
                continue
            }
            guard let r = rows(step), let e = event(r, from: selection) else { return nil }
            steps.append(e)
            selection = selection.subtracting(r.removed).union(r.added)
        }
        steps += repeatElement(.event(.undo), count: redo.count)
        return (start, steps, chosenBefore)
    }
}
