/// What one applied event changed: exactly what a host mirrors into UIKit, and what
/// the log and `inspect` use for gesture boundaries and changes.
///
/// `TableState.apply(_:)` returns it. Index paths are in the frame *after* the event
/// (rows that moved through the event's own edits are not reported as selection
/// changes; rows deleted by it leave the selection through `rowOperations`).
///
/// ```swift
/// let changes = try table.apply(.tap(ViewportPoint(x: Points(20), y: Points(75))))
/// if let editing = changes.editing { tableView.setEditing(editing, animated: true) }
/// for row in changes.selected { tableView.selectRow(at: IndexPath(row), animated: false, scrollPosition: .none) }
/// for row in changes.deselected { tableView.deselectRow(at: IndexPath(row), animated: false) }
/// ```
public struct TableChanges: Hashable, Sendable {
    /// Rows that became selected, post-event index paths, ascending.
    ///
    /// One path per row, built when read: `selectedRuns` holds the same rows in memory
    /// that does not grow with them (a `selectAll` of 100,000,000 rows is one run per
    /// section, and 1.6 GB of paths). Paths set outside `RangeList.domain` are left out,
    /// and those set are kept ascending, each once (a test double's list in any order
    /// still gives maximal runs, and equal changes compare equal).
    public var selected: [RowPath] {
        get { RowRun.paths(lists?.selected ?? []) }
        set { mutableLists().selected = RowRun.runs(RowRun.ascending(newValue)) }
    }
    /// Rows that became deselected and still exist, post-event index paths, ascending;
    /// built when read from `deselectedRuns`. Paths set outside `RangeList.domain` are
    /// left out, and those set are kept ascending, each once.
    public var deselected: [RowPath] {
        get { RowRun.paths(lists?.deselected ?? []) }
        set { mutableLists().deselected = RowRun.runs(RowRun.ascending(newValue)) }
    }
    /// `selected` as runs of consecutive rows, ascending: what a host with large tables
    /// reads instead.
    public var selectedRuns: [RowRun] { lists?.selected ?? [] }
    /// `deselected` as runs of consecutive rows, ascending.
    public var deselectedRuns: [RowRun] { lists?.deselected ?? [] }
    /// The row operations the event performed, in the engine's order (row and section
    /// edits); empty for other events. A `reload` replaces the table: see `reloaded`.
    public var rowOperations: [RowOperation] {
        get { lists?.rowOperations ?? [] }
        set { mutableLists().rowOperations = newValue }
    }
    /// Whether the event replaced the whole table (`reload`).
    public var reloaded: Bool {
        get { flags.contains(.reloaded) }
        set { flags.set(.reloaded, newValue) }
    }
    /// A gesture that began, ended, was interrupted or was cancelled by this event.
    /// An event can end one gesture and begin another (rare); both are listed in order.
    public var gestures: [GestureTransition] {
        get { lists?.gestures ?? [] }
        set {
            mutableLists().gestures = newValue
            flags.set(.endsGesture, newValue.contains(where: \.ends))
        }
    }
    /// Whether this event ended or cancelled a gesture: `gestures` holds an `.ended` or a
    /// `.cancelled`. A bit, kept with `gestures` (`noteGesture(_:in:)`): the recorder reads
    /// it after every event, where reading the list cost a call, a retain and a release.
    @inlinable
    public var endsGesture: Bool { flags.contains(.endsGesture) }

    /// Appends `transition` to `lists` (the engine's, lent to this value) and keeps
    /// `endsGesture`.
    @inline(__always)
    mutating func noteGesture(_ transition: GestureTransition, in lists: Lists) {
        lists.gestures.append(transition)
        if transition.ends { flags.insert(.endsGesture) }
    }
    /// Whether the event recorded an undo step.
    public var undoStepRecorded: Bool {
        get { flags.contains(.undoStepRecorded) }
        set { flags.set(.undoStepRecorded, newValue) }
    }
    /// The content offset before and after, when it changed.
    public var contentOffset: (from: Points, to: Points)? {
        get { offsetChange.map { ($0.from, $0.to) } }
        set { offsetChange = newValue.map { OffsetChange(from: $0.from, to: $0.to) } }
    }
    /// The content offset before and after, when it changed: `contentOffset` as a
    /// `Hashable` value (a tuple is not one).
    public var offsetChange: OffsetChange? {
        get { flags.contains(.offsetChanged) ? OffsetChange(from: offsetFrom, to: offsetTo) : nil }
        set {
            flags.set(.offsetChanged, newValue != nil)
            offsetFrom = newValue?.from ?? Points(raw: 0)
            offsetTo = newValue?.to ?? Points(raw: 0)
        }
    }
    /// The open option view before and after, when it changed (including a row that
    /// stayed open but moved through an edit).
    public var optionView: RowChange? {
        get { lists?.optionView }
        set { if newValue != nil || lists?.optionView != nil { mutableLists().optionView = newValue } }
    }
    /// Whether the swipe in progress (its row or revealed width) changed.
    public var swipeChanged: Bool {
        get { flags.contains(.swipeChanged) }
        set { flags.set(.swipeChanged, newValue) }
    }
    /// What happened to the editor row, if anything.
    public var editor: EditorChange? {
        get { lists?.editor }
        set { if newValue != nil || lists?.editor != nil { mutableLists().editor = newValue } }
    }
    /// The editing mode after the event, when the event changed it (nil otherwise): a
    /// `setEditing`, or a two-finger multi-select `panBegan` that turned editing on by
    /// itself (EVENTS.md 5.3, rule 1), which a host learns of only here. Mirror it with
    /// `tableView.setEditing(_:animated:)`.
    public var editing: Bool? {
        get { flags.contains(.editingChanged) ? flags.contains(.editingOn) : nil }
        set {
            flags.set(.editingChanged, newValue != nil)
            flags.set(.editingOn, newValue == true)
        }
    }
    /// Whether the open editor's `chosen` changed.
    public var chosenChanged: Bool {
        get { flags.contains(.chosenChanged) }
        set { flags.set(.chosenChanged, newValue) }
    }

    // What is stored: four values, so that `TableState.apply(_:)` returns its changes in
    // registers. Returned in memory (they were 128 bytes), the caller's first copy of
    // them waited on `apply`'s narrower stores to the same bytes (a failed store-to-load
    // forward, about 10 ns an event in `Recorder.append`). What most events change (the
    // offset, the flags) is here; what few do (the lists, the option view, the editor)
    // is behind `lists`. A caller that keeps every `TableChanges` pays an allocation of
    // the lists for each event that changes the option view or the editor, as for one
    // that changes the selection; one that drops them pays none.
    private var offsetFrom = Points(raw: 0)
    private var offsetTo = Points(raw: 0)
    @usableFromInline
    var flags = Flags()

    /// Which of the changes that are one bit happened, whether the offset changed, and
    /// whether editing changed and to what. `endsGesture` is derived from `gestures`
    /// (both change together); equality and hashing compare the list. All eight bits are
    /// taken: another flag needs a wider type.
    @usableFromInline
    struct Flags: OptionSet, Hashable, Sendable {
        @usableFromInline
        let rawValue: UInt8
        @inlinable
        init(rawValue: UInt8) { self.rawValue = rawValue }
        static let reloaded = Flags(rawValue: 1)
        static let undoStepRecorded = Flags(rawValue: 2)
        static let swipeChanged = Flags(rawValue: 4)
        static let chosenChanged = Flags(rawValue: 8)
        static let offsetChanged = Flags(rawValue: 16)
        static let editingChanged = Flags(rawValue: 64)
        static let editingOn = Flags(rawValue: 128)
        /// Computed, not stored: a stored one is read through an accessor call, around
        /// which a caller retains the lists.
        @inlinable
        static var endsGesture: Flags { Flags(rawValue: 32) }

        @inline(__always)
        mutating func set(_ flag: Flags, _ on: Bool) {
            if on { insert(flag) } else { remove(flag) }
        }
    }

    /// The four lists and the rarer changes (option view, editor) behind one reference,
    /// or nil while all are empty (most events):
    /// dropping a `TableChanges` then releases nothing, and filling one allocates nothing
    /// once the state reuses the lists of the changes it returned last (`ChangeBuffers`).
    /// Copy on write: a setter copies lists that another value shares.
    var lists: Lists?

    /// The lists of a `TableChanges`.
    final class Lists: @unchecked Sendable {
        // Changed only by the engine while building the changes that hold it, and by
        // `mutableLists()` once `isKnownUniquelyReferenced` proved it unshared: copy on
        // write makes the unchecked `Sendable` sound. For the same reason no access to
        // a list overlaps another, so they skip the runtime exclusivity check.
        @exclusivity(unchecked) var selected: [RowRun] = []
        @exclusivity(unchecked) var deselected: [RowRun] = []
        @exclusivity(unchecked) var rowOperations: [RowOperation] = []
        @exclusivity(unchecked) var gestures: [GestureTransition] = []
        @exclusivity(unchecked) var optionView: RowChange?
        @exclusivity(unchecked) var editor: EditorChange?

        init() {}

        init(copying other: Lists?) {
            guard let other else { return }
            selected = other.selected
            deselected = other.deselected
            rowOperations = other.rowOperations
            gestures = other.gestures
            optionView = other.optionView
            editor = other.editor
        }

        /// Empties every list, keeping its storage, and clears the rarer changes.
        func removeAll() {
            if !selected.isEmpty { selected.empty() }
            if !deselected.isEmpty { deselected.empty() }
            if !rowOperations.isEmpty { rowOperations.empty() }
            if !gestures.isEmpty { gestures.empty() }
            if optionView != nil { optionView = nil }
            if editor != nil { editor = nil }
        }

        /// Whether some list holds storage for more than `limit` elements.
        func holdsMore(than limit: Int) -> Bool {
            selected.capacity > limit || deselected.capacity > limit || rowOperations.capacity > limit
                || gestures.capacity > limit
        }
    }

    /// The lists, unshared, created if there were none.
    private mutating func mutableLists() -> Lists {
        if !isKnownUniquelyReferenced(&lists) { lists = Lists(copying: lists) }
        return lists ?? Lists()  // never nil here
    }

    /// No changes.
    public init() {}

    /// Whether the event changed nothing at all that a host mirrors.
    public var isEmpty: Bool { self == TableChanges() }

    // Runs are compared, not paths: every list of runs is maximal (`RowRun.append`), so
    // equal runs are equal paths.
    public static func == (a: TableChanges, b: TableChanges) -> Bool {
        a.selectedRuns == b.selectedRuns && a.deselectedRuns == b.deselectedRuns && a.rowOperations == b.rowOperations
            && a.reloaded == b.reloaded && a.gestures == b.gestures && a.undoStepRecorded == b.undoStepRecorded
            && a.offsetChange == b.offsetChange && a.optionView == b.optionView && a.swipeChanged == b.swipeChanged
            && a.editor == b.editor && a.chosenChanged == b.chosenChanged && a.editing == b.editing
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(selectedRuns)
        hasher.combine(deselectedRuns)
        hasher.combine(rowOperations)
        hasher.combine(reloaded)
        hasher.combine(gestures)
        hasher.combine(undoStepRecorded)
        hasher.combine(offsetChange)
        hasher.combine(optionView)
        hasher.combine(swipeChanged)
        hasher.combine(editor)
        hasher.combine(editing)
        hasher.combine(chosenChanged)
    }
}

/// A content offset that changed.
public struct OffsetChange: Hashable, Sendable {
    /// The offset before the event.
    public var from: Points
    /// The offset after the event.
    public var to: Points
    /// A change from `from` to `to`.
    public init(from: Points, to: Points) {
        self.from = from
        self.to = to
    }
}

/// A row-valued part of the state (the open option view) before and after.
public struct RowChange: Hashable, Sendable {
    /// The row before the event (pre-event path), or nil.
    public var from: RowPath?
    /// The row after the event (post-event path), or nil.
    public var to: RowPath?
    /// A change from `from` to `to`.
    public init(from: RowPath?, to: RowPath?) {
        self.from = from
        self.to = to
    }
}

/// The kinds of gesture the engine tracks: pans (spec 5.3) and swipes (spec 5.5).
public enum GestureKind: String, Hashable, Sendable {
    /// A strip pan that selects (TableViewScrollAndSelect).
    case strip
    /// A two-finger multi-select pan.
    case multiSelect
    /// A drag that scrolls.
    case scroll
    /// A selection pan that a row edit, `reload`, `configure` or `setEditing` ended
    /// while the finger stayed down; its samples are ignored until it ends.
    case interrupted
    /// A swipe on a row's option view.
    case swipe
}

/// A gesture boundary.
public enum GestureTransition: Hashable, Sendable {
    /// A gesture of this kind began (`panBegan`, `swipeBegan`).
    case began(GestureKind)
    /// A gesture ended normally (`panEnded`, `swipeEnded`; an interrupted pan's end).
    case ended(GestureKind)
    /// A selection pan was ended by another event and became `.interrupted`; the
    /// finger is still down.
    case interrupted(GestureKind)
    /// A gesture was cancelled (`panCancelled`, or a `setEditing` that cancels it).
    case cancelled(GestureKind)

    /// Whether the gesture is over: `.ended` or `.cancelled`.
    var ends: Bool {
        switch self {
        case .ended, .cancelled: true
        case .began, .interrupted: false
        }
    }
}

/// What happened to the editor row.
public enum EditorChange: Hashable, Sendable {
    /// An editor opened below `row`.
    case opened(below: RowPath)
    /// The editor moved from below one row to below another (a `toggleEditor` on
    /// another row, or its row moved through an edit).
    case moved(from: RowPath, to: RowPath)
    /// The editor below `row` (pre-event path) closed.
    case closed(below: RowPath)
}

extension TableChanges: CustomStringConvertible {
    /// Every public field, as the memberwise description printed them before the lists
    /// moved behind one reference (so that `print(changes)` still shows the rows).
    public var description: String {
        "TableChanges(selected: \(selected), deselected: \(deselected), rowOperations: \(rowOperations), "
            + "reloaded: \(reloaded), gestures: \(gestures), undoStepRecorded: \(undoStepRecorded), "
            + "contentOffset: \(String(describing: contentOffset)), optionView: \(String(describing: optionView)), "
            + "swipeChanged: \(swipeChanged), editor: \(String(describing: editor)), chosenChanged: \(chosenChanged), "
            + "editing: \(String(describing: editing)))"
    }
}

extension Array {
    /// Removes every element, keeping the storage. A list of changes mostly holds one or
    /// two elements, and removing them one by one costs a fraction of the generic
    /// `removeAll(keepingCapacity:)` (which replaces the whole range by an empty collection).
    @inline(__always)
    fileprivate mutating func empty() {
        if count > 4 {
            removeAll(keepingCapacity: true)
        } else {
            while !isEmpty { removeLast() }
        }
    }
}
