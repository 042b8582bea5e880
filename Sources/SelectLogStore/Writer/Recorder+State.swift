import SelectLog

extension Recorder {
    /// Everything about a recorder that more than one thread touches, kept in one
    /// `LockedBox` so no field can be read or written without the lock.
    struct State: Sendable {
        /// The engine's state after every appended event.
        var engine: TableState
        /// Events appended and not yet taken by the writer thread, in order.
        var pending: [Appended] = []
        /// The states at multiples of the checkpoint interval among `pending`, in order.
        var offered: [TableState] = []
        /// Whether the writer thread should take `pending` now (a gesture ended, a
        /// checkpoint is offered, enough events wait, or a flush or close asks).
        var signalled = false
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
        /// The event count at which the next checkpoint is offered (the next multiple of
        /// the checkpoint interval), so that `append` divides only when it offers one.
        var nextOffer: Int
        /// Events appended since the writer was last signalled.
        var sinceSignal = 0

        init(engine: TableState, checkpointInterval: Int) {
            self.engine = engine
            nextOffer = LogAssembler.nextOffer(after: engine.events, interval: checkpointInterval)
            // The writer trades its emptied array for this one; both start with room for
            // what usually arrives between two hand-overs, so neither grows as it fills.
            pending.reserveCapacity(Self.initialPending)
            flushTarget = engine.events
            writtenUpTo = engine.events
            syncedUpTo = engine.events
        }

        /// Events a `flush()` no longer waits for.
        func acknowledged(_ durability: Durability) -> Int { durability == .always ? syncedUpTo : writtenUpTo }

        /// The pending list's starting capacity (a batch's worth of events).
        static let initialPending = 4096

        /// Whether the writer thread has something to do (or must stop).
        var writerHasWork: Bool { signalled || closing != .open || failure != nil }
    }

    /// An event the engine applied, as the writer thread needs it to encode it.
    struct Appended: Sendable {
        var event: TimedEvent
        /// The engine's time before the event (a batch's base time).
        var before: Micros
        /// The state's gesture fingerprint, when the event ended a gesture.
        var gestureFingerprint: UInt32?
        /// Whether the state after it is in `State.offered`.
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
    // (set under the state's lock) before it touches `file`.
    let file: LogFile
    let compressor: ZstdCompressor?

    init(file: LogFile, compressor: ZstdCompressor?) {
        self.file = file
        self.compressor = compressor
    }
}
