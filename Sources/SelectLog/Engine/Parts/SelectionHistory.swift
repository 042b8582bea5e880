/// One undo step (spec 5.9): what it changed, not a copy of the state.
public enum UndoStep: Hashable, Sendable {
    /// Rows that became selected and rows that became deselected.
    case selection(added: RowSet, removed: RowSet)
    /// A `choose` in editor opening `opening`.
    case choose(opening: Int, before: [Int], after: [Int])
}

/// The selection and its undo history (spec 5.9): the part of the state that owns
/// which rows are selected and how to go back and forth between selections.
public struct SelectionHistory: Hashable, Sendable {
    /// The selected rows.
    public internal(set) var selection = RowSet()
    /// Undo steps, oldest first.
    public internal(set) var undoStack: [UndoStep] = []
    /// Redo steps, furthest from the present first.
    public internal(set) var redoStack: [UndoStep] = []
    /// Undo steps recorded so far, for stepping through a log by undo step (not part of the hash).
    public internal(set) var stepsRecorded = 0

    init() {}

    /// Records a new undo step; a new step clears redo (spec 5.9).
    mutating func push(_ step: UndoStep, limit: Int) {
        stepsRecorded += 1
        undoStack.append(step)
        redoStack.removeAll()
        trim(to: limit)
    }

    /// Keeps at most `limit` steps in each stack, dropping the oldest undo steps and
    /// the redo steps furthest from the present.
    mutating func trim(to limit: Int) {
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        if redoStack.count > limit { redoStack.removeFirst(redoStack.count - limit) }
    }

    /// Forgets every step (`reload`, a `setEditing` that changes editing).
    mutating func clearSteps() {
        undoStack.removeAll()
        redoStack.removeAll()
    }
}

extension SelectionHistory: RowFollowing {
    /// The selection and every step's rows follow the operation, in a fixed order
    /// (moved rows carry one membership per set).
    mutating func follow(_ operation: RowOperation, carry: inout RowCarry) {
        selection.follow(operation, carry: &carry)
        func visit(_ stack: inout [UndoStep]) {
            for i in stack.indices {
                guard case .selection(var added, var removed) = stack[i] else { continue }
                stack[i] = .choose(opening: -1, before: [], after: [])  // release the sets before mutating them
                added.follow(operation, carry: &carry)
                removed.follow(operation, carry: &carry)
                stack[i] = .selection(added: added, removed: removed)
            }
        }
        visit(&undoStack)
        visit(&redoStack)
    }
}
