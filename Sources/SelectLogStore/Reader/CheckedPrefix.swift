/// How far a reader has checked its log, and where to find records again: every
/// checkpoint and every 32nd batch (some 2 KB per million events).
struct CheckedPrefix {
    /// Every record before this offset is checked.
    var end: Int
    /// Events in the batches before `end`.
    var events = 0
    /// Batches before `end`.
    var batches = 0
    /// The damage met, thrown again by every later read.
    var failure: LogError?
    /// (offset, first event) of the 0th, 32nd, 64th, … batch.
    private var batchAnchors: [(offset: Int, first: Int)] = []
    /// (offset, events before it) of every checkpoint.
    private var checkpoints: [(offset: Int, first: Int)] = []

    init(end: Int) { self.end = end }

    /// Notes a record just checked.
    mutating func note(_ info: RecordInfo) {
        switch info.header.kind {
        case .batch:
            if batches % 32 == 0 { batchAnchors.append((info.offset, info.header.firstEvent)) }
            batches += 1
            events = info.header.firstEvent + info.header.eventCount
        case .checkpoint:
            checkpoints.append((info.offset, info.header.firstEvent))
        case .index:
            break
        }
        end = info.end
    }

    /// The offset of the last anchor batch whose first event is at most `n`.
    func batchAnchor(atOrBefore n: Int) -> Int? { Self.last(batchAnchors, atOrBefore: n) }

    /// The offset of the last checkpoint after at most `n` events.
    func checkpoint(atOrBefore n: Int) -> Int? { Self.last(checkpoints, atOrBefore: n) }

    private static func last(_ list: [(offset: Int, first: Int)], atOrBefore n: Int) -> Int? {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].first <= n { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? list[lo - 1].offset : nil
    }

    /// Why the record at `offset` is not the next one after `events` events, whole and
    /// intact, before `dataEnd`; nil when it is, after calling `then` with it.
    static func problem(at offset: Int, _ bytes: UnsafeRawBufferPointer, salt: UInt64, dataEnd: Int, events: Int,
                        then: (RecordInfo) -> Void) -> String? {
        guard dataEnd - offset >= LogFormat.recordHeaderSize, dataEnd <= bytes.count else { return "incomplete record header" }
        let info: RecordInfo
        switch RecordHeader.decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + LogFormat.recordHeaderSize]), salt: salt) {
        case .failure(let box):
            switch box.problem {
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
        case .checkpoint:
            if info.header.firstEvent != events { return "checkpoint of event \(info.header.firstEvent) after \(events) events" }
        case .index:
            return "an index record before the end of the log"
        }
        let stored = UnsafeRawBufferPointer(rebasing: bytes[(offset + LogFormat.recordHeaderSize)..<info.end])
        if CRC32C.checksum(stored, salt: salt) != info.payloadChecksum { return "record payload checksum mismatch" }
        then(info)
        return nil
    }
}
