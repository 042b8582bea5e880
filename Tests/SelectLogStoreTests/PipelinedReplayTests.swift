import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// A long replay decodes on a second thread while the caller's applies: it must be
/// indistinguishable from decoding and applying in turn. (On a one-core machine the
/// replay is not pipelined and these compare the plain path with itself.)
@Suite("Pipelined replay")
struct PipelinedReplayTests {
    /// A log of `count` random-walk events (no checkpoints to shorten anything) and its events.
    static func log(in dir: URL, count: Int) throws -> (path: String, events: [TimedEvent]) {
        let path = dir.appendingPathComponent("p.slog").path
        let events = Array(RandomWalkSession(seed: 11, count: count))
        let w = try LogRewriter(path: path, checkpointInterval: 0, batchEvents: 500)
        for e in events { try w.append(e) }
        try w.close()
        return (path, events)
    }

    /// The log at `path` read event by event on this thread, with a reader of its own, and
    /// each event applied in turn: the state reached and the error that stopped it, if any.
    static func appliedInTurn(_ path: String) throws -> (TableState, LogError?) {
        let reader = try LogReader(path: path)
        var state = TableState()
        do {
            try reader.forEachEvent { (i, e) throws(LogError) -> Bool in
                try reader.apply(e, index: i, to: &state)
                return true
            }
        } catch {
            return (state, error)
        }
        return (state, nil)
    }

    /// (segment size, decoding threads): one segment; several, cut across batches and
    /// windows, decoded by one thread and by two taking turns; many, shorter than a batch.
    static let segments: [(Int, Int)] = [(1 << 20, 1), (3_001, 1), (3_001, 2), (257, 2)]

    @Test("the same state as applying the events in turn, from the start and from part-way", arguments: segments)
    func sameState(segment: Int, decoders: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let n = ReplayPipe.chunkEvents * 9 + 123
        let (path, events) = try Self.log(in: dir, count: n)
        var expected = TableState()
        for e in events[..<1000] { try expected.apply(e) }
        var partWay = expected
        for e in events[1000...] { try expected.apply(e) }
        let log = try LogReader(path: path)
        var state = TableState()
        try log.replay(into: &state, to: n, pipelinedFrom: 1, segmentEvents: segment, decoders: decoders)
        #expect(state == expected)
        #expect(state.events == n)
        try log.replay(into: &partWay, to: n, pipelinedFrom: 1, segmentEvents: segment, decoders: decoders)
        #expect(partWay == expected)
    }

    @Test("segments aligned to windows start at a window's first event, none before the one before, and replay as in turn",
          arguments: [(700, 1_000), (0, 257), (0, 3_001)])
    func alignedSegments(interval: Int, segment: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Windows of about 700 events (a window starts after each checkpoint), shorter than
        // the segments; or up to 8,192 (no checkpoints), longer: then most segments are
        // empty, as no window starts within their span, and the next takes the window.
        let path = dir.appendingPathComponent("w.slog").path
        let n = ReplayPipe.chunkEvents * 9 + 123
        let events = Array(RandomWalkSession(seed: 5, count: n))
        let w = try LogRewriter(path: path, checkpointInterval: interval, batchEvents: 300)
        for e in events { try w.append(e) }
        try w.close()
        let log = try LogReader(path: path)
        let windows = Set(log.records.filter { $0.header.kind == .batch && !$0.header.continues }.map(\.header.firstEvent))
        for start in [0, 1_000] {
            let segments = (n - start + segment - 1) / segment
            let bounds = SegmentBounds(reader: log, start: start, end: n, size: segment, aligned: true)
            var aligned = 0, before = start
            for k in 1..<segments {
                let cut = bounds.start(of: k), plain = start + k * segment
                #expect(cut >= before && cut <= plain, "segment \(k) starts at \(cut)")
                let window = try #require(try log.batch(containing: plain)).header.firstEvent
                #expect(cut == Swift.min(plain, Swift.max(before, window)))
                if cut != plain { #expect(windows.contains(cut) || cut == start) }
                if windows.contains(cut) { aligned += 1 }
                before = cut
                // Asked again (as the thread decoding the segment before asks), the same.
                #expect(bounds.start(of: k) == cut)
            }
            // (Some checkpoints are put off, so some windows are longer than 700 events.)
            if interval > 0 { #expect(aligned > (segments - 1) / 2, "\(aligned) of \(segments - 1) segments start at a window") }
            var expected = TableState()
            for e in events[..<start] { try expected.apply(e) }
            var state = expected
            for e in events[start...] { try expected.apply(e) }
            try log.pipelinedReplay(into: &state, to: n, segmentEvents: segment, decoders: 2, alignsToWindows: true)
            #expect(state == expected, "from \(start)")
        }
    }

    @Test("chunks full of events that are not plain records (taps) replay as applying them in turn",
          arguments: [(3_001, 2), (1 << 20, 1)])
    func chunksOfOtherEvents(segment: Int, decoders: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("o.slog").path
        var events = [TimedEvent(.reload(sections: [SectionSpec(rows: 200)]))]
        for i in 0..<(ReplayPipe.chunkEvents * 3 + 17) {
            events.append(TimedEvent(.tap(ViewportPoint(x: Points(10), y: Points(i * 7 % 400)))))
        }
        let w = try LogRewriter(path: path, checkpointInterval: 0, batchEvents: 500)
        for e in events { try w.append(e) }
        try w.close()
        let expected = try replayed(events)
        let log = try LogReader(path: path)
        var state = TableState()
        try log.replay(into: &state, to: events.count, pipelinedFrom: 1, segmentEvents: segment, decoders: decoders)
        #expect(state == expected)
        #expect(!state.selection.paths.isEmpty)
    }

    @Test("an event the engine rejects stops the replay there: the events before it applied, its index in the error",
          arguments: segments)
    func rejectionStopsThere(segment: Int, decoders: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let n = ReplayPipe.chunkEvents * 8
        let (path, events) = try Self.log(in: dir, count: n)
        let bad = n / 2 + 7
        // An engine that rejects the event at `bad` (and behaves as the standard one before it).
        let rejecting = EngineBehaviour(name: "rejects one") { (state: inout TableState, event: TimedEvent) throws(InvalidEvent) -> TableChanges in
            if state.events == bad { throw InvalidEvent(.notAllowedNow, nil, "rejected for the test") }
            return try state.apply(event)
        }
        let log = try LogReader(path: path, engine: rejecting)
        var state = TableState()
        do {
            try log.replay(into: &state, to: n, pipelinedFrom: 1, segmentEvents: segment, decoders: decoders)
            Issue.record("replayed past a rejected event")
        } catch {
            #expect(error.code == .damaged)
            #expect(error.eventIndex == bad)
            // It behaves as the standard engine on the fingerprint's corpus, so the log's
            // fingerprint is its own: a rejection under the same engine is damage.
            #expect(log.checkpointsTrusted)
            #expect(error.message == "logged event is rejected by the engine: rejected for the test", "\(error)")
        }
        var expected = TableState()
        for e in events[..<bad] { try expected.apply(e) }
        #expect(state == expected)
    }

    /// The kinds a replay's decoder hands over as plain records (`ReplayRecord`), each
    /// with a time that goes back at one event.
    static let lateKinds: [(String, Event)] = [("tick", .tick), ("scroll", .scroll(.by(Points(1)), phase: nil, target: nil)),
                                                ("swipeMoved", .swipeMoved(offset: Points(3)))]

    @Test("a plain record the standard engine rejects stops a replay there with the error of applying it in turn",
          arguments: lateKinds)
    func recordRejectionStopsThere(kind: String, late: Event) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("late.slog").path
        let n = ReplayPipe.chunkEvents * 3
        let bad = n / 2 + 5
        // Written by an engine that ignores events' times, so that the log holds an event
        // earlier than the one before it, which the standard engine rejects.
        let timeless = EngineBehaviour(name: "ignores time") { (state: inout TableState, event: TimedEvent) throws(InvalidEvent) -> TableChanges in
            try state.apply(TimedEvent(event.event, t: nil))
        }
        let w = try LogRewriter(path: path, engine: timeless, checkpointInterval: 0, batchEvents: 500)
        for i in 0..<n {
            let event: Event = i % 3 == 0 ? .tick : (i % 3 == 1 ? .scroll(.by(Points(1)), phase: nil, target: nil) : .swipeMoved(offset: Points(2)))
            try w.append(i == bad ? TimedEvent(late, t: Micros(raw: 1)) : TimedEvent(event, t: Micros(raw: Int64(i) * 1_000)))
        }
        try w.close()
        let (sequential, plainError) = try Self.appliedInTurn(path)
        #expect(plainError?.eventIndex == bad, "\(kind)")
        // Written by an engine that behaves differently: the error says so, not only damage.
        #expect(try !LogReader(path: path).checkpointsTrusted)
        #expect(plainError?.message.contains("behaves differently from the one that wrote the log (`selectlog check` shows where they part ways): ") == true,
                "\(plainError.map(String.init(describing:)) ?? "no error")")
        // On this thread (the replay of a few events, as `state(at:)` makes), then pipelined.
        do {
            let log = try LogReader(path: path)
            var state = TableState()
            var caught: LogError?
            do { try log.replay(into: &state, to: n, pipelinedFrom: Int.max) } catch { caught = error }
            #expect(caught?.description == plainError?.description, "\(kind), on this thread")
            #expect(state == sequential)
        }
        for (segment, decoders) in Self.segments {
            let log = try LogReader(path: path)
            var state = TableState()
            var caught: LogError?
            do { try log.replay(into: &state, to: n, pipelinedFrom: 1, segmentEvents: segment, decoders: decoders) } catch { caught = error }
            #expect(caught?.description == plainError?.description, "\(kind), segments of \(segment)")
            #expect(caught?.eventIndex == bad)
            #expect(state == sequential)
        }
    }

    @Test("damage part-way: the same error as a plain read, and every event before it applied", arguments: segments)
    func damageStopsThere(segment: Int, decoders: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let n = ReplayPipe.chunkEvents * 8
        let (path, events) = try Self.log(in: dir, count: n)
        let records = try LogReader(path: path).records
        let batch = try #require(records.last { $0.header.kind == .batch && $0.header.firstEvent > n / 2 && !$0.header.continues })
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[batch.end - 1] ^= 0x40  // the payload's last byte: its checksum fails
        // The index stays sound, so the damage is found by the read that reaches it.
        let damaged = dir.appendingPathComponent("d.slog").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let log = try LogReader(path: damaged)
        var state = TableState()
        var caught: LogError?
        do { try log.replay(into: &state, to: log.eventCount, pipelinedFrom: 1, segmentEvents: segment, decoders: decoders) } catch { caught = error }
        let error = try #require(caught)
        #expect(error.code == .damaged)
        #expect(error.offset == batch.offset)
        // Event by event on this thread, with a reader of its own: the same state and error.
        let (sequential, plainError) = try Self.appliedInTurn(damaged)
        #expect(state == sequential)
        #expect(state.events > ReplayPipe.chunkEvents * 4)
        #expect(plainError?.offset == error.offset)
        #expect(plainError?.eventIndex == error.eventIndex)
        #expect(plainError?.description == error.description)
        _ = events
    }

    @Test("events carrying large lists are decoded ahead only up to a weight, not a count of chunks; the state as in turn",
          arguments: [(3_001, 4), (1 << 20, 1)])
    func heavyEventsBounded(segment: Int, decoders: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // An editor of 20,000 options (about 40 KB of fields) opened or closed every 60
        // events: a chunk of 2,048 events carries 34 of them, 1.4 MB.
        var events: [TimedEvent] = [TimedEvent(.reload(sections: [SectionSpec(rows: 100, rowHeight: Points(44))]))]
        let options = (0..<20_000).map { String($0 % 10) }
        for k in 0..<300 {
            events.append(TimedEvent(.toggleEditor(row: RowPath(0, k % 7), options: options, multiple: true, chosen: [k])))
            for _ in 0..<59 { events.append(TimedEvent(.tick)) }
        }
        let path = dir.appendingPathComponent("h.slog").path
        let w = try LogRewriter(path: path, checkpointInterval: 0, batchEvents: 500)
        for e in events { try w.append(e) }
        try w.close()
        var expected = TableState()
        for e in events { try expected.apply(e) }
        let heaviest = try #require(events.compactMap { $0.event.fieldBytes }.max())
        let log = try LogReader(path: path)
        var state = TableState()
        _ = try log.pipelinedReplay(into: &state, to: events.count, segmentEvents: segment, decoders: decoders)
        #expect(state == expected)
        // This reader's pipes only: replays that tests beside this one run do not count.
        let largest = log.largestWeightAhead.withLockedValue { $0 }
        #expect(largest > 0, "the chunks' weights were counted")
        // One chunk is let through whatever it weighs; it is handed over once it reaches
        // `chunkWeight`, so it weighs less than that and one event more.
        #expect(largest <= Swift.max(ReplayPipe.weightAhead, ReplayPipe.chunkWeight + heaviest), "\(largest) bytes waited")
    }

    /// The bound itself, with no applying thread to take anything: timing decides how far
    /// a replay's decoders get ahead (in `heavyEventsBounded` applying keeps up, and that
    /// test passes without the bound), so this one checks that a decoder that hands over
    /// heavy chunks is held once the pipe holds `weightAhead` bytes.
    @Test("a decoder handing heavy chunks to a pipe nobody empties is held at weightAhead bytes, one chunk let through whatever it weighs")
    func pipeHoldsAtItsWeight() throws {
        let pipe = LockedBox(ReplayPipe(ahead: 1_000))
        let options = (0..<20_000).map { String($0 % 10) }
        let handed = LockedBox(0)
        // Chunks of two 20,000-option editors each (about 80 KB), 40 of them: 3.2 MB if
        // nothing held the decoder back.
        let decoder = Thread {
            for k in 0..<40 {
                let chunk = EventChunk()
                for _ in 0..<2 { chunk.append(TimedEvent(.toggleEditor(row: RowPath(0, k), options: options, multiple: true, chosen: []))) }
                guard ReplayPipe.hand(.events(chunk), to: pipe) else { return }
                handed.withLockedValue { $0 += 1 }
            }
        }
        let chunkWeight = 2 * (TimedEvent(.toggleEditor(row: RowPath(0, 0), options: options, multiple: true, chosen: [])).event.fieldBytes ?? 0)
        decoder.start()
        // Until the pipe holds so much that the next chunk would pass the bound (or all 40
        // were taken), then a while longer, in which a decoder not held would hand more.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, handed.withLockedValue({ $0 }) < 40,
              pipe.withLockedValue({ $0.readyWeight }) + chunkWeight <= ReplayPipe.weightAhead {
            usleep(10_000)
        }
        usleep(300_000)
        let (waiting, largest, count) = pipe.withLockedValue { ($0.readyWeight, $0.largestWeight, $0.ready.count) }
        #expect(count < 40 && handed.withLockedValue { $0 } == count, "the decoder was never held")
        #expect(waiting <= Swift.max(ReplayPipe.weightAhead, chunkWeight), "\(waiting) bytes waiting")
        #expect(largest == waiting && waiting + chunkWeight > ReplayPipe.weightAhead, "held only when the next chunk would pass the bound: \(waiting)")
        // Cancelled, the held decoder gives up.
        pipe.withLockedValue { $0.cancelled = true }
        pipe.wake()
        while handed.withLockedValue({ $0 }) == count && !decoder.isFinished { usleep(10_000) }
        #expect(handed.withLockedValue { $0 } == count)
    }
}
