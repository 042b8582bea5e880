import SelectLog

extension Recorder {
    /// Releases `states` (`WriterState.spent`) here, in a call the compiler cannot see
    /// through, so that the release is not moved past the engine lock's release that
    /// follows it.
    @inline(never)
    static func letGo(_ states: inout [TableState]) { states.removeAll() }

    /// What the callers share, kept in the engine lock (`EngineLock`): the engine and the
    /// producer's side of the hand-over queue. The writer thread takes this lock only to
    /// read the event count after the flush interval and to mark a failure, and never
    /// while it holds the writer lock.
    struct CallerState: Sendable {
        /// The engine's state after every appended event.
        var engine: TableState
        /// Set by the first `close()`; every append after it throws.
        var closed = false { didSet { updateCheckAt() } }
        /// Set by the writer thread when it fails for good; every append after it throws.
        var failed = false { didSet { updateCheckAt() } }
        /// The event count at which the next checkpoint is offered (the next multiple of
        /// the checkpoint interval), so that `append` divides only when it offers one.
        var nextOffer: Int { didSet { updateCheckAt() } }
        /// Checkpoint states offered to the writer, and how many of them it had taken when
        /// last asked (`Recorder.pendingStates`).
        var offersMade = 0
        var offersTaken = 0
        /// The first queue position not known to be free: a caller asks the writer lock
        /// what the writer has taken only when it reaches this one.
        var freeEnd: Int { didSet { updateCheckAt() } }
        /// The bytes of lists and strings of every event appended (`Recorder.weight(of:)`),
        /// and of those the writer had taken when last asked (`Recorder.queueWeight`).
        var appendedWeight = 0
        var takenWeight = 0
        /// The first queue position at which an append must look before it writes its
        /// slot (`Recorder.makeRoom(_:)`): at once after `close()` or a failure, else at
        /// `freeEnd` and at the event that may offer a checkpoint. Four conditions, checked
        /// under the lock in every append, are one comparison this way (with `publishAt`,
        /// the append's own instructions went from 157 to 108 an event, callgrind).
        private(set) var checkAt = 0
        /// The event count at which an append publishes to the writer thread even without a
        /// gesture end: `Recorder.Options.batchEvents` after the last it published, or the
        /// next checkpoint offer if sooner. Set by `publishNext(after:)`.
        var publishAt: Int
        /// `Recorder.Options.batchEvents` (at least 1): how many events an append lets wait
        /// for the writer thread before it publishes them.
        let publishEvery: Int

        init(engine: TableState, checkpointInterval: Int, queueCapacity: Int, publishEvery: Int) {
            self.engine = engine
            nextOffer = LogAssembler.nextOffer(after: engine.events, interval: checkpointInterval)
            freeEnd = engine.events + queueCapacity
            self.publishEvery = max(1, publishEvery)
            publishAt = 0
            publishNext(after: engine.events)
            updateCheckAt()
        }

        /// Sets `publishAt` for events published up to `events`: `publishEvery` on, or the
        /// next checkpoint offer if sooner (which `append` thus catches in the same test).
        mutating func publishNext(after events: Int) {
            publishAt = min(nextOffer, events &+ publishEvery)
        }

        private mutating func updateCheckAt() {
            checkAt = closed || failed ? .min : min(freeEnd, nextOffer &- 1)
        }
    }

    /// What the writer thread shares with `flush()`, `close()` and the readers of its
    /// progress, kept in the writer lock's `LockedBox`; its condition is where the writer
    /// sleeps, and where flushes, closes and an append waiting for room wait.
    struct WriterState: Sendable {
        /// Events whose queue slots are written and that the writer may take: a caller
        /// moves it at a gesture end, a checkpoint offer and every `batchEvents` events,
        /// `flush()` and `close()` to every event appended.
        var published: Int
        /// Events the writer has taken out of the queue: their slots are free again.
        var taken: Int
        /// The bytes of lists and strings of the events taken (`Recorder.weight(of:)`).
        var takenWeight = 0
        /// Set with `published` by a caller that wants the writer to take the events now.
        var wakeRequested = false
        /// Set by the writer after a busy round: it wakes itself within a millisecond, so a
        /// caller sets `wakeRequested` without the wake-up system call.
        var wakesItself = false
        /// The states at multiples of the checkpoint interval, in order, for the writer
        /// to take as it meets the events that offer them (put here when the event that
        /// offers one is published).
        var offered: [TableState] = []
        /// Offered states the writer has taken (encoded the events that offer them, and
        /// snapshotted or passed over the states).
        var offersTaken = 0
        /// The most offered states the writer has held at once, its own and these (tests).
        var offersHeldPeak = 0
        /// Offered states the writer is done with, which the next caller to publish lets go
        /// of under the engine lock (`Recorder.publish`), so that the writer thread takes
        /// the engine lock for none of them: another thread that takes it revokes the
        /// appending thread's bias (`LockBias`), a system call of 15–20 µs. A caller that
        /// then finds a node of its own state unique changes it in place; the writer lock
        /// orders this thread's reads of that node before that, and the engine lock orders
        /// them before another appending thread's. At most `Recorder.pendingStates`: the
        /// writer has no more to finish between two publishes.
        var spent: [TableState] = []
        /// The most states `spent` has held at once (tests).
        var spentPeak = 0
        /// Events `flush()` asked to be written.
        var flushTarget: Int
        /// Events written (handed to the OS) and synced to disk.
        var writtenUpTo: Int
        var syncedUpTo: Int
        /// The first write or sync error; the recorder stops for good.
        var failure: LogError?
        /// Where `close()` is.
        var closing = Closing.open
        /// Set by the writer thread as it exits.
        var workerDone = false

        init(events: Int) {
            published = events
            taken = events
            flushTarget = events
            writtenUpTo = events
            syncedUpTo = events
        }

        /// Moves the offered states to the end of the writer's own list, in order.
        mutating func takeOffered(into list: inout [TableState]) {
            list.append(contentsOf: offered)
            offered.removeAll(keepingCapacity: true)
            offersHeldPeak = max(offersHeldPeak, list.count)
        }

        /// Events a `flush()` no longer waits for.
        func acknowledged(_ durability: Durability) -> Int { durability == .always ? syncedUpTo : writtenUpTo }
    }

    /// An event the engine applied, as the writer thread needs it to encode it.
    struct Appended: Sendable {
        var event: TimedEvent
        /// The engine's time before the event (a batch's base time).
        var before: Micros
        /// The state's gesture fingerprint, when the event ended a gesture.
        var gestureFingerprint: UInt32?
        /// Whether the state after it is in `WriterState.offered`.
        var offersCheckpoint: Bool
    }

    /// The stages of `close()`: the first caller closes, later ones wait for its outcome.
    enum Closing: Sendable, Equatable {
        case open
        case inProgress
        case done(LogError?)

        static func == (a: Closing, b: Closing) -> Bool {
            switch (a, b) {
            case (.open, .open), (.inProgress, .inProgress), (.done, .done): true
            default: false
            }
        }
    }
}

/// The log file and the compressor: touched only by the writer thread, and by
/// `close()` once the writer thread has exited.
final class RecorderFile: @unchecked Sendable {
    // @unchecked: one thread at a time, as above; `close()` waits for `workerDone`
    // (set under the writer lock) before it touches `file`.
    let file: LogFile
    let compressor: ZstdCompressor?

    init(file: LogFile, compressor: ZstdCompressor?) {
        self.file = file
        self.compressor = compressor
    }
}
