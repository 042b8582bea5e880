/// Everything the reducers fold events into, in parts that own their fields: the
/// configuration, the layout (rows and the editor row's place), the scroll view, the
/// selection with its history, the pan gesture, the option views and the editor row.
///
/// `apply(_:)` is the only way in. It either applies an event completely or
/// throws `InvalidEvent` and changes nothing, and says what it changed.
public struct TableState: Equatable, Sendable {
    /// The table's settings (spec 5.1).
    public internal(set) var configuration = Configuration()
    /// The sections, rows and the editor row's place (spec 2).
    public internal(set) var layout = TableLayout()
    /// The viewport, offset and deceleration.
    public internal(set) var scroll = ScrollState()
    /// Whether the table is editing (spec 3).
    public internal(set) var editing = false
    /// The selection and its undo and redo steps.
    public internal(set) var history = SelectionHistory()
    /// The pan gesture's state machine (spec 5.3).
    public internal(set) var gesture = PanState()
    /// The open option view and the swipe in progress (spec 5.5).
    public internal(set) var options = OptionViews()
    /// The editor row's content and openings.
    public internal(set) var editorState = EditorState()
    /// Events applied so far (not part of the hash).
    public internal(set) var events = 0
    /// The last event's time (not part of the hash).
    public internal(set) var t = Micros.zero
    /// Storage for the lists of the next `TableChanges` (no part of the state's value).
    var changeBuffers = ChangeBuffers()

    /// An empty table in the default configuration and viewport.
    public init() {}

    // The parts' fields under their spec names.

    /// The viewport's size.
    public internal(set) var viewport: ViewportSize {
        get { scroll.viewport }
        _modify { yield &scroll.viewport }
    }
    /// The content y at the viewport's top (spec 2).
    public internal(set) var contentOffset: Points {
        get { scroll.offset }
        _modify { yield &scroll.offset }
    }
    /// Whether the scroll view is decelerating (spec 5.4).
    public internal(set) var decelerating: Bool {
        get { scroll.decelerating }
        _modify { yield &scroll.decelerating }
    }
    /// Where a deceleration stops.
    public internal(set) var target: Points? {
        get { scroll.target }
        _modify { yield &scroll.target }
    }
    /// The selected rows.
    public internal(set) var selection: RowSet {
        get { history.selection }
        _modify { yield &history.selection }
    }
    /// Undo steps, oldest first, built when read (O(steps)): an app that only asks
    /// whether it can undo reads `undoCount`.
    public var undoStack: [UndoStep] { history.undoStack }
    /// Redo steps, furthest from the present first, built when read (see `redoCount`).
    public var redoStack: [UndoStep] { history.redoStack }
    /// `undoStack.count`, without building the steps.
    public var undoCount: Int { history.undoCount }
    /// `redoStack.count`, without building the steps.
    public var redoCount: Int { history.redoCount }
    /// Undo steps recorded so far (not part of the hash).
    public var stepsRecorded: Int { history.stepsRecorded }
    /// The open editor row's content; its place is `layout.editorRow`.
    public var editor: EditorRow? { editorState.current }
    /// Openings of the editor so far.
    public var editorOpenings: Int { editorState.openings }
    /// The active pan, described, or nil between pans.
    public var pan: Pan? { gesture.description }
    /// Whether a drag scroll is running (spec 6's `dragging`).
    public var dragging: Bool { gesture.isDragScroll }

    /// Whether the current mode is multiple (spec 3).
    public var isMultiple: Bool { configuration.multiple(editing: editing) }
    /// Whether the current mode is selectable (spec 3).
    public var isSelectable: Bool { configuration.selectable(editing: editing) }

    /// The largest offset: `max(0, contentHeight - height)`.
    public var maxOffset: Points {
        let m = layout.contentHeight - viewport.height
        return m < .zero ? .zero : m
    }

    func clampedOffset(_ y: Points) -> Points { y.clamped(.zero, maxOffset) }

    /// Re-clamps the offset and the deceleration target after the content or viewport changed.
    mutating func reclamp() {
        scroll.reclamp(maxOffset: maxOffset)
    }

    /// The data rows intersecting `[contentOffset, contentOffset + height)`.
    public var visibleRows: ClosedRange<RowPath>? { layout.rows(in: contentOffset, height: viewport.height) }

    /// The rows whose heavy content should load now (spec 5.4).
    public var rowsToLoad: ClosedRange<RowPath>? {
        if decelerating && !dragging {
            guard let target else { return nil }
            return layout.rows(in: clampedOffset(target), height: viewport.height)
        }
        return visibleRows
    }

    /// What viewport point `p` hits (spec 2).
    public func element(at p: ViewportPoint) -> TableElement {
        guard p.x >= .zero, p.x < viewport.width, p.y >= .zero, p.y < viewport.height else { return .nothing }
        return layout.element(at: p.y + contentOffset)
    }

    /// The data row under viewport point `p`, if any.
    public func row(at p: ViewportPoint) -> RowPath? {
        if case .row(let r) = element(at: p) { return r }
        return nil
    }

    /// `row(at:)` through the layout's memo of the last row found (the finger of a pan).
    mutating func rowUnderFinger(_ p: ViewportPoint) -> RowPath? {
        guard p.x >= .zero, p.x < viewport.width, p.y >= .zero, p.y < viewport.height else { return nil }
        return layout.row(at: p.y + contentOffset)
    }
}
