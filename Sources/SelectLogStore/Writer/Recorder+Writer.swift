import SelectLog

extension Recorder {
    /// What the writer thread does next, decided under the lock.
    private enum Step {
        /// Encode the events taken (in its own array), then write; seal the open batch
        /// first when a flush asked for events up to `flushTo` or the recorder is closing.
        /// `wakes`: a thread was waiting (an `append` at the pending limit, a `flush`).
        case work(offered: [TableState], flushTo: Int, closing: Bool, wakes: Bool)
        case stop
    }

    /// The writer thread: takes the events the callers appended, encodes them with
    /// `assembler` into batches and checkpoints, writes and syncs them, and publishes
    /// how far it got; exits once the recorder is closing (or failed) and everything
    /// appended is written.
    func work(_ assembler: LogAssembler) {
        var assembler = assembler
        var taken: [Appended] = []
        taken.reserveCapacity(State.initialPending)
        var records: [LogAssembler.Record] = []
        var lastSync = ContinuousClock.now
        var lastSeal = ContinuousClock.now
        // Only this thread moves `State.syncedUpTo`, so it keeps its own copy.
        var syncedUpTo = guarded.withLockedValue { $0.syncedUpTo }
        let flushInterval = Duration.milliseconds(options.flushIntervalMilliseconds)
        let durability = options.durability
        while true {
            let step = guarded.withLockedValue(waitingFor: { $0.writerHasWork }, timeout: flushInterval) { s, _ -> Step in
                if s.failure != nil {
                    s.workerDone = true
                    return .stop
                }
                s.signalled = false
                // The arrays trade places, so the callers append into storage already allocated.
                swap(&taken, &s.pending)
                let offered = s.offered
                s.offered.removeAll()
                return .work(offered: offered, flushTo: s.flushTarget, closing: s.closing != .open,
                             wakes: guarded.hasWaitersWhileLocked)
            }
            guard case let .work(offered, flushTo, closing, wakes) = step else {
                guarded.wake()
                return
            }
            // An `append` waiting at the pending limit can go on: the list is empty again.
            if wakes { guarded.wakeUnlocked() }
            var next = offered.startIndex
            // Borrowed in place through each element's address, with an exclusive (inout)
            // access: through the buffer's subscript, or read through the pointer, the
            // compiler copied every item (another reference might change it during the
            // call) and destroyed the copy. (Moving each item out cost more than that copy.)
            taken.withUnsafeMutableBufferPointer { items in
                guard var item = items.baseAddress else { return }
                let end = item + items.count
                while item < end {
                    if item.pointee.offersCheckpoint, next < offered.endIndex {
                        Self.encode(&item.pointee, offered: offered[next], with: &assembler, into: &records)
                        next += 1
                    } else {
                        Self.encode(&item.pointee, offered: nil, with: &assembler, into: &records)
                    }
                    item += 1
                }
            }
            taken.removeAll(keepingCapacity: true)
            // A batch is written when a flush or close asks, or when it has waited the flush
            // interval since the last one, even if its gesture has not ended.
            if closing || flushTo > assembler.sealedEvents || ContinuousClock.now - lastSeal >= flushInterval {
                assembler.seal(into: &records)
            }
            let upTo = assembler.sealedEvents
            var error: LogError?
            var synced = false
            do throws(LogError) {
                if !records.isEmpty { lastSeal = ContinuousClock.now }
                for record in records { try output.file.append(record, compressor: output.compressor) }
                records.removeAll(keepingCapacity: true)
                let unsynced = syncedUpTo < upTo
                switch durability {
                case .always:
                    if unsynced {
                        try output.file.sync()
                        synced = true
                    }
                case .interval(let ms):
                    if unsynced, ContinuousClock.now - lastSync >= .milliseconds(ms) {
                        try output.file.sync()
                        synced = true
                    }
                case .none:
                    break
                }
            } catch let e {
                error = e
            }
            if synced {
                lastSync = ContinuousClock.now
                syncedUpTo = max(syncedUpTo, upTo)
            }
            let (done, wakesWaiters) = guarded.withLockedValue { s -> (Bool, Bool) in
                if let error {
                    s.failure = error
                } else {
                    s.writtenUpTo = max(s.writtenUpTo, upTo)
                    if synced { s.syncedUpTo = syncedUpTo }
                }
                guard closing || s.failure != nil else { return (false, guarded.hasWaitersWhileLocked) }
                s.workerDone = true
                return (true, guarded.hasWaitersWhileLocked)
            }
            // `flush()` and `close()` wait for what was just published.
            if wakesWaiters { guarded.wakeUnlocked() }
            if done { return }
        }
    }

    /// Encodes `item` (exclusive, so borrowed without a copy) with `assembler`.
    @inline(__always)
    private static func encode(_ item: inout Appended, offered: TableState?, with assembler: inout LogAssembler,
                               into records: inout [LogAssembler.Record]) {
        assembler.add(item.event, before: item.before, gestureFingerprint: item.gestureFingerprint, offered: offered,
                      into: &records)
    }
}
