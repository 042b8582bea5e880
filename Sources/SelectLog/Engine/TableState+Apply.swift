extension TableState {
    /// Applies one event, completely or not at all, and says what it changed.
    ///
    /// Every reducer checks the event against the current state before it
    /// changes anything, so a thrown `InvalidEvent` leaves `self` exactly as it was.
    /// The returned `TableChanges` is what a host mirrors into its table view.
    @discardableResult
    public mutating func apply(_ timed: TimedEvent) throws(InvalidEvent) -> TableChanges {
        // Ticks, and pan samples and scrolls whose fields pass `validate()`'s fast path
        // (nine events in ten), go straight to their reducer: one switch on the event
        // instead of three (the checks', the hot-path test's and `reduce`'s). The checks
        // and their order are `admit`'s: `t`, the fields (in range here), the time.
        let offset = contentOffset, kind = gesture.kind, steps = history.stepsRecorded
        var delta = SelectionDelta()
        let now: Micros
        switch timed.event {
        case .tick:
            now = try admitTime(timed)
            tick(now, &delta)
        case .panMoved(let p) where p.isWithinLengthLimit:
            now = try admitTime(timed)
            try panMoved(to: p, now: now, &delta)
        case .scroll(let motion, let phase, let target) where Event.scrollIsWithinLimits(motion, target):
            now = try admitTime(timed)
            scroll(motion, phase: phase, target: target, &delta)
        case .swipeMoved(let offset) where offset.isWithinLengthLimit:
            // One swipe sample in twenty events of some sessions: it changes the swipe's
            // offset and nothing else, so the changes are that one flag, without the
            // mark, the comparison of the selection and the lists of `changes(since:)`.
            now = try admitTime(timed)
            let before = options.swipe
            swipeMoved(offset)
            finish(at: now)
            var c = TableChanges()
            c.swipeChanged = before != options.swipe
            return c
        default:
            return try applyChecked(timed)
        }
        finish(at: now)
        return hotChanges(offset: offset, pan: kind, steps: steps, event: timed.event, delta: delta)
    }

    /// `apply(_:)` for the events its fast path leaves: every check, then the reducer.
    private mutating func applyChecked(_ timed: TimedEvent) throws(InvalidEvent) -> TableChanges {
        let now = try admit(timed)
        var delta = SelectionDelta()
        if timed.event.isHotPath {
            // Pan samples, ticks and scrolls: a few scalars before, and the selection
            // changes the move rule records as it goes.
            let offset = contentOffset, kind = gesture.kind, steps = history.stepsRecorded
            try reduce(timed.event, at: now, &delta)
            finish(at: now)
            return hotChanges(offset: offset, pan: kind, steps: steps, event: timed.event, delta: delta)
        }
        let mark = ChangeMark(self)
        if timed.event.recordsSelectionChanges {
            // A tap, programmatic selection, `panBegan` and `panCancelled` record what they
            // change as they go (`panEnded` is on the hot path above, which does too), and
            // so do row and section edits (`recordsSelectionChanges`): the
            // selection is not kept aside, so a tap changes it in place rather than copying
            // it, and is not compared with it after (both cost O(selection): a tap amid
            // 400,000 selected ranges took 10 ms, a short pan 1.5 ms).
            try reduce(timed.event, at: now, &delta)
            finish(at: now)
            return changes(since: mark, event: timed.event, selection: .recorded(delta))
        }
        // The others are compared with the state before them (the selection is a shared
        // reference, copied only if the event changes it).
        let baseline = selection
        try reduce(timed.event, at: now, &delta)
        finish(at: now)
        return changes(since: mark, event: timed.event, selection: .compared(baseline))
    }

    /// Applies one event exactly as `apply(_:)` does (the same checks, the same state
    /// after it, the same error), without working out what it changed. Replay discards
    /// `TableChanges`, and building it (the mark, the selection delta, the copies of
    /// the result) cost more than the reducers of a pan sample.
    package mutating func applyDiscardingChanges(_ timed: TimedEvent) throws(InvalidEvent) {
        let now = try admit(timed)
        var delta = SelectionDelta(recording: false)
        try reduce(timed.event, at: now, &delta)
        finish(at: now)
    }

    /// `applyDiscardingChanges(_:)` for an event that has already passed
    /// `TimedEvent.validate()`: the same state after it and the same errors, without
    /// checking its fields a second time. The log's decoder validates every event it
    /// returns (the one way in), so replay uses this. Debug builds still check.
    package mutating func applyValidated(_ timed: TimedEvent) throws(InvalidEvent) {
        assert((try? timed.validate()) != nil, "applyValidated(_:) of an event that does not validate")
        let now = try time(of: timed)
        var delta = SelectionDelta(recording: false)
        // Ticks and pan samples (most events) skip `reduce`'s dispatch.
        switch timed.event {
        case .tick: tick(now, &delta)
        case .panMoved(let p): try panMoved(to: p, now: now, &delta)
        default: try reduce(timed.event, at: now, &delta)
        }
        finish(at: now)
    }

    // `applyValidated(_:)` for the events most replays are, taken as their fields rather
    // than as a `TimedEvent`: a replay's decoder hands them over as plain values, which cost
    // nothing to copy or destroy (an `Event`, whose rare cases hold references, costs an
    // outlined destroy of some 38 instructions an event). The same steps in the same order
    // as `applyValidated(_:)`: the time, then the reducer `reduce` would call, then `finish`.

    /// `applyValidated(TimedEvent(.tick, t: t))`.
    package mutating func applyValidatedTick(at t: Micros?) throws(InvalidEvent) {
        let now = try time(of: t, .tick)
        var delta = SelectionDelta(recording: false)
        tick(now, &delta)
        finish(at: now)
    }

    /// `applyValidated(TimedEvent(.panMoved(p), t: t))`.
    package mutating func applyValidatedPanMoved(to p: ViewportPoint, at t: Micros?) throws(InvalidEvent) {
        let now = try time(of: t, .panMoved(p))
        var delta = SelectionDelta(recording: false)
        try panMoved(to: p, now: now, &delta)
        finish(at: now)
    }

    /// `applyValidated(TimedEvent(.scroll(motion, phase: phase, target: target), t: t))`.
    package mutating func applyValidatedScroll(_ motion: ScrollMotion?, phase: ScrollPhase?, target: Points?,
                                               at t: Micros?) throws(InvalidEvent) {
        let now = try time(of: t, .scroll(motion, phase: phase, target: target))
        var delta = SelectionDelta(recording: false)
        scroll(motion, phase: phase, target: target, &delta)
        finish(at: now)
    }

    /// `applyValidated(TimedEvent(.swipeMoved(offset: offset), t: t))`.
    package mutating func applyValidatedSwipeMoved(offset: Points, at t: Micros?) throws(InvalidEvent) {
        let now = try time(of: t, .swipeMoved(offset: offset))
        swipeMoved(offset)
        finish(at: now)
    }

    /// `time(of:)` of an event given as its time and kind; `event` is built only for the error.
    @inline(__always)
    private func time(of eventTime: Micros?, _ event: @autoclosure () -> Event) throws(InvalidEvent) -> Micros {
        let now = eventTime ?? t
        if now < t { throw TableState.earlierError(event(), now, previous: t) }
        return now
    }

    /// The checks every event passes before a reducer runs; returns its time.
    @inline(__always)
    private func admit(_ timed: TimedEvent) throws(InvalidEvent) -> Micros {
        try timed.validate()
        return try time(of: timed)
    }

    /// `admit(_:)` for an event whose fields need no check: its `t`, then its time.
    @inline(__always)
    private func admitTime(_ timed: TimedEvent) throws(InvalidEvent) -> Micros {
        try timed.validateTime()
        return try time(of: timed)
    }

    /// The event's time: its own `t`, or the previous event's; never earlier than that.
    @inline(__always)
    private func time(of timed: TimedEvent) throws(InvalidEvent) -> Micros {
        let now = timed.t ?? t
        if now < t { throw TableState.earlierError(timed.event, now, previous: t) }
        return now
    }

    /// The error for an event earlier than the previous one, built out of line so that
    /// the callers of `time(of:)`, run on every event, set up no frame for it. Static: a
    /// method would copy the whole state to pass `self`.
    @inline(never)
    private static func earlierError(_ event: Event, _ now: Micros, previous: Micros) -> InvalidEvent {
        InvalidEvent(.outOfOrder, event.typeName, field: EventField.time, "t \(now) ms is earlier than the previous event's t \(previous) ms")
    }

    /// What every applied event ends with.
    @inline(__always)
    private mutating func finish(at now: Micros) {
        // Only a running auto-scroll can stop (one test inline, the call only then).
        if gesture.phase == .autoScrolling { stopAutoscrollWhenItCannotRun() }
        t = now
        events += 1
        checkInvariants()
    }

    /// Applies `event` at the previous event's time, and says what it changed.
    @discardableResult
    public mutating func apply(_ event: Event) throws(InvalidEvent) -> TableChanges {
        try apply(TimedEvent(event))
    }

    private mutating func reduce(_ event: Event, at now: Micros, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        switch event {
        case .configure(let patch):
            configure(patch, at: now)
            findStartRowUnderStillFinger(&changed)
        case .viewport(let width, let height):
            resize(width: width, height: height)
            findStartRowUnderStillFinger(&changed)
        case .reload(let sections): try reload(sections)
        case .setEditing(let on): setEditing(on)
        case .tap(let p): tap(p, &changed)
        case .panBegan(let p, let fingers): try panBegan(at: p, fingers: fingers, now: now, &changed)
        case .panMoved(let p): try panMoved(to: p, now: now, &changed)
        case .panEnded(let p, let targetOffset): try panEnded(at: p, targetOffset: targetOffset, now: now, &changed)
        case .panCancelled: try panCancelled(&changed)
        case .scroll(let motion, let phase, let target): scroll(motion, phase: phase, target: target, &changed)
        case .jumpToSection(let reference): try jump(to: reference, &changed)
        case .swipeBegan(let row): try swipeBegan(row)
        case .swipeMoved(let offset): swipeMoved(offset)
        case .swipeEnded(let velocity): swipeEnded(velocity: velocity)
        case .setOptionVisible(let row, let visible): try setOptionVisible(row, visible)
        case .toggleEditor(let row, let options, let multiple, let chosen):
            try toggleEditor(below: row, options: options, multiple: multiple, chosen: chosen)
            findStartRowUnderStillFinger(&changed)
        case .choose(let option): try choose(option)
        case .tick: tick(now, &changed)
        case .insertRows(let at, let heights):
            try edit(BatchUpdate(inserts: at, insertHeights: heights), type: "insertRows", &changed)
        case .deleteRows(let at): try edit(BatchUpdate(deletes: at), type: "deleteRows", &changed)
        case .moveRow(let from, let to): try edit(BatchUpdate(moves: [.init(from: from, to: to)]), type: "moveRow", &changed)
        case .reloadRows(let at, let heights): try edit(BatchUpdate(reloads: at, reloadHeights: heights), type: "reloadRows", &changed)
        case .batch(let update): try edit(update, type: "batch", &changed)
        case .insertSections(let at, let sections): try insertSections(at: at, sections: sections)
        case .deleteSections(let at): try deleteSections(at: at)
        case .select(let rows): try select(rows, &changed)
        case .deselect(let rows): try deselect(rows, &changed)
        case .selectAll: try selectAll(&changed)
        case .deselectAll: deselectAll(&changed)
        case .undo: try undo(&changed)
        case .redo: try redo(&changed)
        }
    }

    /// Checks that every row in `rows` exists.
    func checkRows(_ rows: [RowPath], _ type: String, _ field: String) throws(InvalidEvent) {
        for (k, r) in rows.enumerated() where !layout.contains(r) {
            throw InvalidEvent(.outOfRange, type, field: "\(field)[\(k)]", "\(field)[\(k)] \(r) is out of range (\(describeBounds(r.section)))")
        }
    }

    /// Checks that `row` exists; the error names it `field`, at `path` in the event
    /// (`InvalidEvent.field`; `field` when not given).
    func checkRow(_ row: RowPath, _ type: String, _ field: String = "row", path: String? = nil) throws(InvalidEvent) {
        if !layout.contains(row) {
            throw InvalidEvent(.outOfRange, type, field: path ?? field, "\(field) \(row) is out of range (\(describeBounds(row.section)))")
        }
    }

    func describeBounds(_ section: Int) -> String {
        if section < 0 || section >= layout.sectionCount { return "the table has \(Self.sections(layout.sectionCount))" }
        return "section \(section) has \(layout.rowCount(in: section)) rows"
    }
}

extension TableState {
    /// "1 section", "3 sections": a count of sections in an error's words.
    static func sections(_ n: Int) -> String { "\(n) section\(n == 1 ? "" : "s")" }
}
