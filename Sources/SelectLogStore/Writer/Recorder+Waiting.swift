import SelectLog

extension Recorder {
    /// Publishes every event below `position` and waits (without the engine lock) until
    /// `ready` holds of the writer's state (a slot freed, offered states taken, a heavy
    /// queue drained), or the writer has stopped.
    ///
    /// Never inlined: in `append`, which calls it only when it must wait, its timed wait
    /// (a `ContinuousClock.Instant`, a resilient type) made every append set room aside
    /// for one on the stack at entry: two metadata look-ups and about 45 instructions
    /// (callgrind).
    @inline(never)
    func waitForWriter(publishing position: Int, until ready: (WriterState) -> Bool) {
        writer.withLockedValue { w in
            w.published = max(w.published, position)
            w.wakeRequested = true
        }
        writer.wake()
        writer.withLockedValue(waitingFor: { w in
            ready(w) || w.failure != nil || w.workerDone
        }) { _, _ in }
    }

    /// The error for an append after `close()` or after the writer failed.
    func closedError() -> LogError {
        if let failure = writer.withLockedValue({ $0.failure }) {
            return LogError(.closed, "the recorder stopped after an earlier error: \(failure)", path: path)
        }
        return LogError(.closed, "the recorder is closed", path: path)
    }

    /// The bytes of `event`'s lists and strings (`Event.fieldBytes`), for the events that
    /// carry them; nil, after one look at the case, for the taps, pan samples, scrolls and
    /// ticks that make most of a session.
    @inline(__always)
    static func weight(of event: borrowing Event) -> Int? {
        switch event {
        case .reload, .insertSections, .deleteSections, .toggleEditor, .insertRows, .reloadRows, .deleteRows,
             .select, .deselect, .batch, .jumpToSection:
            return event.fieldBytes
        default:
            return nil
        }
    }

    /// Whether `event` holds no reference (no list, string or boxed payload): only numbers,
    /// points and row paths. Its queue slot then needs no destroying once taken
    /// (`AppendQueue.consume(at:_:)`): destroying an `Appended` through its value witness,
    /// which looks at every case, was 38 instructions an event on the writer thread
    /// (callgrind), for the pan samples, scrolls and ticks that make most of a session and
    /// own nothing. A case added to `Event` is not here until it is listed, so it is
    /// destroyed; `AppendQueueTests` checks that the payloads listed here own nothing.
    @inline(__always)
    static func ownsNothing(_ event: borrowing Event) -> Bool {
        switch event {
        case .viewport, .setEditing, .tap, .panBegan, .panMoved, .panEnded, .panCancelled, .scroll, .swipeBegan,
             .swipeMoved, .swipeEnded, .setOptionVisible, .choose, .tick, .moveRow, .selectAll, .deselectAll, .undo, .redo:
            return true
        default:
            return false
        }
    }
}
