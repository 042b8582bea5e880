import SelectLog

/// The gesture an event belongs to.
public struct LoggedGesture: Sendable, Equatable {
    /// "strip pan", "multi-select pan", "drag scroll", "swipe", or the event's own type.
    public var kind: String
    /// Its first and last event, 0-based.
    public var events: ClosedRange<Int>
    /// Whether the log ends while it is still going: the recording stopped mid-gesture, as
    /// the log of a crash during a pan does. `events` then ends with the log's last event.
    public var isUnfinished = false
}

/// Numbered from 1, as `inspect` and `LogError.description` number events: `strip pan,
/// events 5 to 40`, or `tap, event 3` for an event alone.
extension LoggedGesture: CustomStringConvertible {
    /// Its kind and its events, and whether the log ends before it does.
    public var description: String {
        (events.lowerBound == events.upperBound ? "\(kind), event \(ReportText.number(events.lowerBound))"
            : "\(kind), events \(ReportText.number(events.lowerBound)) to \(ReportText.number(events.upperBound))")
            + (isUnfinished ? ", unfinished when the log ends" : "")
    }
}

extension LogReader {
    /// The checkpoint window that ends at `end`: the state at the latest checkpoint before `end`.
    func windowStart(before end: Int) throws(LogError) -> TableState {
        guard end > 0 else { return TableState() }
        return try state(at: checkpoint(atOrBefore: end - 1).map { $0.header.firstEvent } ?? 0)
    }

    /// The event (0-based) that last changed `value` of the state, looking at the first
    /// `n` events; nil when no event changed it. Walks back one checkpoint window at a
    /// time, so an answer near the end costs about one window.
    public func lastChange<Value: Equatable>(at n: Int, of value: (TableState) -> Value,
                                             progress: ((Int) -> Void)? = nil) throws(LogError) -> Int? {
        try reading { () throws(LogError) in
            try checkPosition(n)
            var end = n
            while end > 0 {
                var state = try windowStart(before: end)
                let start = state.events
                var current = value(state)
                var last: Int?
                try forEachEvent(from: start, to: end) { (i, e) throws(LogError) -> Bool in
                    try apply(e, index: i, to: &state)
                    let next = value(state)
                    if next != current { last = i }
                    current = next
                    return true
                }
                progress?(n - start)
                if let last { return last }
                end = start
            }
            return nil
        }
    }

    /// The nearest gesture boundary at or before event `index` (0-based): the first event
    /// of the gesture `index` belongs to, moved further back while a pan or swipe is still
    /// open before it. A slice that starts there begins with no gesture in progress.
    public func gestureBoundary(atOrBefore index: Int) throws(LogError) -> Int {
        try reading { () throws(LogError) in
            var start = Swift.min(Swift.max(index, 0), eventCount)
            if start < eventCount { start = try gesture(containing: start).events.lowerBound }
            while start > 0, GestureBoundaries.open(in: try state(at: start)) != nil {
                start = try gesture(containing: start - 1).events.lowerBound
            }
            return start
        }
    }

    /// Applies a logged event with the reader's engine and returns what it changed.
    func applyReporting(_ e: TimedEvent, index: Int, to state: inout TableState) throws(LogError) -> TableChanges {
        do throws(InvalidEvent) {
            return try engine.apply(e, to: &state)
        } catch {
            throw rejection(error, index: index)
        }
    }

    /// The gesture event `index` (0-based) belongs to: the pan or swipe open before it or
    /// begun by it, from the event that began it to the event that ended, interrupted or
    /// cancelled it; otherwise the event alone. Boundaries come from what each event did
    /// (`TableChanges.gestures`), never guessed from event names, so a pan ended by a
    /// `configure` ends there, and a `setEditing` that changes nothing is part of the pan.
    ///
    /// The search is bounded, so that a call costs the same on any log: a gesture is
    /// looked for at most about 200,000 events back and forward (half an hour of pan
    /// samples at 120 Hz). One longer than that is reported from the checkpoint where the
    /// search stopped, or up to the event where it stopped; `gestureBoundary(atOrBefore:)`
    /// goes on back until no gesture is open.
    public func gesture(containing index: Int) throws(LogError) -> LoggedGesture {
        try reading { () throws(LogError) in
            guard index >= 0, index < eventCount else {
                let indices = eventCount == 0 ? "none" : "0 to \(eventCount - 1)"
                throw LogError(.outOfRange, "no event at index \(index): the log has \(ReportText.counted(eventCount, "event", "events")) (indices \(indices))",
                               path: path, eventIndex: index)
            }
            // Start where no gesture is open: a checkpoint window whose first state is idle.
            var state = try windowStart(before: index + 1)
            while GestureBoundaries.open(in: state) != nil, state.events > 0, index - state.events < 200_000 {
                state = try windowStart(before: state.events)
            }
            // A pan and a swipe may be open at once (a drag scroll while a row's option view
            // is half revealed): each is followed on its own.
            var pan: (kind: GestureKind, first: Int)?
            var swipe: Int?
            if let p = state.pan { pan = (GestureBoundaries.kind(of: p), state.events) }
            if state.options.swipe != nil { swipe = state.events }
            func ended(_ t: GestureTransition) -> GestureKind? {
                switch t {
                case .began: nil
                case .ended(let k), .interrupted(let k), .cancelled(let k): k
                }
            }
            var own = ""
            var found: (kind: GestureKind, first: Int)?
            var last = index
            // Whether the gesture found was still open after event `last`.
            var goesOn = false
            try forEachEvent(from: state.events, to: Swift.min(eventCount, index + 200_000)) { (i, e) throws(LogError) -> Bool in
                let transitions = try applyReporting(e, index: i, to: &state).gestures
                if i < index {
                    // In order: an event may end one gesture and begin another.
                    for t in transitions {
                        if case .began(let k) = t {
                            if k == .swipe { swipe = i } else { pan = (k, i) }
                        } else if let k = ended(t) {
                            if k == .swipe { swipe = nil } else { pan = nil }
                        }
                    }
                    return true
                }
                last = i
                let ending = transitions.compactMap(ended)
                if let f = found, i > index {
                    goesOn = !ending.contains(f.kind)
                    return goesOn
                }
                if i > index { return false }
                own = e.event.typeName
                // The event belongs to the gesture it ends, else to one it begins (a drag
                // scroll begun while a swipe is open), else to one open before it (both
                // open: the swipe for a swipe's event, the pan for any other).
                let begun = transitions.compactMap { if case .began(let k) = $0 { k } else { nil } }.last
                let swipeEvent = switch e.event {
                case .swipeBegan, .swipeMoved, .swipeEnded: true
                default: false
                }
                if let s = swipe, ending.contains(.swipe) {
                    found = (.swipe, s)
                } else if let p = pan, ending.contains(p.kind) {
                    found = p
                } else if let k = begun {
                    found = (k, i)
                } else if let s = swipe, pan == nil || swipeEvent {
                    found = (.swipe, s)
                } else {
                    found = pan
                }
                guard let f = found else { return false }
                // Open before it: it goes on until it ends; begun by it: while it is open.
                goesOn = f.first < i ? !ending.contains(f.kind) : f.kind == .swipe ? state.options.swipe != nil : state.pan != nil
                return goesOn
            }
            guard let g = found else { return LoggedGesture(kind: own, events: index...index) }
            return LoggedGesture(kind: GestureBoundaries.name(g.kind), events: g.first...last,
                                 isUnfinished: goesOn && last == eventCount - 1)
        }
    }
}

/// Gestures as `inspect` names them; their boundaries are the `TableChanges.gestures`
/// that `TableState.apply` returns.
package enum GestureBoundaries {
    /// The gesture open in `state`, if any: its pan's kind, or `.swipe`.
    package static func open(in state: TableState) -> GestureKind? {
        if let pan = state.pan { return kind(of: pan) }
        if state.options.swipe != nil { return .swipe }
        return nil
    }

    static func kind(of pan: Pan) -> GestureKind {
        switch pan.kind {
        case .strip: .strip
        case .multiSelect: .multiSelect
        case .scroll: .scroll
        case .interrupted: .interrupted
        }
    }

    /// The words `inspect` uses for a gesture kind.
    public static func name(_ kind: GestureKind) -> String {
        switch kind {
        case .strip: "strip pan"
        case .multiSelect: "multi-select pan"
        case .scroll: "drag scroll"
        case .interrupted: "interrupted touch"
        case .swipe: "swipe"
        }
    }
}

/// A position in a log that steps by event or by undo step, for debuggers.
///
/// A cursor is a reference to a mapped log and is not `Sendable`: keep it in one task
/// (or actor). To hand where it is to another task, send its `snapshot`, a value.
///
/// ```swift
/// let cursor = try LogCursor(log, at: 1_000)
/// try cursor.stepForward()          // event 1,000 applied
/// try cursor.stepToPreviousUndoStep()
/// print(cursor.position, cursor.state.selection)
/// ```
public final class LogCursor {
    /// The log the cursor moves in.
    public let log: LogReader
    /// Events applied: `state` is the state after the first `position` events.
    public private(set) var position: Int
    /// The table after the first `position` events.
    public private(set) var state: TableState

    /// A cursor at `position` (events applied).
    public init(_ log: LogReader, at position: Int = 0) throws(LogError) {
        self.log = log
        self.position = position
        self.state = try log.state(at: position)
    }

    /// Moves to just after event `n` (through the nearest checkpoint).
    public func move(to n: Int) throws(LogError) {
        state = try log.state(at: n)
        position = n
    }

    /// Applies the next event; false at the end of the log.
    @discardableResult
    public func stepForward() throws(LogError) -> Bool {
        guard position < log.eventCount else { return false }
        try log.replay(into: &state, to: position + 1)
        position += 1
        return true
    }

    /// Goes back one event; false at the start.
    @discardableResult
    public func stepBack() throws(LogError) -> Bool {
        guard position > 0 else { return false }
        try move(to: position - 1)
        return true
    }

    /// Moves to just after the next event that records an undo step; false if there is none.
    @discardableResult
    public func stepToNextUndoStep() throws(LogError) -> Bool {
        var probe = state
        var found: Int?
        let log = self.log
        try log.forEachEvent(from: position) { (i, e) throws(LogError) -> Bool in
            let steps = probe.stepsRecorded
            try log.apply(e, index: i, to: &probe)
            if probe.stepsRecorded > steps {
                found = i
                return false
            }
            return true
        }
        guard let found else { return false }
        state = probe
        position = found + 1
        return true
    }

    /// Moves to just after the last undo step recorded before the current position; false if none.
    @discardableResult
    public func stepToPreviousUndoStep() throws(LogError) -> Bool {
        // A read of the log of its own (`windowStart` reads checkpoints): a closed reader's
        // log may be gone (`LogReader.close()`).
        try log.reading { () throws(LogError) in
            var end = position - 1
            while end > 0 {
                var probe = try log.windowStart(before: end)
                let start = probe.events
                var last: Int?
                let log = self.log
                try log.forEachEvent(from: start, to: end) { (i, e) throws(LogError) -> Bool in
                    let steps = probe.stepsRecorded
                    try log.apply(e, index: i, to: &probe)
                    if probe.stepsRecorded > steps { last = i }
                    return true
                }
                if let last {
                    try move(to: last + 1)
                    return true
                }
                end = start
            }
            return false
        }
    }
}

/// A cursor is bound to one task; its `Snapshot` is what crosses task boundaries.
@available(*, unavailable, message: "a LogCursor belongs to one task; send cursor.snapshot instead")
extension LogCursor: Sendable {}

extension LogCursor {
    /// Where a cursor is, as a value that can be sent between tasks: the position (events
    /// applied) and the state after them.
    ///
    /// ```swift
    /// let snapshot = cursor.snapshot
    /// Task { @MainActor in show(snapshot.state) }
    /// ```
    public struct Snapshot: Sendable, Equatable {
        /// Events applied.
        public let position: Int
        /// The state after the first `position` events.
        public let state: TableState
    }

    /// The cursor's position and state, as a `Sendable` value.
    public var snapshot: Snapshot { Snapshot(position: position, state: state) }
}
