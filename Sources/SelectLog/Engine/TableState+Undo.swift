extension TableState {
    /// Records a new undo step; a new step clears redo (spec 5.9).
    mutating func pushStep(_ step: UndoStep) {
        history.push(step, limit: configuration.undoLimit)
    }

    mutating func undo() throws(InvalidEvent) {
        if gesture.isActive { throw InvalidEvent("undo", "undo is not allowed during a pan (an interrupted one included)") }
        guard let step = history.popUndo() else { return }
        restore(step, forward: false)
        history.redoStack.append(step)
        history.trim(to: configuration.undoLimit)
    }

    mutating func redo() throws(InvalidEvent) {
        if gesture.isActive { throw InvalidEvent("redo", "redo is not allowed during a pan (an interrupted one included)") }
        guard let step = history.redoStack.popLast() else { return }
        restore(step, forward: true)
        history.appendUndo(step)
        history.trim(to: configuration.undoLimit)
    }

    /// Sets the step's rows to their after (`forward`) or before values.
    private mutating func restore(_ step: UndoStep, forward: Bool) {
        switch step {
        case let .selection(added, removed):
            let on = forward ? added : removed
            let off = forward ? removed : added
            var new = selection.subtracting(off).union(on)
            // Single mode holds one row at most: the step's own rows win, then the first of them.
            if !isMultiple && new.count > 1 {
                new = new.intersection(on)
                if new.count > 1, let first = new.first { new = RowSet([first]) }
            }
            selection = new
        case let .choose(opening, before, after):
            if editorState.current?.opening == opening { editorState.current?.chosen = forward ? after : before }
        }
    }
}
