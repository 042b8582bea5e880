import SelectLog

/// A log opened for reading: sequential iteration, `events(from:)`, and
/// `state(at:)` through the nearest checkpoint.
///
/// Opening keeps every complete record; a torn tail (a crash mid-write) is noted
/// in `tail` and otherwise ignored. Damage before the end is an error that names
/// its byte offset: it is never skipped silently.
///
/// ```swift
/// let log = try LogReader(path: "session.slog")
/// let state = try log.state(at: 1_000)        // nearest checkpoint + at most K events
/// for (index, event) in try log.events(from: 990) { … }
/// ```
public final class LogReader: Sendable {
    /// The log's path.
    public let path: String
    /// The file header (format version, salt, checkpoint interval, behaviour fingerprint).
    package let header: FileHeader
    /// Every record, in file order.
    package let records: [RecordInfo]
    /// Events in the log.
    public let eventCount: Int
    /// A torn tail that was left out, if any.
    public let tail: LogProblem?
    /// The file's size in bytes.
    public var fileSize: Int { file.bytes.count }
    /// Whether the seek index came from the file's index record (a clean close) rather than a scan.
    public let usedStoredIndex: Bool
    /// Whether this build's engine behaves as the one that wrote the log (same behaviour
    /// fingerprint). When false, the log's checkpoints hold another engine's states:
    /// `state(at:)` never uses them and replays from the start instead.
    public let checkpointsTrusted: Bool
    /// The engine that replays the log (the standard one outside tests).
    package let engine: EngineBehaviour
    /// States this build computed at checkpoint positions, when the log's own
    /// checkpoints are not trusted.
    let rebuilt = RebuiltCheckpoints()

    let file: MappedFile
    /// Positions in `records` of the batches and of the checkpoints (indices, not copies:
    /// a 10M-event log has some 80,000 records).
    private let batchSlots: [Int32]
    private let checkpointSlots: [Int32]
    private var batches: Slots { Slots(records: records, slots: batchSlots) }
    private var checkpoints: Slots { Slots(records: records, slots: checkpointSlots) }

    /// A view of some records through their positions.
    private struct Slots {
        let records: [RecordInfo]
        let slots: [Int32]
        var count: Int { slots.count }
        var last: RecordInfo? { slots.last.map { records[Int($0)] } }
        subscript(i: Int) -> RecordInfo { records[Int(slots[i])] }
    }
    /// The zstd context, one per reader: reads from several tasks take turns with it.
    private let decompressor: LockedBox<ZstdDecompressor?>

    /// Opens the log at `path` for reading with this build's engine.
    public convenience init(path: String) throws(LogError) {
        try self.init(path: path, engine: .standard)
    }

    /// Opens the log at `path`, replaying with `engine`. When the engine's behaviour
    /// fingerprint differs from the log's, the log's checkpoints are not used, and a
    /// notice says so once per process on stderr.
    package init(path: String, engine: EngineBehaviour) throws(LogError) {
        self.path = path
        self.engine = engine
        file = try MappedFile(path: path)
        let bytes = file.bytes
        decompressor = LockedBox(Zstd.isAvailable ? ZstdDecompressor() : nil)
        if bytes.count > 0, bytes.count < 8, Array(bytes) == Array(LogFormat.magic.prefix(bytes.count)) {
            // A log torn inside its magic: no events.
            throw LogError(.damaged, "the file header is incomplete (no events)", path: path, offset: 0, eventIndex: 0)
        }
        if let indexed = LogIndexCheck.storedIndex(bytes) {
            header = indexed.header
            records = indexed.records
            tail = nil
            usedStoredIndex = true
        } else {
            let scan = LogScan.scan(bytes, deep: false)
            if let problem = scan.problem, !problem.isTornTail || scan.header == nil {
                throw LogError(scan.header == nil && problem.offset == 0 && !problem.isTornTail ? .notALog : .damaged,
                               "\(problem.reason) (\(scan.eventCount) intact events before it)",
                               path: path, offset: problem.offset, eventIndex: scan.eventCount)
            }
            guard let h = scan.header else { throw LogError(.damaged, "no file header", path: path, offset: 0) }
            header = h
            records = scan.records
            tail = scan.problem
            usedStoredIndex = false
        }
        if usedStoredIndex, let index = records.last { file.release(index.offset..<index.end) }
        try LogReader.sweepPayloads(records, file, salt: header.salt, storedIndex: usedStoredIndex, path: path)
        let all = records
        batchSlots = all.indices.filter { all[$0].header.kind == .batch }.map { Int32($0) }
        checkpointSlots = all.indices.filter { all[$0].header.kind == .checkpoint }.map { Int32($0) }
        let lastBatch = batchSlots.last.map { all[Int($0)] }
        eventCount = lastBatch.map { $0.header.firstEvent + $0.header.eventCount } ?? 0
        checkpointsTrusted = header.behaviour != nil && header.behaviour == engine.fingerprint
        if !checkpointsTrusted && !checkpointSlots.isEmpty && engine.isStandard {
            BehaviourNotice.sayOnce(BehaviourNotice.untrusted(path: path, recorded: header.behaviour))
        }
    }

    /// Checks every record's payload checksum (and, with a stored index, every record
    /// header against its entry) before any read, so that no read answers from beyond a
    /// damaged record: a checkpoint past the damage must not hide it. Checksums only, no
    /// decompression; the pages behind the sweep are released as it goes.
    private static func sweepPayloads(_ records: [RecordInfo], _ file: MappedFile, salt: UInt64,
                                      storedIndex: Bool, path: String) throws(LogError) {
        let bytes = file.bytes
        var events = 0
        for (k, info) in records.enumerated() {
            let why: String?
            if storedIndex, let disagreement = LogIndexCheck.disagreement(info, bytes, salt: salt) {
                why = "the seek index disagrees with the file: \(disagreement); run `selectlog verify`"
            } else {
                let start = info.offset + LogFormat.recordHeaderSize
                if info.offset < 0 || start > info.end || info.end > bytes.count {
                    why = "record runs past the end of the file"
                } else if CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[start..<info.end]), salt: salt) != info.payloadChecksum {
                    why = "record payload checksum mismatch"
                } else {
                    why = nil
                }
            }
            if let why {
                throw LogError(.damaged, "\(why) (\(events) intact events before it)",
                               path: path, offset: info.offset, eventIndex: events)
            }
            if info.header.kind == .batch { events = info.header.firstEvent + info.header.eventCount }
            if k % 64 == 63 { file.release(upTo: info.end) }
        }
        file.release(upTo: records.last?.end ?? 0)
    }

    // MARK: Records

    /// The raw payload of `info`, checksum verified first. When the record came from the
    /// stored index, its header in the file is checked against the index entry first.
    func payload(_ info: RecordInfo) throws(LogError) -> [UInt8] {
        if usedStoredIndex, let why = LogIndexCheck.disagreement(info, file.bytes, salt: header.salt) {
            throw LogError(.damaged, "the seek index disagrees with the file: \(why); run `selectlog verify`",
                           path: path, offset: info.offset, eventIndex: info.header.firstEvent)
        }
        let salt = header.salt, bytes = file.bytes
        switch decompressor.withLockedValue({ LogScan.payload(info, bytes, salt: salt, $0) }) {
        case .success(let raw):
            file.release(info.offset..<info.end)
            return raw
        case .failure(var e):
            e.path = path
            e.eventIndex = info.header.firstEvent
            throw e
        }
    }

    /// The batch holding event `index`.
    func batchIndex(containing index: Int) -> Int? {
        var lo = 0, hi = batches.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if batches[mid].header.firstEvent + batches[mid].header.eventCount <= index { lo = mid + 1 } else { hi = mid }
        }
        return lo < batches.count ? lo : nil
    }

    /// Calls `body` with each event's index and the event, from `start` up to (not
    /// including) `end`, decoding one batch at a time; stops when `body` returns false.
    public func forEachEvent(from start: Int = 0, to end: Int? = nil,
                             _ body: (Int, TimedEvent) throws(LogError) -> Bool) throws(LogError) {
        let end = min(end ?? eventCount, eventCount)
        guard start < end, var b = batchIndex(containing: start) else { return }
        while b < batches.count {
            let batch = batches[b]
            var decoder = BinaryEventDecoder(try payload(batch), baseTime: batch.header.baseTime, version: header.version)
            var index = batch.header.firstEvent
            while true {
                let next: TimedEvent?
                do throws(BinaryError) {
                    next = try decoder.next()
                } catch {
                    throw batchError(error, decoder, batch, index)
                }
                guard let e = next else { break }
                if index >= end { return }
                if index >= start, try !body(index, e) { return }
                index += 1
            }
            guard index == batch.header.firstEvent + batch.header.eventCount else {
                throw LogError(.damaged, "batch holds \(index - batch.header.firstEvent) events, its header says \(batch.header.eventCount)",
                               path: path, offset: batch.offset, eventIndex: batch.header.firstEvent)
            }
            if b % 64 == 63 { file.release(upTo: batch.end) }
            b += 1
        }
    }

    /// Events `start..<end` as an array.
    public func events(from start: Int = 0, to end: Int? = nil) throws(LogError) -> [TimedEvent] {
        var out: [TimedEvent] = []
        try forEachEvent(from: start, to: end) { _, e in
            out.append(e)
            return true
        }
        return out
    }

    /// The checkpoint with the most events, at most `n`.
    func checkpoint(atOrBefore n: Int) -> RecordInfo? {
        var lo = 0, hi = checkpoints.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if checkpoints[mid].header.firstEvent <= n { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? checkpoints[lo - 1] : nil
    }

    /// The state after the first `n` events: the nearest checkpoint at or before `n`,
    /// then at most one checkpoint interval of events replayed. A checkpoint is checked
    /// against its header and the state's invariants before use; when the log was written
    /// by an engine that behaves differently, this build's own states are used instead
    /// (replayed from the start once, then kept in memory at checkpoint positions).
    public func state(at n: Int) throws(LogError) -> TableState {
        guard n >= 0, n <= eventCount else {
            throw LogError(.outOfRange, "the log has \(eventCount) events, not \(n)", path: path, eventIndex: n)
        }
        if !checkpointsTrusted { return try rebuiltState(at: n) }
        var state = TableState()
        if let c = checkpoint(atOrBefore: n) { state = try checkpointState(c) }
        try replay(into: &state, to: n)
        return state
    }

    /// The state a checkpoint holds, checked against its header and the state's invariants.
    func checkpointState(_ c: RecordInfo) throws(LogError) -> TableState {
        let raw = try payload(c)
        let state: TableState
        do throws(SnapshotError) {
            state = try TableState(snapshot: raw)
        } catch {
            throw LogError(.damaged, "checkpoint: \(error.description)", path: path, offset: c.offset, eventIndex: c.header.firstEvent)
        }
        if let why = LogScan.checkpointMismatch(state, c.header) {
            throw LogError(.damaged, why, path: path, offset: c.offset, eventIndex: c.header.firstEvent)
        }
        return state
    }

    /// Applies events `state.events..<n` to `state`.
    public func replay(into state: inout TableState, to n: Int) throws(LogError) {
        try forEachEvent(from: state.events, to: n) { (index, e) throws(LogError) -> Bool in
            try apply(e, index: index, to: &state, validated: true)
            return true
        }
    }

    /// Applies logged event `index` to `state`. A logged event was valid when it was
    /// recorded, so a rejection means the log (or the engine) is wrong: `.damaged`.
    public func apply(_ e: TimedEvent, index: Int, to state: inout TableState) throws(LogError) {
        try apply(e, index: index, to: &state, validated: false)
    }

    /// `validated`: `e` came from `forEachEvent`, whose decoder validated it.
    private func apply(_ e: TimedEvent, index: Int, to state: inout TableState, validated: Bool) throws(LogError) {
        do throws(InvalidEvent) {
            // The standard engine skips working out `TableChanges`, which replay discards.
            if engine.isStandard {
                if validated { try state.applyValidated(e) } else { try state.applyDiscardingChanges(e) }
            } else {
                try engine.apply(e, to: &state)
            }
        } catch {
            throw LogError(.damaged, "logged event is rejected by the engine: \(error)", path: path, eventIndex: index, invalidEvent: error)
        }
    }

    /// The error for a batch that does not decode: `.unsupported` ("written by a newer
    /// selectlog") when it holds an event type or fields this reader does not know.
    func batchError(_ error: BinaryError, _ decoder: BinaryEventDecoder, _ batch: RecordInfo, _ index: Int) -> LogError {
        if decoder.isNewer { return LogError(.unsupported, error.reason, path: path, offset: batch.offset, eventIndex: index) }
        return LogError(.damaged, "batch does not decode: \(error)", path: path, offset: batch.offset, eventIndex: index)
    }
}
