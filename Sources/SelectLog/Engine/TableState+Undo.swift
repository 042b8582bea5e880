extension TableState {
    /// Records a new undo step; a new step clears redo (spec 5.9).
    mutating func pushStep(_ step: UndoStep) {
        history.push(step, limit: configuration.undoLimit)
    }

    mutating func undo(_ changed: inout SelectionDelta) throws(InvalidEvent) {
        if gesture.isActive { throw InvalidEvent(.notAllowedNow, "undo", "not allowed during a pan (an interrupted one included)") }
        guard let step = history.popUndo() else { return }
        restore(step, forward: false, &changed)
        history.appendRedo(step)
        history.trim(to: configuration.undoLimit)
    }

    mutating func redo(_ changed: inout SelectionDelta) throws(InvalidEvent) {
        if gesture.isActive { throw InvalidEvent(.notAllowedNow, "redo", "not allowed during a pan (an interrupted one included)") }
        guard let step = history.popRedo() else { return }
        restore(step, forward: true, &changed)
        history.appendUndo(step)
        history.trim(to: configuration.undoLimit)
    }

    /// Sets the step's rows to their after (`forward`) or before values, and records
    /// what changed in `changed`.
    private mutating func restore(_ step: UndoStep, forward: Bool, _ changed: inout SelectionDelta) {
        switch step {
        case let .selection(added, removed):
            let on = forward ? added : removed
            let off = forward ? removed : added
            if isMultiple {
                // In place, run by run (a step's two sets are disjoint): rebuilding the
                // selection cost O(R log R) for R selected ranges, however small the step.
                if changed.isRecording {
                    changed.record(added: selection.rows(of: on, members: false), removed: selection.rows(of: off, members: true))
                }
                selection.subtract(off)
                selection.formUnion(on)
                return
            }
            var new = selection.subtracting(off).union(on)
            // Single mode holds one row at most: the step's own rows win, then the first of them.
            if new.count > 1 {
                new = new.intersection(on)
                if new.count > 1, let first = new.first { new = RowSet([first]) }
            }
            if changed.isRecording {
                let added = new.subtracting(selection), removed = selection.subtracting(new)
                if !added.isEmpty || !removed.isEmpty { changed.record(added: added, removed: removed) }
            }
            selection = new
        case let .choose(opening, toggled):
            // Undo and redo alike flip the step's options back: the editor's `chosen` is
            // the step's after (undo) or before (redo) value, as steps are taken in turn.
            if let current = editorState.current, current.opening == opening {
                editorState.current?.chosen = Self.flipping(current.chosen, toggled)
            }
        }
    }
}
