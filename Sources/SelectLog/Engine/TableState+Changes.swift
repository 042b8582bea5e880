/// Rows whose selection a hot event (a pan sample, a tick, a scroll) changed, net:
/// a row selected and deselected again within one event is no change.
///
/// A hot event changes at most one or two runs of rows (the rows the finger moved
/// over), so the first two disjoint runs are held inline and cost no allocation;
/// anything more (or a run that overlaps one already recorded, which needs netting)
/// moves to a pair of `RowSet`s behind one reference, retained and released by hand so
/// that creating and dropping a delta that never spills (every event of replay) costs
/// a few stores and one test. Noncopyable: it is filled in place and read once, never
/// copied, so the reference has exactly one owner and `deinit` releases it once.
struct SelectionDelta: ~Copyable {
    /// Rows `rows` of `section` that became selected (`selected`) or deselected.
    private struct Run {
        var section: Int
        var rows: Range<Int>
        var selected: Bool

        /// Whether the two runs share a row.
        func overlaps(_ other: Run) -> Bool { section == other.section && rows.overlaps(other.rows) }
    }

    /// The rows, once two inline runs are not enough.
    private final class Spilled {
        var added: RowSet
        var removed: RowSet
        init(added: RowSet, removed: RowSet) {
            self.added = added
            self.removed = removed
        }
    }

    /// False when nobody reads the delta (replay): `record` then does nothing, and
    /// callers skip computing what they would record.
    let isRecording: Bool
    private var first: Run?
    private var second: Run?
    /// `Spilled`, retained once by `spill()`, released by `deinit`.
    private var spilledStorage: Unmanaged<Spilled>?

    init(recording: Bool = true) { isRecording = recording }

    deinit { spilledStorage?.release() }

    private var spilled: Spilled? { spilledStorage?.takeUnretainedValue() }

    /// Whether no row changed.
    var isEmpty: Bool {
        guard let storage = spilledStorage else { return first == nil }
        let spilled = storage.takeUnretainedValue()
        return spilled.added.isEmpty && spilled.removed.isEmpty
    }

    /// Rows `rows` of `section` became selected (`selected`) or deselected.
    mutating func record(section: Int, rows: Range<Int>, selected: Bool) {
        guard isRecording, !rows.isEmpty else { return }
        let run = Run(section: section, rows: rows, selected: selected)
        if spilled == nil {
            guard let held = first else { first = run; return }
            if second == nil && !held.overlaps(run) { second = run; return }
            spill()
        }
        guard let spilled else { return }
        // `record(added:removed:)` of the one run, in place: the rows not recorded the
        // other way join this side, and those that were leave it. That rebuilt both sets
        // for every run, and a pan over 20,000 one-row sections (a run each) took 5 s.
        if selected {
            spilled.removed.forEachRun(in: rows, section: section, members: false) { spilled.added.insert($0, in: section) }
            spilled.removed.remove(rows, in: section)
        } else {
            spilled.added.forEachRun(in: rows, section: section, members: false) { spilled.removed.insert($0, in: section) }
            spilled.added.remove(rows, in: section)
        }
    }

    /// Moves the inline runs into `spilled`.
    private mutating func spill() {
        var added = RowSet(), removed = RowSet()
        for run in [first, second].lazy.compactMap({ $0 }) {
            if run.selected { added.insert(run.rows, in: run.section) } else { removed.insert(run.rows, in: run.section) }
        }
        first = nil
        second = nil
        spilledStorage = Unmanaged.passRetained(Spilled(added: added, removed: removed))
    }

    /// Rows that became selected (`added`) and deselected (`removed`) by one step.
    mutating func record(added a: RowSet, removed r: RowSet) {
        guard isRecording else { return }
        if spilled == nil { spill() }
        guard let spilled else { return }
        var added = spilled.added, removed = spilled.removed
        if !a.isEmpty {
            let back = a.intersection(removed)
            if !back.isEmpty { removed = removed.subtracting(back) }
            added = added.union(back.isEmpty ? a : a.subtracting(back))
        }
        if !r.isEmpty {
            let back = r.intersection(added)
            if !back.isEmpty { added = added.subtracting(back) }
            removed = removed.union(back.isEmpty ? r : r.subtracting(back))
        }
        spilled.added = added
        spilled.removed = removed
    }

    /// Whether no row became selected (`selected`) or deselected.
    func isEmpty(selected: Bool) -> Bool {
        guard let storage = spilledStorage else { return first?.selected != selected && second?.selected != selected }
        let spilled = storage.takeUnretainedValue()
        return selected ? spilled.added.isEmpty : spilled.removed.isEmpty
    }

    /// The rows that became selected (`selected`) or deselected, ascending, appended to `runs`.
    func append(selected: Bool, to runs: inout [RowRun]) {
        if let spilled {
            (selected ? spilled.added : spilled.removed).appendRuns(subtracting: RowSet(), to: &runs)
            return
        }
        let a = first?.selected == selected ? first : nil
        let b = second?.selected == selected ? second : nil
        switch (a, b) {
        case (nil, nil): return
        case (let a?, nil): RowRun.append(a.section, a.rows, to: &runs)
        case (nil, let b?): RowRun.append(b.section, b.rows, to: &runs)
        case (let a?, let b?):
            let (lower, upper) = (b.section, b.rows.lowerBound) < (a.section, a.rows.lowerBound) ? (b, a) : (a, b)
            RowRun.append(lower.section, lower.rows, to: &runs)
            RowRun.append(upper.section, upper.rows, to: &runs)
        }
    }
}

/// The small parts of the state that `TableChanges` compares before and after an event.
/// Scalars and shared references only: taking it copies nothing large.
struct ChangeMark {
    var offset: Points
    var pan: Pan.Kind?
    var swipe: OptionViews.Swipe?
    var open: RowPath?
    var editorRow: RowPath?
    var editorOpening: Int?
    var chosen: [Int]?
    var steps: Int
    var editing: Bool

    /// Inlined: a call would copy the whole state to pass it.
    @inline(__always)
    init(_ s: borrowing TableState) {
        offset = s.contentOffset
        pan = s.gesture.kind
        swipe = s.options.swipe
        open = s.options.open
        editorRow = s.layout.editorRow
        editorOpening = s.editor?.opening
        chosen = s.editor?.chosen
        steps = s.stepsRecorded
        editing = s.editing
    }
}

extension Event {
    /// Whether the event is frequent and can change the selection only through the
    /// move rule of a selection pan, which records what it changes as it goes.
    var isHotPath: Bool {
        switch self {
        case .panMoved, .panEnded, .tick, .scroll, .jumpToSection: true
        case .configure, .viewport, .reload, .setEditing, .tap, .panBegan, .panCancelled,
             .swipeBegan, .swipeMoved, .swipeEnded, .setOptionVisible, .toggleEditor, .choose,
             .insertRows, .deleteRows, .moveRow, .reloadRows, .batch, .insertSections, .deleteSections,
             .select, .deselect, .selectAll, .deselectAll, .undo, .redo: false
        }
    }
}

extension Event {
    /// Whether the event's reducer records every change it makes to the selection in the
    /// `SelectionDelta` it is given, so that `TableChanges` need not compare the
    /// selection before and after it. Row and section edits record the rows they reload
    /// (which leave the selection); they change no other row's membership: their rows
    /// follow the operations (a deleted row leaves the selection through
    /// `rowOperations`, a moved one takes its membership along), and the selection pan
    /// they interrupt keeps its rows. Kept aside and compared, a selection of R ranges
    /// cost three passes over them an edit: a copy when the edit shifted it, the copy
    /// shifted the same way, the comparison.
    var recordsSelectionChanges: Bool {
        switch self {
        case .tap, .select, .deselect, .selectAll, .deselectAll, .undo, .redo, .panBegan, .panCancelled: true
        case .insertRows, .deleteRows, .moveRow, .reloadRows, .batch, .insertSections, .deleteSections: true
        default: false
        }
    }

    /// Whether a gesture this event ends is cancelled rather than ended.
    var cancelsGestures: Bool {
        if case .panCancelled = self { return true }
        if case .setEditing = self { return true }
        return false
    }
}

extension GestureKind {
    init(_ kind: Pan.Kind) {
        switch kind {
        case .strip: self = .strip
        case .multiSelect: self = .multiSelect
        case .scroll: self = .scroll
        case .interrupted: self = .interrupted
        }
    }
}

extension TableState {
    /// What a hot event changed: the selection its move rule recorded, the offset, a
    /// pan that ended, and an undo step. Hot events change nothing else. Inlined:
    /// outlined, its result is copied into the caller's.
    @inline(__always)
    mutating func hotChanges(offset: Points, pan: Pan.Kind?, steps: Int, event: Event, delta: borrowing SelectionDelta) -> TableChanges {
        var c = TableChanges()
        let transition = pan != gesture.kind ? TableState.panTransition(from: pan, to: gesture.kind, event: event) : nil
        if !delta.isEmpty || transition != nil {
            let lists = changeBuffers.lend(to: &c.lists)
            if !delta.isEmpty {
                delta.append(selected: true, to: &lists.selected)
                delta.append(selected: false, to: &lists.deselected)
            }
            if let transition { c.noteGesture(transition, in: lists) }
            changeBuffers.trim()
        }
        if offset != contentOffset { c.offsetChange = OffsetChange(from: offset, to: contentOffset) }
        c.undoStepRecorded = history.stepsRecorded != steps
        return c
    }

    /// Where `changes(since:event:selection:)` finds what the event did to the selection.
    enum SelectionSource: ~Copyable {
        /// In the selection before the event, compared with the one after it.
        case compared(RowSet)
        /// In what the reducer recorded (`Event.recordsSelectionChanges`).
        case recorded(SelectionDelta)
    }

    /// What `event` changed, from the mark taken before it and, for the selection, `source`.
    mutating func changes(since mark: ChangeMark, event: Event, selection source: consuming SelectionSource) -> TableChanges {
        var c = TableChanges()
        let operations = event.rowOperations
        let reloaded: Bool
        if case .reload = event { reloaded = true } else { reloaded = false }
        c.reloaded = reloaded
        let selectionChanged: Bool
        var before = RowSet()
        switch source {
        case .compared(let baseline):
            // Events with row operations record their changes (`recordsSelectionChanges`),
            // so the baseline needs no following.
            assert(operations == nil, "a row edit compared its selection")
            before = baseline
            selectionChanged = !reloaded && before != selection
        case .recorded(let delta):
            assert(!reloaded, "a reload recorded its selection changes")
            selectionChanged = !delta.isEmpty
        }
        let pan = TableState.panTransition(from: mark.pan, to: gesture.kind, event: event)
        let swipe = swipeTransitions(since: mark, event: event)
        if operations?.isEmpty == false || selectionChanged || pan != nil || swipe.first != nil {
            let lists = changeBuffers.lend(to: &c.lists)
            if let operations { lists.rowOperations = operations }
            if selectionChanged {
                switch source {
                case .compared:
                    selection.appendRuns(subtracting: before, to: &lists.selected)
                    before.appendRuns(subtracting: selection, to: &lists.deselected)
                case .recorded(let delta):
                    delta.append(selected: true, to: &lists.selected)
                    delta.append(selected: false, to: &lists.deselected)
                }
            }
            if let pan { c.noteGesture(pan, in: lists) }
            if let first = swipe.first { c.noteGesture(first, in: lists) }
            if let second = swipe.second { c.noteGesture(second, in: lists) }
            changeBuffers.trim()
        }
        if mark.offset != contentOffset { c.offsetChange = OffsetChange(from: mark.offset, to: contentOffset) }
        if mark.open != options.open {
            (c.lists ?? changeBuffers.lend(to: &c.lists)).optionView = RowChange(from: mark.open, to: options.open)
        }
        if mark.swipe != options.swipe { c.swipeChanged = true }
        c.undoStepRecorded = stepsRecorded != mark.steps
        if mark.editing != editing { c.editing = editing }
        let editorChange: EditorChange?
        switch (mark.editorRow, layout.editorRow) {
        case (nil, nil): editorChange = nil
        case (nil, let to?): editorChange = .opened(below: to)
        case (let from?, nil): editorChange = .closed(below: from)
        case (let from?, let to?):
            if from != to || mark.editorOpening != editor?.opening {
                editorChange = .moved(from: from, to: to)
            } else {
                editorChange = nil
                if mark.chosen != editor?.chosen { c.chosenChanged = true }
            }
        }
        // The rarer changes go in the lists the state lends (`ChangeBuffers`), as the
        // lists do, so that they allocate nothing either.
        if let editorChange { (c.lists ?? changeBuffers.lend(to: &c.lists)).editor = editorChange }
        return c
    }

    /// The pan boundary from the kind before and after the event. A pan cannot begin
    /// while another is active, so a kind before and after is the same pan. Static: a
    /// method would copy the whole state to pass `self`.
    private static func panTransition(from before: Pan.Kind?, to after: Pan.Kind?, event: Event) -> GestureTransition? {
        switch (before, after) {
        case (nil, nil): return nil
        case (nil, let now?): return .began(GestureKind(now))
        case (let was?, nil): return event.cancelsGestures ? .cancelled(GestureKind(was)) : .ended(GestureKind(was))
        case (let was?, let now?): return was != now ? .interrupted(GestureKind(was)) : nil
        }
    }

    /// Swipe boundaries from the swipe before and after the event, in order (`first`
    /// is nil when there are none).
    private func swipeTransitions(since mark: ChangeMark, event: Event) -> (first: GestureTransition?, second: GestureTransition?) {
        if case .swipeBegan = event {
            return mark.swipe != nil ? (.cancelled(.swipe), .began(.swipe)) : (.began(.swipe), nil)
        }
        if mark.swipe != nil && options.swipe == nil {
            if case .swipeEnded = event { return (.ended(.swipe), nil) }
            return (.cancelled(.swipe), nil)
        }
        return (nil, nil)
    }
}
