/// The recorder's options and its durability, with the checks its initializers make.
extension Recorder {
    /// When written batches reach the disk.
    public enum Durability: Sendable, Equatable {
        /// Never synced by the recorder (the OS writes back in its own time).
        case none
        /// Synced at most this often (and on close).
        case interval(milliseconds: Int)
        /// Synced (`fdatasync`; `F_FULLFSYNC` on Apple platforms) before every `flush()` returns.
        case always
    }

    /// How a recorder batches, compresses and syncs; the defaults suit an app.
    public struct Options: Sendable {
        /// When written batches are synced to disk.
        public var durability = Durability.interval(milliseconds: 1000)
        /// A batch is written when it holds this many events (at least 1; more than
        /// 1,048,576, the format's limit for a batch, is taken as that)…
        public var batchEvents = 4096
        /// … or this many encoded bytes (at least 1; more than 4 MiB is taken as that)…
        public var batchBytes = 64 * 1024
        /// … or has waited this long (at least 1).
        public var flushIntervalMilliseconds = 250
        /// A checkpoint every this many events, up to 4,294,967,295 (but see
        /// `putsOffLargeCheckpoints`); `LogReader.state(at:)` replays at most this many,
        /// or twice as many. 0: no checkpoints (`state(at:)` replays from the start). A log
        /// reopened for appending keeps its own.
        public var checkpointInterval = 8192
        /// Puts a checkpoint off to the next multiple of `checkpointInterval` (up to two
        /// intervals) while its snapshot is over an eighth of the coded event bytes since the
        /// last one, so that large snapshots stay a small part of the log (since format 7
        /// most are stored as their changes). Off: one at every multiple.
        public var putsOffLargeCheckpoints = true
        /// The zstd level for checkpoints, from -131,072 (fastest) to 22 (ignored in a
        /// build without zstd, which range-codes them; batches are range-coded in every
        /// build, and zstd does not shrink them).
        public var compressionLevel: Int32 = 6
        /// Write without zstd even where it exists, exactly as a build without zstd (an
        /// iOS app) does: checkpoints range-coded, not zstd-compressed (every build
        /// range-codes batches); `selectlog compact` compresses the checkpoints with zstd
        /// later. A log made without zstd stays so when reopened, whatever this says.
        public var storesUncompressed = false
        /// The file's checksum salt; random when nil.
        public var salt: UInt64?
        /// The permission bits a log this recorder creates is made with, less the umask
        /// (0o644 by default); within 0o777 (a setuid, setgid or sticky bit is refused,
        /// `.invalidOptions`). A private log asks for 0o600 here rather than changing the
        /// mode after: the file never has wider permissions, not even for the moment
        /// before a `chmod`. Not used when the recorder appends to a log, nor when
        /// `replacingExisting` replaces a file: the new log then takes that file's mode
        /// and group (made owner-only until it has them).
        public var filePermissions: UInt16 = 0o644
        /// The format version of a new log (tests write the versions before this build's,
        /// which readers must still read); nil: this build's (`LogFormat.version`).
        package var formatVersion: UInt16?
        /// Events the writer thread may fall behind before `append` waits (rounded up to a
        /// power of two); tests make it tiny to exercise the wait.
        var queueCapacity = Recorder.queueCapacity
        /// The bytes of lists and strings the queued events may hold (`Recorder.queueWeight`);
        /// tests make it small to exercise the wait.
        var queueWeight = Recorder.queueWeight
        /// Writes that would take the log past this many bytes fail, as on a full disk
        /// (`LogFile.failsWritesPast`); tests set it to fail the writer part-way.
        var failsWritesPast = Int.max
        /// The defaults.
        public init() {}
    }
}

extension Recorder.Options {
    /// The first value out of its range, as an error naming it and the log at `path`,
    /// or nil. The
    /// recorder's initializers refuse such options (`.invalidOptions`) before they
    /// touch the file; the command line's `--checkpoint-interval` and
    /// `--batch-events` have the same bounds.
    package func problem(at path: String, checkingInterval: Bool = true) -> LogError? {
        func fail(_ what: String) -> LogError { LogError(.invalidOptions, "Recorder.Options: \(what)", path: path) }
        if batchEvents < 1 { return fail("batchEvents must be at least 1, not \(batchEvents)") }
        if batchBytes < 1 { return fail("batchBytes must be at least 1, not \(batchBytes)") }
        if flushIntervalMilliseconds < 1 { return fail("flushIntervalMilliseconds must be at least 1, not \(flushIntervalMilliseconds)") }
        // `UInt32(exactly:)`, not `Int(UInt32.max)`, which traps where `Int` has 32 bits (watchOS).
        if checkingInterval, UInt32(exactly: checkpointInterval) == nil {
            return fail("checkpointInterval must be from 0 (none) to 4294967295, not \(checkpointInterval)")
        }
        if compressionLevel < -131_072 || compressionLevel > 22 {
            return fail("compressionLevel must be from -131072 to 22, not \(compressionLevel)")
        }
        // Permission bits only: a setuid, setgid or sticky bit on a log is no one's intent.
        // Checked where a log is created (`checkingInterval`): appending uses neither.
        if checkingInterval, filePermissions & ~0o777 != 0 {
            return fail("filePermissions must be permission bits (within 0o777), not 0o\(String(filePermissions, radix: 8))")
        }
        if case .interval(let ms) = durability, ms < 0 {
            return fail("durability .interval(milliseconds:) must not be negative, not \(ms)")
        }
        return nil
    }
}

/// What the recorder lets wait between the callers and the writer thread.
extension Recorder {
    /// Events the writer thread may fall behind the callers before `append` waits for it
    /// (two batches' worth at the default `batchEvents`; about 600 KB of slots).
    static let queueCapacity = 8192

    /// Offered checkpoint states the writer thread may have still to take before an
    /// append that offers another waits for it. Each is a whole copy of the state once
    /// the engine changes it; at the default interval no more than two are ever waiting.
    static let pendingStates = 4

    /// The bytes of lists and strings, as the log encodes them (`Event.fieldBytes`; a few
    /// times that in memory), that the events waiting in the queue may hold before an
    /// append waits for the writer to take them: 8,192 reloads of 500,000 heights each
    /// would otherwise wait there, gigabytes, while a slow disk holds the writer. Each
    /// thread appending at once may add one event past it.
    static let queueWeight = 16 << 20
}
