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
public final class LogReader {
    public let path: String
    public let header: FileHeader
    /// Every record, in file order.
    public let records: [RecordInfo]
    /// Events in the log.
    public let eventCount: Int
    /// A torn tail that was left out, if any.
    public let tail: LogProblem?
    /// The file's size in bytes.
    public var fileSize: Int { file.bytes.count }
    /// Whether the seek index came from the file's index record (a clean close) rather than a scan.
    public let usedStoredIndex: Bool

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
    private let decompressor: ZstdDecompressor?

    public init(path: String) throws(LogError) {
        self.path = path
        file = try MappedFile(path: path)
        let bytes = file.bytes
        decompressor = ZstdDecompressor()
        if bytes.count > 0, bytes.count < 8, Array(bytes) == Array(LogFormat.magic.prefix(bytes.count)) {
            // A log torn inside its magic: no events.
            throw LogError(.damaged, "the file header is incomplete (no events)", path: path, offset: 0, eventIndex: 0)
        }
        if let indexed = LogReader.storedIndex(bytes) {
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
        let all = records
        batchSlots = all.indices.filter { all[$0].header.kind == .batch }.map { Int32($0) }
        checkpointSlots = all.indices.filter { all[$0].header.kind == .checkpoint }.map { Int32($0) }
        let lastBatch = batchSlots.last.map { all[Int($0)] }
        eventCount = lastBatch.map { $0.header.firstEvent + $0.header.eventCount } ?? 0
    }

    /// The index record at the end of a cleanly closed log, if it is there and sound.
    private static func storedIndex(_ bytes: UnsafeRawBufferPointer) -> (header: FileHeader, records: [RecordInfo])? {
        let n = bytes.count
        guard n >= LogFormat.fileHeaderSize + LogFormat.recordHeaderSize + 16,
              Array(bytes[(n - 8)..<n]) == LogFormat.indexTrailerMagic,
              case .success(let header) = FileHeader.decode(bytes) else { return nil }
        var offset = 0
        for k in 0..<8 { offset |= Int(bytes[n - 16 + k]) << (8 * k) }
        guard offset >= LogFormat.fileHeaderSize, offset + LogFormat.recordHeaderSize <= n,
              case .success(let (h, checksum)) = RecordHeader.decode(
                UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + LogFormat.recordHeaderSize]), salt: header.salt),
              h.kind == .index else { return nil }
        let info = RecordInfo(offset: offset, header: h, payloadChecksum: checksum)
        guard info.end == n, case .success(let raw) = LogScan.payload(info, bytes, salt: header.salt, nil),
              var records = LogIndex.decode(raw, at: offset) else { return nil }
        records.append(info)
        return (header, records)
    }

    // MARK: Records

    /// The raw payload of `info`, checksum verified first.
    func payload(_ info: RecordInfo) throws(LogError) -> [UInt8] {
        switch LogScan.payload(info, file.bytes, salt: header.salt, decompressor) {
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
            var decoder = BinaryEventDecoder(try payload(batch), baseTime: batch.header.baseTime)
            var index = batch.header.firstEvent
            while true {
                let next: TimedEvent?
                do throws(BinaryError) {
                    next = try decoder.next()
                } catch {
                    throw LogError(.damaged, "batch does not decode: \(error)", path: path, offset: batch.offset, eventIndex: index)
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
    /// then at most one checkpoint interval of events replayed.
    public func state(at n: Int) throws(LogError) -> TableState {
        guard n >= 0, n <= eventCount else {
            throw LogError(.outOfRange, "the log has \(eventCount) events, not \(n)", path: path, eventIndex: n)
        }
        var state = TableState()
        if let c = checkpoint(atOrBefore: n) {
            let raw = try payload(c)
            do throws(SnapshotError) {
                state = try TableState(snapshot: raw)
            } catch {
                throw LogError(.damaged, error.description, path: path, offset: c.offset, eventIndex: c.header.firstEvent)
            }
        }
        try replay(into: &state, to: n)
        return state
    }

    /// Applies events `state.events..<n` to `state`.
    public func replay(into state: inout TableState, to n: Int) throws(LogError) {
        try forEachEvent(from: state.events, to: n) { (index, e) throws(LogError) -> Bool in
            try apply(e, index: index, to: &state)
            return true
        }
    }

    /// Applies logged event `index` to `state`. A logged event was valid when it was
    /// recorded, so a rejection means the log (or the engine) is wrong: `.damaged`.
    public func apply(_ e: TimedEvent, index: Int, to state: inout TableState) throws(LogError) {
        do throws(InvalidEvent) {
            try state.apply(e)
        } catch {
            throw LogError(.damaged, "logged event is rejected by the engine: \(error)", path: path, eventIndex: index, invalidEvent: error)
        }
    }

    /// Checks the whole file: headers, checksums, decompression, decoding, event order.
    public static func verify(path: String) throws(LogError) -> VerifyReport {
        let file = try MappedFile(path: path)
        let scan = LogScan.scan(file.bytes, deep: true)
        return VerifyReport(fileSize: file.bytes.count, intactEvents: scan.eventCount, intactBytes: scan.problem == nil ? file.bytes.count : scan.goodEnd,
                            records: scan.records.count, problem: scan.problem)
    }
}

/// What `verify` found.
public struct VerifyReport: Sendable, Equatable {
    public var fileSize: Int
    /// Events in the intact prefix.
    public var intactEvents: Int
    /// Bytes in the intact prefix (the offset of the first bad byte when damaged).
    public var intactBytes: Int
    public var records: Int
    public var problem: LogProblem?
    public var isIntact: Bool { problem == nil }
}
