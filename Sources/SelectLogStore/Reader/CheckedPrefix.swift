/// How far a reader has checked its log, and where to find records again: every
/// checkpoint, and a batch that starts a window at least every 32 batches (some 2 KB per
/// million events). Decoding starts at such a batch: a continued batch (version 4) is
/// decoded only after the batches before it in its window.
struct CheckedPrefix {
    /// Every record before this offset is checked.
    var end: Int
    /// Events in the batches before `end`.
    var events = 0
    /// Batches before `end`.
    var batches = 0
    /// Whether the last record checked is a batch (a continued batch may follow it).
    var lastIsBatch = false
    /// Batches since the last anchor.
    private var sinceAnchor = Int.max
    /// The damage met, thrown again by every later read.
    var failure: LogError?
    /// (offset, first event) of batches that start a window, at least 32 batches apart.
    private var batchAnchors: [(offset: Int, first: Int)] = []
    /// (offset, events before it) of every checkpoint.
    private var checkpoints: [(offset: Int, first: Int)] = []

    init(end: Int) { self.end = end }

    /// Notes a record just checked.
    mutating func note(_ info: RecordInfo) {
        switch info.header.kind {
        case .batch:
            if !info.header.continues && sinceAnchor >= 32 {
                batchAnchors.append((info.offset, info.header.firstEvent))
                sinceAnchor = 0
            }
            sinceAnchor &+= 1
            batches += 1
            events = info.header.firstEvent + info.header.eventCount
        case .checkpoint:
            checkpoints.append((info.offset, info.header.firstEvent))
        case .index:
            break
        }
        lastIsBatch = info.header.kind == .batch
        end = info.end
    }

    /// The last anchor batch whose first event is at most `n`.
    func batchAnchor(atOrBefore n: Int) -> (offset: Int, first: Int)? { Self.last(batchAnchors, atOrBefore: n) }

    /// The last checkpoint after at most `n` events: its offset and the events before it.
    func checkpoint(atOrBefore n: Int) -> (offset: Int, first: Int)? { Self.last(checkpoints, atOrBefore: n) }

    /// The checkpoint checked just before the one at `offset` (a delta checkpoint's base).
    func checkpoint(before offset: Int) -> (offset: Int, first: Int)? {
        var lo = 0, hi = checkpoints.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if checkpoints[mid].offset < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? checkpoints[lo - 1] : nil
    }

    /// Every checkpoint checked so far, in order: its offset and the events before it.
    var checkpointList: [(offset: Int, first: Int)] { checkpoints }

    private static func last(_ list: [(offset: Int, first: Int)], atOrBefore n: Int) -> (offset: Int, first: Int)? {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].first <= n { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? list[lo - 1] : nil
    }

    /// The first record before `end` whose payload checksum (or anything else `problem`
    /// checks) fails: its offset, why, and the events before it; nil when all pass. For a
    /// log whose header walk failed at `end` (`LogReader`'s open). Stops at an index
    /// record (the walk's own problem then comes first) and releases the pages behind it.
    static func firstProblem(_ bytes: UnsafeRawBufferPointer, header: FileHeader, before end: Int,
                             release: (Range<Int>) -> Void) -> (offset: Int, reason: String, events: Int)? {
        let continued = header.version >= LogFormat.continuedBatchesVersion
        var at = header.size, events = 0, afterBatch = false, released = at
        while at < end, end <= bytes.count, end - at > 3, bytes[at + 3] != RecordKind.index.rawValue {
            var next: RecordInfo?
            if let why = problem(at: at, bytes, salt: header.salt, dataEnd: end, events: events,
                                 continued: continued, afterBatch: afterBatch, then: { next = $0 }) {
                return (at, why, events)
            }
            guard let info = next else { return nil }
            if info.header.kind == .batch { events += info.header.eventCount }
            afterBatch = info.header.kind == .batch
            at = info.end
            if at - released >= MappedFile.releaseBlock {
                release(released..<at)
                released = at
            }
        }
        return nil
    }

    /// Why the record at `offset` is not the next one after `events` events, whole and
    /// intact, before `dataEnd`; nil when it is, after calling `then` with it. `continued`:
    /// the log may hold continued batches (version 4); `afterBatch`: the record before is
    /// a batch, which a continued batch must follow.
    static func problem(at offset: Int, _ bytes: UnsafeRawBufferPointer, salt: UInt64, dataEnd: Int, events: Int,
                        continued: Bool, afterBatch: Bool, then: (RecordInfo) -> Void) -> String? {
        guard dataEnd <= bytes.count else { return "incomplete record header" }
        let info: RecordInfo
        switch RecordHeader.decode(in: bytes, at: offset, end: dataEnd, salt: salt, events: events, continued: continued) {
        case .failure(let box):
            switch box.problem {
            case .incomplete: return "incomplete record header"
            case .badMagic: return "not a record header (bad magic)"
            case .badChecksum: return "record header checksum mismatch"
            case .badField(let why): return why
            }
        case .success(let (h, checksum)):
            info = RecordInfo(offset: offset, header: h, payloadChecksum: checksum)
        }
        if info.end > dataEnd { return "record runs past the end of the records" }
        switch info.header.kind {
        case .batch:
            if info.header.firstEvent != events { return "batch starts after \(info.header.firstEvent) events, expected after \(events)" }
            if info.header.eventCount == 0 { return "empty batch" }
            if info.header.continues && !afterBatch { return "a continued batch must follow a batch" }
        case .checkpoint:
            if info.header.firstEvent != events { return "checkpoint of event \(info.header.firstEvent) after \(events) events" }
        case .index:
            return "an index record before the end of the log"
        }
        let stored = UnsafeRawBufferPointer(rebasing: bytes[info.payloadStart..<info.end])
        if CRC32C.checksum(stored, salt: salt) != info.payloadChecksum { return "record payload checksum mismatch" }
        then(info)
        return nil
    }
}
