import SelectLog

/// Where a record is and what its header says.
package struct RecordInfo: Sendable, Equatable {
    /// Where the record header starts.
    package var offset: Int
    /// What the header says.
    package var header: RecordHeader
    var payloadChecksum: UInt32
    /// Where the payload starts.
    package var payloadStart: Int { offset + header.size }
    /// Where the payload ends (the next record's offset).
    package var end: Int { offset + header.size + header.storedLength }
}

/// The first place a log stops being trustworthy.
public struct LogProblem: Sendable, Equatable, CustomStringConvertible {
    /// The first bad byte.
    public var offset: Int
    /// What is wrong there, in words.
    public var reason: String
    /// A partial last record (a crash mid-write), not corruption of written data.
    public var isTornTail: Bool
    public var description: String { "byte offset \(offset): \(reason)" }
}

/// The records of a log, read by walking record headers.
struct LogScan {
    var header: FileHeader?
    /// The records walked, when the scan keeps them.
    var records: [RecordInfo] = []
    /// How many records were walked, and the last one (kept or not).
    var recordCount = 0
    var last: RecordInfo?
    var eventCount = 0
    /// Where the last good record ends.
    var goodEnd = 0
    var problem: LogProblem?

    /// Walks `bytes`. With `deep`, also checks payload checksums, decompresses, and
    /// decodes every batch and checkpoint, as `verify` does.
    /// `release(offset)` is called now and then with the offset the walk has passed, so
    /// that a caller holding a mapping can let the kernel drop the pages behind it.
    /// Without `keep`, only `recordCount` and `last` say what was walked, and `visit` is
    /// called with each record: memory does not grow with the log.
    static func scan(_ bytes: UnsafeRawBufferPointer, deep: Bool, keep: Bool = true, release: ((Int) -> Void)? = nil,
                     visit: ((RecordInfo) -> Void)? = nil) -> LogScan {
        var scan = LogScan()
        let version2 = bytes.count >= 10 && bytes[8] >= 2
        guard bytes.count >= (version2 ? LogFormat.fileHeaderSize : LogFormat.fileHeaderSizeV1) else {
            scan.problem = LogProblem(offset: 0, reason: bytes.isEmpty ? "empty file" : "file header is incomplete", isTornTail: true)
            return scan
        }
        switch FileHeader.decode(bytes) {
        case .failure(let e):
            scan.problem = LogProblem(offset: e.offset ?? 0, reason: e.message, isTornTail: false)
            return scan
        case .success(let h):
            scan.header = h
        }
        let salt = scan.header?.salt ?? 0
        var offset = scan.header?.size ?? LogFormat.fileHeaderSize
        scan.goodEnd = offset
        let decompressor = deep && Zstd.isAvailable ? ZstdDecompressor() : nil
        let zeros = LogScan.trailingZerosStart(bytes)
        let version = scan.header?.version ?? LogFormat.version
        let continued = version >= LogFormat.continuedBatchesVersion
        // The deep check's decoder, carried from batch to batch: a continued batch goes on
        // from the one before it.
        var decoder: BinaryEventDecoder?
        var previousIsBatch = false
        while offset < bytes.count {
            /// A failure of the record that ends at `end` (its header's end when the header
            /// does not verify): a torn tail when the torn-tail rule says so, else damage.
            func fail(_ reason: String, end: Int? = nil) {
                // A header that does not verify ends where its kind says (16 bytes for "b").
                let headerSize = continued && bytes.count - offset >= 4 && bytes[offset + 3] == LogFormat.continuedKind
                    ? LogFormat.continuedHeaderSize : LogFormat.recordHeaderSize
                scan.problem = LogScan.problem(reason, recordAt: offset, end: end ?? offset + headerSize, bytes)
            }
            if zeros <= offset {
                fail("zero-filled tail")
                break
            }
            let header: RecordHeader
            let payloadChecksum: UInt32
            switch RecordHeader.decode(in: bytes, at: offset, end: bytes.count, salt: salt, events: scan.eventCount, continued: continued) {
            case .failure(let box):
                switch box.problem {
                case .incomplete: fail("incomplete record header")
                case .badMagic: fail("not a record header (bad magic)")
                case .badChecksum: fail("record header checksum mismatch")
                case .badField(let why): fail(why)
                }
            case .success(let (h, c)):
                header = h
                payloadChecksum = c
                let info = RecordInfo(offset: offset, header: header, payloadChecksum: payloadChecksum)
                if info.end > bytes.count || info.end < offset {
                    fail("record extends past the end of the file", end: Int.max)
                    break
                }
                switch header.kind {
                case .batch:
                    if header.firstEvent != scan.eventCount {
                        fail("batch starts after \(header.firstEvent) events, expected after \(scan.eventCount)")
                    } else if header.eventCount == 0 {
                        fail("empty batch")
                    } else if header.continues && !previousIsBatch {
                        fail("a continued batch must follow a batch")
                    }
                case .checkpoint:
                    if header.firstEvent != scan.eventCount { fail("checkpoint of event \(header.firstEvent) after \(scan.eventCount) events") }
                case .index:
                    break
                }
                if scan.problem == nil, deep {
                    if let why = LogScan.deepCheck(info, bytes, salt: salt, decompressor, version: version, decoder: &decoder,
                                                   release: release) {
                        fail(why, end: info.end)
                    }
                } else if scan.problem == nil, zeros < info.end {
                    // Only zeros follow: a payload cut and padded by zeros has a header that
                    // verifies; its checksum tells it from a whole last record.
                    let stored = UnsafeRawBufferPointer(rebasing: bytes[info.payloadStart..<info.end])
                    if CRC32C.checksum(stored, salt: salt) != payloadChecksum { fail("record payload checksum mismatch", end: info.end) }
                }
                if scan.problem != nil { break }
                previousIsBatch = header.kind == .batch
                if keep { scan.records.append(info) }
                scan.recordCount += 1
                scan.last = info
                visit?(info)
                if let release, scan.recordCount % 64 == 0 { release(info.end) }
                if header.kind == .batch { scan.eventCount += header.eventCount }
                offset = info.end
                scan.goodEnd = offset
                if header.kind == .index && offset < bytes.count {
                    fail("data after the index record, which must be last")
                    break
                }
                continue
            }
            break
        }
        return scan
    }

    /// The payload of a record, checksum verified before decompressing.
    static func payload(_ info: RecordInfo, _ bytes: UnsafeRawBufferPointer, salt: UInt64,
                        _ decompressor: ZstdDecompressor?) -> Result<[UInt8], LogError> {
        let start = info.payloadStart
        guard info.offset >= 0, start <= info.end, info.end <= bytes.count else {
            return .failure(LogError(.damaged, "record runs past the end of the file", offset: info.offset))
        }
        let stored = UnsafeRawBufferPointer(rebasing: bytes[start..<info.end])
        guard CRC32C.checksum(stored, salt: salt) == info.payloadChecksum else {
            return .failure(LogError(.damaged, "record payload checksum mismatch", offset: info.offset))
        }
        if info.header.codec == LogFormat.codecRaw {
            return .success(Array(stored))
        }
        if let why = info.header.limitViolation { return .failure(LogError(.damaged, why, offset: info.offset)) }
        guard Zstd.isAvailable else {
            return .failure(LogError(.unsupported, Zstd.unavailableMessage, offset: info.offset))
        }
        guard let decompressor else { return .failure(LogError(.io, "cannot create a zstd decompression context", offset: info.offset)) }
        switch decompressor.decompress(stored, rawLength: info.header.rawLength) {
        case .success(let raw): return .success(raw)
        case .failure(let e): return .failure(LogError(.damaged, "zstd: \(e.message)", offset: info.offset))
        }
    }

    private static func deepCheck(_ info: RecordInfo, _ bytes: UnsafeRawBufferPointer, salt: UInt64, _ d: ZstdDecompressor?,
                                  version: UInt16, decoder: inout BinaryEventDecoder?, release: ((Int) -> Void)?) -> String? {
        if info.header.kind == .index {
            // Checked where it lies, entry by entry: an index is as long as the log is.
            let stored = UnsafeRawBufferPointer(rebasing: bytes[info.payloadStart..<info.end])
            let start = info.payloadStart
            let passed: ((Int) -> Void)? = release.map { r in { (n: Int) in r(start + n) } }
            guard LogIndexCheck.checksum(stored, salt: salt, release: passed) == info.payloadChecksum else {
                return "record payload checksum mismatch"
            }
            // Its entries are decoded (and compared with the records) by `verify` as it walks.
            guard info.header.codec == LogFormat.codecRaw, LogIndex.Entries(stored, at: info.offset, version: version) != nil else {
                return "index record does not decode"
            }
            return nil
        }
        let raw: [UInt8]
        switch payload(info, bytes, salt: salt, d) {
        case .failure(let e): return e.message
        case .success(let r): raw = r
        }
        switch info.header.kind {
        case .batch:
            var n = 0
            do throws(BinaryError) {
                try BinaryEventDecoder.start(&decoder, raw, info.header, version: version)
                while try decoder?.next() != nil { n += 1 }
            } catch {
                let newer = decoder?.isNewer ?? false
                decoder = nil
                return newer ? "\(error)" : "batch does not decode: \(error)"
            }
            return n == info.header.eventCount ? nil : "batch holds \(n) events, its header says \(info.header.eventCount)"
        case .checkpoint:
            do throws(SnapshotError) {
                let state = try TableState(snapshot: raw)
                return LogScan.checkpointMismatch(state, info.header)
            } catch {
                return "\(error)"
            }
        case .index:
            return LogIndex.decode(raw, at: info.offset, version: version) == nil ? "index record does not decode" : nil
        }
    }
}

extension LogScan {
    /// The longest run of zero bytes at the end of a file that can be a torn tail's
    /// padding (what a file system leaves after a crash in a preallocated or extended
    /// file). A longer run is not taken for padding: it may be written data lost.
    static let maxZeroPadding = 1 << 20

    /// Where the file's trailing run of zero bytes starts: `bytes.count` when the file
    /// ends in a non-zero byte, and `bytes.count` too when the run is longer than
    /// `maxZeroPadding` (then it is not padding). Looks at no more than that many bytes.
    static func trailingZerosStart(_ bytes: UnsafeRawBufferPointer) -> Int {
        var i = bytes.count
        let floor = Swift.max(0, bytes.count - maxZeroPadding - 1)
        while i > floor, bytes[i - 1] == 0 { i -= 1 }
        return bytes.count - i <= maxZeroPadding ? i : bytes.count
    }

    /// The torn-tail rule, the one used by the header walk, by `verify`'s deep check and
    /// by the reader's payload checks: a record at `offset` that fails is a torn tail
    /// when it runs past the end of the file (a record header cut short included), or
    /// when the file's trailing zero run starts before its `end` (its header's end when
    /// the header does not verify), so that nothing but zeros follows it: a crash cut
    /// it, and the file system padded the file with zeros. Every record before it is
    /// whole. Any other failure is damage.
    static func isTornTail(recordAt offset: Int, end: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        end > bytes.count || trailingZerosStart(bytes) < end
    }

    /// The problem for a record at `offset` that fails for `reason`, torn or damaged by
    /// the torn-tail rule; a torn record says so.
    static func problem(_ reason: String, recordAt offset: Int, end: Int, _ bytes: UnsafeRawBufferPointer) -> LogProblem {
        let torn = isTornTail(recordAt: offset, end: end, bytes)
        let padded = torn && end <= bytes.count && trailingZerosStart(bytes) > offset
        return LogProblem(offset: offset, reason: padded ? "torn record (\(reason), then only zero bytes to the end of the file)" : reason,
                          isTornTail: torn)
    }

    /// Why a decoded checkpoint disagrees with its record header, or nil.
    static func checkpointMismatch(_ state: TableState, _ header: RecordHeader) -> String? {
        if state.events != header.firstEvent {
            return "checkpoint holds the state after \(state.events) events, its header says \(header.firstEvent)"
        }
        if state.t != header.baseTime { return "checkpoint's state has t \(state.t.raw), its header says \(header.baseTime.raw)" }
        return configurationProblem(state)
    }

    /// Why a checkpoint's settings are ones no `configure` event could have made (a
    /// negative auto-scroll rate, say, which would trap at the next `tick`), or nil:
    /// the settings go through the same validation as every event.
    static func configurationProblem(_ state: TableState) -> String? {
        let p = ConfigurationPatch(setting: state.configuration, editorHeight: state.layout.editorHeight)
        do throws(InvalidEvent) {
            try TimedEvent(.configure(p)).validate()
            return nil
        } catch {
            return "checkpoint holds settings no event could make: \(error)"
        }
    }
}

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
