import SelectLog

/// A log opened for reading: sequential iteration, `events(from:)`, and
/// `state(at:)` through the nearest checkpoint.
///
/// Opening keeps every complete record; a torn tail (a crash mid-write) is noted
/// in `tail` and otherwise ignored. Damage before the end is an error that names
/// its byte offset: it is never skipped silently. A cleanly closed log is opened
/// from its stored index, and each record is checked, with every record before it,
/// the first time a read needs it; so damage in such a log is thrown by the first
/// read at or past it. Memory does not grow with the log: the file is mapped, the
/// pages a walk leaves are released, and only checkpoints and every 32nd batch are
/// remembered.
///
/// ```swift
/// let log = try LogReader(path: "session.slog")
/// let state = try log.state(at: 1_000)        // nearest checkpoint + at most K events
/// try log.forEachEvent(from: 990) { index, event in …; return true }  // false stops
/// ```
public final class LogReader: Sendable {
    /// The log's path.
    public let path: String
    /// The file header (format version, salt, checkpoint interval, behaviour fingerprint).
    package let header: FileHeader
    /// Events in the log.
    public let eventCount: Int
    /// A torn tail that was left out, if any.
    public let tail: LogProblem?
    /// The file's size in bytes.
    public var fileSize: Int { file.bytes.count }
    /// Whether the log was closed cleanly and its stored seek index is sound (then opening
    /// reads the index alone), rather than walked from the start.
    public let usedStoredIndex: Bool
    /// Whether the log ends with a seek index that fails its checks (its payload, or the
    /// records it lists): the log was walked instead, every event read from its records,
    /// so nothing is lost. `verify` names the damage, and `verify --repair` cuts the index
    /// off (a log without one reads as one still being recorded).
    public let storedIndexRejected: Bool
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
    /// The reads in progress, and whether the reader was closed (`close()`).
    let use = ReaderUse()
    /// The most bytes of lists and strings that waited in a pipe of this reader's
    /// pipelined replays at once (for the tests: `ReplayPipe.weightAhead` bounds it).
    let largestWeightAhead = LockedBox(0)
    /// Where the data records end: the index record's offset, or the end of the last
    /// whole record.
    let dataEnd: Int
    /// What has been checked so far, and where records are found again.
    private let checked: LockedBox<CheckedPrefix>
    /// The zstd context, one per reader: reads from several tasks take turns with it.
    private let decompressor: LockedBox<ZstdDecompressor?>
    /// The checkpoint snapshot resolved last: a walk of the checkpoints in order resolves
    /// each delta from it, rather than from the whole snapshot up to 15 records back.
    let lastResolved = LockedBox<SnapshotDelta.Resolved?>(nil)

    /// Opens the log at `path` for reading with this build's engine.
    ///
    /// When the log was written by an engine that behaves differently (its behaviour
    /// fingerprint differs), its checkpoints are not used, and a notice says so once per
    /// process on stderr; `init(path:onUntrustedCheckpoints:)` hands it to you instead.
    public convenience init(path: String) throws(LogError) {
        try self.init(path: path, engine: .standard)
    }

    /// Opens the log at `path`, as `init(path:)`, and hands the notice that its
    /// checkpoints are not used to `onUntrustedCheckpoints` instead of writing it on
    /// stderr: an app shows it where its people look, or logs it its own way.
    ///
    /// `onUntrustedCheckpoints` is called at most once, before this returns, and only
    /// when this build's engine will not use the log's checkpoints (its behaviour
    /// fingerprint differs from the log's; `checkpointsTrusted` is then false) and the
    /// log is at least as long as its checkpoint interval, so that it may hold one. Every
    /// reader opened this way is told, not just the first in the process.
    public convenience init(path: String, onUntrustedCheckpoints: (String) -> Void) throws(LogError) {
        try self.init(path: path, engine: .standard, notice: onUntrustedCheckpoints)
    }

    /// Opens the log at `path`, replaying with `engine`. When the engine's behaviour
    /// fingerprint differs from the log's, the log's checkpoints are not used, and
    /// `notice` is told so (by default, once per process on stderr), naming the log
    /// `shownAs` (the name the user gave, where `path` is a copy of standard input). A
    /// caller that reports the fingerprints itself, or uses no checkpoint, passes
    /// `{ _ in }`.
    ///
    /// A cleanly closed log is opened from its stored index alone, read where it lies in
    /// the mapping: no record is read, and nothing proportional to the log is kept. A
    /// log without a sound index is walked (and every payload checksummed) now. Either
    /// way memory stays flat: pages behind a walk are released.
    package init(path: String, engine: EngineBehaviour, shownAs: String? = nil,
                 notice: (String) -> Void = BehaviourNotice.sayOnce) throws(LogError) {
        self.path = path
        self.engine = engine
        let mapped = try MappedFile(path: path)
        file = mapped
        let bytes = mapped.bytes
        decompressor = LockedBox(Zstd.isAvailable ? ZstdDecompressor() : nil)
        if bytes.count > 0, bytes.count < 8, Array(bytes) == Array(LogFormat.magic.prefix(bytes.count)) {
            // A log torn inside its magic: no events.
            throw LogError(.damaged, "file header is incomplete (0 intact events before it)", path: path, offset: 0)
        }
        if let found = LogIndexCheck.storedIndex(bytes, release: { mapped.release($0) }) {
            header = found.header
            eventCount = found.eventCount
            dataEnd = found.index.offset
            tail = nil
            usedStoredIndex = true
            storedIndexRejected = false
            mapped.release(found.index.offset..<found.index.end)
        } else {
            let scan = LogScan.scan(bytes, deep: false, keep: false, release: { mapped.release($0) })
            // Damage that is the seek index's alone (`LogProblem.isIndexOnly`) is passed over:
            // every event is in the records before it.
            let indexOnly = scan.header != nil && scan.problem.map { $0.isIndexOnly && !$0.isTornTail } == true
            if let problem = scan.problem, !problem.isTornTail || scan.header == nil, !indexOnly {
                // The first bad byte, as `verify` names it: a payload before the record whose
                // header fails (this walk checks headers only) comes first.
                let earlier = scan.header.flatMap {
                    CheckedPrefix.firstProblem(bytes, header: $0, before: problem.offset) { mapped.release($0) }
                }
                let (offset, reason, events) = earlier ?? (problem.offset, problem.reason, scan.eventCount)
                // Damage in the file header is before any event: it names none. Unless it
                // was read from the zeros that stand in for pages another process cut off.
                // A file that is no log, or a newer selectlog's (its file header says so),
                // has no events to count.
                // A file header that fails its checks but begins with the magic is a damaged
                // log's (`check --json` then says "damaged", as `verify` does).
                let inHeader = scan.header == nil && offset == 0 && !problem.isTornTail
                let notALog = inHeader && problem.isNotALog
                let newer = earlier == nil && problem.isNewer
                throw mapped.cutError() ?? LogError(newer ? .unsupported : notALog ? .notALog : .damaged,
                                                    inHeader || newer ? reason : "\(reason) (\(ReportText.counted(events, "intact event", "intact events")) before it)", path: path, offset: offset,
                                                    eventIndex: scan.header == nil ? nil : events)
            }
            guard let h = scan.header else { throw mapped.cutError() ?? LogError(.damaged, "no file header", path: path, offset: 0) }
            header = h
            eventCount = scan.eventCount
            dataEnd = scan.last.map { $0.header.kind == .index ? $0.offset : $0.end } ?? h.size
            tail = indexOnly ? nil : scan.problem
            usedStoredIndex = false
            // The walk found an index record whose header is sound as the last record, but
            // `storedIndex` would not read it; or one whose header is damaged.
            storedIndexRejected = scan.last?.header.kind == .index || indexOnly
        }
        checked = LockedBox(CheckedPrefix(end: header.size))
        checkpointsTrusted = header.behaviour != nil && header.behaviour == engine.fingerprint
        if !usedStoredIndex {
            // The records were just walked: check their payloads now too, while they are
            // at hand, so that damage anywhere is an error at open.
            try advance(throughEvent: Int.max)
        }
        // Zeros stood in for pages another process cut off: what looked like a torn tail
        // (or an intact log) was read from them.
        if let cut = mapped.cutError() { throw cut }
        // Nothing past the last record is read again (the stored index was read above):
        // a recorder in this process may cut the tail or the index under this reader.
        mapped.limitReads(to: dataEnd)
        // A log as long as its checkpoint interval holds a checkpoint.
        let interval = Int(header.checkpointInterval)
        if !checkpointsTrusted && engine.isStandard && interval > 0 && eventCount >= interval {
            notice(BehaviourNotice.untrusted(path: shownAs ?? path, recorded: header.behaviour))
        }
    }

    // MARK: Records

    /// Every record, in file order, as a walk of the headers finds them (the index record
    /// included when there is one). For tests and tools on small logs: it holds them all.
    /// None once the reader is closed (a read, as the public ones, under the use count).
    package var records: [RecordInfo] { (try? reading { LogScan.scan(file.bytes, deep: false).records }) ?? [] }

    /// Checks records, in order from where the checks stopped, while the events before the
    /// next one are at most `event` and it starts at or before `offset`: its header (checksum,
    /// limits, place in the sequence) and its payload's checksum. A checkpoint past damage
    /// must not hide it, so no record is used before every record before it is checked.
    /// Pages behind the walk are released; checkpoints and every 32nd batch are kept as
    /// anchors for finding records again. Damage is remembered and thrown again to every
    /// read that needs the records up to it. `orDamageAfter`: damage right after the
    /// records of the first `event` events (where a checkpoint of the state after them
    /// would be) is not this read's: it needs that checkpoint only if it is intact.
    func advance(throughEvent event: Int = Int.max, pastOffset offset: Int = Int.max,
                 orDamageAfter: Bool = false) throws(LogError) {
        let file = self.file, salt = header.salt, dataEnd = self.dataEnd, path = self.path, events = eventCount
        let continued = header.version >= LogFormat.continuedBatchesVersion
        let failure: LogError? = checked.withLockedValue { c in
            // Damage found is thrown again to every read that needs the records up to it,
            // and only to those: a read before it answers as it would have before the
            // damage was found, whatever order the reads (or a replay's threads) came in.
            // Whether a read through `event` and `offset` needs the record at damage found
            // after `intact` events, at byte `at`.
            func needed(_ intact: Int, _ at: Int) -> Bool {
                (intact < event || (intact == event && !orDamageAfter)) && at <= offset
            }
            if let failure = c.failure { return needed(c.events, c.end) ? failure : nil }
            var walked = 0
            var released = c.end
            while c.end < dataEnd, c.events <= event, c.end <= offset {
                if let why = CheckedPrefix.problem(at: c.end, file.bytes, salt: salt, dataEnd: dataEnd, events: c.events,
                                                   continued: continued, afterBatch: c.lastIsBatch, then: { info in
                    c.note(info)
                }) {
                    // Damage after the last event names no event: there is none. In a log opened
                    // from its index, whose entries count every batch, a record there is a
                    // checkpoint, and the message says so: a user told only "checksum mismatch"
                    // by `replay` could not tell that every event is intact. Damage read from the
                    // zeros that stand in for pages another process cut off is that cut.
                    let intact = ReportText.counted(c.events, "intact event", "intact events")
                    let checkpoint = c.events == events && events > 0
                        && (try? RecordHeader.decode(in: file.bytes, at: c.end, end: dataEnd, salt: salt, events: c.events,
                                                     continued: continued).get().0.kind) == .checkpoint
                    let after = checkpoint
                        ? "\(why) in the checkpoint after the last event (\(intact) before it: every event is intact)"
                        : "\(why) (\(intact) before it)"
                    c.failure = file.cutError() ?? LogError(.damaged, after, path: path,
                                                            offset: c.end, eventIndex: c.events < events ? c.events : nil)
                    return needed(c.events, c.end) ? c.failure : nil
                }
                walked += 1
                if walked % 64 == 0 {
                    file.release(released..<c.end)
                    released = c.end
                }
            }
            if walked > 0 { file.release(released..<c.end) }
            return nil
        }
        if let failure { throw failure }
    }

    /// The checked record whose header starts at `offset`, after `events` events (the
    /// first event of a continued batch, whose header does not say).
    func record(at offset: Int, events: Int) throws(LogError) -> RecordInfo {
        try advance(pastOffset: offset)
        guard offset >= header.size,
              case .success(let (h, checksum)) = RecordHeader.decode(
                in: file.bytes, at: offset, end: dataEnd, salt: header.salt, events: events,
                continued: header.version >= LogFormat.continuedBatchesVersion),
              h.kind == .index || h.firstEvent == events else {
            throw LogError(.damaged, "no record header at byte offset \(offset) (the file changed while it was read?)", path: path, offset: offset)
        }
        return RecordInfo(offset: offset, header: h, payloadChecksum: checksum)
    }

    /// Calls `body` with every data record (batches and checkpoints, not the index), in
    /// file order, each checked before it is passed; stops when `body` returns false.
    func forEachRecord(_ body: (RecordInfo) throws(LogError) -> Bool) throws(LogError) {
        var offset = header.size
        var events = 0
        var walk = Walk(from: offset)
        while offset < dataEnd {
            let info = try record(at: offset, events: events)
            if try !body(info) { return }
            if info.header.kind == .batch { events = info.header.firstEvent + info.header.eventCount }
            offset = info.end
            walk.passed(offset, file)
        }
    }

    /// The raw payload of `info`, checksum verified first (the record itself was checked
    /// with every record before it, before it could be found).
    func payload(_ info: RecordInfo) throws(LogError) -> [UInt8] {
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

    /// Where decoding starts for event `index`: the batch that starts the window holding
    /// it (the batch holding it, but for a continued batch, the first batch of its window).
    /// Found from the nearest anchor at or before it: a walk of some 32 batches, or one window.
    func batch(containing index: Int) throws(LogError) -> RecordInfo? {
        try window(containing: index, after: nil)?.start
    }

    /// A batch and the batch that starts its window.
    struct BatchInWindow: Sendable {
        let batch: RecordInfo
        let start: RecordInfo
    }

    /// The batch that holds event `index`, with the batch that starts its window; the walk
    /// starts at `hint` (a batch at or before that one, as an earlier call found it) unless
    /// an anchor lies between. So a caller that asks for later and later events walks each
    /// window once, however long (a window of a crafted file can hold the whole log).
    func window(containing index: Int, after hint: BatchInWindow?) throws(LogError) -> BatchInWindow? {
        guard index >= 0, index < eventCount else { return nil }
        try advance(throughEvent: index)
        let anchor = checked.withLockedValue { $0.batchAnchor(atOrBefore: index) }
        var offset = anchor?.offset ?? header.size
        var events = anchor?.first ?? 0
        var windowStart: RecordInfo?
        if let hint, hint.batch.offset > offset, hint.batch.header.firstEvent <= index {
            offset = hint.batch.offset
            events = hint.batch.header.firstEvent
            windowStart = hint.start
        }
        while offset < dataEnd {
            let info = try record(at: offset, events: events)
            if info.header.kind == .batch {
                if !info.header.continues { windowStart = info }
                if info.header.firstEvent + info.header.eventCount > index {
                    guard info.header.firstEvent <= index else { return nil }
                    guard let windowStart else {
                        throw LogError(.damaged, "a continued batch does not follow a batch", path: path, offset: info.offset, eventIndex: index)
                    }
                    return BatchInWindow(batch: info, start: windowStart)
                }
                events = info.header.firstEvent + info.header.eventCount
            } else {
                windowStart = nil
            }
            offset = info.end
        }
        throw LogError(.damaged, "the log ends before event \(index + 1), its index says \(eventCount) events", path: path, offset: dataEnd, eventIndex: index)
    }

    /// Every checkpoint of the log, in order (its offset and the events before it), its
    /// records' headers all checked first.
    func checkpointList() throws(LogError) -> [(offset: Int, first: Int)] {
        try advance(throughEvent: Int.max)
        return checked.withLockedValue { $0.checkpointList }
    }

    /// Where the checkpoint record just before the one at `offset` is, and the events
    /// before it, if there is one (from what the reader keeps: no page of the file is read).
    func checkpoint(before offset: Int) throws(LogError) -> (offset: Int, first: Int)? {
        try advance(pastOffset: offset)
        return checked.withLockedValue { $0.checkpoint(before: offset) }
    }

    /// The checkpoint with the most events, at most `n`: one found before any damage
    /// (a damaged record where the checkpoint at `n` would be leaves an earlier one,
    /// when events follow it; damage after the last event is the whole log's, and a
    /// read of the state after all of them reports it).
    func checkpoint(atOrBefore n: Int) throws(LogError) -> RecordInfo? {
        try advance(throughEvent: n, orDamageAfter: n < eventCount)
        guard let (offset, events) = checked.withLockedValue({ $0.checkpoint(atOrBefore: n) }) else { return nil }
        return try record(at: offset, events: events)
    }
}
