import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// Format version 4: a batch with a 48-byte header ("B") starts a window with fresh coder
/// models; the batches after it in the window are continued batches ("b", 16-byte headers)
/// whose events carry on the models, predictions and time of the batch before. The index
/// has one entry per window and per checkpoint. Windows start at the file's start, after
/// every checkpoint, after reopening for append, and when a window holds 8192 events.
@Suite("format 4: continued batches in windows")
struct FormatV4Tests {
    static let windowLimit = 8192

    // MARK: Helpers

    /// `log.state(at: n)` for every n in `positions`, against replaying `events` in memory.
    func expectStates(_ log: LogReader, _ events: [TimedEvent], at positions: [Int],
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        var state = TableState()
        var applied = 0
        for n in Set(positions).sorted() {
            while applied < n {
                try state.apply(events[applied])
                applied += 1
            }
            #expect(try log.state(at: n) == state, "state at \(n)", sourceLocation: sourceLocation)
        }
    }

    /// The windows of `records`: each batch that starts one, with the continued batches after it.
    func windows(_ records: [RecordInfo]) -> [[RecordInfo]] {
        var out: [[RecordInfo]] = []
        for r in records where r.header.kind == .batch {
            if r.header.continues, !out.isEmpty { out[out.count - 1].append(r) } else { out.append([r]) }
        }
        return out
    }

    /// The writer's rule, both ways: a batch starts a window ("B") exactly when it is the
    /// first record, follows a checkpoint, follows a window of 8192 events or more, or is
    /// the first batch after reopening (`reopenedAt`: its first event); every other batch
    /// continues the one before it ("b", a 16-byte header, stored).
    func expectWindowRule(_ records: [RecordInfo], _ bytes: [UInt8], reopenedAt: Set<Int> = [],
                          sourceLocation: SourceLocation = #_sourceLocation) {
        var windowEvents = 0
        for (k, r) in records.enumerated() where r.header.kind == .batch {
            let before = k > 0 ? records[k - 1] : nil
            let mustStart = before == nil || before?.header.kind == .checkpoint || windowEvents >= Self.windowLimit
                || reopenedAt.contains(r.header.firstEvent)
            #expect(r.header.continues == !mustStart, "batch of events \(r.header.firstEvent)+\(r.header.eventCount)",
                    sourceLocation: sourceLocation)
            if r.header.continues {
                #expect(bytes[r.offset + 3] == UInt8(ascii: "b") && r.end - r.offset == 16 + r.header.storedLength,
                        sourceLocation: sourceLocation)
                #expect(r.header.codec == LogFormat.codecRaw, sourceLocation: sourceLocation)
                windowEvents += r.header.eventCount
            } else {
                #expect(bytes[r.offset + 3] == UInt8(ascii: "B") && r.end - r.offset == 48 + r.header.storedLength,
                        sourceLocation: sourceLocation)
                windowEvents = r.header.eventCount
            }
        }
    }

    /// The stored index lists one entry per window and per checkpoint: each window's first
    /// batch, with the number, bytes (headers included) and events of its continued batches.
    func expectIndexListsWindows(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = try fileBytes(path)
        let records = try LogReader(path: path).records
        let index = try #require(records.last, sourceLocation: sourceLocation)
        try #require(index.header.kind == .index, sourceLocation: sourceLocation)
        let entries = try #require(LogIndex.decode(Array(bytes[index.payloadStart..<index.end]), at: index.offset, version: 4),
                                   sourceLocation: sourceLocation)
        // (record, continued batches, their bytes, their events), from the walk.
        var expected: [(RecordInfo, Int, Int, Int)] = []
        for r in records.dropLast() {
            if r.header.continues, let last = expected.indices.last {
                expected[last].1 += 1
                expected[last].2 += r.end - r.offset
                expected[last].3 += r.header.eventCount
            } else {
                expected.append((r, 0, 0, 0))
            }
        }
        #expect(entries.count == expected.count, sourceLocation: sourceLocation)
        for (entry, (r, count, bytes, events)) in zip(entries, expected) {
            #expect(entry.record == r && entry.continued == count && entry.continuedBytes == bytes && entry.continuedEvents == events,
                    "entry at byte offset \(r.offset)", sourceLocation: sourceLocation)
        }
    }

    func fileBytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    func write(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    /// Cuts the stored index off a cleanly closed log, as a crash before close would.
    func stripIndex(_ path: String) throws {
        let index = try #require(try LogReader(path: path).records.last)
        try #require(index.header.kind == .index)
        #expect(truncate(path, off_t(index.offset)) == 0)
    }

    func options(checkpointInterval: Int, batchEvents: Int = 25) -> Recorder.Options {
        var o = smallBatches(checkpointInterval: checkpointInterval)
        o.batchEvents = batchEvents
        return o
    }

    // MARK: Windows written and read back

    @Test("a log of many windows of continued batches: events from any position, states, check and verify, with or without the index",
          arguments: [true, false])
    func manyWindows(indexed: Bool) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 12, count: 6_000))
        let path = dir.appendingPathComponent("w.slog").path
        let written = try writeLog(events, to: path, options: options(checkpointInterval: 1_000))
        #expect(written == (try replayed(events)))
        if indexed { try expectIndexListsWindows(path) } else { try stripIndex(path) }
        let log = try LogReader(path: path)
        #expect(log.header.version == LogFormat.version)   // 4, or 5 in a build without zstd
        #expect(log.usedStoredIndex == indexed)
        let records = log.records
        expectWindowRule(records, try fileBytes(path))
        let continued = records.filter(\.header.continues)
        let windows = windows(records)
        #expect(windows.count >= 6 && continued.count >= 4 * windows.count, "\(windows.count) windows, \(continued.count) continued batches")
        // Backwards first (every read past the checked prefix, when indexed), then forwards:
        // the first event of every continued batch, the one before it, and the middle of it.
        var positions: [Int] = []
        for r in continued.reversed() {
            positions += [r.header.firstEvent, r.header.firstEvent - 1, r.header.firstEvent + r.header.eventCount / 2]
        }
        for n in positions {
            let end = Swift.min(n + 40, events.count)
            #expect(try log.events(from: n, to: end) == Array(events[n..<end]), "events from \(n)")
        }
        // To the end of the log, from the middle of a few windows.
        for w in windows.dropFirst().prefix(3) + windows.suffix(1) {
            let n = try #require(w.dropFirst().first).header.firstEvent + 1
            #expect(try log.events(from: n) == Array(events[n...]), "events from \(n) to the end")
        }
        var rng = SeededRandom(seed: 12)
        try expectStates(log, events, at: positions.enumerated().filter { $0.offset % 7 == 0 }.map(\.element)
                            + (0..<30).map { _ in Int.random(in: 0...events.count, using: &rng) } + [0, events.count])
        #expect(try log.check().isSame)
        let report = try LogReader.verify(path: path)
        #expect(report.isIntact && report.intactEvents == events.count)
        let deep = try LogReader.verify(path: path, replaying: true)
        #expect(deep.isIntact && deep.checkpointsReplayed == 6)
    }

    @Test("without checkpoints, a window ends once it holds 8192 events: every event and state reads back")
    func windowsSplitAt8192() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 3, count: 20_000))
        let path = dir.appendingPathComponent("long.slog").path
        try writeLog(events, to: path, options: options(checkpointInterval: 0))
        try expectIndexListsWindows(path)
        let log = try LogReader(path: path)
        let records = log.records
        #expect(!records.contains { $0.header.kind == .checkpoint })
        expectWindowRule(records, try fileBytes(path))
        let windows = windows(records)
        try #require(windows.count == 3)
        for w in windows.dropLast() {
            let held = w.reduce(0) { $0 + $1.header.eventCount }
            #expect(held >= Self.windowLimit && held < Self.windowLimit + 25, "a window of \(held) events")
        }
        // Around each window's start, and in the middle of its continued batches.
        var positions: [Int] = []
        for w in windows {
            let start = w[0].header.firstEvent
            positions += [start - 2, start, start + 1, start + 5_000]
            positions += w.dropFirst().enumerated().filter { $0.offset % 50 == 0 }.map(\.element.header.firstEvent)
        }
        positions = positions.filter { $0 >= 0 && $0 < events.count }
        for n in positions {
            let end = Swift.min(n + 30, events.count)
            #expect(try log.events(from: n, to: end) == Array(events[n..<end]), "events from \(n)")
        }
        #expect(try log.events(from: windows[1][3].header.firstEvent) == Array(events[windows[1][3].header.firstEvent...]))
        try expectStates(log, events, at: [8_191, 8_192, 8_200, 12_345, 16_384, 16_390, 20_000])
        #expect(try LogReader.verify(path: path, replaying: true).isIntact)
    }

    @Test("the forge follows format 4: a forged log of windows and a checkpoint reads back, indexed or walked")
    func forgedWindowsAreSound() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 2, count: 60))
        let s = try replayed(Array(events[0..<30]))
        var f = Forge(interval: 30, version: 4)
        f.window([Array(events[0..<10]), Array(events[10..<20]), Array(events[20..<30])], first: 0, baseTime: 0)
        f.record("C", s.snapshot(), first: 30, baseTime: s.t.raw)
        f.window([Array(events[30..<45]), Array(events[45..<60])], first: 30, baseTime: s.t.raw)
        let unindexed = f
        f.index()
        let path = dir.appendingPathComponent("forged.slog").path
        for (forge, indexed) in [(f, true), (unindexed, false)] {
            try forge.write(to: path)
            let log = try LogReader(path: path)
            #expect(log.usedStoredIndex == indexed)
            #expect(log.records.filter(\.header.continues).count == 3)
            #expect(try log.events() == events)
            #expect(try log.events(from: 47) == Array(events[47...]))
            try expectStates(log, events, at: [0, 15, 29, 30, 31, 50, 60])
            #expect(try LogReader.verify(path: path, replaying: true).isIntact)
            if indexed { try expectIndexListsWindows(path) }
        }
    }

    @Test("the rewriter (compact, upgrade) writes windows by the same rule: after every checkpoint and at 8192 events",
          arguments: [0, 3_000])
    func rewriterWindows(checkpointInterval: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 17, count: 18_000))
        let path = dir.appendingPathComponent("rewritten.slog").path
        let w = try LogRewriter(path: path, checkpointInterval: checkpointInterval, batchEvents: 100, putsOffLargeCheckpoints: false)
        for e in events { try w.append(e) }
        try w.close()
        try expectIndexListsWindows(path)
        let log = try LogReader(path: path)
        let records = log.records
        expectWindowRule(records, try fileBytes(path))
        #expect(checkpoints(records) == (checkpointInterval == 0 ? [] : Array(stride(from: 3_000, through: 18_000, by: 3_000))))
        #expect(records.filter(\.header.continues).count > 100)
        #expect(try log.events(from: 8_195, to: 8_300) == Array(events[8_195..<8_300]))
        try expectStates(log, events, at: [2_999, 3_000, 8_192, 9_001, 18_000])
        #expect(try LogReader.verify(path: path, replaying: true).isIntact)
    }

    // MARK: Appending

    @Test("reopening for append starts a fresh window; the log replays as one written in one go")
    func reopenStartsAWindow() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 21, count: 5_000))
        let o = options(checkpointInterval: 1_000)
        let once = dir.appendingPathComponent("once.slog").path
        let final = try writeLog(events, to: once, options: o)
        let twice = dir.appendingPathComponent("twice.slog").path
        // Not at a multiple of the interval: the window is open when the writer stops.
        try writeLog(Array(events[..<2_990]), to: twice, options: o)
        let more = try Recorder(appendingTo: twice, options: o)
        #expect(more.eventCount == 2_990)
        for e in events[2_990...] { try more.append(e) }
        try more.close()
        #expect(more.state == final)

        let log = try LogReader(path: twice)
        #expect(log.usedStoredIndex)
        let records = log.records
        let k = try #require(records.firstIndex { $0.header.kind == .batch && $0.header.firstEvent == 2_990 })
        #expect(records[k - 1].header.kind == .batch && records[k - 1].header.continues)
        #expect(!records[k].header.continues)
        expectWindowRule(records, try fileBytes(twice), reopenedAt: [2_990])
        try expectIndexListsWindows(twice)
        #expect(try log.events() == events)
        #expect(try log.events(from: 2_985, to: 3_100) == Array(events[2_985..<3_100]))
        let oneGo = try LogReader(path: once)
        for n in [0, 1_000, 2_989, 2_990, 2_991, 3_000, 3_500, 5_000] {
            #expect(try log.state(at: n) == oneGo.state(at: n), "state at \(n)")
        }
        try expectStates(log, events, at: [2_990, 2_995, 4_321, 5_000])
        #expect(try LogReader.verify(path: twice, replaying: true).isIntact)
    }

    @Test("appending to a version 3 log writes version 3 batches: never a continued one")
    func versionThreeAppend() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 6, count: 400))
        var f = Forge(interval: 0, version: 3)
        f.batch(Array(events[0..<100]), first: 0, baseTime: 0)
        f.index()
        let path = dir.appendingPathComponent("v3.slog").path
        try f.write(to: path)
        let recorder = try Recorder(appendingTo: path, options: options(checkpointInterval: 0))
        for e in events[100...] { try recorder.append(e) }
        try recorder.close()
        let log = try LogReader(path: path)
        #expect(log.header.version == 3)
        #expect(log.records.filter { $0.header.kind == .batch }.count > 4)
        #expect(!log.records.contains { $0.header.continues })
        #expect(try log.events() == events)
        #expect(try LogReader.verify(path: path, replaying: true).isIntact)
    }

    // MARK: Checkpoints put off

    /// Checkpoint positions of the log at `path`.
    func checkpoints(_ records: [RecordInfo]) -> [Int] {
        records.filter { $0.header.kind == .checkpoint }.map(\.header.firstEvent)
    }

    @Test("large snapshots put checkpoints off to a later multiple of K, never past the policy's bound; state(at:) still equals replay")
    func checkpointsPutOff() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 4, count: 8_000))
        let k = 256
        let path = dir.appendingPathComponent("put-off.slog").path
        var o = options(checkpointInterval: k)
        o.putsOffLargeCheckpoints = true
        try writeLog(events, to: path, options: o)
        let log = try LogReader(path: path)
        let records = log.records
        let at = checkpoints(records)
        let gaps = zip([0] + at, at).map { $1 - $0 }
        #expect(at.allSatisfy { $0 % k == 0 })
        let most = CheckpointPolicy.maxIntervals * k
        #expect(gaps.allSatisfy { $0 <= most }, "\(gaps)")
        #expect(gaps.contains { $0 > k }, "\(gaps)")
        #expect(events.count - (at.last ?? 0) < most)
        // Each checkpoint taken before the bound is one whose snapshot is at most half the coded
        // event bytes since the last (the batch that ended at it included); each multiple of
        // K passed over has a snapshot larger than half the coded bytes of the whole batches
        // between them.
        var states = [Int: Int]()
        var s = TableState()
        for (n, e) in events.enumerated() {
            try s.apply(e)
            if (n + 1) % k == 0 { states[n + 1] = s.snapshot().count }
        }
        let batches = records.filter { $0.header.kind == .batch }
        func coded(from: Int, through: Int) -> Int {
            batches.filter { $0.header.firstEvent + $0.header.eventCount > from && $0.header.firstEvent + $0.header.eventCount <= through }
                .reduce(0) { $0 + $1.header.rawLength }
        }
        for (previous, next) in zip([0] + at, at) {
            let snapshot = try #require(records.first { $0.header.kind == .checkpoint && $0.header.firstEvent == next }).header.rawLength
            if next - previous < most {
                // The batch before the last checkpoint counts too.
                #expect(snapshot * 2 <= coded(from: Swift.max(0, previous - 1), through: next), "checkpoint at \(next)")
            }
            for skipped in stride(from: previous + k, to: next, by: k) {
                #expect(try #require(states[skipped]) * 2 > coded(from: previous, through: skipped), "no checkpoint at \(skipped)")
            }
        }
        try expectStates(log, events, at: at.map { $0 - 1 } + at + gaps.indices.map { (at[$0] - gaps[$0] / 2) } + [events.count, 1_000])
        #expect(try LogReader.verify(path: path, replaying: true).isIntact)
    }

    @Test("checkpoints put off stay within the policy's bound across a reopen for append")
    func checkpointsPutOffAcrossReopen() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 4, count: 6_000))
        let k = 256
        let path = dir.appendingPathComponent("reopened.slog").path
        var o = options(checkpointInterval: k)
        o.putsOffLargeCheckpoints = true
        // Stopped some events after the last checkpoint (put off: the snapshots are large).
        try writeLog(Array(events[..<1_900]), to: path, options: o)
        let before = checkpoints(try LogReader(path: path).records)
        #expect(!before.isEmpty && before.allSatisfy { $0 % k == 0 } && (before.last ?? 0) < 1_900, "\(before)")
        let more = try Recorder(appendingTo: path, options: o)
        for e in events[1_900...] { try more.append(e) }
        try more.close()
        let log = try LogReader(path: path)
        let at = checkpoints(log.records)
        let gaps = zip([0] + at, at).map { $1 - $0 }
        // The policy counts events from the last checkpoint, not from the reopen.
        #expect(gaps.allSatisfy { $0 <= CheckpointPolicy.maxIntervals * k }, "\(at)")
        try expectStates(log, events, at: at.map { $0 - 1 } + [1_900, 3_000, 6_000])
    }

    @Test("without putting off, a checkpoint at every multiple of K, whatever the snapshot's size")
    func checkpointsEveryK() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 4, count: 3_000))
        let path = dir.appendingPathComponent("every-k.slog").path
        try writeLog(events, to: path, options: options(checkpointInterval: 256))
        let log = try LogReader(path: path)
        #expect(checkpoints(log.records) == Array(stride(from: 256, through: 3_000, by: 256)))
        try expectStates(log, events, at: [255, 256, 257, 2_999, 3_000])
    }

    // MARK: Sizes

    @Test("sizes, a regression guard: 100k events with default options, under 2.0 bytes an event on random walks and 1.2 on the synthetic session, packed or stored (as a build without zstd writes)",
          arguments: ["random walk", "synthetic"], [false, true])
    func sizes(session: String, stored: Bool) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 100k events: a dozen checkpoint windows, enough for the steady rate (the first
        // window costs a little more while the models learn: random walk 1.91 at 50k,
        // 1.85 at 100k, 1.82 at 200k, packed); the README's figures are the benchmarks'.
        let count = 100_000
        let events = session == "synthetic" ? Array(SyntheticSession(seed: 1, count: count)) : Array(RandomWalkSession(seed: 1, count: count))
        let path = dir.appendingPathComponent("size.slog").path
        var o = Recorder.Options()
        o.durability = .none
        o.storesUncompressed = stored
        try writeLog(events, to: path, options: o)
        let log = try LogReader(path: path)
        #expect(log.eventCount == count)
        // Measured (seed 1) at 200k: random walk 1.82 packed, 1.83 stored (format 5's
        // range-coded checkpoints; 2.05 with format 4's stored ones); synthetic 0.93 and
        // 0.95 (1.20). At 100k: 1.85 packed, synthetic 0.94 packed.
        // Issue 10's bounds hold for both: a build without zstd is an iOS app's.
        let packed = Zstd.isAvailable && !stored
        let bound = session == "synthetic" ? 1.2 : 2.0
        let perEvent = Double(log.fileSize) / Double(count)
        #expect(perEvent < bound, "\(session), \(packed ? "packed" : "stored"): \(perEvent) bytes an event")
        // A checkpoint taken before the bound is at most half the coded events since the last, so
        // checkpoints are at most a third of the log (measured 5-12% packed, 21-26% stored).
        let checkpointBytes = log.records.filter { $0.header.kind == .checkpoint }.reduce(0) { $0 + $1.end - $1.offset }
        #expect(Double(checkpointBytes) < Double(log.fileSize) / 3, "\(session): checkpoints \(checkpointBytes) of \(log.fileSize) bytes")
    }
}
