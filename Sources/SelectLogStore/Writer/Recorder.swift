import Foundation
import SelectLog

/// Records events to a log, for apps.
///
/// `append(_:)` validates the event against the engine, hands it to the writer thread
/// and returns what it changed (the value `TableState.apply` returns, taken under the
/// same lock as the state); that is all the caller's thread does, and most appends take
/// no other lock (`AppendQueue`). The writer thread
/// encodes the events into batches, compresses and writes a batch when it fills, when
/// a gesture ends, when it has waited the flush interval, on `flush()` and on `close()`,
/// and syncs as `Durability` says. Every checkpoint interval it also writes a snapshot
/// of the state. When the writer falls `Recorder.queueCapacity` events behind, or has
/// four offered checkpoint states still to take (each a whole copy of the state once the
/// engine changes it: a small interval and a large state), `append` waits for it, so
/// memory stays bounded.
///
/// ```swift
/// let recorder = try Recorder(creating: "session.slog")
/// let changes = try recorder.append(.tap(ViewportPoint(x: Points(20), y: Points(75))))  // stamped now
/// try recorder.flush()
/// try recorder.close()
/// ```
///
/// Call `close()` when done, to learn whether everything was written. A recorder
/// dropped without it is closed as it goes (its `deinit` waits for the writer thread
/// to write what was appended and let the log go), and an error on the way is lost.
/// `close()` may be called from any number of threads at once; the
/// first closes the log, the others wait for it and report the same outcome.
///
/// It is safe to use from any thread, and fastest when one thread appends (an app's main
/// thread): on Linux the engine lock is biased to the first thread that appends, which
/// then takes it without an atomic read-modify-write, while a call from any other thread
/// costs a system call (`membarrier(2)`, some microseconds). After 64 appends from other
/// threads the bias is given up, and every thread takes the lock alike. An invalid event
/// throws `.invalidEvent` and never reaches the log. A failed write or fsync stops the recorder for good (fsync failures
/// are not retried: the kernel may have dropped the dirty pages); events acknowledged
/// by an earlier `flush()` stay readable.
///
/// Its methods throw `LogError` by type. In a function a `catch` sees a `LogError`; in a
/// closure (a `Task`, a task group's child) Swift 6 gives the `catch` `any Error`: write
/// `do throws(LogError) { … } catch { … }` there to get `error.code`, or cast.
public final class Recorder: Sendable {
    /// The log's path.
    public let path: String
    /// The options the recorder was created with.
    public let options: Options

    /// The engine lock: the engine and the producer's side of `queue`, for the callers.
    /// Nothing waits on it for a condition, so it is the cheaper `EngineLock`.
    let guarded: EngineLock<CallerState>
    /// The writer lock: the writer thread's progress, flushes and closes; the writer
    /// thread sleeps on its condition.
    let writer: LockedBox<WriterState>
    /// The events applied and not yet encoded, from the callers to the writer thread.
    let queue: AppendQueue
    let output: RecorderFile
    /// The recorder's clock: `append(_ event: Event)` stamps `timeOrigin` plus the time since `clockOrigin`.
    private let clockOrigin: ContinuousClock.Instant
    private let timeOrigin: Micros

    /// Creates a new log at `path`.
    ///
    /// A file already at `path` is an error (`.alreadyExists`) unless
    /// `replacingExisting` is true: on relaunch an app must not overwrite the session
    /// the user just reported. In a build without zstd the checkpoints are range-coded
    /// rather than zstd-compressed.
    /// A log another recorder has open is not replaced (`.inUse`, `WriterClaim`), nor one a
    /// `LogReader` in this process has open (`.inUse`; `LogReader.close()` lets it go). The
    /// new log is made beside the old and renamed over it: readers elsewhere keep the old.
    public convenience init(creating path: String, options: Options = Options(), replacingExisting: Bool = false) throws(LogError) {
        if let problem = options.problem(at: path) { throw problem }
        var salt = options.salt ?? 0
        if options.salt == nil {
            var g = SystemRandomNumberGenerator()
            salt = g.next()
        }
        // Without `replacingExisting`, created with the descriptor it is written through:
        // a file created first and opened again could be replaced in between, and one
        // created read-only (a umask of 222) could not be opened again to be written.
        let writer = try Self.writerThread(for: path)
        let file = try LogFile.create(path: path, checkpointInterval: options.checkpointInterval, salt: salt, zstd: Zstd.isAvailable && !options.storesUncompressed,
                                      version: options.formatVersion, exclusive: !replacingExisting, mode: mode_t(options.filePermissions & 0o777))
        self.init(file: file, state: TableState(), options: options, writer: writer)
    }

    /// Where creating a log at `path` stages its header, briefly (`LogFile.stagingPath(for:)`):
    /// a program that removes its temporary files when a signal ends it watches this too.
    package static func stagingPath(for path: String) -> String { LogFile.stagingPath(for: path) }

    /// Opens an existing log to append to it, after cutting a torn tail; the engine
    /// resumes from the state after the last logged event, and the recorder's clock
    /// from its time. A log another recorder has open is refused (`.inUse`, `WriterClaim`)
    /// before anything is read or cut: its last record may still be in flight. A log
    /// whose events fail their checks is refused (`.damaged`) as it is; one from a newer
    /// selectlog (its format version, a required feature) with `.unsupported`, at the byte
    /// offset `LogReader(path:)` names: no repair is to be made of it. A `LogReader` in
    /// this process may have the log open meanwhile: it reads nothing past the last record.
    public convenience init(appendingTo path: String, options: Options = Options()) throws(LogError) {
        // The checkpoint interval is the log's own.
        if let problem = options.problem(at: path, checkingInterval: false) { throw problem }
        let writer = try Self.writerThread(for: path)
        let file = try LogFile.openForAppend(path: path)
        // Read before anything is cut: a log whose events fail their checks (damage
        // the walk of the headers cannot see) is refused as it is.
        let engine: TableState
        do throws(LogError) {
            engine = try LogReader(path: path).state(at: file.eventCount)
        } catch {
            var error = error
            // Only a log of this build's behaviour gets here: a repair that replays finds it.
            if error.code == .damaged || error.code == .invalidEvent { error.message += "; \(LogFile.replayingRepairHint)" }
            throw error
        }
        try file.dropTail()
        var o = options
        o.checkpointInterval = Int(file.header.checkpointInterval)
        // A log made without zstd (for a build without it) stays without it.
        if file.header.features & LogFormat.featureZstd == 0 { o.storesUncompressed = true }
        self.init(file: file, state: engine, options: o, writer: writer)
    }

    /// The writer thread, started before the log is created or opened: when the system
    /// would not start it (`ulimit -v`, a thread limit), `.io`, and the file untouched.
    private static func writerThread(for path: String) throws(LogError) -> WorkerThread.Reservation {
        switch WorkerThread.reserve(name: "selectlog.rec") {
        case .success(let reservation): return reservation
        case .failure(let failure):
            throw LogError(.io, "cannot start the recorder's writer thread: \(failure)", path: path, errnoCode: failure.code)
        }
    }

    private init(file: LogFile, state engine: TableState, options: Options, writer thread: WorkerThread.Reservation) {
        self.path = file.path
        // A batch holds at most the format's limit (`LogAssembler` caps it too); the append
        // path reads the capped value, so it needs no check of its own.
        var options = options
        options.batchEvents = min(options.batchEvents, LogFormat.Limits.batchEvents)
        self.options = options
        file.failsWritesPast = options.failsWritesPast
        let queue = AppendQueue(capacity: options.queueCapacity)
        self.queue = queue
        self.guarded = EngineLock(CallerState(engine: engine, checkpointInterval: options.checkpointInterval,
                                              queueCapacity: queue.capacity, publishEvery: options.batchEvents))
        self.writer = LockedBox(WriterState(events: engine.events))
        let compresses = Zstd.isAvailable && !options.storesUncompressed
        self.output = RecorderFile(file: file, compressor: compresses ? ZstdCompressor(level: options.compressionLevel) : nil)
        self.clockOrigin = ContinuousClock.now
        self.timeOrigin = engine.t
        let assembler = LogAssembler(events: engine.events, time: engine.t, version: file.header.version,
                                     checkpointInterval: options.checkpointInterval,
                                     putsOffLargeCheckpoints: options.putsOffLargeCheckpoints, since: file.sinceCheckpoint,
                                     batchEvents: options.batchEvents, batchBytes: options.batchBytes)
        let side = RecorderWriter(writer: writer, guarded: guarded, queue: queue, output: output, options: options)
        thread.run { side.work(assembler) }
    }

    deinit {
        // Dropped without `close()`: closed here, as a file handle is, so that the writer
        // thread ends and the log is let go. What went wrong is lost; `close()` says it.
        try? close()
        // Events the writer thread never took (it stopped after a failure).
        let end = guarded.withLockedValue { $0.engine.events }
        queue.destroy(from: writer.withLockedValue { $0.taken }, to: end)
    }

    /// Events in the log so far: those it held when opened and the valid ones appended
    /// since (`LogReader.eventCount` of the same log once written). After a write fails
    /// (a full disk; `flush()` and `close()` throw it), the events appended since the
    /// last write that succeeded are counted here and in `state` but are not in the file:
    /// `acknowledged` says how many are.
    public var eventCount: Int { guarded.withLockedValue { $0.engine.events } }

    /// Events in the log so far.
    @available(*, deprecated, renamed: "eventCount")
    public var count: Int { eventCount }

    /// The engine's state after every appended event.
    public var state: TableState { guarded.withLockedValue { $0.engine } }

    /// Events a `flush()` would no longer wait for: written, and with `.always` synced.
    public var acknowledged: Int {
        let durability = options.durability
        return writer.withLockedValue { $0.acknowledged(durability) }
    }

    /// Events known to be on disk: a sync (`fdatasync`; `F_FULLFSYNC` on Apple
    /// platforms) returned after they were written.
    public var synced: Int { writer.withLockedValue { $0.syncedUpTo } }

    /// The recorder's monotonic time now: the log's time when the recorder was made
    /// plus the time since, in whole microseconds.
    public var now: Micros {
        Micros(raw: timeOrigin.raw &+ (ContinuousClock.now - clockOrigin).wholeMicroseconds)
    }

    /// The stamp of an event appended after one at `before`: the recorder's time `now`,
    /// but never earlier than `before` nor past `Micros.limit`.
    ///
    /// Never inlined: `ContinuousClock.Instant` is a resilient type, so a function that
    /// reads the clock makes room for it on the stack at entry (two metadata look-ups and
    /// about 45 instructions, callgrind), which every append paid, stamped or not.
    @inline(never)
    private func stampTime(after before: Micros) -> Micros {
        min(max(now, before), Micros.limit)
    }

    /// Validates `event`, stamped with the recorder's monotonic clock, and adds it to the
    /// current batch; returns what it changed.
    ///
    /// The time is read under the recorder's lock, so events from any number of threads
    /// are stamped in the order they are appended and never rejected as out of order.
    /// A stamp is never earlier than the last event's time, nor past `Micros.limit`: after
    /// a `TimedEvent` appended with a time ahead of the clock (`now`), stamped events take
    /// that time until the clock passes it (and at the limit, keep it). So stamp a
    /// recorder's events with one clock, its own or yours: after one stamped with
    /// `CACurrentMediaTime()` (time since boot; the recorder's clock starts at the log's
    /// time), every `tick` it stamps sees no time pass, and auto-scroll stops.
    @discardableResult
    public func append(_ event: consuming Event) throws(LogError) -> TableChanges {
        try append(TimedEvent(event), stamp: true)
    }

    /// Validates `event` (with the caller's time, or none) and adds it to the current
    /// batch; returns what it changed. A time before the last event's is invalid. Mixed
    /// with `append(_:)`'s stamps, the two clocks disagree: see there.
    @discardableResult
    public func append(_ event: consuming TimedEvent) throws(LogError) -> TableChanges {
        try append(event, stamp: false)
    }

    /// The one append path: `given` as it is, or (`stamp`) with the recorder's time.
    ///
    /// Everything the caller's thread does is here, under the engine lock once: the
    /// engine's `apply` (whose `TableChanges` the caller gets), the gesture fingerprint at
    /// a gesture end, and writing the event into its queue slot for the writer thread,
    /// which encodes it. It takes the writer lock only to publish (a gesture end, a
    /// checkpoint offer, every `batchEvents` events) and when the queue is full. It holds
    /// the engine lock with `lock()`/`unlock()` rather than in a closure, so that the
    /// changes are not passed back through the closure.
    ///
    /// What most appends do is here and nothing else: one comparison before the slot is
    /// written (`CallerState.checkAt`) and one test after `apply`; the rest is in
    /// `makeRoom(_:)` and `publish(_:slot:position:endsGesture:weight:)`, out of line, so
    /// that the common path reads no options, keeps no counter and spills little.
    @inline(__always)
    private func append(_ given: consuming TimedEvent, stamp: Bool) throws(LogError) -> TableChanges {
        // Weighed before the lock (the stamp changes only the time) and before it goes into
        // its slot: read back from the slot after `apply`, the event's tag waited for the
        // slot's stores (a line the writer thread last held) to complete, about 4% of an
        // append (perf).
        var timed = given
        let weight = Self.weight(of: timed.event)
        let s = guarded.lock(appending: true)
        // The event's slot: the queue position is the event count.
        var position = s.pointee.engine.events
        if position >= s.pointee.checkAt { position = try makeRoom(s) }
        let before = s.pointee.engine.t
        if stamp { timed.t = stampTime(after: before) }
        // Into its slot first (see `AppendQueue.slot(at:)`); taken back out if invalid.
        let slot = queue.slot(at: position)
        queue.prefetch(after: position)
        slot.initialize(to: Appended(event: consume timed, before: before, gestureFingerprint: nil, offersCheckpoint: false))
        let changes: TableChanges
        do throws(InvalidEvent) {
            changes = try Self.apply(&slot.pointee, to: &s.pointee)
        } catch {
            slot.deinitialize(count: 1)
            guarded.unlock()
            throw LogError(.invalidEvent, error.description, path: path, eventIndex: position, invalidEvent: error)
        }
        // `publishAt` is at most `nextOffer`, so this also catches a checkpoint offer.
        if changes.endsGesture || weight != nil || s.pointee.engine.events >= s.pointee.publishAt {
            publish(s, slot: slot, position: position, endsGesture: changes.endsGesture, weight: weight)
        } else {
            guarded.unlock()
        }
        return changes
    }

    /// Before an append at `s.pointee.engine.events` reaches `CallerState.checkAt`: throws
    /// (the engine lock released) after `close()` or a failure; waits, without the engine
    /// lock, while the queue is full (the writer `queueCapacity` events behind) or while
    /// `pendingStates` offered states wait for the writer and this event may offer
    /// another; returns the position of the event's slot, the engine lock held.
    @inline(never)
    private func makeRoom(_ s: UnsafeMutablePointer<CallerState>) throws(LogError) -> Int {
        while true {
            guard !s.pointee.closed, !s.pointee.failed else {
                guarded.unlock()
                throw closedError()
            }
            let position = s.pointee.engine.events
            if position >= s.pointee.freeEnd {
                let capacity = queue.capacity
                s.pointee.freeEnd = writer.withLockedValue { $0.taken } + capacity
                if position >= s.pointee.freeEnd {
                    guarded.unlock()
                    // The slot at `position` freed.
                    waitForWriter(publishing: position) { position < $0.taken + capacity }
                    _ = guarded.lock(appending: true)
                    continue
                }
            }
            // An event that may offer a checkpoint waits while `pendingStates` offered
            // states wait for the writer: each is a whole state, which the next event's
            // change copies (a small interval and a large state made gigabytes of them).
            if position + 1 >= s.pointee.nextOffer, s.pointee.offersMade - s.pointee.offersTaken >= Self.pendingStates {
                s.pointee.offersTaken = writer.withLockedValue { $0.offersTaken }
                let needed = s.pointee.offersMade - Self.pendingStates + 1
                if s.pointee.offersTaken < needed {
                    guarded.unlock()
                    waitForWriter(publishing: position) { $0.offersTaken >= needed }
                    _ = guarded.lock(appending: true)
                    continue
                }
            }
            return position
        }
    }

    /// After an append whose event ended a gesture, carries lists or strings, or reached
    /// `CallerState.publishAt`: notes the gesture fingerprint and the event's weight,
    /// offers a checkpoint, publishes to the writer thread, then releases the engine lock
    /// (the caller's, held on entry) and waits for the writer when the queue is too heavy.
    @inline(never)
    private func publish(_ s: UnsafeMutablePointer<CallerState>, slot: UnsafeMutablePointer<Appended>, position: Int,
                         endsGesture: Bool, weight: Int?) {
        if endsGesture { slot.pointee.gestureFingerprint = Self.gestureFingerprint(&s.pointee) }
        // An event of lists or strings counts its bytes; when those of the events the writer
        // has not taken reach `queueWeight` (asked only then), this append waits (below).
        var drains = false
        if let weight {
            s.pointee.appendedWeight &+= weight
            if s.pointee.appendedWeight &- s.pointee.takenWeight >= options.queueWeight {
                s.pointee.takenWeight = writer.withLockedValue { $0.takenWeight }
                drains = s.pointee.appendedWeight &- s.pointee.takenWeight >= options.queueWeight
            }
        }
        // `LogAssembler.offersCheckpoint(after:interval:)`, without a division per event:
        // the count grows by one an event, so it reaches each multiple of the interval.
        let events = s.pointee.engine.events
        let offers = events >= s.pointee.nextOffer
        // The writer takes the published events at a gesture end, a checkpoint offer and
        // every `batchEvents` events. The wake-up (a system call) is made only when it sleeps,
        // and not after a busy round, when it wakes itself within a millisecond.
        var wakesWriter = false
        // States the writer is done with (`WriterState.spent`), let go of below.
        var spent: [TableState] = []
        if endsGesture || offers || drains || events >= s.pointee.publishAt {
            var offered: TableState?
            if offers {
                slot.pointee.offersCheckpoint = true
                offered = s.pointee.engine
                s.pointee.offersMade += 1
                s.pointee.nextOffer = LogAssembler.nextOffer(after: events, interval: options.checkpointInterval)
            }
            s.pointee.publishNext(after: events)
            let published = position + 1
            wakesWriter = writer.withLockedValue { w in
                w.published = max(w.published, published)
                w.wakeRequested = true
                if let offered { w.offered.append(offered) }
                if !w.spent.isEmpty { swap(&spent, &w.spent) }
                return !w.wakesItself && writer.hasWaitersWhileLocked
            }
        }
        // Under the engine lock, which orders the writer's reads of these states before
        // another appending thread's changes in place (`WriterState.spent`).
        if !spent.isEmpty { Self.letGo(&spent) }
        guarded.unlock()
        // No wake-up is lost: a waiter registers, and waits, without releasing the lock
        // in between, so one seen above already waits.
        if wakesWriter { writer.wakeUnlocked() }
        if drains { waitForWriter(publishing: position + 1) { $0.taken > position } }
    }

    /// Applies the event in `item` (in its queue slot) to the engine: both borrowed through
    /// exclusive accesses, so that neither is copied for the call.
    @inline(__always)
    private static func apply(_ item: inout Appended, to s: inout CallerState) throws(InvalidEvent) -> TableChanges {
        try s.engine.apply(item.event)
    }

    /// The engine's gesture fingerprint, read through an exclusive access: read through
    /// the pointer, the compiler copied the whole state first (another reference might
    /// change it during the call).
    @inline(__always)
    private static func gestureFingerprint(_ s: inout CallerState) -> UInt32 { s.engine.gestureFingerprint }
}
