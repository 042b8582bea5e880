import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

@Suite("Log round trips")
struct LogRoundTripTests {
    @Test("script → log → export → log gives the same hash, for every example")
    func examples() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = try FileManager.default.contentsOfDirectory(atPath: examplesDirectory.path).filter { $0.hasSuffix(".jsonl") }
        #expect(names.count >= 7)
        for name in names {
            let script = try Script(bytes: Array(try Data(contentsOf: examplesDirectory.appendingPathComponent(name))))
            let expected = try replayed(script.events)
            let path = dir.appendingPathComponent(name + ".slog").path
            let written = try writeLog(script.events, to: path, options: smallBatches(checkpointInterval: 3))
            #expect(written == expected)
            let log = try LogReader(path: path)
            #expect(log.eventCount == script.events.count)
            #expect(try log.state(at: log.eventCount).hashHex == expected.hashHex, "\(name)")
            // Export as a script and record it again.
            let exported = try log.events().map(EventEncoder.line).joined(separator: "\n")
            let again = try Script(bytes: Array(exported.utf8))
            #expect(again.events == script.events)
            let path2 = dir.appendingPathComponent(name + ".2.slog").path
            try writeLog(again.events, to: path2)
            #expect(try LogReader(path: path2).state(at: script.events.count).hashHex == expected.hashHex)
        }
    }

    @Test("random sessions round-trip; state(at:) equals replaying the first N events", arguments: [1, 2, 3])
    func randomSessions(seed: UInt64) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: seed, count: 3000))
        let path = dir.appendingPathComponent("s.slog").path
        try writeLog(events, to: path, options: smallBatches(checkpointInterval: 256))
        let log = try LogReader(path: path)
        #expect(log.usedStoredIndex)
        #expect(try log.events() == events)
        var rng = SeededRandom(seed: seed)
        var state = TableState()
        var applied = 0
        for n in (0..<20).map({ _ in Int.random(in: 0...events.count, using: &rng) }).sorted() {
            while applied < n {
                try state.apply(events[applied])
                applied += 1
            }
            #expect(try log.state(at: n) == state, "n = \(n)")
        }
        #expect(throws: LogError.self) { try log.state(at: events.count + 1) }
        let report = try LogReader.verify(path: path)
        #expect(report.isIntact && report.intactEvents == events.count)
    }

    @Test("a log without its index (not closed cleanly) is read by scanning record headers")
    func scanWithoutIndex() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 4, count: 2000))
        let path = dir.appendingPathComponent("s.slog").path
        try writeLog(events, to: path, options: smallBatches(checkpointInterval: 300))
        let indexed = try LogReader(path: path)
        // Listed before the cut: a reader reads its mapping as it goes, so it sees the file as it is.
        let indexedRecords = indexed.records
        let indexOffset = try #require(indexedRecords.last).offset
        #expect(truncate(path, off_t(indexOffset)) == 0)
        let scanned = try LogReader(path: path)
        #expect(!scanned.usedStoredIndex)
        #expect(scanned.records == Array(indexedRecords.dropLast()))
        #expect(try scanned.state(at: 1234) == indexed.state(at: 1234))
    }

    @Test("reads at any position find their batch and checkpoint from sparse anchors, in any order, with or without the index",
          arguments: [true, false])
    func seeksInAnyOrder(indexed: Bool) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 8, count: 3000))
        let path = dir.appendingPathComponent("a.slog").path
        try writeLog(events, to: path, options: smallBatches(checkpointInterval: 250))
        if !indexed, let index = try LogReader(path: path).records.last { #expect(truncate(path, off_t(index.offset)) == 0) }
        let log = try LogReader(path: path)
        #expect(log.usedStoredIndex == indexed)
        // More than 32 batches, so that lookups start from anchors other than the first.
        #expect(log.records.filter { $0.header.kind == .batch }.count > 96)
        var rng = SeededRandom(seed: 31)
        var states = [TableState()]
        for e in events {
            var s = try #require(states.last)
            try s.apply(e)
            states.append(s)
        }
        // Backwards first (every read past the checked prefix), then at random.
        var positions = Array(stride(from: 2999, through: 0, by: -397))
        for _ in 0..<40 { positions.append(Int.random(in: 0...3000, using: &rng)) }
        for n in positions {
            #expect(try log.state(at: n) == states[n], "state at \(n)")
            let end = Swift.min(n + 60, 3000)
            #expect(try log.events(from: n, to: end) == Array(events[n..<end]), "events from \(n)")
        }
        #expect(try log.summary().events == 3000)
        #expect(try log.check().isSame)
    }

    @Test("appending to an existing log resumes its state; the index is rewritten")
    func appendResumes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 5, count: 2500))
        let path = dir.appendingPathComponent("s.slog").path
        try writeLog(Array(events.prefix(1000)), to: path, options: smallBatches())
        let more = try Recorder(appendingTo: path, options: smallBatches())
        #expect(more.eventCount == 1000)
        for e in events.dropFirst(1000) { try more.append(e) }
        try more.close()
        let log = try LogReader(path: path)
        #expect(log.usedStoredIndex)
        #expect(try log.events() == events)
        #expect(try LogReader.verify(path: path).isIntact)
    }

    @Test("an app routes a recorder's rejections by kind, as InvalidEvent's documentation does")
    func rejectionsRoutedByKind() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let recorder = try Recorder(creating: dir.appendingPathComponent("s.slog").path, options: smallBatches())
        try recorder.append(TimedEvent(.reload(sections: [SectionSpec(rows: 3)])))
        var routed: [String] = []
        // The documentation's function, its handlers recording where each error went.
        func record(_ event: Event) {
            do throws(LogError) {
                try recorder.append(event)
            } catch let error where error.code == .invalidEvent {
                switch error.invalidEvent?.kind {
                case .outOfRange?: routed.append("mismatch")
                case .notAllowedNow?, .outOfOrder?: routed.append("out of turn")
                default: routed.append("built wrong")
                }
            } catch {
                routed.append("recorder: \(error.code)")
            }
        }
        record(.select(rows: [RowPath(0, 3)]))
        record(.panMoved(ViewportPoint(x: Points(5), y: Points(5))))
        record(.reload(sections: [SectionSpec(rows: 1), SectionSpec(rows: EventLimits.sectionRows + 1)]))
        record(.select(rows: [RowPath(0, 2)]))
        try recorder.close()
        record(.selectAll)
        #expect(routed == ["mismatch", "out of turn", "built wrong", "recorder: closed"])
    }

    @Test("an invalid event is rejected and never reaches the log")
    func invalidEventRejected() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        let recorder = try Recorder(creating: path, options: smallBatches())
        try recorder.append(TimedEvent(.reload(sections: [SectionSpec(rows: 3)])))
        let before = recorder.state
        do {
            try recorder.append(TimedEvent(.select(rows: [RowPath(0, 3)])))
            Issue.record("accepted an out-of-range select")
        } catch {
            #expect(error.code == .invalidEvent)
            #expect(error.eventIndex == 1)
            #expect(error.invalidEvent?.type == "select")
            // The engine's kind and field reach the app through the recorder.
            #expect(error.invalidEvent?.kind == .outOfRange)
            #expect(error.invalidEvent?.field == "rows[0]")
        }
        #expect(recorder.state == before)
        try recorder.append(TimedEvent(.tap(ViewportPoint(x: Points(5), y: Points(5)))))
        try recorder.close()
        let log = try LogReader(path: path)
        #expect(log.eventCount == 2)
        #expect(try log.events().map(\.event.typeName) == ["reload", "tap"])
        #expect(throws: LogError.self) { try recorder.append(TimedEvent(.tick)) }
    }

    @Test("with interval durability, written events are synced once the interval passes, even when idle")
    func intervalSyncsWhenIdle() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = smallBatches()
        options.durability = .interval(milliseconds: 50)
        options.flushIntervalMilliseconds = 20
        let recorder = try Recorder(creating: dir.appendingPathComponent("i.slog").path, options: options)
        for e in SyntheticSession(seed: 9, count: 300) { try recorder.append(e) }
        try recorder.flush()
        #expect(recorder.acknowledged == 300)
        // A deadline far past the 50 ms interval: on a loaded machine the recorder's
        // thread can wait seconds for a core, and only a sync that never comes should fail.
        let deadline = ContinuousClock.now + .seconds(30)
        while recorder.synced < 300 && ContinuousClock.now < deadline {
            usleep(20_000)
        }
        #expect(recorder.synced == 300)
        try recorder.close()
    }

    @Test("a clean close syncs, and synced says so: every event with interval or always durability, none with none",
          arguments: [Recorder.Durability.interval(milliseconds: 60_000), .always, .none])
    func closeCountsItsSync(durability: Recorder.Durability) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = smallBatches()
        options.durability = durability
        let recorder = try Recorder(creating: dir.appendingPathComponent("c.slog").path, options: options)
        for e in SyntheticSession(seed: 9, count: 103) { try recorder.append(e) }
        try recorder.close()
        #expect(recorder.synced == (durability == .none ? 0 : 103), "\(durability)")
    }

    @Test("appends from many threads at once all reach the log")
    func concurrentAppends() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        let recorder = try Recorder(creating: path, options: smallBatches())
        try recorder.append(TimedEvent(.reload(sections: [SectionSpec(rows: 100)])))
        await withTaskGroup(of: Void.self) { group in
            for k in 0..<8 {
                group.addTask {
                    for i in 0..<500 {
                        _ = try? recorder.append(TimedEvent(.scroll(.to(Points(k * 10 + i % 7)), phase: nil, target: nil)))
                        if i % 100 == 0 { try? recorder.flush() }
                    }
                }
            }
        }
        try recorder.close()
        let log = try LogReader(path: path)
        #expect(log.eventCount == 4001)
        #expect(try log.state(at: 4001) == recorder.state)
    }
}
