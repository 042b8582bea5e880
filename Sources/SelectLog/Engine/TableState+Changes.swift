/// Rows whose selection a hot event (a pan sample, a tick, a scroll) changed, net:
/// a row selected and deselected again within one event is no change. Empty sets
/// allocate nothing, so a sample that changes nothing costs nothing here.
struct SelectionDelta {
    /// The rows, while recording. A delta that does not record holds no sets, so that
    /// replay creates and destroys none per event.
    private var sets: (added: RowSet, removed: RowSet)?

    init(recording: Bool = true) { sets = recording ? (RowSet(), RowSet()) : nil }

    /// False when nobody reads the delta (replay): `record` then does nothing, and
    /// callers skip computing what they would record.
    var isRecording: Bool { sets != nil }
    /// Rows that became selected.
    var added: RowSet { sets?.added ?? RowSet() }
    /// Rows that became deselected.
    var removed: RowSet { sets?.removed ?? RowSet() }

    /// Rows that became selected (`added`) and deselected (`removed`) by one step.
    mutating func record(added a: RowSet, removed r: RowSet) {
        guard case var (added, removed)? = sets else { return }
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
        sets = (added, removed)
    }

    /// One row that became selected or deselected.
    mutating func record(_ row: RowPath, selected: Bool) {
        guard isRecording else { return }
        let one = RowSet(CollectionOfOne(row))
        if selected { record(added: one, removed: RowSet()) } else { record(added: RowSet(), removed: one) }
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

    init(_ s: borrowing TableState) {
        offset = s.contentOffset
        pan = s.gesture.kind
        swipe = s.options.swipe
        open = s.options.open
        editorRow = s.layout.editorRow
        editorOpening = s.editor?.opening
        chosen = s.editor?.chosen
        steps = s.stepsRecorded
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
    /// pan that ended, and an undo step. Hot events change nothing else.
    func hotChanges(offset: Points, pan: Pan.Kind?, steps: Int, event: Event, delta: SelectionDelta) -> TableChanges {
        var c = TableChanges()
        if !delta.added.isEmpty { c.selected = delta.added.paths }
        if !delta.removed.isEmpty { c.deselected = delta.removed.paths }
        if offset != contentOffset { c.offsetChange = OffsetChange(from: offset, to: contentOffset) }
        c.undoStepRecorded = history.stepsRecorded != steps
        if pan != gesture.kind { recordPanGestures(from: pan, event: event, into: &c) }
        return c
    }

    /// What `event` changed, from the mark taken before it and the selection before it.
    func changes(since mark: ChangeMark, event: Event, baseline: RowSet) -> TableChanges {
        var c = TableChanges()
        let operations = event.rowOperations
        if let operations { c.rowOperations = operations }
        if case .reload = event { c.reloaded = true }
        if !c.reloaded {
            let before = operations.map { baseline.applying($0) } ?? baseline
            if before != selection {
                c.selected = selection.subtracting(before).paths
                c.deselected = before.subtracting(selection).paths
            }
        }
        if mark.offset != contentOffset { c.offsetChange = OffsetChange(from: mark.offset, to: contentOffset) }
        if mark.open != options.open { c.optionView = RowChange(from: mark.open, to: options.open) }
        if mark.swipe != options.swipe { c.swipeChanged = true }
        c.undoStepRecorded = stepsRecorded != mark.steps
        switch (mark.editorRow, layout.editorRow) {
        case (nil, nil): break
        case (nil, let to?): c.editor = .opened(below: to)
        case (let from?, nil): c.editor = .closed(below: from)
        case (let from?, let to?):
            if from != to || mark.editorOpening != editor?.opening {
                c.editor = .moved(from: from, to: to)
            } else if mark.chosen != editor?.chosen {
                c.chosenChanged = true
            }
        }
        recordPanGestures(from: mark.pan, event: event, into: &c)
        recordSwipeGestures(since: mark, event: event, into: &c)
        return c
    }

    /// Pan boundaries from the kind before and after the event. A pan cannot begin
    /// while another is active, so a kind before and after is the same pan.
    private func recordPanGestures(from before: Pan.Kind?, event: Event, into c: inout TableChanges) {
        switch (before, gesture.kind) {
        case (nil, nil): break
        case (nil, let now?): c.gestures.append(.began(GestureKind(now)))
        case (let was?, nil):
            c.gestures.append(event.cancelsGestures ? .cancelled(GestureKind(was)) : .ended(GestureKind(was)))
        case (let was?, let now?):
            if was != now { c.gestures.append(.interrupted(GestureKind(was))) }
        }
    }

    /// Swipe boundaries from the swipe before and after the event.
    private func recordSwipeGestures(since mark: ChangeMark, event: Event, into c: inout TableChanges) {
        if case .swipeBegan = event {
            if mark.swipe != nil { c.gestures.append(.cancelled(.swipe)) }
            c.gestures.append(.began(.swipe))
        } else if mark.swipe != nil && options.swipe == nil {
            if case .swipeEnded = event { c.gestures.append(.ended(.swipe)) } else { c.gestures.append(.cancelled(.swipe)) }
        }
    }
}
