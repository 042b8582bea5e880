/// Which way the finger last moved.
public enum Direction: String, Hashable, Sendable {
    /// Toward smaller y (the top of the table).
    case up
    /// Toward larger y.
    case down
}

/// What a selection pan does to the rows it passes (spec 5.3).
public enum PanMode: String, Hashable, Sendable {
    /// The rows the pan passes become selected.
    case select
    /// The rows the pan passes become deselected.
    case deselect
    var flipped: PanMode { self == .select ? .deselect : .select }
}

/// A drag scroll (spec 5.3, 3): where the finger and the offset were when it began.
struct DragScroll: Hashable, Sendable {
    var began: ViewportPoint
    var offsetAtBegan: Points
}

/// A selection pan's rows once it has its start row S.
struct PanRows: Hashable, Sendable {
    /// The start row S, where the mode was decided.
    var start: RowPath
    var mode: PanMode
    /// The anchor A: where the next range begins (`flip`), or the far end with `restore`.
    var anchor: RowPath
    /// The far end R of the current range.
    var end: RowPath
}

/// A running auto-scroll: its direction and the time it last moved the offset.
struct AutoScroll: Hashable, Sendable {
    var direction: Direction
    var since: Micros
}

/// A strip or multi-select pan: what is fixed at `panBegan`, the finger, and its rows.
struct SelectionPan: Hashable, Sendable {
    /// `.strip` or `.multiSelect`, fixed at `panBegan` (spec 5.10.13).
    var kind: Pan.Kind
    /// Fixed at `panBegan` (spec 5.10.13).
    var reversal: Reversal
    /// The finger's y at `panBegan`, and the offset then: the starting point in content
    /// coordinates is `yAtBegan + offsetAtBegan` (the start-row rule of spec 5.3).
    var yAtBegan: Points
    var offsetAtBegan: Points
    /// The last counted finger position.
    var finger: ViewportPoint
    var direction: Direction?
    /// The selection when the pan began (after editing turned on, for multi-select).
    var selectionBefore: RowSet
    /// Nil until the finger has reached a data row.
    var rows: PanRows?
    /// When auto-scroll last started, moved the offset, or stopped on a finger move.
    /// No rule reads it once auto-scroll stops; it stays in the canonical state so that
    /// states keep the hash they had before the state machine.
    var lastAutoscrollChange = Micros.zero
}

/// The pan gesture as one state machine (spec 5.3), in the manner of swift-nio's
/// state-machine structs: the state is an enum whose cases carry what each phase
/// needs, and every transition is in `TableState+Gestures.swift`, where every pan
/// ends in one function (`finishPan`).
///
/// ```
///  panBegan ─┬─▶ dragScroll ───────────── panEnded / panCancelled ─────────▶ idle
///            │     (goes on through edits, reload, setEditing, configure)
///            └─▶ waitingForStartRow ──(a data row under the finger)──▶ running
///                     │   ▲                                         │  ▲
///                     ▼   │ leaves the zone, reverses, at bound     ▼  │
///                  autoScrolling ◀──── finger in a zone, moving toward it
///  any selection phase ── panEnded / panCancelled ──────────────────────▶ idle
///  any selection phase ── row edit, reload, configure (not multiple),
///                         setEditing (changed) ──▶ interrupted ── panEnded / panCancelled ──▶ idle
/// ```
public struct PanState: Hashable, Sendable {
    enum State: Hashable, Sendable {
        /// No finger is down.
        case idle
        /// A pan that scrolls; never interrupted.
        case dragScroll(DragScroll)
        /// A selection pan that began over no data row and has not reached one.
        case waitingForStartRow(SelectionPan)
        /// A selection pan with its start row, not auto-scrolling.
        case running(SelectionPan)
        /// A selection pan while auto-scroll runs (its start row may still be missing).
        case autoScrolling(SelectionPan, AutoScroll)
        /// A selection pan that another event ended while the finger stayed down; its
        /// samples are ignored until its `panEnded` or `panCancelled`.
        case interrupted(finger: ViewportPoint)
    }

    var state = State.idle
    /// The pan's kind as the state JSON shows it, or nil when idle. Stored beside the
    /// state so that hot paths read it without copying the state's payload.
    public private(set) var kind: Pan.Kind?

    init() {}

    /// Enters `newState`, whose kind is `newKind`. Every transition sets the state here.
    mutating func enter(_ newState: State, kind newKind: Pan.Kind?) {
        state = newState
        kind = newKind
    }

    /// The kind `state` implies; invariants compare it with `kind`.
    var kindOfState: Pan.Kind? {
        switch state {
        case .idle: nil
        case .dragScroll: .scroll
        case .waitingForStartRow(let p), .running(let p), .autoScrolling(let p, _): p.kind
        case .interrupted: .interrupted
        }
    }

    /// Whether a pan (of any kind, interrupted included) is active.
    public var isActive: Bool {
        if case .idle = state { return false }
        return true
    }

    /// Whether a strip or multi-select pan is running (owns the selection).
    public var isSelecting: Bool { selectionPan != nil }

    /// Whether a drag scroll is running.
    public var isDragScroll: Bool {
        if case .dragScroll = state { return true }
        return false
    }

    /// The selection pan, in whichever of its phases.
    var selectionPan: SelectionPan? {
        switch state {
        case .waitingForStartRow(let p), .running(let p), .autoScrolling(let p, _): p
        case .idle, .dragScroll, .interrupted: nil
        }
    }

    /// The running auto-scroll.
    var autoscroll: AutoScroll? {
        if case .autoScrolling(_, let a) = state { return a }
        return nil
    }
}

/// A read-only description of the active pan (spec 6's `pan` object, and more), for
/// display and tests. The engine keeps its pans in `PanState`.
public struct Pan: Hashable, Sendable {
    /// The kinds of pan the state JSON names (spec 6, 5.10.12).
    public enum Kind: String, Hashable, Sendable {
        /// A one-finger pan in the `scrollAndSelect` strip.
        case strip
        /// A two-finger multi-select pan.
        case multiSelect
        /// A drag scroll.
        case scroll
        /// A selection pan that another event ended while the finger stayed down.
        case interrupted
    }

    /// What kind of pan this is.
    public var kind: Kind
    /// A selection pan's reversal rule, fixed at `panBegan`.
    public var reversal: Reversal?
    /// The last counted finger position (a drag scroll: where it began).
    public var finger: ViewportPoint
    /// Which way the finger last moved (a counted move), if it has.
    public var direction: Direction?
    /// The start row S, once the finger has reached a data row.
    public var start: RowPath?
    /// The mode decided at S.
    public var mode: PanMode?
    /// The anchor A.
    public var anchor: RowPath?
    /// The far end R of the current range.
    public var end: RowPath?
    /// The running auto-scroll's direction.
    public var autoscroll: Direction?

    /// Whether this is a strip or multi-select pan.
    public var isSelectionPan: Bool { kind == .strip || kind == .multiSelect }
}

extension PanState {
    /// The description of the active pan, or nil when idle.
    var description: Pan? {
        switch state {
        case .idle:
            return nil
        case .dragScroll(let d):
            return Pan(kind: .scroll, finger: d.began)
        case .interrupted(let finger):
            return Pan(kind: .interrupted, finger: finger)
        case .waitingForStartRow(let p), .running(let p), .autoScrolling(let p, _):
            return Pan(kind: p.kind, reversal: p.reversal, finger: p.finger, direction: p.direction, start: p.rows?.start,
                       mode: p.rows?.mode, anchor: p.rows?.anchor, end: p.rows?.end, autoscroll: autoscroll?.direction)
        }
    }
}
