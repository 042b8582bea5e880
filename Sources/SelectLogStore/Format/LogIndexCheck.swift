import SelectLog

/// Checks a stored seek index before the reader relies on it: the trailer's offset
/// against the file's size, the index record's header and checksum, and every entry
/// against the format's limits and its neighbours (records are contiguous, batches in
/// sequence, checkpoints where the events are). The entries are read one at a time
/// where they lie in the mapping, never copied into an array, so checking an index
/// costs no memory however long the log. An index that fails is ignored (the reader
/// walks the record headers instead).
enum LogIndexCheck {
    /// A sound stored index: the file header, the events its batches hold, and the
    /// index record itself (the first byte after the last data record is its offset).
    struct Found {
        var header: FileHeader
        var eventCount: Int
        var index: RecordInfo
    }

    /// The index record at the end of a cleanly closed log, if it is there and sound.
    /// `release(range)` is called now and then with a range of the file the check has
    /// passed (a long index is megabytes), so that its pages can be dropped.
    static func storedIndex(_ bytes: UnsafeRawBufferPointer, release: ((Range<Int>) -> Void)? = nil) -> Found? {
        guard let (header, info) = indexRecord(bytes) else { return nil }
        let start = info.offset + LogFormat.recordHeaderSize
        let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<info.end])
        var released = start
        let passed = { (offset: Int) in
            guard offset > released else { return }
            release?(released..<offset)
            released = offset
        }
        guard checksum(payload, salt: header.salt, release: { passed(start + $0) }) == info.payloadChecksum,
              var entries = LogIndex.Entries(payload, at: info.offset, version: header.version) else { return nil }
        released = start
        var check = Structure(start: header.size)
        var last: IndexEntry?
        while let next = entries.next() {
            guard let r = next, check.add(r, end: info.offset) == nil else { return nil }
            last = r
            if entries.read % 65_536 == 0 { passed(start + entries.at) }
        }
        guard check.finish(end: info.offset) == nil else { return nil }
        if let last, !matchesRecords(last, bytes, header: header, end: info.offset) { return nil }
        return Found(header: header, eventCount: check.events, index: info)
    }

    /// Whether the last entry says what the records it lists say: the header at its offset
    /// (kind, first event, lengths, checksum) and, walked, the continued batches after it
    /// up to the index. The entries' first events are running sums, so this pins the
    /// index's event count to the records, at the cost of one window's headers; the
    /// records before are checked against each other as reads reach them.
    static func matchesRecords(_ last: IndexEntry, _ bytes: UnsafeRawBufferPointer, header: FileHeader, end: Int) -> Bool {
        let r = last.record
        let continued = header.version >= LogFormat.continuedBatchesVersion
        guard case .success(let (h, checksum)) = RecordHeader.decode(in: bytes, at: r.offset, end: end, salt: header.salt,
                                                                     events: r.header.firstEvent, continued: continued),
              !h.continues, h == r.header, checksum == r.payloadChecksum else { return false }
        var walked = IndexEntry(RecordInfo(offset: r.offset, header: h, payloadChecksum: checksum))
        var offset = walked.record.end
        var events = h.firstEvent + h.eventCount
        while offset < end {
            guard h.kind == .batch,
                  case .success(let (b, c)) = RecordHeader.decode(in: bytes, at: offset, end: end, salt: header.salt,
                                                                  events: events, continued: continued),
                  b.continues else { return false }
            let info = RecordInfo(offset: offset, header: b, payloadChecksum: c)
            guard info.end <= end else { return false }
            walked.add(continued: info)
            offset = info.end
            events += b.eventCount
        }
        return walked == last
    }

    /// The salted checksum of `bytes`, a megabyte at a time, calling `release` with how
    /// far it got after each.
    static func checksum(_ bytes: UnsafeRawBufferPointer, salt: UInt64, release: ((Int) -> Void)?) -> UInt32 {
        var crc = CRC32C.checksum(UnsafeRawBufferPointer(start: nil, count: 0), salt: salt)
        var done = 0
        while done < bytes.count {
            let next = Swift.min(bytes.count, done + (1 << 20))
            crc = CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: bytes[done..<next]))
            done = next
            release?(done)
        }
        return crc
    }

    /// The file header and the index record the trailer names, when the trailer's offset
    /// is in range and a verified index record that ends at the end of the file is there.
    /// Its payload is not checked.
    static func indexRecord(_ bytes: UnsafeRawBufferPointer) -> (FileHeader, RecordInfo)? {
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
              h.kind == .index, h.codec == LogFormat.codecRaw else { return nil }
        let info = RecordInfo(offset: offset, header: h, payloadChecksum: checksum)
        guard info.end == n, h.storedLength >= 16 else { return nil }
        return (header, info)
    }

    /// Whether the record at `offset`, whose header fails its checks, is the seek index
    /// all the same: the trailer names it, and its payload, read as an index, lists
    /// exactly the records before it (contiguous, in sequence, the last one as the file
    /// has it) and `events` events. The payload's checksum is in the damaged header, so
    /// this agreement is the evidence; every event is then in the records before it, and
    /// only the index is lost (a bit flipped in its header made every read of an intact
    /// log fail, where damage to its payload was passed over).
    static func isIndexBehindDamagedHeader(_ bytes: UnsafeRawBufferPointer, at offset: Int, header: FileHeader,
                                           events: Int) -> Bool {
        let n = bytes.count
        guard offset >= header.size, offset <= n - LogFormat.recordHeaderSize - 16,
              Array(bytes[(n - 8)..<n]) == LogFormat.indexTrailerMagic else { return false }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + LogFormat.recordHeaderSize)..<n])
        // `Entries` also checks that the trailer's own offset is `offset`.
        guard var entries = LogIndex.Entries(payload, at: offset, version: header.version) else { return false }
        var check = Structure(start: header.size)
        var last: IndexEntry?
        while let next = entries.next() {
            guard let r = next, check.add(r, end: offset) == nil else { return false }
            last = r
        }
        guard check.finish(end: offset) == nil, check.events == events else { return false }
        return last.map { matchesRecords($0, bytes, header: header, end: offset) } ?? true
    }

    /// The structure rules for the records between the file header and the index,
    /// checked one record at a time.
    struct Structure {
        private var expected: Int
        private var k = 0
        /// Events in the batches so far.
        private(set) var events = 0

        init(start: Int) { expected = start }

        /// Why the records of `entry`, the next entry, cannot follow the ones before it, or nil.
        mutating func add(_ entry: IndexEntry, end: Int) -> String? {
            defer { k += 1 }
            let r = entry.record
            if r.offset != expected { return "entry \(k) is at byte offset \(r.offset), the record before it ends at \(expected)" }
            if let why = r.header.limitViolation { return "entry \(k): \(why)" }
            switch r.header.kind {
            case .index: return "entry \(k) lists an index record"
            case .batch:
                if r.header.firstEvent != events || r.header.eventCount == 0 {
                    return "entry \(k) is a batch of events \(r.header.firstEvent)+\(r.header.eventCount), expected a batch after \(events) events"
                }
                // Each continued batch holds 1 to 2^20 events in a 16-byte header and at most 16 MiB.
                if entry.continuedEvents > entry.continued * LogFormat.Limits.batchEvents
                    || entry.continuedBytes > entry.continued * (LogFormat.continuedHeaderSize + LogFormat.Limits.payloadBytes) {
                    return "entry \(k) claims \(entry.continued) continued batches of \(entry.continuedEvents) events in \(entry.continuedBytes) bytes"
                }
                events += entry.events
            case .checkpoint:
                if r.header.firstEvent != events { return "entry \(k) is a checkpoint after \(r.header.firstEvent) events, expected \(events)" }
                if entry.continued != 0 { return "entry \(k) is a checkpoint with continued batches" }
            }
            expected = entry.end
            if expected > end { return "entry \(k) ends at byte offset \(expected), past the index at \(end)" }
            return nil
        }

        /// Why the records so far do not end exactly at `end`, or nil.
        func finish(end: Int) -> String? {
            expected == end ? nil : "the records end at byte offset \(expected), the index is at \(end)"
        }
    }
}
