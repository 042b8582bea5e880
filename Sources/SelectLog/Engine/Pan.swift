/// Which way the finger last moved.
public enum Direction: String, Hashable, Sendable {
    case up
    case down
}

/// What a selection pan does to the rows it passes (spec 5.3).
public enum PanMode: String, Hashable, Sendable {
    case select
    case deselect
    var flipped: PanMode { self == .select ? .deselect : .select }
}

/// The active pan (spec 5.3).
public struct Pan: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case strip
        case multiSelect
        case scroll
    }

    public var kind: Kind

    // Drag scroll.
    public var offsetAtBegan: Points
    public var yAtBegan: Points

    // Selection pans.
    public var reversal: Reversal
    /// The last counted finger position.
    public var finger: ViewportPoint
    public var direction: Direction?
    /// The start row S, once the finger has reached a data row.
    public var start: RowPath?
    public var mode: PanMode?
    /// The anchor A: where the next range begins (`flip`), or S (`restore`).
    public var anchor: RowPath?
    /// With `restore`: the far end R of the current range.
    public var end: RowPath?
    /// The selection when the pan began (after editing turned on, for multi-select).
    public var selectionBefore: RowSet
    /// The running auto-scroll's direction, and the time it last moved the offset.
    public var autoscroll: Direction?
    public var autoscrollSince: Micros

    public var isSelectionPan: Bool { kind != .scroll }

    init(scrollFrom point: ViewportPoint, offset: Points) {
        kind = .scroll
        offsetAtBegan = offset
        yAtBegan = point.y
        reversal = .flip
        finger = point
        direction = nil
        start = nil
        mode = nil
        anchor = nil
        end = nil
        selectionBefore = RowSet()
        autoscroll = nil
        autoscrollSince = .zero
    }

    init(selecting kind: Kind, at point: ViewportPoint, reversal: Reversal, selection: RowSet) {
        self.init(scrollFrom: point, offset: .zero)
        self.kind = kind
        self.reversal = reversal
        self.selectionBefore = selection
    }
}
