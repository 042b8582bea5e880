import SelectLog

// The log's events, read batch by batch: the walk over a log's batches that every read of
// its events shares, and the errors of a batch that does not decode.

extension LogReader {
    /// Calls `body` with each event's index and the event, from `start` up to (not
    /// including) `end`, decoding one batch at a time; stops when `body` returns false.
    /// The range is clamped to the log's events (`0..<eventCount`; `end` nil: to the
    /// last): a range outside them, or empty, reads nothing.
    public func forEachEvent(from start: Int = 0, to end: Int? = nil,
                             _ body: (Int, TimedEvent) throws(LogError) -> Bool) throws(LogError) {
        try reading { () throws(LogError) in
            try forEachEvent(from: start, to: end, releasingAll: false) { (i, e: consuming TimedEvent) throws(LogError) -> Bool in
                try body(i, e)
            }
        }
    }

    /// `forEachEvent(from:to:_:)`; `releasingAll`: when it ends, the pages it read are
    /// released whole, the block holding its last record included (for a replay's
    /// segments, read by threads taking turns: a block one of them read again after
    /// another released it would otherwise stay, a few per segment). `body` takes each
    /// event over, so that it can keep it without a copy.
    func forEachEvent(from start: Int, to end: Int?, releasingAll: Bool,
                      _ body: (Int, consuming TimedEvent) throws(LogError) -> Bool) throws(LogError) {
        try forEachBatch(from: start, to: end, releasingAll: releasingAll) { (decoder, batch, end) throws(LogError) -> Int? in
            var index = batch.header.firstEvent
            // Bound from the call's result, which is moved rather than copied.
            while let e = try nextEvent(&decoder, batch, index) {
                try checkWithinCount(batch, index)
                if index >= end { return nil }
                if index >= start, try !body(index, e) { return nil }
                index += 1
            }
            return index
        }
    }

    /// The batches that hold events `start ..< end` (`end` nil: to the log's end), in order,
    /// each given to `events` on one decoder started on it: `events` reads the batch's
    /// events (calling `checkWithinCount` on each) and returns the index after the last,
    /// or nil to stop. The events of the batch must number what its header says. The walk
    /// over the records between batches, and the decoder's carrying on through continued
    /// batches, are here; what is done with each event is the caller's (`forEachEvent`
    /// makes `TimedEvent`s; a replay, mostly plain records). Inlined into each of them, so
    /// that the per-event loop `events` holds is compiled with the caller's own body (a
    /// call through a closure context cost `forEachEvent` some 60 instructions an event).
    @inline(__always)
    func forEachBatch(from start: Int, to end: Int?, releasingAll: Bool,
                      _ events: (inout BinaryEventDecoder, RecordInfo, Int) throws(LogError) -> Int?) throws(LogError) {
        let end = min(end ?? eventCount, eventCount)
        guard start < end, var next = try batch(containing: Swift.max(start, 0)) else { return }
        var walk = Walk(from: next.offset)
        defer { walk.finish(file, releasingAll: releasingAll) }
        // One decoder for every batch, restarted at each window's first batch (its models
        // are allocated once) and carried on through continued batches.
        var decoder = BinaryEventDecoder(try payload(next), baseTime: next.header.baseTime, version: header.version)
        while true {
            let batch = next
            guard let index = try events(&decoder, batch, end) else { return }
            guard index == batch.header.firstEvent + batch.header.eventCount else {
                throw LogError(.damaged, "batch holds \(index - batch.header.firstEvent) events, its header says \(batch.header.eventCount)",
                               path: path, offset: batch.offset, eventIndex: batch.header.firstEvent)
            }
            guard index < end else { return }
            // The next batch, past any checkpoint.
            var offset = batch.end
            while true {
                guard offset < dataEnd else {
                    throw LogError(.damaged, "the log ends after \(index) events, its index says \(eventCount)", path: path, offset: offset, eventIndex: index)
                }
                let info = try record(at: offset, events: index)
                walk.passed(info.offset, file)
                if info.header.kind == .batch {
                    next = info
                    break
                }
                offset = info.end
            }
            guard !next.header.continues || batch.end == next.offset, decoder.start(try payload(next), next.header) else {
                throw LogError(.damaged, "a continued batch does not follow a batch", path: path, offset: next.offset, eventIndex: index)
            }
        }
    }

    /// An event past the header's count is damage before it is anyone's event.
    @inline(__always)
    func checkWithinCount(_ batch: RecordInfo, _ index: Int) throws(LogError) {
        guard index < batch.header.firstEvent + batch.header.eventCount else {
            throw LogError(.damaged, "batch holds more than the \(batch.header.eventCount) events its header says",
                           path: path, offset: batch.offset, eventIndex: index)
        }
    }

    /// `decoder.next()`, with its error as the log's.
    @inline(__always)
    private func nextEvent(_ decoder: inout BinaryEventDecoder, _ batch: RecordInfo, _ index: Int) throws(LogError) -> TimedEvent? {
        do throws(BinaryError) {
            return try decoder.next()
        } catch {
            throw batchError(error, decoder, batch, index)
        }
    }

    /// `decoder.next(into:)` (a replay's read, on any thread), with its error as the log's;
    /// with `fingerprints` (a constant at each call), `nextWithFingerprints(into:)`.
    @inline(__always)
    func nextEvent(_ decoder: inout BinaryEventDecoder, into record: inout ReplayRecord, _ batch: RecordInfo,
                   _ index: Int, fingerprints: Bool = false) throws(LogError) -> TimedEvent? {
        do throws(BinaryError) {
            return try fingerprints ? decoder.nextWithFingerprints(into: &record) : decoder.next(into: &record)
        } catch {
            throw batchError(error, decoder, batch, index)
        }
    }

    /// Events `start..<end` as an array (the range clamped as `forEachEvent` clamps it).
    public func events(from start: Int = 0, to end: Int? = nil) throws(LogError) -> [TimedEvent] {
        var out: [TimedEvent] = []
        try forEachEvent(from: start, to: end) { _, e in
            out.append(e)
            return true
        }
        return out
    }

    /// The error for a batch that does not decode: `.unsupported` ("written by a newer
    /// selectlog") when it holds an event type or fields this reader does not know.
    func batchError(_ error: BinaryError, _ decoder: BinaryEventDecoder, _ batch: RecordInfo, _ index: Int) -> LogError {
        if decoder.isNewer { return LogError(.unsupported, error.reason, path: path, offset: batch.offset, eventIndex: index) }
        return LogError(.damaged, "batch does not decode: \(error)", path: path, offset: batch.offset, eventIndex: index)
    }
}
