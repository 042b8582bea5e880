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
    ///
    /// Reading it copies the steps when the oldest have been trimmed since the stack was
    /// last compacted; `undoCount` and `lastUndo` cost nothing.
    public internal(set) var undoStack: [UndoStep] {
        get { undoTrimmed == 0 ? undoSteps : Array(undoSteps[undoTrimmed...]) }
        set {
            undoSteps = newValue
            undoTrimmed = 0
        }
    }
    /// Redo steps, furthest from the present first.
    public internal(set) var redoStack: [UndoStep] = []
    /// Undo steps recorded so far, for stepping through a log by undo step (not part of the hash).
    public internal(set) var stepsRecorded = 0

    /// The undo stack is `undoSteps[undoTrimmed...]`. A step pushed at `undoLimit` drops the
    /// oldest one, and removing it from the front of the array moved every other step: a
    /// tap cost O(`undoLimit`), and 300,000 taps at a limit of 100,000 took 15 s. Trimmed
    /// steps are only counted (and their rows released) until they outnumber the live
    /// ones; then they are removed at once, so a push costs O(1) amortized.
    private var undoSteps: [UndoStep] = []
    private var undoTrimmed = 0

    init() {}

    /// The number of undo steps.
    var undoCount: Int { undoSteps.count - undoTrimmed }

    /// The newest undo step.
    var lastUndo: UndoStep? { undoCount > 0 ? undoSteps.last : nil }

    /// Records a new undo step; a new step clears redo (spec 5.9).
    mutating func push(_ step: UndoStep, limit: Int) {
        stepsRecorded += 1
        undoSteps.append(step)
        redoStack.removeAll()
        trim(to: limit)
    }

    /// Removes and returns the newest undo step (`undo`).
    mutating func popUndo() -> UndoStep? {
        guard undoCount > 0 else { return nil }
        return undoSteps.popLast()
    }

    /// Adds a step as the newest undo step, without clearing redo (`redo`).
    mutating func appendUndo(_ step: UndoStep) {
        undoSteps.append(step)
    }

    /// Keeps at most `limit` steps in each stack, dropping the oldest undo steps and
    /// the redo steps furthest from the present.
    mutating func trim(to limit: Int) {
        let excess = undoCount - limit
        if excess > 0 {
            // The dropped steps' rows are released now; their slots go at the next compaction.
            for i in undoTrimmed..<undoTrimmed + excess { undoSteps[i] = Self.released }
            undoTrimmed += excess
            if undoTrimmed >= Swift.max(64, undoCount) {
                undoSteps.removeFirst(undoTrimmed)
                undoTrimmed = 0
            }
        }
        if redoStack.count > limit { redoStack.removeFirst(redoStack.count - limit) }
    }

    /// What a trimmed step's slot holds until it is removed, and a step's slot while its
    /// sets follow an edit: a step that owns no memory.
    private static let released = UndoStep.choose(opening: -1, before: [], after: [])

    /// Forgets every step (`reload`, a `setEditing` that changes editing).
    mutating func clearSteps() {
        undoSteps.removeAll()
        undoTrimmed = 0
        redoStack.removeAll()
    }

    // Equal histories are equal whatever their trimmed slots: the comparison and the hash
    // are those of the stored properties they stand for, as Swift would derive them.

    public static func == (a: SelectionHistory, b: SelectionHistory) -> Bool {
        a.selection == b.selection && a.undoCount == b.undoCount
            && a.undoSteps[a.undoTrimmed...].elementsEqual(b.undoSteps[b.undoTrimmed...])
            && a.redoStack == b.redoStack && a.stepsRecorded == b.stepsRecorded
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(selection)
        hasher.combine(undoCount)
        for step in undoSteps[undoTrimmed...] { hasher.combine(step) }
        hasher.combine(redoStack)
        hasher.combine(stepsRecorded)
    }
}

extension SelectionHistory: CustomReflectable {
    /// The history as its four public properties, not its storage (`print` and `dump`).
    public var customMirror: Mirror {
        Mirror(self, children: ["selection": selection, "undoStack": undoStack, "redoStack": redoStack,
                                "stepsRecorded": stepsRecorded], displayStyle: .struct)
    }
}

extension SelectionHistory: RowFollowing {
    /// The selection and every step's rows follow the operation, in a fixed order
    /// (moved rows carry one membership per set).
    mutating func follow(_ operation: RowOperation, carry: inout RowCarry) {
        selection.follow(operation, carry: &carry)
        forEachStepSet { $0.follow(operation, carry: &carry) }
    }
}

extension SelectionHistory {
    /// The selection and every step's rows follow `run` at once.
    mutating func follow(_ run: OperationRun) {
        selection.follow(run)
        forEachStepSet { $0.follow(run) }
    }

    /// Calls `body` with each set of each kept step, undo steps oldest first, then redo
    /// steps, the added set before the removed one (the order moved rows' memberships
    /// are carried in).
    private mutating func forEachStepSet(_ body: (inout RowSet) -> Void) {
        func visit(_ stack: inout [UndoStep], from start: Int) {
            for i in start..<stack.count {
                guard case .selection(var added, var removed) = stack[i] else { continue }
                stack[i] = Self.released  // release the sets before mutating them
                body(&added)
                body(&removed)
                stack[i] = .selection(added: added, removed: removed)
            }
        }
        visit(&undoSteps, from: undoTrimmed)
        visit(&redoStack, from: 0)
    }
}
