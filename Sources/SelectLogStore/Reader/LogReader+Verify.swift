import SelectLog

extension LogReader {
    /// Checks the whole file: headers, checksums, decompression, decoding, event order,
    /// checkpoints against their headers and invariants, and the stored seek index
    /// against the records walked. With `replaying`, also replays every event with this
    /// build and compares each checkpoint's state hash, and each gesture end's state
    /// fingerprint, with the replayed state's (when the log's behaviour fingerprint is this
    /// build's; otherwise that part is skipped and a note says why). A difference is damage
    /// from the batch that holds the first event no earlier fingerprint or checkpoint
    /// confirmed (from a checkpoint itself when a fingerprint after the same events agreed).
    ///
    /// The batches of a file of 1 MiB or more are checked on two other threads while this
    /// one walks the records; the report is the one a walk in turn gives (a log that
    /// fails there is walked again in turn for it).
    public static func verify(path: String, replaying: Bool = false) throws(LogError) -> VerifyReport {
        try verify(path: path, replaying: replaying, engine: .standard)
    }

    /// `verify(path:replaying:)` with `engine`; a replay of at least `minimum` events (and
    /// a second core) is decoded on other threads. The records are checked on
    /// `checkThreads` other threads (nil: `deepCheckThreads` for a file of at least
    /// `deepCheckPoolBytes` with a second core, else none) while this one walks them.
    package static func verify(path: String, replaying: Bool, engine: EngineBehaviour,
                               pipelinedFrom minimum: Int = pipelinedReplayEvents,
                               checkThreads: Int? = nil) throws(LogError) -> VerifyReport {
        let file = try MappedFile(path: path)
        let bytes = file.bytes
        // The stored index is compared with the records as they are walked, entry by entry
        // where it lies: neither list is held in memory.
        func walk(threads: Int, checkedBefore: Int = 0) -> (LogScan, IndexComparison) {
            var comparison = IndexComparison(bytes) { file.release($0) }
            let scan = LogScan.scan(bytes, deep: true, keep: false, release: { file.release($0) }, threads: threads,
                                    checkedBefore: checkedBefore) {
                comparison.visit($0)
            }
            return (scan, comparison)
        }
        let threads = checkThreads ?? (bytes.count >= deepCheckPoolBytes && hasSecondCore ? deepCheckThreads : 0)
        var (scan, comparison) = walk(threads: threads)
        if scan.needsScanInTurn {
            // A record failed on the pool's threads: the scan in turn says which, and why,
            // without checking again the batches that passed there before it.
            (scan, comparison) = walk(threads: 0, checkedBefore: scan.passedEnd)
        }
        if scan.problem == nil, let index = scan.last, index.header.kind == .index {
            if let why = comparison.disagreement(with: index) {
                scan.problem = LogProblem(offset: index.offset, reason: "the seek index disagrees with the records walked: \(why)", isTornTail: false,
                                          isIndexOnly: true)
                scan.goodEnd = index.offset
                scan.recordCount -= 1
            }
        }
        // Zeros stood in for pages another process cut off (or the file is shorter than
        // it was when mapped): the verdict is on bytes the file no longer has.
        if let cut = file.cutError() { throw cut }
        var report = VerifyReport(fileSize: bytes.count, intactEvents: scan.eventCount,
                                  intactBytes: scan.problem == nil ? bytes.count : scan.goodEnd,
                                  records: scan.recordCount, problem: scan.problem)
        if scan.problem == nil, scan.last?.header.kind != .index {
            // Intact as far as it goes, but not closed: a copy cut at a record boundary
            // looks just like this, and deserves a word. So does a file header alone: a
            // closed log has an index record even with no events.
            report.notes.append("no seek index at its end: the log was not closed (it is still being recorded, or it was cut at a record boundary, as a crash or `verify --repair` leaves it); readers rebuild the index by reading it")
        }
        guard replaying, scan.problem == nil else { return report }
        // The report's note below says what a differing fingerprint means here: no
        // checkpoint is compared (the reader's notice would say they are replayed past).
        let reader = try LogReader(path: path, engine: engine, notice: { _ in })
        guard reader.checkpointsTrusted else {
            report.notes.append("checkpoints and gesture fingerprints not compared with a replay: the log's behaviour fingerprint differs from this build's (`selectlog check` says whether this build replays it the same)")
            return report
        }
        do throws(LogError) {
            // `check`'s replay: every checkpoint and gesture fingerprint compared, pipelined
            // where the log is long, and a difference described in turn.
            let check = try reader.check(pipelinedFrom: minimum, throwingRejections: true)
            report.checkpointsReplayed = check.checkpointsCompared
            report.gesturesReplayed = check.gesturesCompared
            if let divergence = check.divergence { try report.note(divergence, in: reader) }
            return report
        } catch {
            // An event the engine that wrote the log rejects: damage (checksums can be
            // forged, or a buggy writer's), reported where its batch starts (a continued
            // batch inside a coded window included: a window cut after any of its batches
            // reads, as a crash leaves it), with the events before that batch as the
            // intact ones, so that a repair can keep them.
            guard error.invalidEvent != nil, let index = error.eventIndex,
                  let batch = try reader.window(containing: index, after: nil)?.batch else {
                throw error
            }
            try report.cut(at: batch.offset, intactEvents: batch.header.firstEvent, in: reader, reason: "event \(index + 1): \(error.message)")
            return report
        }
    }
}

extension LogReader {
    /// A file at least this long has its records checked on other threads by `verify`.
    static let deepCheckPoolBytes = 1 << 20

    /// The threads that check a long log's records for `verify` (`DeepCheckPool`), while
    /// the caller's walks the headers.
    static let deepCheckThreads = 2
}

extension VerifyReport {
    /// `divergence`, where a replay with the engine that wrote the log parts from it, as
    /// the report's problem: damage from the batch that holds the first event no gesture
    /// fingerprint or checkpoint confirmed (the events before that batch intact, as for an
    /// event the engine rejects), since either those events or the record that disagrees
    /// were changed; or from a checkpoint that disagrees right after a fingerprint that
    /// agreed, which is then the one record in doubt.
    fileprivate mutating func note(_ divergence: CheckReport.Divergence, in reader: LogReader) throws(LogError) {
        let first: Int
        switch divergence.seen {
        case .checkpoint(let at, let agreed) where agreed == divergence.checkpoint:
            checkpointsReplayed -= 1
            try cut(at: at, intactEvents: agreed, in: reader, reason: divergence.headline)
            return
        case .checkpoint(_, let agreed):
            checkpointsReplayed -= 1
            first = agreed
        case .fingerprint(let agreed, let after):
            gesturesReplayed -= 1
            // A fingerprint after the same events as the one that agreed lies in the batch
            // of the event before it.
            first = agreed < after ? agreed : Swift.max(after - 1, 0)
        case .rejected:
            first = divergence.events.lowerBound
        }
        let batch = try reader.window(containing: Swift.min(first, reader.eventCount - 1), after: nil)?.batch
        try cut(at: batch?.offset ?? reader.header.size, intactEvents: batch?.header.firstEvent ?? 0, in: reader, reason: divergence.headline)
    }

    /// Damage at `offset`, after `intactEvents` intact events and the records before it.
    fileprivate mutating func cut(at offset: Int, intactEvents: Int, in reader: LogReader, reason: String) throws(LogError) {
        problem = LogProblem(offset: offset, reason: reason, isTornTail: false)
        intactBytes = offset
        self.intactEvents = intactEvents
        var before = 0
        try reader.forEachRecord { (record) throws(LogError) -> Bool in
            guard record.offset < offset else { return false }
            before += 1
            return true
        }
        records = before
    }
}

/// The stored index the trailer names, compared entry by entry with the records a walk
/// finds, as it finds them (in version 4, a window's continued batches are summed into
/// its first batch's entry).
private struct IndexComparison {
    private var index: RecordInfo?
    private var entries: LogIndex.Entries?
    /// Entries the walk has completed, and the one it is in.
    private var walked = 0
    private var current: IndexEntry?
    private var first: String?
    /// Drops the pages of a range of the file: the entries behind the comparison.
    private let release: (Range<Int>) -> Void

    init(_ bytes: UnsafeRawBufferPointer, release: @escaping (Range<Int>) -> Void) {
        self.release = release
        guard let (header, info) = LogIndexCheck.indexRecord(bytes) else { return }
        index = info
        entries = LogIndex.Entries(UnsafeRawBufferPointer(rebasing: bytes[info.payloadStart..<info.end]), at: info.offset,
                                   version: header.version)
    }

    mutating func visit(_ r: RecordInfo) {
        if r.header.continues, current != nil {
            current?.add(continued: r)
            return
        }
        completeEntry()
        if r.header.kind != .index { current = IndexEntry(r) }
    }

    /// Compares the entry the walk has just completed with the index's next one.
    private mutating func completeEntry() {
        guard let walkedEntry = current else { return }
        current = nil
        defer { walked += 1 }
        guard first == nil, entries != nil else { return }
        switch entries?.next() {
        case .some(.some(let listed)):
            if let index, let at = entries?.at, walked % 65_536 == 65_535 {
                release(index.offset..<(index.offset + LogFormat.recordHeaderSize + at))
            }
            if listed != walkedEntry {
                first = "entry \(walked) (byte offset \(listed.record.offset)) differs from the records at byte offset \(walkedEntry.record.offset)"
            }
        case .some(.none):
            first = "it does not decode"
        case .none:
            break
        }
    }

    /// Why the index record `walkedIndex`, the last record walked, does not list exactly
    /// the records walked before it, or nil.
    mutating func disagreement(with walkedIndex: RecordInfo) -> String? {
        completeEntry()
        guard let index, index.offset == walkedIndex.offset, entries != nil else { return "it does not decode" }
        if let count = entries?.count, count != walked { return "it lists \(count) records, the file holds \(walked)" }
        if first == nil, entries?.next() != nil { return "it does not decode" }
        return first
    }
}

/// What `verify` found.
public struct VerifyReport: Sendable, Equatable {
    /// The file's size in bytes.
    public var fileSize: Int
    /// Events in the intact prefix.
    public var intactEvents: Int
    /// Bytes in the intact prefix (the offset of the first bad byte when damaged).
    public var intactBytes: Int
    /// Records in the intact prefix.
    public var records: Int
    /// The first problem, if any.
    public var problem: LogProblem?
    /// Checkpoints whose state a replay confirmed (`replaying` only).
    public var checkpointsReplayed = 0
    /// Gesture ends whose state fingerprint a replay confirmed (`replaying` only).
    public var gesturesReplayed = 0
    /// Remarks that are not damage (for example, checkpoints that were not compared).
    public var notes: [String] = []
    /// Whether the log is intact.
    public var isIntact: Bool { problem == nil }
}

extension VerifyReport: CustomStringConvertible {
    /// The verdict in the words of `selectlog verify`, without the log's name: intact (its
    /// events, records and bytes, and the checkpoints and gestures a replay confirmed), or where the
    /// damage or torn tail starts (a byte offset) and how many events before it are
    /// intact; then each note, a line each.
    ///
    /// ```
    /// damaged at byte offset 2533: record payload checksum mismatch; 1301 intact events
    /// ```
    public var description: String {
        ([verdict(replayed: checkpointsReplayed > 0 || gesturesReplayed > 0)] + notes.map { "note: \($0)" }).joined(separator: "\n")
    }

    /// The verdict line, as `selectlog verify` prints it after the log's name; `replayed`:
    /// the checkpoints and gestures a replay confirmed are counted (none, too).
    package func verdict(replayed: Bool) -> String {
        guard let problem else {
            let confirmed = replayed ? ", \(ReportText.counted(checkpointsReplayed, "checkpoint", "checkpoints")) and "
                + "\(ReportText.counted(gesturesReplayed, "gesture", "gestures")) confirmed by replay" : ""
            return "intact: \(ReportText.counted(intactEvents, "event", "events")) in \(ReportText.counted(records, "record", "records")), "
                + "\(ReportText.counted(fileSize, "byte", "bytes"))\(confirmed)"
        }
        let intact = ReportText.counted(intactEvents, "intact event", "intact events")
        if problem.isNewer {
            return "cannot be checked past byte offset \(problem.offset): \(problem.reason); \(intact) before it"
        }
        // Bytes that were never a log are not damage (its `--json` kind is "notALog").
        if problem.isNotALog { return problem.reason }
        return "\(problem.isTornTail ? "torn tail" : "damaged") at byte offset \(problem.offset): \(problem.reason); \(intact)"
    }
}
