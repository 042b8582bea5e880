import SelectLog

// A log's states: the state at an event, and replay, pipelined or on the caller's thread.
extension LogReader {
    /// A position between events, `0...eventCount`, or `LogError.Code.outOfRange` naming it.
    func checkPosition(_ n: Int) throws(LogError) {
        guard n >= 0, n <= eventCount else {
            throw LogError(.outOfRange, "the log has \(ReportText.counted(eventCount, "event", "events")), not \(n)", path: path, eventIndex: n)
        }
    }

    /// The state after the first `n` events: the nearest checkpoint at or before `n`,
    /// then at most two checkpoint intervals of events replayed (a large checkpoint may be
    /// put off by one interval). A checkpoint is checked
    /// against its header and the state's invariants before use; when the log was written
    /// by an engine that behaves differently, this build's own states are used instead
    /// (replayed from the start once, then kept in memory at checkpoint positions).
    public func state(at n: Int) throws(LogError) -> TableState {
        try reading { () throws(LogError) in
            try checkPosition(n)
            if !checkpointsTrusted { return try rebuiltState(at: n) }
            var state = TableState()
            if let c = try checkpoint(atOrBefore: n) { state = try checkpointState(c) }
            try replay(into: &state, to: n)
            return state
        }
    }

    /// The state a checkpoint holds, checked against its header and the state's invariants.
    func checkpointState(_ c: RecordInfo) throws(LogError) -> TableState {
        let raw = try snapshot(of: c)
        let state: TableState
        do throws(SnapshotError) {
            state = try TableState(snapshot: raw)
        } catch {
            throw LogError(.damaged, "checkpoint: \(error.description)", path: path, offset: c.offset, eventIndex: c.header.firstEvent)
        }
        if let why = LogScan.checkpointMismatch(state, c.header) {
            throw LogError(.damaged, why, path: path, offset: c.offset, eventIndex: c.header.firstEvent)
        }
        return state
    }

    /// Applies events `state.events..<n` to `state`. `n` past the log's events, or before
    /// the events `state` has seen, is `LogError.Code.outOfRange`, and `state` is as it was.
    ///
    /// `state` should be this log's own state after `state.events` events (from
    /// `state(at:)`, an earlier replay, or an empty `TableState()`): its event count is all
    /// the reader can check. Another state is not refused, and nothing traps, but the
    /// engine judges this log's events against it, and one it rejects is reported as the
    /// log's damage at that event (`.damaged`), with `state` as it was after the events
    /// before it.
    public func replay(into state: inout TableState, to n: Int) throws(LogError) {
        try reading { () throws(LogError) in
            try checkPosition(n)
            guard state.events <= n else {
                throw LogError(.outOfRange, "the state has seen \(state.events) events already, more than \(n)", path: path, eventIndex: n)
            }
            try replay(into: &state, to: n, pipelinedFrom: Self.pipelinedReplayEvents)
        }
    }

    /// `replay(into:to:)`, decoded on `decoders` other threads (in segments of
    /// `segmentEvents`) when at least `minimum` events are replayed and a second core exists.
    func replay(into state: inout TableState, to n: Int, pipelinedFrom minimum: Int,
                segmentEvents: Int? = nil, decoders: Int = LogReader.replayDecoders) throws(LogError) {
        if n - state.events >= minimum, Self.hasSecondCore,
           try pipelinedReplay(into: &state, to: n, segmentEvents: segmentEvents, decoders: decoders) {
            return
        }
        try replayInTurn(into: &state, to: n)
    }

    /// `replay(into:to:)` on the caller's thread: the events a plain record holds go
    /// straight to their reducer, as in a pipelined replay, the others through `apply`.
    /// Without a `TimedEvent` made and destroyed for most events, a 60k-event replay took
    /// 1,396 instructions an event rather than 1,481 (standard session; random walk 1,719
    /// rather than 1,808). The loop is written out, not a closure over a shared one's:
    /// handing each event on as an optional cost 84 instructions an event more, measured
    /// in a pipelined replay.
    private func replayInTurn(into state: inout TableState, to n: Int) throws(LogError) {
        let start = state.events
        let standard = engine.isStandard
        try forEachBatch(from: start, to: n, releasingAll: false) { (decoder, batch, end) throws(LogError) -> Int? in
            var index = batch.header.firstEvent
            var record = ReplayRecord()
            while true {
                let e = try nextEvent(&decoder, into: &record, batch, index)
                if e == nil, record.kind == .other { return index }
                try checkWithinCount(batch, index)
                if index >= end { return nil }
                if index >= start {
                    if let e {
                        try apply(e, index: index, to: &state, validated: true)
                    } else if standard {
                        do throws(InvalidEvent) { try record.apply(to: &state) } catch { throw rejection(error, index: index) }
                    } else if let e = record.event {
                        try apply(e, index: index, to: &state, validated: true)
                    }
                }
                index += 1
            }
        }
    }

    /// Applies logged event `index` to `state`. A logged event was valid when it was
    /// recorded, so a rejection means the log (or the engine) is wrong: `.damaged`.
    public func apply(_ e: TimedEvent, index: Int, to state: inout TableState) throws(LogError) {
        try apply(e, index: index, to: &state, validated: false)
    }

    /// `validated`: `e` came from `forEachEvent`, whose decoder validated it.
    func apply(_ e: TimedEvent, index: Int, to state: inout TableState, validated: Bool) throws(LogError) {
        do throws(InvalidEvent) {
            // The standard engine skips working out `TableChanges`, which replay discards.
            if engine.isStandard {
                if validated { try state.applyValidated(e) } else { try state.applyDiscardingChanges(e) }
            } else {
                try engine.apply(e, to: &state)
            }
        } catch {
            throw rejection(error, index: index)
        }
    }

    /// How the message of `rejection(_:index:)` starts under the engine that wrote the log.
    package static let rejectedByEngine = "logged event is rejected by the engine: "

    /// The error for logged event `index`, rejected by the engine. Under the engine that
    /// wrote the log only damage does that; under another (a log whose checkpoints this
    /// build does not trust: another behaviour fingerprint, or a version 1 log) the
    /// engines differ, and the message says so and where to look.
    package func rejection(_ error: InvalidEvent, index: Int) -> LogError {
        let message = checkpointsTrusted
            ? Self.rejectedByEngine + "\(error)"
            : "logged event is rejected by this build's engine, which behaves differently from the one that wrote the log "
                + "(`selectlog check` shows where they part ways): \(error)"
        return LogError(.damaged, message, path: path, eventIndex: index, invalidEvent: error)
    }
}
