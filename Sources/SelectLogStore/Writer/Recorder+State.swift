import SelectLog

extension Recorder {
    /// Everything about a recorder that more than one thread touches, kept in one
    /// `LockedBox` so no field can be read or written without the lock.
    struct State: Sendable {
        /// The engine's state after every appended event.
        var engine: TableState
        /// The current, unsealed batch.
        var encoder: BinaryEventEncoder
        var batchFirst: Int
        var batchBaseTime: Micros
        var batchCount = 0
        /// Whether the current batch continues the one before it (format version 4).
        var batchContinues = false
        /// When to write a checkpoint.
        var checkpoints: CheckpointPolicy
        var batchSealedAt = ContinuousClock.now
        /// Sealed work the writer thread has not taken yet.
        var queue: [Job] = []
        /// Events sealed into the queue, handed to the OS, and synced to disk.
        var sealedUpTo: Int
        var writtenUpTo: Int
        var syncedUpTo: Int
        /// The first write or sync error; the recorder stops for good.
        var failure: LogError?
        /// Where `close()` is.
        var closing = Closing.open
        /// Set by the writer thread as it exits.
        var workerDone = false

        /// `version`: the log's format version (a version 2 log is appended to in version 2).
        /// `since`: events and coded bytes after the log's last checkpoint (a reopened log).
        init(engine: TableState, version: UInt16, checkpointInterval: Int, putsOff: Bool, since: (events: Int, bytes: Int)) {
            self.engine = engine
            checkpoints = CheckpointPolicy(interval: checkpointInterval, putsOff: putsOff, events: since.events, bytes: since.bytes)
            encoder = BinaryEventEncoder(baseTime: engine.t, version: version)
            batchFirst = engine.events
            batchBaseTime = engine.t
            sealedUpTo = engine.events
            writtenUpTo = engine.events
            syncedUpTo = engine.events
        }

        /// Events a `flush()` no longer waits for.
        func acknowledged(_ durability: Durability) -> Int { durability == .always ? syncedUpTo : writtenUpTo }

        /// Whether the writer thread has something to do (or must stop).
        var writerHasWork: Bool { !queue.isEmpty || closing != .open || failure != nil }

        /// Moves the current batch to the writer's queue; true when there was one.
        @discardableResult
        mutating func sealBatch() -> Bool {
            guard batchCount > 0 else { return false }
            let raw = encoder.seal(events: batchCount)
            checkpoints.noted(batchBytes: raw.count)
            queue.append(.batch(raw: raw, first: batchFirst, count: batchCount, baseTime: batchBaseTime, continues: batchContinues))
            batchCount = 0
            batchFirst = engine.events
            sealedUpTo = engine.events
            batchSealedAt = ContinuousClock.now
            return true
        }
    }

    /// A unit of work for the writer thread.
    enum Job: Sendable {
        case batch(raw: [UInt8], first: Int, count: Int, baseTime: Micros, continues: Bool)
        case checkpoint(snapshot: [UInt8], events: Int, t: Micros)
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
    // (set under the state's lock) before it touches `file`.
    let file: LogFile
    let compressor: ZstdCompressor?

    init(file: LogFile, compressor: ZstdCompressor?) {
        self.file = file
        self.compressor = compressor
    }
}
