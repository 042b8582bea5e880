import SelectLog

/// The writer thread's side of a recorder: what it shares with the callers, and never
/// the `Recorder` itself, so that a recorder dropped without `close()` is freed (and
/// closed by its `deinit`) rather than kept alive by its own thread.
struct RecorderWriter: Sendable {
    typealias WriterState = Recorder.WriterState
    typealias CallerState = Recorder.CallerState

    /// The writer lock (`Recorder.writer`).
    let writer: LockedBox<WriterState>
    /// The engine lock (`Recorder.guarded`).
    let guarded: EngineLock<CallerState>
    /// The events applied and not yet encoded (`Recorder.queue`).
    let queue: AppendQueue
    let output: RecorderFile
    let options: Recorder.Options

    /// What the writer thread does next, decided under the writer lock.
    private enum Step {
        /// Encode the events from `from` up to `end` (published), then write; seal the
        /// open batch first when a flush asked for events up to `flushTo` or the recorder
        /// is closing. `timedOut`: nobody asked, the flush interval passed.
        case work(from: Int, end: Int, flushTo: Int, closing: Bool, timedOut: Bool)
        case stop
    }

    /// The writer thread: takes the events the callers published in the queue, encodes
    /// them with `assembler` into batches and checkpoints, writes and syncs them, and
    /// publishes how far it got; exits once the recorder is closing (or failed) and
    /// everything appended is written.
    ///
    /// It sleeps until an append asks for it (a gesture end, a checkpoint offer, every
    /// `batchEvents` events), a flush or a close does, or the flush interval passes.
    /// It never holds the writer lock while it takes the engine lock (callers take the
    /// engine lock first).
    func work(_ assembler: LogAssembler) {
        var assembler = assembler
        var records: [LogAssembler.Record] = []
        // The offered states taken from `WriterState.offered`, in the order of the events
        // that offer them.
        var offered: [TableState] = []
        // Offered states taken before this round (`WriterState.offersTaken`).
        var offersTakenBefore = writer.withLockedValue { $0.offersTaken }
        // The bytes of lists and strings of the events taken (`WriterState.takenWeight`).
        var takenWeight = writer.withLockedValue { $0.takenWeight }
        var lastSync = ContinuousClock.now
        var lastSeal = ContinuousClock.now
        // Only this thread moves `WriterState.syncedUpTo`, so it keeps its own copy.
        var syncedUpTo = writer.withLockedValue { $0.syncedUpTo }
        let flushInterval = Duration.milliseconds(options.flushIntervalMilliseconds)
        let durability = options.durability
        let queue = self.queue
        // Whether the last round was a busy one (see `WriterState.wakesItself`).
        var busy = false
        while true {
            let step = writer.withLockedValue(waitingFor: { w in
                w.wakeRequested || w.closing != .open || w.failure != nil || w.flushTarget > w.acknowledged(durability)
            }, timeout: busy ? Self.busyWait : flushInterval) { w, asked -> Step in
                w.wakeRequested = false
                if w.failure != nil {
                    w.workerDone = true
                    return .stop
                }
                w.takeOffered(into: &offered)
                return .work(from: w.taken, end: w.published, flushTo: w.flushTarget, closing: w.closing != .open,
                             timedOut: !asked)
            }
            guard case .work(let start, var end, let flushTo, let closing, let timedOut) = step else {
                writer.wake()
                return
            }
            // After the flush interval, every event appended by then is written, published
            // or not: their slots were written under the engine lock. A state offered by
            // one of them is in `offered` by then (it is put there before the engine
            // lock is released).
            if timedOut {
                end = max(end, guarded.withLockedValue { $0.engine.events })
                writer.withLockedValue { $0.takeOffered(into: &offered) }
            }
            var position = start
            var nextOffered = 0
            // Events met this round that offered a state (`nextOffered` of them found it).
            var offersMet = 0
            while position < end {
                // Slots go back to the callers every `releaseEvery` events, not only at
                // the end of a long round.
                let stop = min(end, position + Self.releaseEvery)
                while position < stop {
                    // Two calls rather than one with an optional state: a `TableState?`
                    // made and destroyed for every event cost the writer about 166
                    // instructions an event (callgrind).
                    queue.consume(at: position) { item in
                        if let weight = Recorder.weight(of: item.event.event) { takenWeight &+= weight }
                        if item.offersCheckpoint { offersMet += 1 }
                        if item.offersCheckpoint, nextOffered < offered.count {
                            assembler.add(item.event, before: item.before, gestureFingerprint: item.gestureFingerprint,
                                          offered: offered[nextOffered], into: &records)
                            nextOffered += 1
                        } else {
                            assembler.add(item.event, before: item.before, gestureFingerprint: item.gestureFingerprint,
                                          offered: nil, into: &records)
                        }
                    }
                    position += 1
                }
                // The states taken go before callers waiting for them go on: at most
                // `pendingStates` are ever held. They go to `WriterState.spent`, for a
                // caller to let go of under the engine lock: a caller that then finds a
                // node of its own state unique (copy-on-write) changes it in place, and the
                // writer lock orders this thread's reads of that node before it. (Released
                // here alone, ThreadSanitizer saw the two as a race: nothing it can see
                // ordered them. Released here under the engine lock, as until 2026-12-07,
                // each took the lock from the appending thread's bias.)
                let spent = nextOffered
                nextOffered = 0
                let taken = position, offersTaken = offersTakenBefore + offersMet
                // An append waiting for room, or for offered states to be taken, can go on.
                let wakes = writer.withLockedValue { [takenWeight] w in
                    if spent > 0 {
                        w.spent.append(contentsOf: offered.prefix(spent))
                        offered.removeFirst(spent)
                        w.spentPeak = max(w.spentPeak, w.spent.count)
                    }
                    w.taken = taken
                    w.takenWeight = takenWeight
                    w.offersTaken = offersTaken
                    return writer.hasWaitersWhileLocked
                }
                if wakes { writer.wakeUnlocked() }
            }
            offersTakenBefore += offersMet
            // A batch is written when a flush or close asks, or when it has waited the flush
            // interval since the last one, even if its gesture has not ended.
            if closing || flushTo > assembler.sealedEvents || ContinuousClock.now - lastSeal >= flushInterval {
                assembler.seal(into: &records)
            }
            let upTo = assembler.sealedEvents
            var error: LogError?
            var synced = false
            do throws(LogError) {
                if !records.isEmpty { lastSeal = ContinuousClock.now }
                try output.file.append(records, compressor: output.compressor)
                records.removeAll(keepingCapacity: true)
                let unsynced = syncedUpTo < upTo
                switch durability {
                case .always:
                    if unsynced {
                        try output.file.sync()
                        synced = true
                    }
                case .interval(let ms):
                    if unsynced, ContinuousClock.now - lastSync >= .milliseconds(ms) {
                        try output.file.sync()
                        synced = true
                    }
                case .none:
                    break
                }
            } catch let e {
                error = e
            }
            if synced {
                lastSync = ContinuousClock.now
                syncedUpTo = max(syncedUpTo, upTo)
            }
            busy = end - start >= Self.busyRound
            let publish = { (w: inout WriterState) -> (done: Bool, wakes: Bool) in
                w.wakesItself = busy
                if let error {
                    w.failure = error
                } else {
                    w.writtenUpTo = max(w.writtenUpTo, upTo)
                    if synced { w.syncedUpTo = syncedUpTo }
                }
                guard closing || w.failure != nil else { return (false, self.writer.hasWaitersWhileLocked) }
                w.workerDone = true
                return (true, self.writer.hasWaitersWhileLocked)
            }
            // A failure is published under both locks (the engine lock first, as callers
            // take them; this thread holds neither here): no append succeeds after a
            // waiter has seen it, and an append waiting for room finds `failed` set.
            let (done, wakesWaiters) = error == nil
                ? writer.withLockedValue(publish)
                : guarded.withLockedValue { s in
                    s.failed = true
                    return writer.withLockedValue(publish)
                }
            // `flush()` and `close()` wait for what was just published (and an append
            // waiting for room, after a failure).
            if wakesWaiters { writer.wakeUnlocked() }
            if done { return }
        }
    }

    /// How many events the writer thread encodes before it gives their slots back.
    private static let releaseEvery = 1024

    /// A round that took this many events is a busy one: events arrive far faster than
    /// a person makes them (a bulk import, a script, a benchmark).
    private static let busyRound = 256

    /// After a busy round the writer wakes itself this soon, and callers do not wake it:
    /// at those rates a wake-up system call at every gesture end (about 100 events) would
    /// cost a caller more than its appends (waking a sleeping core is slowest in a virtual
    /// machine). A gesture's batch is then written within this time instead of at once.
    private static let busyWait = Duration.milliseconds(1)
}
