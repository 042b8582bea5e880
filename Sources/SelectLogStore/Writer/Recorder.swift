import Foundation
import SelectLog

/// Records events to a log, for apps.
///
/// `append(_:)` validates the event against the engine and encodes it into the
/// current batch; that is all the caller's thread does. A background thread
/// compresses and writes batches when one fills, when a gesture ends, on an
/// interval, on `flush()` and on `close()`, and syncs them as `Durability` says.
/// Every checkpoint interval it also writes a snapshot of the state.
///
/// ```swift
/// let recorder = try Recorder(creating: "session.slog")
/// try recorder.append(TimedEvent(.tap(ViewportPoint(x: Points(20), y: Points(75))), t: .milliseconds(16)))
/// try recorder.flush()
/// try recorder.close()
/// ```
///
/// Call `close()` when done: the writer thread runs (and keeps the recorder alive) until then.
///
/// It is safe to use from any thread. An invalid event throws `.invalidEvent` and never
/// reaches the log. A failed write or fsync stops the recorder for good (fsync failures
/// are not retried: the kernel may have dropped the dirty pages); events acknowledged
/// by an earlier `flush()` stay readable.
public final class Recorder: @unchecked Sendable {
    // @unchecked: every mutable stored property is guarded by `condition`, except
    // `file` and `compressor`, which only the worker thread touches until `close()`
    // has joined it.

    /// When written batches reach the disk.
    public enum Durability: Sendable, Equatable {
        /// Never synced by the recorder (the OS writes back in its own time).
        case none
        /// Synced at most this often (and on close).
        case interval(milliseconds: Int)
        /// Synced (fdatasync) before every `flush()` returns.
        case always
    }

    public struct Options: Sendable {
        public var durability = Durability.interval(milliseconds: 1000)
        /// A batch is written when it holds this many events…
        public var batchEvents = 4096
        /// … or this many encoded bytes…
        public var batchBytes = 64 * 1024
        /// … or has waited this long.
        public var flushIntervalMilliseconds = 250
        /// A checkpoint every this many events; `LogReader.state(at:)` replays at most this many.
        public var checkpointInterval = 8192
        public var compressionLevel: Int32 = 6
        /// The file's checksum salt; random when nil.
        public var salt: UInt64?
        public init() {}
    }

    public let path: String
    public let options: Options

    private let condition = NSCondition()
    private var engine: TableState
    private var encoder: BinaryEventEncoder
    private var batchFirst: Int
    private var batchBaseTime: Micros
    private var batchCount = 0
    private var batchSealedAt = ContinuousClock.now
    private var queue: [Job] = []
    private var sealedUpTo: Int
    /// Events handed to the OS, and events synced to disk.
    private var writtenUpTo: Int
    private var syncedUpTo: Int
    private var failure: LogError?
    private var closing = false
    private var workerDone = false
    private var closed = false

    private let file: LogFile
    private let compressor: ZstdCompressor?

    private enum Job {
        case batch(raw: [UInt8], first: Int, count: Int, baseTime: Micros)
        case checkpoint(TableState)
    }

    /// Creates a new log at `path`, replacing any file there.
    public convenience init(creating path: String, options: Options = Options()) throws(LogError) {
        var salt = options.salt ?? 0
        if options.salt == nil {
            var g = SystemRandomNumberGenerator()
            salt = g.next()
        }
        let file = try LogFile.create(path: path, checkpointInterval: options.checkpointInterval, salt: salt, zstd: true)
        self.init(file: file, state: TableState(), options: options)
    }

    /// Opens an existing log to append to it, after cutting a torn tail; the engine
    /// resumes from the state after the last logged event.
    public convenience init(appendingTo path: String, options: Options = Options()) throws(LogError) {
        let file = try LogFile.openForAppend(path: path)
        let state = try LogReader(path: path).state(at: file.eventCount)
        var o = options
        o.checkpointInterval = Int(file.header.checkpointInterval)
        self.init(file: file, state: state, options: o)
    }

    private init(file: LogFile, state: TableState, options: Options) {
        self.file = file
        self.path = file.path
        self.options = options
        self.engine = state
        self.encoder = BinaryEventEncoder(baseTime: state.t)
        self.batchFirst = state.events
        self.batchBaseTime = state.t
        self.sealedUpTo = state.events
        self.writtenUpTo = state.events
        self.syncedUpTo = state.events
        self.compressor = ZstdCompressor(level: options.compressionLevel)
        let thread = Thread { [self] in self.work() }
        thread.name = "selectlog.recorder"
        thread.start()
    }

    /// Events appended so far (valid ones).
    public var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return engine.events
    }

    /// The engine's state after every appended event.
    public var state: TableState {
        condition.lock()
        defer { condition.unlock() }
        return engine
    }

    /// Events a `flush()` would no longer wait for: written, and with `.always` synced.
    public var acknowledged: Int {
        condition.lock()
        defer { condition.unlock() }
        return acknowledgedLocked
    }

    private var acknowledgedLocked: Int { options.durability == .always ? syncedUpTo : writtenUpTo }

    /// Events known to be on disk: an fdatasync returned after they were written.
    public var synced: Int {
        condition.lock()
        defer { condition.unlock() }
        return syncedUpTo
    }

    /// Validates `event` against the engine and adds it to the current batch.
    public func append(_ event: TimedEvent) throws(LogError) {
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw LogError(.closed, "the recorder stopped after an earlier error: \(failure)", path: path) }
        if closing { throw LogError(.closed, "the recorder is closed", path: path) }
        let before = engine.t
        let changes: TableChanges
        do {
            changes = try engine.apply(event)
        } catch {
            throw LogError(.invalidEvent, error.description, path: path, eventIndex: engine.events, invalidEvent: error)
        }
        if batchCount == 0 {
            encoder.reset(baseTime: before)
            batchFirst = engine.events - 1
            batchBaseTime = before
        }
        encoder.append(event, after: engine, changes: changes)
        batchCount += 1
        let interval = options.checkpointInterval
        if interval > 0 && engine.events % interval == 0 {
            sealBatch()
            queue.append(.checkpoint(engine))
        } else if batchCount >= options.batchEvents || encoder.byteCount >= options.batchBytes || Recorder.endsGesture(event.event) {
            sealBatch()
        }
    }

    /// Pans and swipes end their gesture; their batch is written then.
    static func endsGesture(_ e: Event) -> Bool {
        switch e {
        case .panEnded, .panCancelled, .swipeEnded: true
        default: false
        }
    }

    /// Moves the current batch to the writer's queue. Call with the lock held.
    private func sealBatch() {
        guard batchCount > 0 else { return }
        queue.append(.batch(raw: encoder.out.bytes, first: batchFirst, count: batchCount, baseTime: batchBaseTime))
        batchCount = 0
        batchFirst = engine.events
        sealedUpTo = engine.events
        batchSealedAt = ContinuousClock.now
        condition.signal()
    }

    /// Writes everything appended so far; with `.always`, syncs it too.
    public func flush() throws(LogError) {
        condition.lock()
        defer { condition.unlock() }
        sealBatch()
        let target = sealedUpTo
        while acknowledgedLocked < target && failure == nil && !workerDone { condition.wait() }
        if let failure { throw failure }
    }

    /// Writes what is left, syncs (unless `.none`), writes the seek index and closes the file.
    public func close() throws(LogError) {
        condition.lock()
        if closed {
            condition.unlock()
            return
        }
        sealBatch()
        closing = true
        condition.broadcast()
        while !workerDone { condition.wait() }
        closed = true
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
        try file.close(writingIndex: true, sync: options.durability != .none)
    }

    // MARK: The writer thread

    private func work() {
        var lastSync = ContinuousClock.now
        let flushInterval = Duration.milliseconds(options.flushIntervalMilliseconds)
        while true {
            condition.lock()
            // With `.interval`, written but unsynced events are synced once the interval
            // has passed, even when nothing new arrives.
            var syncDue = false
            while queue.isEmpty && !closing && failure == nil {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(options.flushIntervalMilliseconds) / 1000))
                if queue.isEmpty, batchCount > 0, ContinuousClock.now - batchSealedAt >= flushInterval { sealBatch() }
                if queue.isEmpty, case .interval(let ms) = options.durability, writtenUpTo > syncedUpTo,
                   ContinuousClock.now - lastSync >= .milliseconds(ms) {
                    syncDue = true
                    break
                }
            }
            if !syncDue && (queue.isEmpty || failure != nil) {
                workerDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let jobs = queue
            queue.removeAll()
            let upTo = sealedUpTo
            condition.unlock()

            var error: LogError?
            var synced = false
            do throws(LogError) {
                for job in jobs {
                    switch job {
                    case let .batch(raw, first, count, baseTime):
                        try file.append(.batch, payload: raw, firstEvent: first, eventCount: count, baseTime: baseTime, compressor: compressor)
                    case let .checkpoint(state):
                        try file.append(.checkpoint, payload: state.snapshot(), firstEvent: state.events, eventCount: 0,
                                        baseTime: state.t, compressor: compressor)
                    }
                }
                switch options.durability {
                case .always:
                    try file.sync()
                    synced = true
                    lastSync = ContinuousClock.now
                case .interval(let ms):
                    if ContinuousClock.now - lastSync >= .milliseconds(ms) {
                        try file.sync()
                        synced = true
                        lastSync = ContinuousClock.now
                    }
                case .none:
                    break
                }
            } catch let e {
                error = e
            }
            condition.lock()
            if let error {
                failure = error
            } else {
                writtenUpTo = upTo
                if synced { syncedUpTo = upTo }
            }
            condition.broadcast()
            condition.unlock()
        }
    }
}
