import Foundation

/// `verify`'s deep checks (checksum, decompression, decoding) of a long log's batches, on
/// threads of their own while the caller's thread walks the record headers and checks
/// the checkpoints and the index (`LogScan.scan(_:deep:keep:release:threads:visit:)`).
///
/// The batches come in units that are checked in turn, each on one thread: a batch with
/// the batches that continue it (one coded window). Units are independent: a batch that
/// does not continue another starts with fresh models, as `BinaryEventDecoder.start`
/// restarts it. So a log all of whose units pass would pass the checks in turn too,
/// batch by batch.
///
/// The pool says only whether every unit passed. When one fails, or is larger than a
/// unit may be (`fits(records:bytes:)`), it stops taking units, and the caller scans
/// again in turn for the report: which record, why, and what was intact before it,
/// exactly as a scan in turn says. That keeps one definition of every report. The scan
/// again skips the checks of the batches before `passedEnd` (the units that passed, in
/// order from the first), which would pass again: a damaged log is decoded about once.
///
/// Memory stays bounded whatever the file: the walk waits while it is more than
/// `maxUnitsAhead` units, `maxRecordsAhead` records or `maxBytesAhead` bytes of the file
/// ahead of the units checked in order (the caller releases the pages behind those
/// only), however slow one unit is to check.
final class DeepCheckPool: @unchecked Sendable {
    // @unchecked: `bytes` is read-only and outlives the pool (the caller's mapping, kept
    // until `finish()` returns); everything else is in `state`, under its lock.

    /// The most records a unit may have: a window of one-event batches (a recorder that
    /// flushes at every event) has up to 8,192 and a little more.
    static let maxUnitRecords = 16_384

    /// The most bytes of the file a unit may span; a window of the standard session
    /// spans about 6 KB. Its pages stay mapped until it is checked.
    static let maxUnitBytes = 4 << 20

    /// Units, records and bytes of the file the walk may be ahead of the units checked in
    /// order: a few units per thread, so that none waits for the walk.
    private static let maxUnitsAhead = 16
    private static let maxRecordsAhead = 16_384
    private static let maxBytesAhead = 4 << 20

    private struct State {
        /// Units waiting for a thread, oldest first, from `head`.
        var queue: [Unit] = []
        var head = 0
        /// Units queued or being checked.
        var outstanding = 0
        /// The units not yet counted in `checkedEnd`, by number: where each ends, its
        /// records, whether it is checked (units are checked out of order), and whether it
        /// passed.
        var ahead: [Int: (end: Int, records: Int, checked: Bool, passed: Bool)] = [:]
        /// Records in the units of `ahead`.
        var recordsAhead = 0
        /// The number the next unit queued gets.
        var nextNumber = 0
        /// The first unit not yet counted in `checkedEnd`.
        var checkedThrough = 0
        /// Where the units checked in order end.
        var checkedEnd = 0
        /// Where the units that passed end, in order from the first: up to the first
        /// unit that failed, or to `checkedEnd`.
        var passedEnd = 0
        /// A unit failed, or one was too large: the caller scans again in turn.
        var failed = false
        /// `finish()` was called: the threads stop once the queue is empty.
        var closing = false
        var threadsDone = 0
    }

    private struct Unit {
        var number: Int
        var records: [RecordInfo]
    }

    private let state: LockedBox<State>
    private let bytes: UnsafeRawBufferPointer
    /// The threads that started: set in `init` only, before the pool is handed on.
    private var threads = 0

    /// Starts `threads` threads checking records of `bytes` (a log's file, whose header
    /// says `salt` and `version`). When the system would start none, the pool has failed
    /// from the start, and the caller scans in turn.
    init(_ bytes: UnsafeRawBufferPointer, salt: UInt64, version: UInt16, threads: Int) {
        self.bytes = bytes
        state = LockedBox(State())
        for t in 0..<Swift.max(1, threads) {
            let result = WorkerThread.start(name: "selectlog.chk.\(t)") { [self] in
                work(salt: salt, version: version)
            }
            // The system would start no more threads (`ulimit -v`, a thread limit).
            guard result == 0 else { break }
            self.threads += 1
        }
        if self.threads == 0 { refuse() }
    }

    /// Whether a unit of `records` records spanning `bytes` bytes of the file may be
    /// checked here; a larger one (only a crafted file has one) is left to the scan in turn.
    static func fits(records: Int, bytes: Int) -> Bool {
        records <= maxUnitRecords && bytes <= maxUnitBytes
    }

    /// Marks the pool failed: the walk met a unit that does not fit.
    func refuse() {
        state.withLockedValue { $0.failed = true }
        state.wake()
    }

    /// Queues a unit the walk found (a batch and the batches that continue it, in order,
    /// their headers checked), waiting while the walk is too far ahead; false when the
    /// unit does not fit or the pool has failed: the walk can stop, its result will be
    /// thrown away.
    func check(_ records: [RecordInfo]) -> Bool {
        guard let first = records.first, let last = records.last else { return true }
        guard Self.fits(records: records.count, bytes: last.end - first.offset) else {
            refuse()
            return false
        }
        let end = last.end
        let queued = state.withLockedValue(waitingFor: { s in
            s.failed || s.nextNumber == s.checkedThrough
                || (s.nextNumber - s.checkedThrough < Self.maxUnitsAhead && s.recordsAhead + records.count <= Self.maxRecordsAhead
                    && end - s.checkedEnd <= Self.maxBytesAhead)
        }) { s, _ -> Bool in
            guard !s.failed else { return false }
            s.queue.append(Unit(number: s.nextNumber, records: records))
            s.ahead[s.nextNumber] = (end, records.count, false, false)
            s.recordsAhead += records.count
            s.nextNumber += 1
            s.outstanding += 1
            return true
        }
        if queued { state.wake() }
        return queued
    }

    /// Where the units checked in order end: the caller no longer needs the pages before
    /// it.
    var checkedEnd: Int { state.withLockedValue { $0.checkedEnd } }

    /// Where the units that passed end, in order from the first unit: every batch before
    /// it passed its checks. Read after `finish()`, by a scan again in turn.
    var passedEnd: Int { state.withLockedValue { $0.passedEnd } }

    /// Waits until every unit queued is checked (or the pool failed); true when all passed.
    func waitForAll() -> Bool {
        state.withLockedValue(waitingFor: { $0.outstanding == 0 || $0.failed }) { s, _ in !s.failed }
    }

    /// Waits for the units queued (or the pool's failure), stops the threads and waits for
    /// them; true when every unit passed. Called once, before the bytes go away.
    func finish() -> Bool {
        let passed = state.withLockedValue(waitingFor: { $0.outstanding == 0 || $0.failed }) { s, _ in
            s.closing = true
            return !s.failed
        }
        state.wake()
        let started = threads
        state.withLockedValue(waitingFor: { $0.threadsDone == started }) { _, _ in }
        return passed
    }

    private func work(salt: UInt64, version: UInt16) {
        let decompressor = Zstd.isAvailable ? ZstdDecompressor() : nil
        while true {
            let next = state.withLockedValue(waitingFor: { $0.head < $0.queue.count || $0.closing || $0.failed }) { s, _ -> Unit? in
                guard !s.failed, s.head < s.queue.count else { return nil }
                // Taken out of the queue, so that its records go once it is checked; the
                // emptied places leave the queue in groups.
                let unit = s.queue[s.head]
                s.queue[s.head].records = []
                s.head += 1
                if s.head >= Self.maxUnitsAhead {
                    s.queue.removeFirst(s.head)
                    s.head = 0
                }
                return unit
            }
            guard let unit = next else { break }
            var decoder: BinaryEventDecoder?
            var checkpoint: SnapshotDelta.Resolved?   // units hold batches only
            var passed = true
            for info in unit.records {
                var newer = false
                if LogScan.deepCheck(info, bytes, salt: salt, decompressor, version: version, decoder: &decoder, checkpoint: &checkpoint, newer: &newer, release: nil) != nil {
                    passed = false
                    break
                }
            }
            state.withLockedValue { s in
                s.outstanding -= 1
                if !passed { s.failed = true }
                s.ahead[unit.number]?.checked = true
                s.ahead[unit.number]?.passed = passed
                // The units checked in order mark the pages before them as read.
                while let done = s.ahead[s.checkedThrough], done.checked {
                    if done.passed, s.passedEnd == s.checkedEnd { s.passedEnd = done.end }
                    s.checkedEnd = done.end
                    s.recordsAhead -= done.records
                    s.ahead[s.checkedThrough] = nil
                    s.checkedThrough += 1
                }
            }
            state.wake()
        }
        state.withLockedValue { $0.threadsDone += 1 }
        state.wake()
    }
}
