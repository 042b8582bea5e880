/// The viewport's size (spec 2).
public struct ViewportSize: Hashable, Sendable {
    public var width: Points
    public var height: Points
    public init(width: Points, height: Points) {
        self.width = width
        self.height = height
    }
}

/// The open swipe-to-reveal option view and the swipe in progress (spec 5.5).
public struct OptionViews: Hashable, Sendable {
    /// The row whose option view is open; at most one.
    public var open: RowPath?
    public var swipe: Swipe?

    public enum Swipe: Hashable, Sendable {
        /// A swipe on `row`, revealing `offset` points.
        case active(row: RowPath, offset: Points)
        /// A swipe that began where swipes do nothing; its events are ignored until it ends.
        case ignored
    }
    public init() {}
}

/// The open drop-down editor row (spec 5.6). Its position is `TableLayout.editorRow`.
public struct EditorRow: Hashable, Sendable {
    public var options: [String]
    public var multiple: Bool
    /// Chosen option indices, ascending.
    public var chosen: [Int]
    /// Which opening of the editor this is; `choose` steps belong to one (spec 5.10.9).
    public var opening: Int
}

/// One undo step (spec 5.9): what it changed, not a copy of the state.
public enum UndoStep: Hashable, Sendable {
    /// Rows that became selected and rows that became deselected.
    case selection(added: RowSet, removed: RowSet)
    /// A `choose` in editor opening `opening`.
    case choose(opening: Int, before: [Int], after: [Int])
}

/// Everything the reducers fold events into: table state and selection state.
///
/// `apply(_:)` is the only way in. It either applies an event completely or
/// throws `InvalidEvent` and changes nothing.
public struct TableState: Equatable, Sendable {
    public internal(set) var configuration = Configuration()
    public internal(set) var layout = TableLayout()
    public internal(set) var viewport = ViewportSize(width: Points(390), height: Points(844))
    public internal(set) var contentOffset = Points.zero
    public internal(set) var editing = false
    public internal(set) var selection = RowSet()
    public internal(set) var decelerating = false
    public internal(set) var target: Points?
    /// The pan gesture's state machine (spec 5.3).
    public internal(set) var gesture = PanState()
    public internal(set) var options = OptionViews()
    public internal(set) var editor: EditorRow?
    /// Openings of the editor so far; names the next opening.
    public internal(set) var editorOpenings = 0
    public internal(set) var undoStack: [UndoStep] = []
    public internal(set) var redoStack: [UndoStep] = []
    /// Events applied so far (not part of the hash).
    public internal(set) var events = 0
    /// Undo steps recorded so far, for stepping through a log by undo step (not part of the hash).
    public internal(set) var stepsRecorded = 0
    /// The last event's time (not part of the hash).
    public internal(set) var t = Micros.zero

    public init() {}

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
        contentOffset = clampedOffset(contentOffset)
        if let target { self.target = clampedOffset(target) }
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
}
