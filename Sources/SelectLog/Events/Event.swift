/// A point in viewport coordinates (spec 2).
public struct ViewportPoint: Hashable, Sendable {
    /// Horizontal position from the viewport's leading edge.
    public var x: Points
    /// Vertical position from the viewport's top edge.
    public var y: Points
    /// A point at `x`, `y`.
    public init(x: Points, y: Points) {
        self.x = x
        self.y = y
    }
}

/// One thing that happened to the table (spec 5): a tap, a pan sample, a scroll tick,
/// a row edit. Events are immutable values; reducers fold them into `TableState`.
///
/// The rare events with large payloads are `indirect`, so that the frequent ones (pan
/// samples, ticks) stay small to copy.
public enum Event: Hashable, Sendable {
    // 5.1 Set-up
    /// Changes some settings; nil fields keep their value (5.1).
    indirect case configure(ConfigurationPatch)
    /// Resizes the viewport; a nil dimension keeps its value.
    case viewport(width: Points?, height: Points?)
    /// Replaces the whole table, as UIKit's `reloadData`.
    indirect case reload(sections: [SectionSpec])
    /// Turns editing mode on or off.
    case setEditing(Bool)
    // 5.2 Taps
    /// A tap at a viewport point (5.2).
    case tap(ViewportPoint)
    // 5.3 Pans
    /// A pan starts under `fingers` fingers; it is classified once, here (5.3). Zero is
    /// what a pan recognizer reports for a trackpad's or a mouse wheel's scroll
    /// (`numberOfTouches` is 0): a drag scroll.
    case panBegan(ViewportPoint, fingers: Int)
    /// The active pan's finger moves.
    case panMoved(ViewportPoint)
    /// The active pan ends, optionally with a last position and a deceleration target.
    case panEnded(ViewportPoint?, targetOffset: Points?)
    /// The active pan is cancelled; a selection pan puts the selection back.
    case panCancelled
    // 5.4 Scrolling
    /// Sets or moves the content offset, and/or the deceleration phase (5.4).
    case scroll(ScrollMotion?, phase: ScrollPhase?, target: Points?)
    /// Scrolls a section's header to the top.
    case jumpToSection(SectionReference)
    // 5.5 Option views
    /// A swipe to reveal a row's option view starts (5.5).
    case swipeBegan(row: RowPath)
    /// The swipe has revealed `offset` points.
    case swipeMoved(offset: Points)
    /// The swipe ends; the velocity (points/s, positive opening) decides open or closed.
    case swipeEnded(velocity: Points?)
    /// Opens or closes a row's option view programmatically.
    case setOptionVisible(row: RowPath, visible: Bool)
    // 5.6 The editor row
    /// Opens, closes or moves the editor row below `row` (5.6).
    indirect case toggleEditor(row: RowPath, options: [String], multiple: Bool, chosen: [Int])
    /// Chooses (or, multiple, toggles) one of the open editor's options.
    case choose(option: Int)
    // 5.7 Time
    /// Time passes (the event's `t`); drives auto-scroll (5.7).
    case tick
    // 5.8 Row edits
    /// Inserts rows at post-update index paths (5.8).
    case insertRows(at: [RowPath], heights: [Points]?)
    /// Deletes rows at pre-update index paths.
    case deleteRows(at: [RowPath])
    /// Moves one row from a pre-update to a post-update index path.
    case moveRow(from: RowPath, to: RowPath)
    /// Reloads rows in place: deselected, heights optionally changed, identity kept.
    case reloadRows(at: [RowPath], heights: [Points]?)
    /// Several row edits at once, as UIKit's `performBatchUpdates`.
    indirect case batch(BatchUpdate)
    /// Inserts sections at post-update indexes.
    indirect case insertSections(at: [Int], sections: [SectionSpec])
    /// Deletes sections with their rows.
    case deleteSections(at: [Int])
    // 5.9 Programmatic selection and undo
    /// Selects rows programmatically, as UIKit's `selectRow` (5.9).
    case select(rows: [RowPath])
    /// Deselects rows programmatically.
    case deselect(rows: [RowPath])
    /// Selects every data row (multiple mode only).
    case selectAll
    /// Clears the selection.
    case deselectAll
    /// Undoes the last undo step.
    case undo
    /// Redoes the last undone step.
    case redo

    /// The event's `type` name in scripts.
    public var typeName: String { type.rawValue }
}

/// An event with its optional time `t`; a missing `t` means the previous event's (spec 1).
public struct TimedEvent: Hashable, Sendable {
    /// When it happened; nil means at the previous event's time.
    public var t: Micros?
    /// What happened.
    public var event: Event
    /// `event` at time `t`.
    public init(_ event: Event, t: Micros? = nil) {
        self.event = event
        self.t = t
    }
}

/// A `scroll` event's motion: to an offset, or by a delta.
public enum ScrollMotion: Hashable, Sendable {
    /// To an absolute content offset (`y`).
    case to(Points)
    /// By a delta from the current offset (`dy`).
    case by(Points)
}

/// A `scroll` event's `phase`.
public enum ScrollPhase: String, Hashable, Sendable {
    /// The scroll view is decelerating (toward `target`, if given).
    case decelerate
    /// The scroll view is at rest.
    case idle
}

/// The section a `jumpToSection` names.
public enum SectionReference: Hashable, Sendable {
    /// The section at this index.
    case index(Int)
    /// The first section with this title.
    case title(String)

    /// The same section index, or the same title by its Unicode scalars (as the jump
    /// compares titles): two references that jump differently are not equal.
    public static func == (a: SectionReference, b: SectionReference) -> Bool {
        switch (a, b) {
        case let (.index(x), .index(y)): x == y
        case let (.title(x), .title(y)): LayoutSection.sameTitle(x, y)
        default: false
        }
    }
}

/// A section as events describe it (spec 2): kept as written, so a million uniform
/// rows stay one number until the reducer lays them out.
public struct SectionSpec: Hashable, Sendable {
    /// The number of data rows.
    public var rows: Int
    /// The height of every row not given in `rowHeights` (default 44).
    public var rowHeight: Points?
    /// Per-row heights, by position; entries past `rows` are ignored.
    public var rowHeights: [Points]?
    /// The header's height (default 0: none).
    public var header: Points?
    /// The footer's height (default 0: none).
    public var footer: Points?
    /// The title `jumpToSection` finds the section by.
    public var title: String?

    /// A section as a script would write it; nil fields take their defaults.
    public init(rows: Int, rowHeight: Points? = nil, rowHeights: [Points]? = nil, header: Points? = nil, footer: Points? = nil, title: String? = nil) {
        self.rows = rows
        self.rowHeight = rowHeight
        self.rowHeights = rowHeights
        self.header = header
        self.footer = footer
        self.title = title
    }

    /// Equal fields, the title compared by its Unicode scalars (as `jumpToSection`
    /// compares titles): sections that one jump tells apart are not equal.
    public static func == (a: SectionSpec, b: SectionSpec) -> Bool {
        a.rows == b.rows && a.rowHeight == b.rowHeight && a.rowHeights == b.rowHeights && a.header == b.header
            && a.footer == b.footer && LayoutSection.sameTitle(a.title, b.title)
    }

    /// The laid-out section.
    public var section: LayoutSection {
        LayoutSection(count: rows, rowHeight: rowHeight ?? Points(44), heights: rowHeights ?? [],
                header: header ?? .zero, footer: footer ?? .zero, title: title)
    }
}

/// A `batch` event (UIKit `performBatchUpdates`): deletes and reloads and move
/// sources in the pre-update frame, inserts and move targets in the post-update frame.
public struct BatchUpdate: Hashable, Sendable {
    /// Rows deleted, pre-update index paths.
    public var deletes: [RowPath]
    /// Rows inserted, post-update index paths.
    public var inserts: [RowPath]
    /// Heights of the inserted rows, by position in `inserts`.
    public var insertHeights: [Points]?
    /// Rows moved.
    public var moves: [Move]
    /// Rows reloaded in place, pre-update index paths.
    public var reloads: [RowPath]
    /// New heights of the reloaded rows, by position in `reloads`.
    public var reloadHeights: [Points]?

    /// One row moved from a pre-update to a post-update index path.
    public struct Move: Hashable, Sendable {
        /// Where the row was, pre-update.
        public var from: RowPath
        /// Where the row goes, post-update.
        public var to: RowPath
        /// A move of the row at `from` to `to`.
        public init(from: RowPath, to: RowPath) {
            self.from = from
            self.to = to
        }
    }

    /// An update; every part defaults to nothing.
    public init(deletes: [RowPath] = [], inserts: [RowPath] = [], insertHeights: [Points]? = nil,
                moves: [Move] = [], reloads: [RowPath] = [], reloadHeights: [Points]? = nil) {
        self.deletes = deletes
        self.inserts = inserts
        self.insertHeights = insertHeights
        self.moves = moves
        self.reloads = reloads
        self.reloadHeights = reloadHeights
    }
}
