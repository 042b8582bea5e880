import Foundation
import SelectLog

extension LogReader {
    /// A replay of at least this many events decodes on other threads while the caller's
    /// applies: decoding costs about twice what the reducers do, so the events are cut
    /// into segments that several threads decode at once, and the caller's thread applies
    /// them in order.
    static let pipelinedReplayEvents = 65_536

    /// Events in a segment of a pipelined replay when several threads decode, about: each
    /// segment after the first starts at the window that holds event `start + k * size`
    /// (windows start with fresh models; `SegmentBounds`). A segment that started inside
    /// a window would decode the window's events before it only to skip them, up to a
    /// whole window (the writer's hold up to 8,192 events, or a little more).
    static let replaySegmentEvents = 16_384

    /// Whether a second thread can run beside the caller's.
    static let hasSecondCore = Cores.usable > 1

    /// Threads that decode a pipelined replay, taking turns at segments. Decoding costs
    /// about twice what applying does, so two would fill two cores with the caller's
    /// thread applying; but the applier, faster than one decoder, caught up with the
    /// decoder of its segment and waited for it while the other decoder, its own segment
    /// done, waited for room (together they waited 0.6 s of a 0.9 s replay of 10M
    /// events), leaving a core idle. With four, another decoder is still at work then:
    /// 10M events took 0.78–0.82 s instead of 0.87–0.91 s, and 100M 8.0 s instead of
    /// 8.7 s (alternating runs). Each decoder keeps up to a segment and two chunks (some
    /// 640 KB) ahead of the applier, as two at twice the segment did, so a replay of 100M
    /// events still peaks at 28 MB.
    static let replayDecoders = 4

    /// Replays events `state.events ..< n` into `state` as `replay(into:to:)` does, in the
    /// same order and with the same outcome (the same error at the same event, and the
    /// events before it applied), decoded on other threads.
    ///
    /// Segment k is `forEachEvent` over its events (`SegmentBounds` cuts them), decoded by
    /// thread k mod `decoders` into chunks that thread hands over in order; the caller's
    /// thread takes segment 0's chunks, then segment 1's, and so on. A segment's read
    /// checks every record before it, as every read does, so damage before a segment is
    /// also its error; the caller meets it first in the segment that holds it.
    /// False, with `state` untouched, when the system would start no decoding thread.
    @discardableResult
    func pipelinedReplay(into state: inout TableState, to n: Int, segmentEvents: Int? = nil,
                         decoders: Int = replayDecoders, alignsToWindows: Bool = false) throws(LogError) -> Bool {
        var none = NoReplayObserver()
        return try pipelinedReplay(into: &state, to: n, segmentEvents: segmentEvents, decoders: decoders,
                                   alignsToWindows: alignsToWindows, observing: &none) != nil
    }

    /// `pipelinedReplay(into:to:)`, telling `observer` on the applying thread about each
    /// event before it is applied and (when it wants them) about the gesture fingerprints
    /// between them. False when the observer stopped it, with `state` as far as it got;
    /// nil, with `state` untouched, when the system would start no decoding thread (the
    /// caller replays in turn instead).
    ///
    /// Segment k starts at `start + k * segmentEvents` or, when `alignsToWindows` or when
    /// `segmentEvents` is nil (the default size), at the start of that event's window,
    /// but not before segment k - 1's start (`SegmentBounds`).
    func pipelinedReplay<Observer: ReplayObserver>(into state: inout TableState, to n: Int, segmentEvents: Int?,
                                                   decoders: Int, alignsToWindows: Bool = false,
                                                   observing observer: inout Observer) throws(LogError) -> Bool? {
        let start = state.events
        let total = Swift.max(0, n - start)
        // One decoder takes the whole replay as one segment; several take turns.
        let size = Swift.max(1, decoders > 1 ? segmentEvents ?? Self.replaySegmentEvents : segmentEvents ?? total)
        let segments = total / size + (total % size == 0 ? 0 : 1)
        let count = Swift.max(1, Swift.min(decoders, segments))
        let bounds = SegmentBounds(reader: self, start: start, end: n, size: size,
                                   aligned: alignsToWindows || segmentEvents == nil)
        // With several decoders, each may run a whole segment ahead of the applying thread:
        // one that could not would wait while the applier works through the segments
        // before its own. One decoder keeps a few chunks ahead.
        let ahead = count == 1 ? 4 : Swift.min(size, 1 << 20) / ReplayPipe.chunkEvents + 2
        var pipes = (0..<count).map { _ in LockedBox(ReplayPipe(ahead: ahead)) }
        // The decoders take turns at the segments among those that started: each learns how
        // many did before it starts.
        let started = LockedBox<Int?>(nil)
        for (d, pipe) in pipes.enumerated() {
            let result = WorkerThread.start(name: "selectlog.dec.\(d)", { [self] in
                let turns = started.withLockedValue(waitingFor: { $0 != nil }) { s, _ in s ?? 1 }
                for k in stride(from: d, to: segments, by: turns) {
                    let from = bounds.start(of: k), to = k + 1 == segments ? n : bounds.start(of: k + 1)
                    guard decode(from: from, to: to, into: pipe, for: Observer.self) else { break }
                }
            }, finished: {
                // Once the body, and the reader it holds, are let go: a caller that drops
                // the reader after the replay unmaps the log at once.
                pipe.withLockedValue { $0.decoderDone = true }
                pipe.wake()
            })
            if result != 0 {
                // The system would start no more threads (`ulimit -v`, a thread limit).
                pipes.removeLast(pipes.count - d)
                break
            }
        }
        started.withLockedValue { $0 = pipes.count }
        started.wake()
        // Not one: decoded in turn by the caller (`nil`), the state untouched.
        guard !pipes.isEmpty else { return nil }
        var index = start
        var failure: LogError?
        var stopped = false
        let standard = engine.isStandard
        segments: for k in 0..<segments {
            let pipe = pipes[k % pipes.count]
            while true {
                guard let item = ReplayPipe.next(from: pipe) else {
                    failure = LogError(.io, "a decoding thread of the replay stopped before the end of its events", path: path, eventIndex: index)
                    break segments
                }
                switch item {
                case .events(let chunk):
                    do throws(LogError) {
                        stopped = try !chunk.drain(records: { (r: ReplayRecord) throws(LogError) -> Bool in
                            if Observer.wantsFingerprints, r.kind == .fingerprint { return observer.fingerprint(r, after: index, state) }
                            guard try observer.willApply(index, state) else { return false }
                            if standard {
                                // Straight to the event's reducer, with no `TimedEvent` made or destroyed.
                                do throws(InvalidEvent) { try r.apply(to: &state) } catch { throw rejection(error, index: index) }
                            } else if let e = r.event {
                                try apply(e, index: index, to: &state, validated: true)
                            }
                            index += 1
                            return true
                        }, events: { (e: consuming TimedEvent) throws(LogError) -> Bool in
                            guard try observer.willApply(index, state) else { return false }
                            if standard {
                                // `apply(_:index:to:validated: true)`, the engine asked about once.
                                do throws(InvalidEvent) { try state.applyValidated(e) } catch { throw rejection(error, index: index) }
                            } else {
                                try apply(e, index: index, to: &state, validated: true)
                            }
                            index += 1
                            return true
                        })
                    } catch {
                        failure = error
                        break segments
                    }
                    pipe.withLockedValue { p in p.spare = chunk }
                    if stopped { break segments }
                case .end(let error?):
                    failure = error
                    break segments
                case .end(nil):
                    continue segments
                }
            }
        }
        // Every decoder is stopped (at its next hand-over) and waited for, so no thread outlives the call.
        for pipe in pipes {
            pipe.withLockedValue { $0.cancelled = true }
            pipe.wake()
        }
        for pipe in pipes { pipe.withLockedValue(waitingFor: { $0.decoderDone }) { _, _ in } }
        let largest = pipes.map { $0.withLockedValue { $0.largestWeight } }.max() ?? 0
        largestWeightAhead.withLockedValue { $0 = Swift.max($0, largest) }
        if let failure { throw failure }
        return !stopped
    }

    /// Decodes events `from ..< to` into chunks handed to `pipe`, then the segment's end
    /// (with its error, if any); false when the applying thread has stopped, or on an error.
    ///
    /// With the observer's `wantsFingerprints`, also the gesture fingerprints after `from`
    /// to `to` events, each as a record of kind `.fingerprint` whose `b` and `time` are the
    /// byte offset of its batch and the decoder's position in the batch after it. One
    /// after `to` events that follows event `to` − 1 in its batch is also the next
    /// segment's first when that segment's decoder starts before it: the two hand-overs
    /// name the same item, and the observer takes it once. Every fingerprint is handed
    /// over by some segment: it lies in the batch of the event before it or of the event
    /// after it (a batch holds at least one event).
    private func decode<Observer: ReplayObserver>(from: Int, to: Int, into pipe: LockedBox<ReplayPipe>, for _: Observer.Type) -> Bool {
        // A constant of each specialization: a plain replay's loop carries none of the
        // fingerprints' code.
        let fingerprints = Observer.wantsFingerprints
        var chunk = ReplayPipe.storage(from: pipe)
        var failure: LogError?
        var going = true
        do throws(LogError) {
            try forEachBatch(from: from, to: to, releasingAll: true) { (decoder, batch, end) throws(LogError) -> Int? in
                var index = batch.header.firstEvent
                // One record for the batch: the decoder sets its kind at every event, and the
                // fields of that kind.
                var record = ReplayRecord()
                let batchEnd = batch.header.firstEvent + batch.header.eventCount
                while true {
                    // A run of records written in place, within the chunk's room, the segment
                    // and the batch's count, so that every bound below holds for each and for
                    // the event that ends the run; what comes after it takes the steps below.
                    // The same events and errors as those steps, with no call an event: a
                    // decoding thread took 901 instructions an event rather than 1,007 on 1M
                    // standard events, 1,365 rather than 1,489 on a random walk (callgrind).
                    if !fingerprints, index >= from, decoder.readsRuns {
                        let limit = Swift.min(chunk.room, end - index, batchEnd - index)
                        if limit > 0 {
                            var n = 0
                            let e: TimedEvent?
                            do throws(BinaryError) {
                                e = try decoder.next(run: chunk.tail, &n, limit: limit)
                            } catch {
                                chunk.commit(n)
                                throw batchError(error, decoder, batch, index + n)
                            }
                            chunk.commit(n)
                            index += n
                            if let e {
                                chunk.append(e)
                                index += 1
                            } else if n < limit {
                                return index
                            }
                            if chunk.isDue {
                                going = ReplayPipe.hand(.events(chunk), to: pipe)
                                chunk = ReplayPipe.storage(from: pipe)
                                guard going else { return nil }
                            }
                            continue
                        }
                    }
                    let e = try nextEvent(&decoder, into: &record, batch, index, fingerprints: fingerprints)
                    if e == nil, record.kind == .other { return index }
                    if fingerprints, e == nil, record.kind == .fingerprint {
                        if index >= from, index <= end {
                            record.b = Int64(batch.offset)
                            record.time = Int64(decoder.offset)
                            chunk.append(record)
                            if chunk.count == ReplayPipe.chunkEvents {
                                going = ReplayPipe.hand(.events(chunk), to: pipe)
                                chunk = ReplayPipe.storage(from: pipe)
                                guard going else { return nil }
                            }
                        }
                        continue
                    }
                    try checkWithinCount(batch, index)
                    if index >= end { return nil }
                    if index >= from {
                        if let e { chunk.append(e) } else { chunk.append(record) }
                        if chunk.isDue {
                            going = ReplayPipe.hand(.events(chunk), to: pipe)
                            chunk = ReplayPipe.storage(from: pipe)
                            guard going else { return nil }
                        }
                    }
                    index += 1
                }
            }
        } catch {
            failure = error
        }
        guard going else { return false }
        if chunk.count > 0, !ReplayPipe.hand(.events(chunk), to: pipe) { return false }
        return ReplayPipe.hand(.end(failure), to: pipe) && failure == nil
    }
}

/// What a pipelined replay tells besides applying the events, on the applying thread
/// (`LogReader.check()` compares the fingerprints and checkpoints a log recorded).
protocol ReplayObserver: SendableMetatype {
    /// Whether the decoding threads hand over the gesture fingerprints.
    static var wantsFingerprints: Bool { get }
    /// Before event `index` is applied to `state`, which has seen `index` events; false
    /// stops the replay there.
    mutating func willApply(_ index: Int, _ state: borrowing TableState) throws(LogError) -> Bool
    /// A gesture fingerprint recorded after `index` events (a record of kind
    /// `.fingerprint`); false stops the replay there.
    mutating func fingerprint(_ record: ReplayRecord, after index: Int, _ state: borrowing TableState) -> Bool
}

/// A plain replay's observer: nothing to tell, and compiled away.
struct NoReplayObserver: ReplayObserver {
    // One stored byte, so that the observer has an address of its own: the closures
    // of `pipelinedReplay` capture it `inout`, and ThreadSanitizer (`make tsan`) took
    // the access to an empty struct for a race on a global of the runtime, or crashed.
    private var unused: UInt8 = 0
    static var wantsFingerprints: Bool { false }
    @inline(__always)
    func willApply(_ index: Int, _ state: borrowing TableState) throws(LogError) -> Bool { true }
    @inline(__always)
    func fingerprint(_ record: ReplayRecord, after index: Int, _ state: borrowing TableState) -> Bool { true }
}
