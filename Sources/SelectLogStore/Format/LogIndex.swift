import SelectLog

/// One entry of the seek index: a record, and, for a batch that starts a window in
/// version 4, the continued batches that follow it (one entry per window, not per batch).
struct IndexEntry: Sendable, Equatable {
    var record: RecordInfo
    /// Continued batches after `record`, their bytes (headers included) and their events.
    var continued = 0
    var continuedBytes = 0
    var continuedEvents = 0

    init(_ record: RecordInfo) { self.record = record }

    /// Where the entry's last record ends.
    var end: Int { record.end + continuedBytes }
    /// The events in the entry's records.
    var events: Int { record.header.eventCount + continuedEvents }

    /// Adds a continued batch to the window this entry heads.
    mutating func add(continued r: RecordInfo) {
        continued += 1
        continuedBytes += r.end - r.offset
        continuedEvents += r.header.eventCount
    }
}

/// The seek index written on a clean close: every record's header fields (in version 4,
/// every record but continued batches, whose number, bytes and events are added to the
/// window's first batch), then a trailer (the index record's own offset and a magic) as
/// the last 16 bytes of the file, so that opening a cleanly closed log reads the index alone.
enum LogIndex {
    static func encode(_ entries: [IndexEntry], at offset: Int, version: UInt16) -> [UInt8] {
        var w = BinaryWriter(capacity: entries.count * 20 + 32)
        w.varint(entries.count)
        var lastOffset = 0, lastEvent = 0
        var lastTime: Int64 = 0
        for e in entries {
            let r = e.record, h = r.header
            w.u8(h.kind.rawValue)
            w.u8(h.codec)
            w.varint(r.offset - lastOffset)
            w.varint(h.firstEvent - lastEvent)
            w.varint(h.eventCount)
            w.varint(h.storedLength)
            w.varint(h.rawLength)
            w.signed(h.baseTime.raw &- lastTime)
            w.u32(r.payloadChecksum)
            if version >= LogFormat.continuedBatchesVersion {
                w.varint(e.continued)
                w.varint(e.continuedBytes)
                w.varint(e.continuedEvents)
            }
            lastOffset = r.offset
            lastEvent = h.firstEvent
            lastTime = h.baseTime.raw
        }
        w.u64(UInt64(offset))
        w.append(LogFormat.indexTrailerMagic)
        return w.bytes
    }

    /// The entries an index lists, or nil if it does not decode.
    static func decode(_ raw: [UInt8], at offset: Int, version: UInt16) -> [IndexEntry]? {
        raw.withUnsafeBytes { buffer in
            guard var entries = Entries(buffer, at: offset, version: version) else { return nil }
            var out: [IndexEntry] = []
            out.reserveCapacity(Swift.min(entries.count, 1 << 16))
            while let next = entries.next() {
                guard let entry = next else { return nil }
                out.append(entry)
            }
            return out
        }
    }

    /// The entries of an index payload, decoded one at a time where the payload lies
    /// (in the mapped file): memory does not grow with the index.
    struct Entries {
        let raw: UnsafeRawBufferPointer
        /// Whether entries carry their window's continued batches (version 4).
        private let windows: Bool
        /// Entries the index says it holds (at most one per 13 bytes of payload).
        private(set) var count = 0
        /// Entries read so far.
        private(set) var read = 0
        /// Where in the payload the next entry starts.
        private(set) var at = 0
        private var lastOffset = 0, lastEvent = 0
        private var lastTime: Int64 = 0

        /// Nil when the payload is too short to hold its count and trailer, or the
        /// trailer does not name `offset`, the index record's own offset.
        init?(_ raw: UnsafeRawBufferPointer, at offset: Int, version: UInt16) {
            self.raw = raw
            windows = version >= LogFormat.continuedBatchesVersion
            guard raw.count >= 16, let n = varint(limit: UInt64(raw.count / 13)) else { return nil }
            count = Int(n)
            var trailer: UInt64 = 0
            for k in 0..<8 { trailer |= UInt64(raw[raw.count - 16 + k]) << (8 * k) }
            guard trailer == UInt64(offset) else { return nil }
        }

        private mutating func varint(limit: UInt64) -> UInt64? {
            var v: UInt64 = 0
            var shift: UInt64 = 0
            while at < raw.count - 16 {
                let b = raw[at]
                at += 1
                if shift == 63 && b > 1 { return nil }
                v |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return v <= limit ? v : nil }
                shift += 7
                if shift > 63 { return nil }
            }
            return nil
        }

        private mutating func u32() -> UInt32? {
            guard raw.count - 16 - at >= 4 else { return nil }
            var v: UInt32 = 0
            for k in 0..<4 { v |= UInt32(raw[at + k]) << (8 * k) }
            at += 4
            return v
        }

        /// The next entry: nil after the last one (`.some(nil)` when it does not decode,
        /// or when bytes are left over after the last one).
        mutating func next() -> IndexEntry?? {
            guard read < count else { return at == raw.count - 16 ? nil : .some(nil) }
            guard at + 2 <= raw.count - 16, let kind = RecordKind(rawValue: raw[at]) else { return .some(nil) }
            let codec = raw[at + 1]
            at += 2
            guard let dOffset = varint(limit: UInt64(Int32.max) * 16), let dEvent = varint(limit: UInt64(Int32.max) * 16),
                  let count = varint(limit: UInt64(UInt32.max)), let stored = varint(limit: UInt64(UInt32.max)),
                  let rawLength = varint(limit: UInt64(UInt32.max)), let zigzag = varint(limit: UInt64.max),
                  let checksum = u32() else { return .some(nil) }
            // A window's continued batches: as many as the file has room for, each with
            // at least one event and a 16-byte header.
            var continued: UInt64 = 0, continuedBytes: UInt64 = 0, continuedEvents: UInt64 = 0
            if windows {
                guard let c = varint(limit: UInt64(Int32.max)), let b = varint(limit: UInt64(Int32.max) * 16),
                      let e = varint(limit: UInt64(Int32.max) * 16),
                      b >= c * UInt64(LogFormat.continuedHeaderSize), e >= c else { return .some(nil) }
                continued = c
                continuedBytes = b
                continuedEvents = e
            }
            lastOffset += Int(dOffset)
            lastEvent += Int(dEvent)
            lastTime = lastTime &+ Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
            read += 1
            let header = RecordHeader(kind: kind, storedLength: Int(stored), rawLength: Int(rawLength), eventCount: Int(count),
                                      firstEvent: lastEvent, baseTime: Micros(raw: lastTime), codec: codec)
            var entry = IndexEntry(RecordInfo(offset: lastOffset, header: header, payloadChecksum: checksum))
            entry.continued = Int(continued)
            entry.continuedBytes = Int(continuedBytes)
            entry.continuedEvents = Int(continuedEvents)
            return .some(entry)
        }
    }
}
