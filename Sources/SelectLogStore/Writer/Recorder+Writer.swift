import SelectLog

extension Recorder {
    /// What the writer thread does next, decided under the lock.
    private enum Step {
        case write([Job], upTo: Int)
        case sync(upTo: Int)
        case idle
        case stop
    }

    /// The writer thread: takes sealed batches and checkpoints, writes and syncs them,
    /// and publishes how far it got; exits once the recorder is closing (or failed)
    /// and its queue is empty.
    func work() {
        var lastSync = ContinuousClock.now
        let flushInterval = Duration.milliseconds(options.flushIntervalMilliseconds)
        let durability = options.durability
        while true {
            let step = guarded.withLockedValue(waitingFor: { $0.writerHasWork }, timeout: flushInterval) { s, _ -> Step in
                // A batch that has waited long enough is written even when nothing else arrives.
                if s.queue.isEmpty, s.closing == .open, s.batchCount > 0, ContinuousClock.now - s.batchSealedAt >= flushInterval {
                    s.sealBatch()
                }
                if s.failure != nil {
                    s.workerDone = true
                    return .stop
                }
                if !s.queue.isEmpty {
                    let jobs = s.queue
                    s.queue.removeAll()
                    return .write(jobs, upTo: s.sealedUpTo)
                }
                // With `.interval`, written but unsynced events are synced once the interval has passed.
                if case .interval(let ms) = durability, s.writtenUpTo > s.syncedUpTo,
                   ContinuousClock.now - lastSync >= .milliseconds(ms) {
                    return .sync(upTo: s.writtenUpTo)
                }
                if s.closing != .open {
                    s.workerDone = true
                    return .stop
                }
                return .idle
            }
            var jobs: [Job] = []
            let upTo: Int
            switch step {
            case .stop:
                guarded.wake()
                return
            case .idle:
                continue
            case .sync(let n):
                upTo = n
            case .write(let j, let n):
                jobs = j
                upTo = n
            }
            var error: LogError?
            var synced = false
            do throws(LogError) {
                for job in jobs {
                    switch job {
                    case let .batch(raw, first, count, baseTime, continues):
                        try output.file.append(.batch, payload: raw, firstEvent: first, eventCount: count, baseTime: baseTime,
                                               continues: continues, compressor: output.compressor)
                    case let .checkpoint(snapshot, events, t):
                        try output.file.append(.checkpoint, payload: snapshot, firstEvent: events, eventCount: 0,
                                               baseTime: t, compressor: output.compressor)
                    }
                }
                switch durability {
                case .always:
                    try output.file.sync()
                    synced = true
                case .interval(let ms):
                    if ContinuousClock.now - lastSync >= .milliseconds(ms) {
                        try output.file.sync()
                        synced = true
                    }
                case .none:
                    break
                }
            } catch let e {
                error = e
            }
            if synced { lastSync = ContinuousClock.now }
            guarded.withLockedValue { s in
                if let error {
                    s.failure = error
                } else {
                    s.writtenUpTo = max(s.writtenUpTo, upTo)
                    if synced { s.syncedUpTo = max(s.syncedUpTo, upTo) }
                }
            }
            guarded.wake()
        }
    }
}
