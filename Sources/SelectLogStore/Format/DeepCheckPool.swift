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
/// The pool says only whether every unit passed. When one fails (or a unit is longer
/// than `maxUnitRecords`, which only a crafted log has) it stops taking units, and the
/// caller scans again in turn for the report: which record, why, and what was intact
/// before it, exactly as a scan in turn says. That costs a damaged log a second scan and
/// keeps one definition of every report.
final class DeepCheckPool: @unchecked Sendable {
    // @unchecked: `bytes` is read-only and outlives the pool (the caller's mapping, kept
    // until `finish()` returns); everything else is in `state`, under its lock.

    /// A unit longer than this is not checked here: the pool fails over to a scan in turn.
    static let maxUnitRecords = 2048

    /// Units queued or being checked, at most: a few per thread, so that none waits for
    /// the walk, and memory stays a few record lists.
    private static let maxUnitsAhead = 16

    private struct State {
        /// Units waiting for a thread, oldest first, from `head`.
        var queue: [Unit] = []
        var head = 0
        /// Units queued or being checked.
        var outstanding = 0
        /// Where each unit not yet counted in `checkedEnd` ends, and whether it is checked
        /// (units are checked out of order).
        var ends: [Int: (end: Int, checked: Bool)] = [:]
        /// The number the next unit queued gets.
        var nextNumber = 0
        /// The first unit not yet counted in `checkedEnd`.
        var checkedThrough = 0
        /// Where the units checked in order end.
        var checkedEnd = 0
        /// A unit failed, or one was too long: the caller scans again in turn.
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
    private let threads: Int
    /// The unit the walk is collecting, not yet queued (the caller's thread only).
    private var collecting: [RecordInfo] = []

    /// Starts `threads` threads checking records of `bytes` (a log's file, whose header
    /// says `salt` and `version`).
    init(_ bytes: UnsafeRawBufferPointer, salt: UInt64, version: UInt16, threads: Int) {
        self.bytes = bytes
        self.threads = Swift.max(1, threads)
        state = LockedBox(State())
        for t in 0..<self.threads {
            let thread = Thread { [self] in
                work(salt: salt, version: version)
            }
            thread.name = "selectlog.verify.\(t)"
            thread.start()
        }
    }

    /// Adds a batch the walk found (after its header passed); a batch that continues
    /// another joins that batch's unit. False when the pool has failed: the
    /// walk can stop, its result will be thrown away.
    func add(_ info: RecordInfo) -> Bool {
        if !(info.header.kind == .batch && info.header.continues) { queueCollected() }
        guard collecting.count < Self.maxUnitRecords else {
            state.withLockedValue { $0.failed = true }
            state.wake()
            return false
        }
        collecting.append(info)
        return !state.withLockedValue { $0.failed }
    }

    /// Where the records checked so far end: every record before it was checked, and its
    /// pages are no longer read.
    var checkedEnd: Int { state.withLockedValue { $0.checkedEnd } }

    /// Waits until every unit added is checked (or the pool failed); true when all passed.
    func waitForAll() -> Bool {
        queueCollected()
        return state.withLockedValue(waitingFor: { $0.outstanding == 0 || $0.failed }) { s, _ in !s.failed }
    }

    /// Checks what is left, stops the threads and waits for them; true when every unit
    /// passed. Called once, before the bytes go away.
    func finish() -> Bool {
        queueCollected()
        let passed = state.withLockedValue(waitingFor: { $0.outstanding == 0 || $0.failed }) { s, _ in
            s.closing = true
            return !s.failed
        }
        state.wake()
        state.withLockedValue(waitingFor: { $0.threadsDone == self.threads }) { _, _ in }
        return passed
    }

    /// Queues the unit being collected, waiting while `maxUnitsAhead` are outstanding.
    private func queueCollected() {
        guard !collecting.isEmpty else { return }
        let records = collecting
        collecting = []
        let end = records[records.count - 1].end
        state.withLockedValue(waitingFor: { $0.outstanding < Self.maxUnitsAhead || $0.failed }) { s, _ in
            guard !s.failed else { return }
            s.queue.append(Unit(number: s.nextNumber, records: records))
            s.ends[s.nextNumber] = (end, false)
            s.nextNumber += 1
            s.outstanding += 1
        }
        state.wake()
    }

    private func work(salt: UInt64, version: UInt16) {
        let decompressor = Zstd.isAvailable ? ZstdDecompressor() : nil
        while true {
            let next = state.withLockedValue(waitingFor: { $0.head < $0.queue.count || $0.closing || $0.failed }) { s, _ -> Unit? in
                guard !s.failed, s.head < s.queue.count else { return nil }
                let unit = s.queue[s.head]
                s.head += 1
                // Taken units leave the queue (and their records with them) in groups.
                if s.head >= Self.maxUnitsAhead {
                    s.queue.removeFirst(s.head)
                    s.head = 0
                }
                return unit
            }
            guard let unit = next else { break }
            var decoder: BinaryEventDecoder?
            var passed = true
            for info in unit.records {
                if LogScan.deepCheck(info, bytes, salt: salt, decompressor, version: version, decoder: &decoder, release: nil) != nil {
                    passed = false
                    break
                }
            }
            state.withLockedValue { s in
                s.outstanding -= 1
                if !passed { s.failed = true }
                s.ends[unit.number]?.checked = true
                // The units checked in order mark the pages before them as read.
                while let unit = s.ends[s.checkedThrough], unit.checked {
                    s.checkedEnd = unit.end
                    s.ends[s.checkedThrough] = nil
                    s.checkedThrough += 1
                }
            }
            state.wake()
        }
        state.withLockedValue { $0.threadsDone += 1 }
        state.wake()
    }
}
