/// A point in viewport coordinates (spec 2).
public struct ViewportPoint: Hashable, Sendable {
    public var x: Points
    public var y: Points
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
    indirect case configure(ConfigurationPatch)
    case viewport(width: Points?, height: Points?)
    indirect case reload(sections: [SectionSpec])
    case setEditing(Bool)
    // 5.2 Taps
    case tap(ViewportPoint)
    // 5.3 Pans
    case panBegan(ViewportPoint, fingers: Int)
    case panMoved(ViewportPoint)
    case panEnded(ViewportPoint?, targetOffset: Points?)
    case panCancelled
    // 5.4 Scrolling
    case scroll(ScrollMotion?, phase: ScrollPhase?, target: Points?)
    case jumpToSection(SectionReference)
    // 5.5 Option views
    case swipeBegan(row: RowPath)
    case swipeMoved(offset: Points)
    case swipeEnded(velocity: Points?)
    case setOptionVisible(row: RowPath, visible: Bool)
    // 5.6 The editor row
    indirect case toggleEditor(row: RowPath, options: [String], multiple: Bool, chosen: [Int])
    case choose(option: Int)
    // 5.7 Time
    case tick
    // 5.8 Row edits
    case insertRows(at: [RowPath], heights: [Points]?)
    case deleteRows(at: [RowPath])
    case moveRow(from: RowPath, to: RowPath)
    case reloadRows(at: [RowPath], heights: [Points]?)
    indirect case batch(BatchUpdate)
    indirect case insertSections(at: [Int], sections: [SectionSpec])
    case deleteSections(at: [Int])
    // 5.9 Programmatic selection and undo
    case select(rows: [RowPath])
    case deselect(rows: [RowPath])
    case selectAll
    case deselectAll
    case undo
    case redo

    /// The event's `type` name in scripts.
    public var typeName: String { type.rawValue }
}

/// An event with its optional time `t`; a missing `t` means the previous event's (spec 1).
public struct TimedEvent: Hashable, Sendable {
    public var t: Micros?
    public var event: Event
    public init(_ event: Event, t: Micros? = nil) {
        self.event = event
        self.t = t
    }
}

/// A `scroll` event's motion: to an offset, or by a delta.
public enum ScrollMotion: Hashable, Sendable {
    case to(Points)
    case by(Points)
}

/// A `scroll` event's `phase`.
public enum ScrollPhase: String, Hashable, Sendable {
    case decelerate
    case idle
}

/// The section a `jumpToSection` names.
public enum SectionReference: Hashable, Sendable {
    case index(Int)
    case title(String)
}

/// A section as events describe it (spec 2): kept as written, so a million uniform
/// rows stay one number until the reducer lays them out.
public struct SectionSpec: Hashable, Sendable {
    public var rows: Int
    public var rowHeight: Points?
    public var rowHeights: [Points]?
    public var header: Points?
    public var footer: Points?
    public var title: String?

    public init(rows: Int, rowHeight: Points? = nil, rowHeights: [Points]? = nil, header: Points? = nil, footer: Points? = nil, title: String? = nil) {
        self.rows = rows
        self.rowHeight = rowHeight
        self.rowHeights = rowHeights
        self.header = header
        self.footer = footer
        self.title = title
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
    public var deletes: [RowPath]
    public var inserts: [RowPath]
    public var insertHeights: [Points]?
    public var moves: [Move]
    public var reloads: [RowPath]
    public var reloadHeights: [Points]?

    public struct Move: Hashable, Sendable {
        public var from: RowPath
        public var to: RowPath
        public init(from: RowPath, to: RowPath) {
            self.from = from
            self.to = to
        }
    }

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
