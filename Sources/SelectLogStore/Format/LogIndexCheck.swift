import SelectLog

/// Checks a stored seek index before the reader relies on it: the trailer's offset
/// against the file's size, every entry against the format's limits and its
/// neighbours (records are contiguous, batches in sequence, checkpoints where the
/// events are), and, lazily when a record is first read, against the record header it
/// points at. An index that fails the first checks is ignored (the reader scans).
enum LogIndexCheck {
    /// The index record at the end of a cleanly closed log, if it is there and sound.
    static func storedIndex(_ bytes: UnsafeRawBufferPointer) -> (header: FileHeader, records: [RecordInfo])? {
        let n = bytes.count
        guard n >= LogFormat.fileHeaderSizeV1, case .success(let header) = FileHeader.decode(bytes),
              n >= header.size + LogFormat.recordHeaderSize + 16,
              Array(bytes[(n - 8)..<n]) == LogFormat.indexTrailerMagic else { return nil }
        var stored: UInt64 = 0
        for k in 0..<8 { stored |= UInt64(bytes[n - 16 + k]) << (8 * k) }
        // Compared as unsigned before any arithmetic: a forged offset cannot overflow.
        guard stored >= UInt64(header.size), stored <= UInt64(n - LogFormat.recordHeaderSize - 16) else { return nil }
        let offset = Int(stored)
        guard case .success(let (h, checksum)) = RecordHeader.decode(
                UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + LogFormat.recordHeaderSize]), salt: header.salt),
              h.kind == .index else { return nil }
        let info = RecordInfo(offset: offset, header: h, payloadChecksum: checksum)
        guard info.end == n, case .success(let raw) = LogScan.payload(info, bytes, salt: header.salt, nil),
              var records = LogIndex.decode(raw, at: offset),
              structureProblem(records, start: header.size, end: offset) == nil else { return nil }
        records.append(info)
        return (header, records)
    }

    /// Why `records` cannot be the records between `start` and `end`, or nil.
    static func structureProblem(_ records: [RecordInfo], start: Int, end: Int) -> String? {
        var expected = start
        var events = 0
        for (k, r) in records.enumerated() {
            if r.offset != expected { return "entry \(k) is at byte offset \(r.offset), the record before it ends at \(expected)" }
            if let why = r.header.limitViolation { return "entry \(k): \(why)" }
            switch r.header.kind {
            case .index: return "entry \(k) lists an index record"
            case .batch:
                if r.header.firstEvent != events || r.header.eventCount == 0 {
                    return "entry \(k) is a batch of events \(r.header.firstEvent)+\(r.header.eventCount), expected a batch after \(events) events"
                }
                events += r.header.eventCount
            case .checkpoint:
                if r.header.firstEvent != events { return "entry \(k) is a checkpoint after \(r.header.firstEvent) events, expected \(events)" }
            }
            expected = r.end
            if expected > end { return "entry \(k) ends at byte offset \(expected), past the index at \(end)" }
        }
        return expected == end ? nil : "the records end at byte offset \(expected), the index is at \(end)"
    }

    /// Why the record header at `info.offset` does not say what the index entry `info`
    /// says, or nil when they agree.
    static func disagreement(_ info: RecordInfo, _ bytes: UnsafeRawBufferPointer, salt: UInt64) -> String? {
        guard info.offset >= 0, info.offset <= bytes.count - LogFormat.recordHeaderSize, info.end <= bytes.count else {
            return "its entry points past the end of the file"
        }
        let at = UnsafeRawBufferPointer(rebasing: bytes[info.offset..<info.offset + LogFormat.recordHeaderSize])
        switch RecordHeader.decode(at, salt: salt) {
        case .failure: return "no valid record header at the offset its entry names"
        case .success(let (h, checksum)):
            return h == info.header && checksum == info.payloadChecksum ? nil : "the record header there says something else"
        }
    }
}
