import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// The recorder findings of issue 9, one test each.
@Suite("Recorder an app can trust")
struct RecorderTests {
    @Test("four threads appending 8,000 clock-stamped events: none is rejected as out of order")
    func stampedAppendsFromFourThreads() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        let recorder = try Recorder(creating: path, options: smallBatches())
        try recorder.append(.reload(sections: [SectionSpec(rows: 100)]))
        let rejected = LockedBox(0)
        DispatchQueue.concurrentPerform(iterations: 4) { k in
            for i in 0..<2000 {
                let event: Event = i % 2 == 0 ? .tick : .scroll(to: Points(k * 10 + i % 7))
                do { try recorder.append(event) } catch { rejected.withLockedValue { $0 += 1 } }
            }
        }
        try recorder.close()
        #expect(rejected.withLockedValue { $0 } == 0)
        let log = try LogReader(path: path)
        #expect(log.eventCount == 8001)
        let times = try log.events().map { $0.t }
        #expect(times.allSatisfy { $0 != nil })
        let stamps = times.compactMap { $0 }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(try log.state(at: 8001) == recorder.state)
    }

    @Test("append returns what the event changed, the same value TableState.apply returns")
    func appendReturnsChanges() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let recorder = try Recorder(creating: dir.appendingPathComponent("c.slog").path, options: smallBatches())
        var mirror = TableState()
        var config = ConfigurationPatch()
        config.allowsMultipleSelection = true
        let events: [Event] = [.configure(config), .reload(sections: [SectionSpec(rows: 20, rowHeight: Points(50))]),
                               .tap(ViewportPoint(x: Points(20), y: Points(75))), .select(rows: [RowPath(0, 4), RowPath(0, 7)]),
                               .deleteRows(at: [RowPath(0, 0)]), .deselectAll, .undo]
        for (k, event) in events.enumerated() {
            let timed = TimedEvent(event, t: .milliseconds(k * 10))
            #expect(try recorder.append(timed) == mirror.apply(timed), "event \(k)")
        }
        try recorder.close()
    }

    @Test("a checkpoint offered at every event of a large state: the writer never holds more than a few whole states, appends wait for it instead")
    func offeredStatesAreBounded() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = Recorder.Options()
        options.checkpointInterval = 1
        options.durability = .none
        let path = dir.appendingPathComponent("big.slog").path
        let recorder = try Recorder(creating: path, options: options)
        var config = ConfigurationPatch()
        config.allowsMultipleSelection = true
        try recorder.append(.configure(config))
        try recorder.append(.reload(sections: [SectionSpec(rows: 200_000)]))
        // Every other row: 50,000 ranges, which each tap's change copies and each offered
        // state's snapshot writes out (the writer is the slower of the two by far).
        try recorder.append(.select(rows: (0..<50_000).map { RowPath(0, $0 * 2) }))
        for i in 0..<300 {
            try recorder.append(.tap(ViewportPoint(x: Points(10), y: Points(i % 10 * 44 + 5))))
        }
        try recorder.close()
        let held = recorder.writer.withLockedValue { $0.offersHeldPeak }
        #expect(held <= Recorder.pendingStates, "the writer held \(held) offered states at once")
        let spent = recorder.writer.withLockedValue { $0.spentPeak }
        #expect(spent <= Recorder.pendingStates, "\(spent) states the writer was done with waited for a caller at once")
        #expect(recorder.writer.withLockedValue { $0.spent.isEmpty }, "close() let go of the states the writer was done with")
        let log = try LogReader(path: path)
        #expect(log.eventCount == 303)
        #expect(try log.state(at: 303) == recorder.state)
    }

    @Test("four threads appending with a checkpoint offered at every event, a queue of 8 and flushes and a close racing them: nothing lost, nothing stuck",
          .timeLimit(.minutes(1)))
    func offersUnderContention() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = smallBatches(checkpointInterval: 1)
        options.queueCapacity = 8
        let path = dir.appendingPathComponent("c.slog").path
        let recorder = try Recorder(creating: path, options: options)
        try recorder.append(.reload(sections: [SectionSpec(rows: 300)]))
        let done = LockedBox(0)
        let threads = (0..<4).map { k in
            Thread {
                for i in 0..<400 {
                    _ = try? recorder.append(.scroll(.to(Points(k * 7 + i % 11)), phase: nil, target: nil))
                    if i % 50 == 0 { try? recorder.flush() }
                }
                done.withLockedValue { $0 += 1 }
            }
        }
        threads.forEach { $0.start() }
        while done.withLockedValue({ $0 }) < 4 { usleep(1_000) }
        try recorder.close()
        #expect(recorder.writer.withLockedValue { $0.offersHeldPeak } <= Recorder.pendingStates)
        let log = try LogReader(path: path)
        #expect(log.eventCount == 1_601)
        #expect(try log.state(at: 1_601) == recorder.state)
        #expect(try LogReader.verify(path: path, replaying: true).problem == nil)
    }

    @Test("events of large lists wait in the queue up to its weight, not its count: past it an append waits for the writer to take them")
    func queueBoundedByWeight() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = Recorder.Options()
        // Nothing else moves the writer: no batch fills, no gesture ends, no interval passes.
        options.batchEvents = 1 << 20
        options.flushIntervalMilliseconds = 600_000
        options.checkpointInterval = 1 << 20
        options.queueCapacity = 1 << 16
        options.queueWeight = 64 << 10
        let path = dir.appendingPathComponent("w.slog").path
        let recorder = try Recorder(creating: path, options: options)
        var multiple = ConfigurationPatch()
        multiple.allowsMultipleSelection = true
        try recorder.append(.configure(multiple))
        try recorder.append(.reload(sections: [SectionSpec(rows: 100_000)]))
        var weights = [0, Recorder.weight(of: .reload(sections: [SectionSpec(rows: 100_000)])) ?? 0]
        var heaviest = 0
        for k in 0..<300 {
            // 1,000 rows in a select (about 3 KB of fields), and a light tick between.
            let select = Event.select(rows: (0..<1_000).map { RowPath(0, (k * 1_000 + $0 * 3) % 100_000) })
            let weight = try #require(Recorder.weight(of: select))
            heaviest = max(heaviest, weight)
            try recorder.append(select)
            try recorder.append(.tick)
            weights += [weight, 0]
            let taken = recorder.writer.withLockedValue { $0.taken }
            let waiting = weights[min(taken, weights.count)...].reduce(0, +)
            #expect(waiting <= options.queueWeight + heaviest, "after \(weights.count) events, \(waiting) bytes wait in the queue (taken \(taken))")
            if waiting > options.queueWeight + heaviest { break }
        }
        try recorder.close()
        let log = try LogReader(path: path)
        #expect(log.eventCount == 602)
        #expect(try log.state(at: 602) == recorder.state)
    }

    @Test("changes from appends on four threads at once rebuild the selection exactly (atomic with the state)")
    func changesAreAtomic() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let recorder = try Recorder(creating: dir.appendingPathComponent("m.slog").path, options: smallBatches())
        var config = ConfigurationPatch()
        config.allowsMultipleSelection = true
        try recorder.append(.configure(config))
        try recorder.append(.reload(sections: [SectionSpec(rows: 400)]))
        let mirrors = LockedBox([Set<RowPath>](repeating: [], count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { k in
            var g = SeededRandom(seed: UInt64(k))
            var mine = Set<RowPath>()
            for _ in 0..<500 {
                // Each thread touches only its own hundred rows, so its mirror depends only on its own changes.
                let row = RowPath(0, k * 100 + Int.random(in: 0..<100, using: &g))
                let event: Event = Bool.random(using: &g) ? .select(rows: [row]) : .deselect(rows: [row])
                guard let changes = try? recorder.append(event) else { continue }
                for r in changes.selected { mine.insert(r) }
                for r in changes.deselected { mine.remove(r) }
            }
            mirrors.withLockedValue { $0[k] = mine }
        }
        try recorder.close()
        let rebuilt = mirrors.withLockedValue { $0.reduce(into: Set<RowPath>()) { $0.formUnion($1) } }
        #expect(rebuilt == Set(recorder.state.selection.paths))
        #expect(recorder.eventCount == 2002)
    }

    @Test("the recorder's clock resumes from the log's last time when appending to it")
    func clockResumes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        let first = try Recorder(creating: path, options: smallBatches())
        try first.append(TimedEvent(.reload(sections: [SectionSpec(rows: 10)]), t: .milliseconds(60_000)))
        try first.close()
        let again = try Recorder(appendingTo: path, options: smallBatches())
        try again.append(.tick)
        #expect(again.state.t >= .milliseconds(60_000))
        try again.close()
    }

    @Test("options out of range are refused by name before any file is made; the bounds themselves are accepted")
    func optionsOutOfRange() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("o.slog").path
        let bad: [(String, (inout Recorder.Options) -> Void)] = [
            ("batchEvents", { $0.batchEvents = 0 }),
            ("batchBytes", { $0.batchBytes = -1 }),
            ("flushIntervalMilliseconds", { $0.flushIntervalMilliseconds = 0 }),
            ("checkpointInterval", { $0.checkpointInterval = -1 }),
            ("checkpointInterval", { $0.checkpointInterval = Int(UInt32.max) + 1 }),
            ("compressionLevel", { $0.compressionLevel = 23 }),
            ("durability", { $0.durability = .interval(milliseconds: -5) }),
            // Permission bits only: a setuid log was made as asked (an app developer's review).
            ("filePermissions", { $0.filePermissions = 0o4644 }),
            ("filePermissions", { $0.filePermissions = 0o1600 }),
        ]
        for (name, change) in bad {
            var o = Recorder.Options()
            change(&o)
            let error = #expect(throws: LogError.self) { _ = try Recorder(creating: path, options: o) }
            #expect(error?.code == .invalidOptions)
            #expect(error?.message.contains(name) == true, "\(error?.message ?? "")")
            #expect(error?.path == path)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        var edge = Recorder.Options()
        edge.batchEvents = 1
        edge.batchBytes = 1
        edge.flushIntervalMilliseconds = 1
        edge.checkpointInterval = 1
        edge.compressionLevel = 22
        edge.durability = .interval(milliseconds: 0)
        edge.filePermissions = 0o777
        let recorder = try Recorder(creating: path, options: edge)
        for _ in 0..<3 { try recorder.append(.tick) }
        try recorder.close()
        #expect(try LogReader(path: path).eventCount == 3)
        // Appending keeps the log's own interval, so only the other options are checked.
        var zero = Recorder.Options()
        zero.checkpointInterval = -1
        try Recorder(appendingTo: path, options: zero).close()
        zero.batchEvents = 0
        let error = #expect(throws: LogError.self) { _ = try Recorder(appendingTo: path, options: zero) }
        #expect(error?.code == .invalidOptions)
    }

    @Test("creating a recorder where a file exists is an error, and the file is left as it was")
    func creatingOverAnExistingLog() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("reported.slog").path
        try writeLog([TimedEvent(.reload(sections: [SectionSpec(rows: 5)])), TimedEvent(.select(rows: [RowPath(0, 2)]))],
                     to: path, options: smallBatches())
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try Recorder(creating: path, options: smallBatches())
            Issue.record("creating over an existing log succeeded")
        } catch {
            #expect(error.code == .alreadyExists)
            #expect(error.description.contains("reported.slog"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try LogReader(path: path).eventCount == 2)

        let replacing = try Recorder(creating: path, options: smallBatches(), replacingExisting: true)
        try replacing.close()
        #expect(try LogReader(path: path).eventCount == 0)
    }

    @Test("close() from eight threads at once: one index, a verifiable log, the same outcome for all")
    func concurrentClose() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for round in 0..<30 {
            let path = dir.appendingPathComponent("c\(round).slog").path
            let recorder = try Recorder(creating: path, options: smallBatches())
            try recorder.append(.reload(sections: [SectionSpec(rows: 50)]))
            for i in 0..<60 { try recorder.append(.select(rows: [RowPath(0, i % 50)])) }
            let failures = LockedBox(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do { try recorder.close() } catch { failures.withLockedValue { $0 += 1 } }
            }
            #expect(failures.withLockedValue { $0 } == 0, "round \(round)")
            let report = try LogReader.verify(path: path)
            #expect(report.isIntact, "round \(round): \(String(describing: report.problem))")
            let log = try LogReader(path: path)
            #expect(log.usedStoredIndex, "round \(round)")
            #expect(log.eventCount == 61)
            #expect(log.records.filter { $0.header.kind == .index }.count <= 1)
            #expect(throws: LogError.self) { try recorder.append(.tick) }
            let again = try Recorder(appendingTo: path, options: smallBatches())
            try again.append(.tick)
            try again.close()
            #expect(try LogReader.verify(path: path).isIntact)
        }
    }

    @Test("the recorder, reader, verify, repair and cut take a file URL; a URL that is not a file's is an error naming it")
    func fileURLs() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("url.slog")
        let recorder = try Recorder(creating: url, options: smallBatches())
        try recorder.append(.reload(sections: [SectionSpec(rows: 3)]))
        try recorder.close()
        #expect(throws: LogError.self) { try Recorder(creating: url) }
        let again = try Recorder(appendingTo: url, options: smallBatches())
        #expect(again.eventCount == 1)
        try again.append(.tap(ViewportPoint(x: Points(1), y: Points(1))))
        try again.close()
        #expect(try LogReader(url: url).eventCount == 2)
        #expect(try LogReader.verify(url: url).isIntact)
        // A torn tail, cut back by the repair.
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x51, 0x52, 0x53]))
        try handle.close()
        let outcome = try LogRepair.repair(url)
        #expect(outcome.isIntact && outcome.cut?.savedBytes == 3)
        #expect(try LogReader(url: url).eventCount == 2)
        // And a cut by URL of the same three bytes written again.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let tail = try FileHandle(forWritingTo: url)
        try tail.seekToEnd()
        try tail.write(contentsOf: Data([0x51, 0x52, 0x53]))
        try tail.close()
        let cut = try LogRepair.cut(url, at: size)
        #expect(cut.keptBytes == size && cut.savedBytes == 3)
        #expect(try LogReader.verify(url: url).isIntact)
        let web = try #require(URL(string: "https://example.com/s.slog"))
        func refused(_ open: () throws(LogError) -> Void) {
            do throws(LogError) {
                try open()
                Issue.record("a web URL was accepted")
            } catch {
                #expect(error.code == .io && error.description.contains("https://example.com/s.slog: not a file URL"))
            }
        }
        refused { () throws(LogError) in _ = try Recorder(creating: web) }
        refused { () throws(LogError) in _ = try Recorder(appendingTo: web) }
        refused { () throws(LogError) in _ = try LogReader(url: web) }
        refused { () throws(LogError) in _ = try LogReader.verify(url: web) }
        refused { () throws(LogError) in _ = try LogRepair.repair(web) }
        refused { () throws(LogError) in _ = try LogRepair.cut(web, at: 64) }
    }

    @Test("close() after close() returns at once with the same outcome")
    func closeTwice() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("twice.slog").path
        let recorder = try Recorder(creating: path, options: smallBatches())
        try recorder.append(.reload(sections: [SectionSpec(rows: 3)]))
        try recorder.close()
        try recorder.close()
        #expect(try LogReader.verify(path: path).isIntact)
    }

    @Test("an append after close() throws .closed and leaves the count and the log as they were")
    func appendAfterClose() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("closed.slog").path
        let recorder = try Recorder(creating: path, options: smallBatches())
        try recorder.append(.reload(sections: [SectionSpec(rows: 3)]))
        try recorder.close()
        for attempt in [TimedEvent(.tick), TimedEvent(.tap(ViewportPoint(x: Points(5), y: Points(5))), t: Micros(raw: 1))] {
            do {
                try recorder.append(attempt)
                Issue.record("a closed recorder accepted \(attempt.event.typeName)")
            } catch {
                #expect(error.code == .closed)
                #expect(error.description.contains("closed"))
            }
        }
        #expect(throws: LogError.self) { try recorder.append(Event.tick) }
        #expect(recorder.eventCount == 1)
        #expect(try LogReader(path: path).eventCount == 1)
    }

    @Test("a recorder and its log can be handed to a Task (Sendable)")
    func sendable() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("task.slog").path
        let recorder = try Recorder(creating: path, options: smallBatches())
        let count = try await Task.detached {
            try recorder.append(.reload(sections: [SectionSpec(rows: 3)]))
            try recorder.close()
            return recorder.eventCount
        }.value
        #expect(count == 1)
    }

    @Test("a gesture end wakes the writer: its batch is written without a flush, and events after it wait for the next end")
    func gestureEndIsWrittenWithoutFlush() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Nothing else makes the writer write: no flush, no timer within the test, no full batch.
        var options = Recorder.Options()
        options.durability = .none
        options.flushIntervalMilliseconds = 600_000
        let recorder = try Recorder(creating: dir.appendingPathComponent("g.slog").path, options: options)
        defer { try? recorder.close() }
        var engine = TableState()
        var ends: [Int] = []
        let events = Array(SyntheticSession(seed: 5, count: 3_000))
        for (i, e) in events.enumerated() where try engine.apply(e).endsGesture { ends.append(i + 1) }
        // Gesture ends with no other end in the two events after them.
        let spaced = zip(ends, ends.dropFirst()).filter { $1 > $0 + 2 }.map(\.0)
        #expect(spaced.count >= 3)
        var appended = 0
        for end in spaced.prefix(3) {
            // Up to the event that ends the gesture, and two more of the next gesture.
            while appended < end + 2 {
                try recorder.append(events[appended])
                appended += 1
            }
            let deadline = ContinuousClock.now + .seconds(20)
            while recorder.acknowledged < end, ContinuousClock.now < deadline { usleep(1_000) }
            #expect(recorder.acknowledged == end, "written up to the gesture end at \(end), not past it")
        }
    }

    @Test("the recorder's writer thread lays out events exactly as LogRewriter does on the caller's thread: same bytes",
          arguments: [false, true])
    func writerThreadLayout(randomWalk: Bool) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = randomWalk ? Array(RandomWalkSession(seed: 3, count: 40_000)) : Array(SyntheticSession(seed: 3, count: 40_000))
        let written = dir.appendingPathComponent("recorded.slog").path, rewritten = dir.appendingPathComponent("rewritten.slog").path
        var options = Recorder.Options()
        options.salt = 0x5E1E_C7ED
        options.checkpointInterval = 1024
        options.durability = .none
        options.batchBytes = .max
        options.flushIntervalMilliseconds = 600_000
        let recorder = try Recorder(creating: written, options: options)
        // As fast as one thread can: the writer takes the events in chunks as they come.
        for e in events { try recorder.append(e) }
        try recorder.close()
        let rewriter = try LogRewriter(path: rewritten, checkpointInterval: 1024, batchEvents: options.batchEvents)
        for e in events { try rewriter.append(e) }
        try rewriter.close()
        let a = try Data(contentsOf: URL(fileURLWithPath: written)), b = try Data(contentsOf: URL(fileURLWithPath: rewritten))
        #expect(a.count == b.count)
        #expect(a == b)
        let log = try LogReader(path: written)
        #expect(try log.summary().checkpoints >= 10)
        #expect(try log.state(at: events.count) == rewriter.state)
    }
}

/// The hand-over between the callers and the writer thread (`AppendQueue`).
@Suite("The recorder's append queue")
struct AppendQueueTests {
    @Test("a recorder whose writer falls a whole queue behind makes appends wait, from two threads, and loses nothing")
    func appendsWaitForTheWriter() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = Recorder.Options()
        options.durability = .none
        options.queueCapacity = 4
        // Asked to write only every 1,000 events: the queue fills long before, so an append
        // waiting for room must itself make the writer take the queue.
        options.batchEvents = 1_000
        options.flushIntervalMilliseconds = 600_000
        let path = dir.appendingPathComponent("q.slog").path
        let recorder = try Recorder(creating: path, options: options)
        let events = Array(SyntheticSession(seed: 11, count: 20_000))
        // Two threads take turns by halves of the session, so the order is the session's.
        let turn = LockedBox(0)
        let threads = (0..<2).map { k in
            Thread {
                var i = k * 100
                while i < events.count {
                    turn.withLockedValue(waitingFor: { $0 == i }) { _, _ in }
                    for e in events[i..<min(i + 100, events.count)] { _ = try? recorder.append(e) }
                    turn.withLockedValue { $0 = i + 100 }
                    turn.wake()
                    i += 200
                }
            }
        }
        threads.forEach { $0.start() }
        turn.withLockedValue(waitingFor: { $0 >= events.count }, timeout: .seconds(120)) { _, _ in }
        #expect(recorder.eventCount == events.count)
        try recorder.close()
        var expected = TableState()
        for e in events { try expected.apply(e) }
        let log = try LogReader(path: path)
        #expect(log.eventCount == events.count)
        #expect(try log.state(at: events.count).hashValue64 == expected.hashValue64)
    }
}

extension AppendQueueTests {
    @Test("events the writer takes when the flush interval passes, unpublished, keep every checkpoint with its own state")
    func timedOutRoundsKeepCheckpointsAligned() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = Recorder.Options()
        options.durability = .none
        // Rounds mostly start from the timer (1 ms), between checkpoint offers every 16 events;
        // nothing else asks for a round before 100,000 events.
        options.flushIntervalMilliseconds = 1
        options.checkpointInterval = 16
        options.putsOffLargeCheckpoints = false
        options.batchEvents = 100_000
        let path = dir.appendingPathComponent("t.slog").path
        let recorder = try Recorder(creating: path, options: options)
        // Taps and scrolls only: no gesture ends, so only offers and the timer start rounds.
        var events: [TimedEvent] = [TimedEvent(.reload(sections: [SectionSpec(rows: 50, rowHeight: Points(44))]), t: Micros(raw: 0)),
                                    TimedEvent(.viewport(width: Points(320), height: Points(480)), t: Micros(raw: 0))]
        for i in 0..<3_000 {
            let t = Micros(raw: Int64(1_000 + i * 100))
            events.append(i % 3 == 0 ? TimedEvent(.tap(ViewportPoint(x: Points(10), y: Points(5 + (i * 7) % 400))), t: t)
                                     : TimedEvent(.scroll(.by(Points(i % 2 == 0 ? 3 : -3)), phase: nil, target: nil), t: t))
        }
        for (i, e) in events.enumerated() {
            try recorder.append(e)
            if i % 7 == 0 { usleep(50) }
        }
        try recorder.close()
        let report = try LogReader.verify(path: path, replaying: true)
        #expect(report.problem == nil)
        #expect(report.checkpointsReplayed >= events.count / 16 - 1, "every checkpoint compared with the replayed state")
        var expected = TableState()
        for e in events { try expected.apply(e) }
        #expect(try LogReader(path: path).state(at: events.count).hashValue64 == expected.hashValue64)
    }
}

extension AppendQueueTests {
    @Test("after a burst of appends the writer wakes itself: a later gesture end is written without a flush or a wake-up")
    func busyWriterWakesItself() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = Recorder.Options()
        options.durability = .none
        options.flushIntervalMilliseconds = 600_000
        let recorder = try Recorder(creating: dir.appendingPathComponent("b.slog").path, options: options)
        defer { try? recorder.close() }
        let events = Array(SyntheticSession(seed: 8, count: 20_000))
        var engine = TableState()
        var ends: [Int] = []
        for (i, e) in events.enumerated() where try engine.apply(e).endsGesture { ends.append(i + 1) }
        // A burst far faster than a person (the writer's rounds are busy ones), then the
        // events up to the first gesture end after it, and two more.
        guard let end = ends.first(where: { $0 > 10_000 }) else { Issue.record("no gesture end"); return }
        for e in events[..<(end + 2)] { try recorder.append(e) }
        let deadline = ContinuousClock.now + .seconds(20)
        while recorder.acknowledged < end, ContinuousClock.now < deadline { usleep(1_000) }
        #expect(recorder.acknowledged == end, "written up to the gesture end at \(end), not past it")
    }
}

extension AppendQueueTests {
    @Test("a write that fails part-way stops the recorder for good: waiting appends and flushes return its error, nothing acknowledged is lost",
          .timeLimit(.minutes(2)), arguments: [3_000, 9_000, 27_000])
    func writeFailurePartWay(limit: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = Recorder.Options()
        options.durability = .none
        // A tiny queue, so appends often wait for room when the write fails; small batches.
        options.queueCapacity = 4
        options.batchEvents = 32
        options.checkpointInterval = 512
        options.failsWritesPast = limit
        let path = dir.appendingPathComponent("f.slog").path
        let recorder = try Recorder(creating: path, options: options)
        let events = Array(SyntheticSession(seed: 7, count: 40_000))
        // One thread appends, flushing every 100 events; another flushes over and over.
        // Appends and flushes waiting when the write fails must return its error: the test
        // waits for both threads a bounded time, so a recorder that hangs fails it.
        // `appended`: the appends that returned normally.
        let appender = LockedBox((done: false, acknowledged: 0, appended: 0, failure: LogError?.none))
        let flusher = LockedBox((done: false, failure: LogError?.none))
        let appending = Thread {
            var appended = 0
            for (i, e) in events.enumerated() {
                do throws(LogError) {
                    try recorder.append(e)
                    appended += 1
                    if i % 100 == 99 {
                        try recorder.flush()
                        let acknowledged = recorder.acknowledged
                        appender.withLockedValue { $0.acknowledged = acknowledged }
                    }
                } catch {
                    appender.withLockedValue { a in
                        a.appended = appended
                        a.failure = error
                    }
                    break
                }
            }
            appender.withLockedValue { $0.done = true }
            appender.wake()
        }
        let flushing = Thread {
            while true {
                do throws(LogError) {
                    try recorder.flush()
                } catch {
                    flusher.withLockedValue { $0.failure = error }
                    break
                }
            }
            flusher.withLockedValue { $0.done = true }
            flusher.wake()
        }
        appending.start()
        flushing.start()
        let appended = appender.withLockedValue(waitingFor: { $0.done }, timeout: .seconds(60)) { a, _ in a }
        try #require(appended.done, "appends still run or wait a minute after the write failed")
        let flushed = flusher.withLockedValue(waitingFor: { $0.done }, timeout: .seconds(60)) { f, _ in f }
        try #require(flushed.done, "a flush still waits a minute after the write failed")
        #expect(flushed.failure.map { $0.message.contains("write failed") } == true, "\(String(describing: flushed.failure))")
        let acknowledged = appended.acknowledged

        // The appends stopped with the write's error, before the session's end.
        let error = try #require(appended.failure, "40,000 events fitted in \(limit) bytes")
        #expect(error.code == .closed || error.code == .io, "\(error)")
        #expect(error.description.contains("write failed"), "\(error)")
        let count = recorder.eventCount
        #expect(count == appended.appended, "the recorder counts \(count) events, \(appended.appended) appends returned")
        // And for good: an append, a flush and close() all give the same error.
        #expect(throws: LogError.self) { try recorder.append(events[count]) }
        #expect(recorder.eventCount == count)
        #expect(throws: LogError.self) { try recorder.flush() }
        var closeError: LogError?
        do throws(LogError) { try recorder.close() } catch { closeError = error }
        #expect(closeError?.description.contains("write failed") == true, "\(String(describing: closeError))")

        // Nothing past the limit was written, and every acknowledged event reads back in order.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size <= limit)
        let log = try LogReader(path: path)
        #expect(log.eventCount >= acknowledged)
        #expect(log.eventCount <= count)
        #expect(try log.events() == Array(events.prefix(log.eventCount)))
        #expect(try LogReader.verify(path: path).intactEvents == log.eventCount)
    }
}
