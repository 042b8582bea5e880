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
    /// The anchor A: where the next range begins (`flip`). With `restore`, set as with
    /// `flip` when S is found and never moved after (the range is S..R).
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
    /// The rows whose selection differs from the selection when the pan began (after
    /// editing turned on, for multi-select): that selection is the current one with
    /// these rows flipped. Kept instead of a copy of it, so that a pan costs what the
    /// rows it passes cost: the copy's first change copied the whole selection, and the
    /// pan's end compared the two both ways (2,000 short pans amid 400,000 selected
    /// ranges took 12 s).
    var changedRows: RowSet
    /// Nil until the finger has reached a data row.
    var rows: PanRows?
    /// When auto-scroll last started, moved the offset, or stopped on a finger move.
    /// No rule reads it once auto-scroll stops; it stays in the canonical state so that
    /// states keep the hash they had before the state machine.
    var lastAutoscrollChange = Micros.zero
}

/// A selection pan without its changed rows: scalars only, so a step of the
/// pan (a sample, a tick) copies it out of `PanState` and back with no retain, release
/// or placeholder. `PanState` keeps the changed rows beside it.
struct PanCore: Sendable {
    var kind: Pan.Kind
    var reversal: Reversal
    var yAtBegan: Points
    var offsetAtBegan: Points
    var finger: ViewportPoint
    var direction: Direction?
    var rows: PanRows?
    var lastAutoscrollChange: Micros

    init(_ p: borrowing SelectionPan) {
        kind = p.kind
        reversal = p.reversal
        yAtBegan = p.yAtBegan
        offsetAtBegan = p.offsetAtBegan
        finger = p.finger
        direction = p.direction
        rows = p.rows
        lastAutoscrollChange = p.lastAutoscrollChange
    }

    /// What `PanState` holds outside the selecting phases.
    static var none: PanCore { PanCore(SelectionPan.none) }
}

extension SelectionPan {
    /// The pan of `core` that has changed the selection of `changedRows`.
    init(_ core: PanCore, changedRows: RowSet) {
        self.init(kind: core.kind, reversal: core.reversal, yAtBegan: core.yAtBegan, offsetAtBegan: core.offsetAtBegan,
                  finger: core.finger, direction: core.direction, changedRows: changedRows, rows: core.rows,
                  lastAutoscrollChange: core.lastAutoscrollChange)
    }
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
///
/// The enum `State` is the machine as the rest of the engine reads it. It is stored
/// flat, as its phase beside each case's payload, so that pan samples and ticks
/// (nine events in ten of a session) change the selection pan in place: copying it
/// out of an enum case and back cost about 140 bytes, its retains and releases, and
/// value-witness calls per sample. Only the payload of the current phase is part of
/// the value (`==` and `hash(into:)` read nothing else).
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

    /// `State`'s cases without their payloads.
    enum Phase: UInt8, Hashable, Sendable {
        case idle, dragScroll, waitingForStartRow, running, autoScrolling, interrupted

        /// Whether a strip or multi-select pan is in this phase.
        var isSelecting: Bool { self == .waitingForStartRow || self == .running || self == .autoScrolling }
    }

    /// The current case of `State`.
    private(set) var phase = Phase.idle
    /// The selection pan in the selecting phases, but for its changed rows;
    /// `PanCore.none` otherwise.
    private var selecting = PanCore.none
    /// The selecting phases' changed rows (`SelectionPan.changedRows`) but for the
    /// pending run (`pendingRows` of `pendingSection`); empty otherwise. The move rule keeps both as it changes the selection.
    private(set) var settledChanges = RowSet()
    /// The rows the pan changed last, one run in one section (empty rows when none), not
    /// yet flipped in `settledChanges`: a pan changes the rows beside the ones it changed
    /// last, so most of its steps widen or narrow this run, and `settledChanges` takes it
    /// only when a step lands elsewhere. Flipping each step's row in the set instead added
    /// about 30 instructions an event to a replay of the standard session (2%).
    private var pendingSection = 0
    private var pendingRows = 0..<0
    /// The auto-scroll in `.autoScrolling`; unused otherwise.
    private var running = AutoScroll(direction: .down, since: .zero)
    /// The drag scroll in `.dragScroll`; unused otherwise.
    private var drag = DragScroll(began: ViewportPoint(x: .zero, y: .zero), offsetAtBegan: .zero)
    /// The finger of an interrupted pan; unused otherwise.
    private var interruptedFinger = ViewportPoint(x: .zero, y: .zero)

    /// The pan's kind as the state JSON shows it, or nil when idle. Stored beside the
    /// state so that hot paths read it without building the state.
    public private(set) var kind: Pan.Kind?

    init() {}

    /// The state machine's current state, payload included. Setting it keeps `kind`.
    var state: State {
        get {
            switch phase {
            case .idle: .idle
            case .dragScroll: .dragScroll(drag)
            case .waitingForStartRow: .waitingForStartRow(SelectionPan(selecting, changedRows: changedRows))
            case .running: .running(SelectionPan(selecting, changedRows: changedRows))
            case .autoScrolling: .autoScrolling(SelectionPan(selecting, changedRows: changedRows), running)
            case .interrupted: .interrupted(finger: interruptedFinger)
            }
        }
        set { enter(newValue, kind: kind) }
    }

    /// Enters `newState`, whose kind is `newKind`. Every transition that is not a
    /// selection pan's own step (`settle(_:autoscroll:)`) sets the state here.
    mutating func enter(_ newState: State, kind newKind: Pan.Kind?) {
        let wasSelecting = phase.isSelecting
        switch newState {
        case .idle: phase = .idle
        case .dragScroll(let d): phase = .dragScroll; drag = d
        case .waitingForStartRow(let p): phase = .waitingForStartRow; selecting = PanCore(p); changedRows = p.changedRows
        case .running(let p): phase = .running; selecting = PanCore(p); changedRows = p.changedRows
        case .autoScrolling(let p, let a):
            phase = .autoScrolling; selecting = PanCore(p); changedRows = p.changedRows; running = a
        case .interrupted(let finger): phase = .interrupted; interruptedFinger = finger
        }
        // A finished selection pan lets go of its changed rows.
        if wasSelecting && !phase.isSelecting {
            selecting = .none
            changedRows = RowSet()
        }
        kind = newKind
    }

    /// The rows the selection pan changed (`SelectionPan.changedRows`); empty outside the
    /// selecting phases. Setting it settles the pending run.
    var changedRows: RowSet {
        get {
            guard !pendingRows.isEmpty else { return settledChanges }
            var rows = settledChanges
            rows.toggle(pendingRows, in: pendingSection)
            return rows
        }
        set {
            settledChanges = newValue
            pendingRows = 0..<0
        }
    }

    /// Flips the pending run into `settledChanges`, which then holds every changed row.
    mutating func settleChanges() {
        guard !pendingRows.isEmpty else { return }
        settledChanges.toggle(pendingRows, in: pendingSection)
        pendingRows = 0..<0
    }

    /// `rows` of `section` are back as they were at `panBegan`. Only with nothing pending.
    mutating func removeChanges(_ rows: Range<Int>, in section: Int) {
        assert(pendingRows.isEmpty, "changes removed while some are pending")
        settledChanges.remove(rows, in: section)
    }

    /// The selection of `rows` of `section` changed (a move rule step): they flip in the
    /// changed rows, a row changed again being back as it was at `panBegan`.
    @inline(__always)
    mutating func noteChanged(_ rows: Range<Int>, in section: Int) {
        if section == pendingSection {
            // Beside the pending run, or its end changed back: the run widens or narrows.
            if rows.lowerBound == pendingRows.upperBound {
                pendingRows = pendingRows.lowerBound..<rows.upperBound
                return
            }
            if rows.upperBound == pendingRows.lowerBound {
                pendingRows = rows.lowerBound..<pendingRows.upperBound
                return
            }
            if rows.upperBound == pendingRows.upperBound && rows.lowerBound >= pendingRows.lowerBound {
                pendingRows = pendingRows.lowerBound..<rows.lowerBound
                return
            }
            if rows.lowerBound == pendingRows.lowerBound && rows.upperBound <= pendingRows.upperBound {
                pendingRows = rows.upperBound..<pendingRows.upperBound
                return
            }
        }
        settleChanges()
        pendingSection = section
        pendingRows = rows
    }

    /// The selection pan, but for its changed rows (`changedRows`), for a step of its
    /// phase; `settle(_:autoscroll:)` puts it back. Only in a selecting phase.
    var panCore: PanCore { selecting }

    /// Puts back the pan `panCore` copied out, in its phase: auto-scrolling,
    /// else running once it has its start row, else waiting for it.
    @inline(__always)  // a few stores, on every sample and tick
    mutating func settle(_ pan: PanCore, autoscroll: AutoScroll?) {
        var pan = pan
        if let autoscroll {
            pan.lastAutoscrollChange = autoscroll.since
            phase = .autoScrolling
            running = autoscroll
        } else {
            phase = pan.rows == nil ? .waitingForStartRow : .running
        }
        kind = pan.kind
        selecting = pan
    }

    /// `settle(panCore, autoscroll: autoscroll)`, for a step that changed neither, without
    /// copying the pan out and back. Only in a selecting phase.
    @inline(__always)
    mutating func settleUnmoved() {
        if phase == .autoScrolling {
            selecting.lastAutoscrollChange = running.since
        } else {
            phase = selecting.rows == nil ? .waitingForStartRow : .running
        }
        kind = selecting.kind
    }

    /// The selection pan's last counted finger position. Only in a selecting phase.
    var finger: ViewportPoint { selecting.finger }

    /// Stops a running auto-scroll; the pan stays as it is.
    mutating func stopAutoscroll() {
        guard phase == .autoScrolling else { return }
        phase = selecting.rows == nil ? .waitingForStartRow : .running
    }

    /// The kind `state` implies; invariants compare it with `kind`.
    var kindOfState: Pan.Kind? {
        switch phase {
        case .idle: nil
        case .dragScroll: .scroll
        case .waitingForStartRow, .running, .autoScrolling: selecting.kind
        case .interrupted: .interrupted
        }
    }

    /// Whether a pan (of any kind, interrupted included) is active.
    public var isActive: Bool { phase != .idle }

    /// Whether a strip or multi-select pan is running (owns the selection).
    public var isSelecting: Bool { phase.isSelecting }

    /// Whether a drag scroll is running.
    public var isDragScroll: Bool { phase == .dragScroll }

    /// The drag scroll, while one runs.
    var dragScroll: DragScroll? { phase == .dragScroll ? drag : nil }

    /// The selection pan, in whichever of its phases.
    var selectionPan: SelectionPan? { phase.isSelecting ? SelectionPan(selecting, changedRows: changedRows) : nil }

    /// The running auto-scroll.
    var autoscroll: AutoScroll? { phase == .autoScrolling ? running : nil }

    public static func == (a: PanState, b: PanState) -> Bool {
        a.kind == b.kind && a.state == b.state
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(state)
    }
}

extension SelectionPan {
    /// What `PanState` holds outside the selecting phases: no rows, nothing changed.
    static var none: SelectionPan {
        SelectionPan(kind: .strip, reversal: .flip, yAtBegan: .zero, offsetAtBegan: .zero,
                     finger: ViewportPoint(x: .zero, y: .zero), direction: nil, changedRows: RowSet(), rows: nil)
    }
}
