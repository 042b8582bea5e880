import SelectLog

/// Flushing and closing: a caller waits for the writer thread's progress.
extension Recorder {
    /// Writes everything appended so far; with `.always`, syncs it too. After `close()`,
    /// which wrote everything, it returns at once, or throws what made the writer stop.
    ///
    /// It waits on the calling thread for the writer thread: a write and, with `.always`,
    /// a sync, which can take tens of milliseconds on a busy device. On the main thread
    /// that can cost a frame; it is what an app wants as it moves to the background (the
    /// events then survive its termination), and elsewhere a background queue serves
    /// better. It blocks rather than suspends: in an `async` function it holds its thread
    /// until it returns. `close()` waits the same way, and also writes the seek index.
    public func flush() throws(LogError) {
        let durability = options.durability
        let target = guarded.withLockedValue { $0.engine.events }
        writer.withLockedValue { w in
            w.published = max(w.published, target)
            w.flushTarget = max(w.flushTarget, target)
        }
        writer.wake()
        let failure = writer.withLockedValue(waitingFor: { w in
            w.acknowledged(durability) >= target || w.failure != nil || w.workerDone
        }) { w, _ in w.failure }
        if let failure { throw failure }
    }

    /// Writes what is left, syncs (unless `.none`), writes the seek index and closes the file.
    ///
    /// When it throws (a write failed, before or at the index), the file is closed and
    /// the log let go all the same: a new recorder or `selectlog verify --repair` may
    /// open it at once, and it holds every acknowledged event.
    ///
    /// Safe from any number of threads at once: the first caller closes the log, the
    /// others wait until it has and then return (or throw) what it did; calls after
    /// that return at once with the same outcome.
    public func close() throws(LogError) {
        // Appends stop here, under the engine lock: after it, the queue holds its last event.
        let first = guarded.withLockedValue { s -> Int? in
            guard !s.closed else { return nil }
            s.closed = true
            return s.engine.events
        }
        guard let last = first else {
            let outcome = writer.withLockedValue(waitingFor: { w in
                if case .done = w.closing { return true }
                return false
            }) { w, _ -> LogError? in
                if case .done(let e) = w.closing { return e }
                return nil
            }
            if let outcome { throw outcome }
            return
        }
        writer.withLockedValue { w in
            w.published = max(w.published, last)
            w.closing = .inProgress
        }
        writer.wake()
        var outcome = writer.withLockedValue(waitingFor: { $0.workerDone }) { w, _ in w.failure }
        // The states the writer was done with and no publish let go of (`WriterState.spent`):
        // let go of here, under the engine lock, rather than held until the recorder is.
        guarded.withLockedValue { _ in
            var spent: [TableState] = []
            writer.withLockedValue { swap(&spent, &$0.spent) }
            Self.letGo(&spent)
        }
        do {
            // After a failed write, no index and no sync: the file and its claim are let
            // go, so that the log can be repaired or reopened (its acknowledged events
            // are all in it).
            try output.file.close(writingIndex: outcome == nil, sync: outcome == nil && options.durability != .none)
        } catch {
            outcome = outcome ?? error
        }
        let closedSynced = outcome == nil && options.durability != .none
        writer.withLockedValue { w in
            // The close's own sync covered every event written.
            if closedSynced { w.syncedUpTo = max(w.syncedUpTo, w.writtenUpTo) }
            w.closing = .done(outcome)
        }
        writer.wake()
        if let outcome { throw outcome }
    }
}
