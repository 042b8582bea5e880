import SelectLog

/// Lays applied events out as a log's records, the same way for every writer: a batch
/// ends at a gesture end, at `batchEvents` events, at `batchBytes` coded bytes and before
/// a checkpoint; a gesture end carries the state's gesture fingerprint; the state at
/// every multiple of the checkpoint interval is offered, and written when the
/// `CheckpointPolicy` wants it, which ends the coder's window.
///
/// It only encodes. `Recorder` runs it on its writer thread (the caller's thread applies
/// the event and hands it over with what the writer needs from the state); `LogRewriter`
/// runs it on the caller's. The records it makes go to the caller, in order, to be written.
struct LogAssembler: Sendable {
    /// A record to write, in the order made.
    enum Record: Sendable {
        case batch(raw: [UInt8], first: Int, count: Int, baseTime: Micros, continues: Bool)
        /// `payload`: the state's snapshot, or (format 7) its delta from the checkpoint before.
        case checkpoint(payload: [UInt8], events: Int, t: Micros)
    }

    private var encoder: BinaryEventEncoder
    private var checkpoints: CheckpointPolicy
    private let batchEvents: Int
    private let batchBytes: Int
    /// Events added, the log's own before the assembler started included.
    private(set) var events: Int
    /// Events in batches already made.
    private(set) var sealedEvents: Int
    private var batchBaseTime: Micros
    private var batchContinues = false
    /// The log's format version: from 7 on, a checkpoint may be stored as a delta.
    private let version: UInt16
    /// The last checkpoint this assembler wrote, the base of the next one's delta (none
    /// yet: the next checkpoint is stored whole, as after a reopen).
    private var previous: SnapshotDelta.Resolved?

    /// Starts after `events` events at time `time`, in a log of format `version`.
    /// `since`: the events and coded bytes after the log's last checkpoint (a reopened log).
    init(events: Int, time: Micros, version: UInt16, checkpointInterval: Int, putsOffLargeCheckpoints: Bool,
         since: (events: Int, bytes: Int) = (0, 0), batchEvents: Int, batchBytes: Int = .max) {
        encoder = BinaryEventEncoder(baseTime: time, version: version)
        checkpoints = CheckpointPolicy(interval: checkpointInterval, putsOff: putsOffLargeCheckpoints,
                                       events: since.events, bytes: since.bytes)
        // At most the format's limit, which a reader holds a batch to: a batch of more
        // events made a log whose every event was refused.
        self.batchEvents = Swift.min(Swift.max(1, batchEvents), LogFormat.Limits.batchEvents)
        self.batchBytes = Swift.min(batchBytes, Self.batchByteCap)
        self.events = events
        self.sealedEvents = events
        self.batchBaseTime = time
        self.version = version
    }

    /// The most coded bytes a batch holds before the event that ends it, whatever
    /// `batchBytes` says: with that event (at most `EventLimits.eventBytes` of fields,
    /// which the range coder expands at most tenfold) a batch stays within the format's
    /// record limit (`LogFormat.Limits.payloadBytes`, 16 MiB), so every batch is one a
    /// reader takes.
    static let batchByteCap = 4 << 20

    /// Whether a writer offers the state after `count` events as a checkpoint: at every
    /// multiple of `interval`. The policy decides whether it is written.
    @inline(__always)
    static func offersCheckpoint(after count: Int, interval: Int) -> Bool {
        interval > 0 && count % interval == 0
    }

    /// The first count above `events` after which `offersCheckpoint` says yes (the next
    /// multiple of `interval`; never, for an interval of 0), for a caller that counts up
    /// to it rather than dividing at every event.
    static func nextOffer(after events: Int, interval: Int) -> Int {
        guard interval > 0 else { return .max }
        let (next, overflow) = (events / interval + 1).multipliedReportingOverflow(by: interval)
        return overflow ? .max : next
    }

    /// Events added but not yet in a batch.
    var unsealed: Int { events - sealedEvents }

    /// Adds `event`, which the engine applied at time `before` (the state's time before
    /// it). `gestureFingerprint`: the state's, when the event ended a gesture.
    /// `offered`: the state after the event, when `offersCheckpoint` says so (nil otherwise).
    mutating func add(_ event: TimedEvent, before: Micros, gestureFingerprint: UInt32?, offered: TableState?,
                      into records: inout [Record]) {
        if events == sealedEvents {
            batchContinues = encoder.startBatch(baseTime: before)
            batchBaseTime = before
        }
        encoder.append(event)
        if let gestureFingerprint { encoder.appendGestureFingerprint(gestureFingerprint) }
        // Wrapping arithmetic on the counts (they never near Int.max): no overflow checks per event.
        events &+= 1
        if checkpoints.noted(eventAt: events), let offered {
            let snapshot = offered.snapshot()
            // Weighed whole, as in format 6, though most are stored as deltas: a checkpoint
            // ends the coder's window, and a checkpoint at every interval (787 rather than
            // 610 in 10M standard events) made a replay from disk 4% slower.
            if checkpoints.wants(snapshot, pending: encoder.byteCount) {
                let (payload, depth) = checkpointPayload(snapshot)
                seal(into: &records)
                checkpoints.written()
                records.append(.checkpoint(payload: payload, events: offered.events, t: offered.t))
                previous = SnapshotDelta.Resolved(offset: 0, events: offered.events, depth: depth, bytes: snapshot)
                encoder.endWindow()
                return
            }
        }
        if events &- sealedEvents >= batchEvents || encoder.byteCount >= batchBytes || gestureFingerprint != nil {
            seal(into: &records)
        }
    }

    /// What a checkpoint of `snapshot` stores, and its depth: the changes from the last
    /// checkpoint written, when the format has them, the chain is not at its deepest and
    /// they take under half the snapshot; else the snapshot.
    private func checkpointPayload(_ snapshot: [UInt8]) -> (payload: [UInt8], depth: Int) {
        if version >= LogFormat.deltaCheckpointsVersion, let previous, previous.depth < SnapshotDelta.maxDepth,
           let delta = SnapshotDelta.make(from: previous.bytes, to: snapshot, depth: previous.depth + 1, baseEvents: previous.events) {
            return (delta, previous.depth + 1)
        }
        return (snapshot, 0)
    }

    /// Ends the current batch, if it holds any event.
    mutating func seal(into records: inout [Record]) {
        let count = events - sealedEvents
        guard count > 0 else { return }
        let raw = encoder.seal(events: count)
        checkpoints.noted(batchBytes: raw.count)
        records.append(.batch(raw: raw, first: sealedEvents, count: count, baseTime: batchBaseTime, continues: batchContinues))
        sealedEvents = events
    }
}

extension LogFile {
    /// Appends `records`, in order, each compressed by `compressor` where that makes it
    /// smaller (as `append(_:payload:…)` does), with one write for all of them, or one
    /// per `writeChunk` bytes of them.
    ///
    /// The bytes are those of one write per record, which the writer made before
    /// 2026-12-06: a write system call per record (a gesture's batch, about 75 bytes)
    /// was 8% of the recorder's writer thread (perf, the standard session). A write that
    /// fails writes none of its records, as a full disk fails one record; the writer stops
    /// for good either way, and what it acknowledged before is in the file.
    func append(_ records: [LogAssembler.Record], compressor: ZstdCompressor?) throws(LogError) {
        guard !records.isEmpty else { return }
        // Room for the records as they come (a zstd checkpoint shrinks), up to a chunk.
        var laidOut = 0
        for record in records {
            switch record {
            case .batch(let raw, _, _, _, _): laidOut += LogFormat.recordHeaderSize + raw.count
            case .checkpoint(let payload, _, _): laidOut += LogFormat.recordHeaderSize + payload.count
            }
        }
        var out = BinaryWriter(capacity: Swift.min(laidOut, Self.writeChunk))
        var infos: [RecordInfo] = []
        infos.reserveCapacity(records.count)
        var start = size
        for record in records {
            if out.count >= Self.writeChunk {
                try write(laidOut: out.bytes, infos)
                out.removeAll()
                infos.removeAll(keepingCapacity: true)
                start = size
            }
            let info: RecordInfo
            switch record {
            case let .batch(raw, first, count, baseTime, continues):
                info = layOut(.batch, payload: raw, firstEvent: first, eventCount: count, baseTime: baseTime,
                              continues: continues, compressor: compressor, at: start + out.count, into: &out)
            case let .checkpoint(payload, events, t):
                info = layOut(.checkpoint, payload: payload, firstEvent: events, eventCount: 0, baseTime: t,
                              continues: false, compressor: compressor, at: start + out.count, into: &out)
            }
            infos.append(info)
        }
        try write(laidOut: out.bytes, infos)
    }

    /// The most bytes `append(_:compressor:)` lays out before it writes them: a round of
    /// the recorder's writer is a few kilobytes, but a reload of a large table is megabytes.
    static let writeChunk = 1 << 20
}
