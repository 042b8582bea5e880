/// One undo step (spec 5.9): what it changed, not a copy of the state.
public enum UndoStep: Hashable, Sendable {
    /// Rows that became selected and rows that became deselected.
    case selection(added: RowSet, removed: RowSet)
    /// A `choose` in editor opening `opening`: the options it flipped between chosen
    /// and not chosen, ascending. One option in a multiple-choice editor; in a
    /// single-choice one the option chosen and the one it replaced, if any. Undo and
    /// redo both flip them back, so a step takes the same room whatever the number
    /// of options chosen (a step that kept the whole list before and after grew with
    /// it: thousands of `choose`s of a large editor held gigabytes).
    case choose(opening: Int, toggled: [Int])
}

/// The selection and its undo history (spec 5.9): the part of the state that owns
/// which rows are selected and how to go back and forth between selections.
public struct SelectionHistory: Hashable, Sendable {
    /// The selected rows.
    public internal(set) var selection = RowSet()
    /// Undo steps, oldest first, built when read (O(steps)); `undoCount` costs nothing.
    public internal(set) var undoStack: [UndoStep] {
        get { Array(steps(redo: false)) }
        set {
            undoSteps = newValue.map(Step.init)
            undoTrimmed = 0
        }
    }
    /// Redo steps, furthest from the present first (built when read, as `undoStack`).
    public internal(set) var redoStack: [UndoStep] {
        get { Array(steps(redo: true)) }
        set { redoSteps = newValue.map(Step.init) }
    }
    /// Undo steps recorded so far, for stepping through a log by undo step (not part of the hash).
    public internal(set) var stepsRecorded = 0

    /// A stored step: `UndoStep` as a struct, so that a row edit moves its sets in place.
    /// Kept as the enum, each set had to be taken out of its step and put back, and a row
    /// edit cost about 120 ns for each kept step, mostly retains and releases (1,000
    /// steps: 0.12 ms an edit).
    struct Step: Hashable, Sendable {
        /// A `.selection` step's sets; empty in a `.choose` step.
        var added = RowSet()
        var removed = RowSet()
        /// A `.choose` step's fields; nil in a `.selection` step. Behind a reference, so
        /// that a step takes 40 bytes (the enum took 32; inline, they would take 56), as
        /// choose steps are rare.
        var choose: Choose?

        final class Choose: Hashable, Sendable {
            let opening: Int
            let toggled: [Int]

            init(opening: Int, toggled: [Int]) {
                self.opening = opening
                self.toggled = toggled
            }

            static func == (a: Choose, b: Choose) -> Bool {
                a.opening == b.opening && a.toggled == b.toggled
            }

            func hash(into hasher: inout Hasher) {
                hasher.combine(opening)
                hasher.combine(toggled)
            }
        }

        init() {}

        init(_ step: UndoStep) {
            switch step {
            case let .selection(added, removed):
                self.added = added
                self.removed = removed
            case let .choose(opening, toggled):
                choose = Choose(opening: opening, toggled: toggled)
            }
        }

        var step: UndoStep {
            if let choose { return .choose(opening: choose.opening, toggled: choose.toggled) }
            return .selection(added: added, removed: removed)
        }
    }

    /// The undo stack is `undoSteps[undoTrimmed...]`. A step pushed at `undoLimit` drops the
    /// oldest one, and removing it from the front of the array moved every other step: a
    /// tap cost O(`undoLimit`), and 300,000 taps at a limit of 100,000 took 15 s. Trimmed
    /// steps are only counted (and their rows released) until they outnumber the live
    /// ones; then they are removed at once, so a push costs O(1) amortized.
    private var undoSteps: [Step] = []
    private var undoTrimmed = 0
    /// The redo stack.
    private var redoSteps: [Step] = []

    init() {}

    /// The number of undo steps.
    var undoCount: Int { undoSteps.count - undoTrimmed }

    /// The number of redo steps.
    var redoCount: Int { redoSteps.count }

    /// The undo steps (`redo` false) or the redo steps, in the stack's order, each built
    /// as it is read: what `undoStack` and `redoStack` hold, without an array of them.
    func steps(redo: Bool) -> LazyMapCollection<ArraySlice<Step>, UndoStep> {
        (redo ? redoSteps[...] : undoSteps[undoTrimmed...]).lazy.map(\.step)
    }

    /// The newest undo step (built from the stored one: a few retains).
    var lastUndo: UndoStep? { undoCount > 0 ? undoSteps.last?.step : nil }

    /// The redo step nearest the present.
    var lastRedo: UndoStep? { redoSteps.last?.step }

    /// Records a new undo step; a new step clears redo (spec 5.9).
    mutating func push(_ step: UndoStep, limit: Int) {
        stepsRecorded += 1
        undoSteps.append(Step(step))
        redoSteps.removeAll()
        trim(to: limit)
    }

    /// Removes and returns the newest undo step (`undo`).
    mutating func popUndo() -> UndoStep? {
        guard undoCount > 0 else { return nil }
        return undoSteps.popLast()?.step
    }

    /// Adds a step as the newest undo step, without clearing redo (`redo`).
    mutating func appendUndo(_ step: UndoStep) {
        undoSteps.append(Step(step))
    }

    /// Removes and returns the redo step nearest the present (`redo`).
    mutating func popRedo() -> UndoStep? {
        redoSteps.popLast()?.step
    }

    /// Adds a step as the redo step nearest the present (`undo`).
    mutating func appendRedo(_ step: UndoStep) {
        redoSteps.append(Step(step))
    }

    /// Keeps at most `limit` steps in each stack, dropping the oldest undo steps and
    /// the redo steps furthest from the present.
    mutating func trim(to limit: Int) {
        let excess = undoCount - limit
        if excess > 0 {
            // The dropped steps' rows are released now; their slots go at the next compaction.
            for i in undoTrimmed..<undoTrimmed + excess { undoSteps[i] = Step() }
            undoTrimmed += excess
            if undoTrimmed >= Swift.max(64, undoCount) {
                undoSteps.removeFirst(undoTrimmed)
                undoTrimmed = 0
            }
        }
        if redoSteps.count > limit { redoSteps.removeFirst(redoSteps.count - limit) }
    }

    /// Forgets every step (`reload`, a `setEditing` that changes editing).
    mutating func clearSteps() {
        undoSteps.removeAll()
        undoTrimmed = 0
        redoSteps.removeAll()
    }

    // Equal histories are equal whatever their trimmed slots: the comparison and the hash
    // are those of the stored properties they stand for, as Swift would derive them.

    public static func == (a: SelectionHistory, b: SelectionHistory) -> Bool {
        a.selection == b.selection && a.undoCount == b.undoCount
            && a.undoSteps[a.undoTrimmed...].elementsEqual(b.undoSteps[b.undoTrimmed...])
            && a.redoSteps == b.redoSteps && a.stepsRecorded == b.stepsRecorded
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(selection)
        hasher.combine(undoCount)
        for step in undoSteps[undoTrimmed...] { hasher.combine(step) }
        hasher.combine(redoSteps)
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
    /// are carried in). The sets change in place; `.choose` steps have none.
    private mutating func forEachStepSet(_ body: (inout RowSet) -> Void) {
        // Through the storage: the arrays' uniqueness checked once, not once a step.
        func visit(_ steps: inout [Step], from start: Int) {
            steps.withUnsafeMutableBufferPointer { b in
                for i in start..<b.count where b[i].choose == nil {
                    body(&b[i].added)
                    body(&b[i].removed)
                }
            }
        }
        visit(&undoSteps, from: undoTrimmed)
        visit(&redoSteps, from: 0)
    }
}
