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
    /// The deep checks on other threads (`DeepCheckPool`) found a record that fails, or a
    /// window too long for them: the scan must be made again in turn, whose report says
    /// where and why. Nothing else in this scan is then to be used but `passedEnd`.
    var needsScanInTurn = false
    /// With `needsScanInTurn`: where the batches end that passed the deep checks on the
    /// other threads, from the first (`DeepCheckPool.passedEnd`), for the scan in turn's
    /// `checkedBefore`.
    var passedEnd = 0

    /// Walks `bytes`. With `deep`, also checks payload checksums, decompresses, and
    /// decodes every batch and checkpoint, as `verify` does.
    /// `release(range)` is called now and then with the bytes the walk has passed since it
    /// was last called, so that a caller holding a mapping can let the kernel drop the
    /// pages behind it.
    /// Without `keep`, only `recordCount` and `last` say what was walked, and `visit` is
    /// called with each record: memory does not grow with the log.
    /// With `threads` (and `deep`), batches are checked on that many other threads while
    /// this one walks the headers; when one fails there, the result says only
    /// `needsScanInTurn` and `passedEnd` (see `DeepCheckPool`).
    /// `checkedBefore`: the deep checks skip the batches that end at or before it, which a
    /// scan on other threads has checked (its `passedEnd`). It ends a coded window, so
    /// the next batch starts with fresh models.
    static func scan(_ bytes: UnsafeRawBufferPointer, deep: Bool, keep: Bool = true, release: ((Range<Int>) -> Void)? = nil,
                     threads: Int = 0, checkedBefore: Int = 0, visit: ((RecordInfo) -> Void)? = nil) -> LogScan {
        var scan = LogScan()
        let version2 = bytes.count >= 10 && bytes[8] >= 2
        guard bytes.count >= (version2 ? LogFormat.fileHeaderSize : LogFormat.fileHeaderSizeV1) else {
            // Short: a log torn inside its header (or cut to nothing) begins as the magic
            // does; other bytes are no log, and no repair could make them one.
            let magic = LogFormat.magic.prefix(bytes.count)
            if bytes.prefix(magic.count).elementsEqual(magic) {
                scan.problem = LogProblem(offset: 0, reason: bytes.isEmpty ? "empty file" : "file header is incomplete", isTornTail: true)
            } else {
                scan.problem = LogProblem(offset: 0, reason: "not a selectlog log (bad magic)", isTornTail: false, isNotALog: true)
            }
            return scan
        }
        switch FileHeader.decode(bytes) {
        case .failure(let e):
            scan.problem = LogProblem(offset: e.offset ?? 0, reason: e.message, isTornTail: false, isNotALog: e.code == .notALog,
                                      isNewer: e.code == .unsupported, isDamagedMagic: FileHeader.onlyMagicDamaged(bytes))
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
        // The deep check's last checkpoint, resolved: a delta checkpoint (version 7) is
        // the changes from it.
        var checkpoint: SnapshotDelta.Resolved?
        var previousIsBatch = false
        // Where a record header failed its own checks (its magic, checksum or a field), if
        // the walk stopped at one: only such a failure may be the seek index's (below).
        var headerFailedAt: Int?
        // Where the walk was when it last let go of pages, and where those it let go end.
        var releasedAt = 0, releasedThrough = 0
        // Lets go of the pages before `offset` that are not let go of yet.
        func releaseBehind(_ offset: Int) {
            guard let release, offset > releasedThrough else { return }
            release(releasedThrough..<offset)
            releasedThrough = offset
        }
        let pool = deep && threads > 0 ? DeepCheckPool(bytes, salt: salt, version: version, threads: threads) : nil
        // The window of batches collected for the pool, handed over when a record that does
        // not continue it comes (false: the pool has failed).
        var window: [RecordInfo] = []
        func handOver() -> Bool {
            guard let pool, !window.isEmpty else { return true }
            defer { window = [] }
            return pool.check(window)
        }
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
                headerFailedAt = offset
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
                    scan.problem?.isIndexOnly = header.kind == .index
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
                    // What its writer always puts there (LOG-FORMAT.md; an event count other
                    // than 0 breaks the limits). Readers never use them, so an opening reader
                    // does not look; `verify` does.
                    if deep, header.firstEvent != scan.eventCount || header.baseTime != .zero {
                        fail("index record header says \(header.firstEvent) events before it and base time "
                             + "\(header.baseTime.raw), expected \(scan.eventCount) and 0")
                    }
                }
                if scan.problem == nil, pool != nil, !(header.kind == .batch && header.continues) {
                    guard handOver() else { break }
                }
                if scan.problem == nil, let pool, header.kind == .batch {
                    // Batches on the pool's threads, a window at a time; checkpoints and the
                    // index here. A window too large for the pool is left to the scan in turn.
                    window.append(info)
                    guard DeepCheckPool.fits(records: window.count, bytes: info.end - window[0].offset) else {
                        pool.refuse()
                        break
                    }
                } else if scan.problem == nil, deep, header.kind != .batch || info.end > checkedBefore {
                    if header.kind == .index, let pool, !pool.waitForAll() { break }
                    var newer = false
                    if let why = LogScan.deepCheck(info, bytes, salt: salt, decompressor, version: version, decoder: &decoder,
                                                   checkpoint: &checkpoint, newer: &newer, release: release == nil ? nil : releaseBehind) {
                        fail(why, end: info.end)
                        scan.problem?.isNewer = newer
                    }
                } else if scan.problem == nil, zeros < info.end {
                    // Only zeros follow: a payload cut and padded by zeros has a header that
                    // verifies; its checksum tells it from a whole last record.
                    let stored = UnsafeRawBufferPointer(rebasing: bytes[info.payloadStart..<info.end])
                    if CRC32C.checksum(stored, salt: salt) != payloadChecksum { fail("record payload checksum mismatch", end: info.end) }
                }
                if scan.problem != nil {
                    // Torn or damaged, a record whose header says it is the seek index holds
                    // no event: every one is in the records before it.
                    scan.problem?.isIndexOnly = header.kind == .index
                    break
                }
                previousIsBatch = header.kind == .batch
                if keep { scan.records.append(info) }
                scan.recordCount += 1
                scan.last = info
                visit?(info)
                // Every 64 records, or every release block's worth of them (records can be
                // large): behind the records the pool has checked, when there is one.
                if release != nil, scan.recordCount % 64 == 0 || info.end - releasedAt >= MappedFile.releaseBlock {
                    releasedAt = info.end
                    releaseBehind(pool.map { Swift.min(info.end, $0.checkedEnd) } ?? info.end)
                }
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
        // A record header that fails its checks where the trailer names the seek index, whose
        // entries list exactly the records walked: the index's damage alone. (A header that
        // checks out says what its record is, and is judged as that.)
        if let p = scan.problem, !p.isTornTail, !p.isIndexOnly, !p.isNewer, let h = scan.header,
           p.offset == scan.goodEnd, p.offset == headerFailedAt,
           LogIndexCheck.isIndexBehindDamagedHeader(bytes, at: p.offset, header: h, events: scan.eventCount) {
            scan.problem?.isIndexOnly = true
            scan.problem?.reason = "\(p.reason) in the seek index's record (the trailer names it, and its entries list the records before it)"
        }
        if let pool {
            // The last window too (the walk may have stopped at a problem after it).
            let handedOver = handOver()
            if !pool.finish() || !handedOver {
                scan.needsScanInTurn = true
                scan.passedEnd = pool.passedEnd
            }
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
        if info.header.codec == LogFormat.codecRange {
            // Every build reads these: the decoder is pure Swift.
            switch ByteModelCoder.decode(stored, rawLength: info.header.rawLength) {
            case .success(let raw): return .success(raw)
            case .failure(let f):
                return .failure(LogError(.damaged, "range-coded payload \(f.reason) (payload byte \(f.position))", offset: info.offset))
            }
        }
        guard info.header.codec == LogFormat.codecZstd else {
            return .failure(LogError(.damaged, "unknown codec \(info.header.codec)", offset: info.offset))
        }
        guard Zstd.isAvailable else {
            return .failure(LogError(.unsupported, Zstd.unavailableMessage, offset: info.offset))
        }
        guard let decompressor else { return .failure(LogError(.io, "cannot create a zstd decompression context", offset: info.offset)) }
        switch decompressor.decompress(stored, rawLength: info.header.rawLength) {
        case .success(let raw): return .success(raw)
        case .failure(let e): return .failure(LogError(.damaged, "zstd: \(e.message)", offset: info.offset))
        }
    }

    /// Why the record `info` fails the deep checks, or nil; `decoder` carries a coded
    /// window from one of its batches to the next, and `checkpoint` the last checkpoint
    /// checked, resolved, from one checkpoint to the next (a delta's base). `newer` is set
    /// when it fails because a newer selectlog wrote it (an event type or fields this
    /// reader does not know).
    static func deepCheck(_ info: RecordInfo, _ bytes: UnsafeRawBufferPointer, salt: UInt64, _ d: ZstdDecompressor?,
                          version: UInt16, decoder: inout BinaryEventDecoder?, checkpoint: inout SnapshotDelta.Resolved?,
                          newer: inout Bool, release: ((Int) -> Void)?) -> String? {
        if info.header.kind == .index {
            // Checked where it lies, entry by entry: an index is as long as the log is.
            let stored = UnsafeRawBufferPointer(rebasing: bytes[info.payloadStart..<info.end])
            let start = info.payloadStart
            let passed: ((Int) -> Void)? = release.map { r in { (n: Int) in r(start + n) } }
            guard LogIndexCheck.checksum(stored, salt: salt, release: passed) == info.payloadChecksum else {
                // Named: readers pass a damaged index over (every event is in the records
                // before it), so this damage loses nothing, unlike a batch's.
                return "seek index payload checksum mismatch (the index alone: readers pass it over and read every event from the records)"
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
                newer = decoder?.isNewer ?? false
                decoder = nil
                return newer ? "\(error)" : "batch does not decode: \(error)"
            }
            return n == info.header.eventCount ? nil : "batch holds \(n) events, its header says \(info.header.eventCount)"
        case .checkpoint:
            let resolved: SnapshotDelta.Resolved
            do throws(LogError) {
                resolved = try SnapshotDelta.resolve(raw, of: info, version: version, base: checkpoint)
            } catch {
                return error.message
            }
            checkpoint = resolved
            do throws(SnapshotError) {
                let state = try TableState(snapshot: resolved.bytes)
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

    /// Why a decoded checkpoint disagrees with its record header, or nil. (Settings and a
    /// viewport no event could give, and the state's invariants, `TableState(snapshot:)`
    /// has checked.)
    static func checkpointMismatch(_ state: TableState, _ header: RecordHeader) -> String? {
        if state.events != header.firstEvent {
            return "checkpoint holds the state after \(state.events) events, its header says \(header.firstEvent)"
        }
        if state.t != header.baseTime { return "checkpoint's state has t \(state.t.raw), its header says \(header.baseTime.raw)" }
        return nil
    }
}
