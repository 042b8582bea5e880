import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// `check()` replays a long log decoded on other threads and compares each fingerprint
/// and checkpoint as it passes; at the first difference it checks again in turn. Its
/// report must be the in-turn check's, wherever the segments cut the log.
@Suite("check, pipelined: the same report as a check in turn")
struct PipelinedCheckTests {
    /// The reports' every field, in words.
    static func summary(_ r: CheckReport) -> String {
        var s = "\(r.recordedBehaviour.map { String($0) } ?? "-") \(r.behaviour) \(r.events) \(r.gesturesCompared) \(r.checkpointsCompared)"
        if let d = r.divergence {
            s += " diverged \(d.events) \(d.kind) \(d.checkpoint.map { String($0) } ?? "-") \(d.reason) \(d.changes.count)"
        }
        return s
    }

    static let segmentSizes = [97, 256, 311, 1_000, 4_099]

    /// A `verify` report's every field, in words.
    static func summary(_ r: VerifyReport) -> String {
        "\(r.fileSize) \(r.intactEvents) \(r.intactBytes) \(r.records) \(r.checkpointsReplayed) \(r.gesturesReplayed) \(r.notes) "
            + "\(r.problem.map { "\($0.offset) \($0.reason) \($0.isTornTail)" } ?? "intact")"
    }

    /// The pipelined check of `log` against its check in turn, at several segment sizes
    /// (odd ones, so that segment ends fall before, at and after gesture ends and batch
    /// ends); returns the in-turn report. `same`: the pipelined pass itself must answer
    /// (the log replays as recorded), not leave it to the check in turn.
    @discardableResult
    static func agree(_ log: LogReader, _ what: String, same: Bool = false, sizes: [Int] = segmentSizes) throws -> CheckReport {
        let inTurn = try log.checkInTurn()
        // Segments of each size, then of about two of them, starting at windows (as `check()`'s do).
        for (size, aligned) in sizes.map({ ($0, false) }) + [sizes.first, sizes.last].compactMap({ $0 }).map({ ($0, true) }) {
            // What `check()` answers is the pipelined pass's report, or the in-turn one.
            let pass = try log.pipelinedCheck(segmentEvents: size, alignsToWindows: aligned)
            if same {
                #expect(pass.map(summary) == summary(inTurn), "\(what), segments of \(size) (\(aligned)): the pipelined pass itself")
            } else {
                #expect(pass == nil, "\(what), segments of \(size) (\(aligned)): the pipelined pass saw no difference")
                #expect(summary(try log.check(pipelinedFrom: 0, segmentEvents: size)) == summary(inTurn), "\(what), segments of \(size)")
            }
        }
        return inTurn
    }

    static func write(_ events: [TimedEvent], _ path: String, version: UInt16? = nil, batchEvents: Int = 100,
                      interval: Int = 256) throws {
        var o = Recorder.Options()
        o.durability = .none
        o.batchEvents = batchEvents
        o.checkpointInterval = interval
        o.putsOffLargeCheckpoints = false
        o.formatVersion = version
        _ = try writeLog(events, to: path, options: o)
    }

    @Test("the same behaviour: every fingerprint and checkpoint counted once, in logs of versions 1 to 7 and both sessions")
    func sameBehaviour() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sessions: [(String, [TimedEvent])] = [("standard", Array(SyntheticSession(seed: 5, count: 6_000))),
                                                  ("random walk", Array(RandomWalkSession(seed: 5, count: 6_000, screenScale: 3)))]
        for (name, events) in sessions {
            // The recorder writes a fingerprint at every gesture end.
            var state = TableState()
            var ends: [Int] = []
            for (k, e) in events.enumerated() where try state.apply(e).endsGesture { ends.append(k + 1) }
            let gestureEnds = ends.count
            #expect(gestureEnds > 40)
            // Segments that end exactly at a gesture's end (its fingerprint follows the
            // segment's last event), one event before and one after it.
            let sizes = Self.segmentSizes + ends.prefix(4).flatMap { [$0 - 1, $0, $0 + 1] }
            for (version, batchEvents) in [(1, 100), (2, 100), (3, 100), (4, 100), (5, 100), (6, 100), (7, 100), (7, 7)] as [(UInt16, Int)] {
                let path = dir.appendingPathComponent("\(name)-\(version)-\(batchEvents).slog").path
                try Self.write(events, path, version: version, batchEvents: batchEvents)
                let report = try Self.agree(try LogReader(path: path), "\(name), version \(version), batches of \(batchEvents)", same: true,
                                              sizes: version >= 6 ? sizes : (version >= 4 ? Self.segmentSizes : [97, 311]))
                #expect(report.isSame && report.events == events.count)
                #expect(report.checkpointsCompared == events.count / 256)
                #expect(report.gesturesCompared == gestureEnds)
                let deep = try LogReader.verify(path: path, replaying: true, engine: .standard, pipelinedFrom: 0)
                #expect(Self.summary(deep) == Self.summary(try LogReader.verify(path: path, replaying: true, engine: .standard, pipelinedFrom: .max)))
                // A version 1 log names no behaviour: its checkpoints are not replayed.
                #expect(deep.isIntact && deep.checkpointsReplayed == (version == 1 ? 0 : events.count / 256))
            }
        }
    }

    @Test("a second engine: the pipelined pass stops at the difference and the report is the in-turn one")
    func diverged() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 3, count: 3_000))
        let path = dir.appendingPathComponent("standard.slog").path
        try Self.write(events, path)
        let report = try Self.agree(try LogReader(path: path, engine: tapsNeverDeselect), "taps never deselect")
        #expect(!report.isSame)
        // And the other way round: a log the second engine wrote, checked by the standard one.
        let other = dir.appendingPathComponent("other.slog").path
        let w = try LogRewriter(path: other, engine: tapsNeverDeselect, checkpointInterval: 256, batchEvents: 100, putsOffLargeCheckpoints: false)
        for e in events { try w.append(e) }
        try w.close()
        #expect(!(try Self.agree(try LogReader(path: other), "written by taps never deselect")).isSame)
    }

    @Test("a checkpoint whose state differs from the replay's, its checksums intact, is found as in turn")
    func forgedCheckpoint() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 8, count: 1_200))
        var states: [TableState] = [TableState()]
        for e in events {
            var s = states[states.count - 1]
            try s.apply(e)
            states.append(s)
        }
        for forged in [300, 900] {
            // Windows of 300 events in batches of 100, each after a checkpoint of the state
            // before it; one checkpoint holds the state with another selection.
            var f = Forge(version: 4)
            for w in stride(from: 0, to: events.count, by: 300) {
                let base = w == 0 ? Int64(0) : events[w - 1].t?.raw ?? 0
                if w > 0 {
                    var state = states[w]
                    if w == forged { state.selection = RowSet([RowPath(0, 1)]) }
                    f.record("C", state.snapshot(), first: w, baseTime: base)
                }
                f.window(stride(from: w, to: w + 300, by: 100).map { Array(events[$0..<($0 + 100)]) }, first: w, baseTime: base)
            }
            f.index()
            let path = dir.appendingPathComponent("forged-\(forged).slog").path
            try f.write(to: path)
            #expect(states[forged].selection != RowSet([RowPath(0, 1)]))
            let report = try Self.agree(try LogReader(path: path), "checkpoint after \(forged) events forged")
            #expect(report.divergence?.events.upperBound == forged - 1, "\(Self.summary(report))")
            // verify --deep finds it at the same place, pipelined or in turn.
            let inTurn = try LogReader.verify(path: path, replaying: true, engine: .standard, pipelinedFrom: .max)
            let pipelined = try LogReader.verify(path: path, replaying: true, engine: .standard, pipelinedFrom: 0)
            #expect(Self.summary(pipelined) == Self.summary(inTurn))
            let checkpoint = try LogReader(path: path).records.first { $0.header.firstEvent == forged && $0.header.kind == .checkpoint }
            #expect(checkpoint != nil)
            // No fingerprint confirms the events since the checkpoint before: the damage
            // runs from the batch after that one, which starts its window.
            let window = try LogReader(path: path).records.first { $0.header.firstEvent == forged - 300 && $0.header.kind == .batch }
            #expect(inTurn.problem?.offset == window?.offset)
            #expect(inTurn.intactEvents == forged - 300 && inTurn.checkpointsReplayed == forged / 300 - 1)
        }
    }

    /// A log of `events` in batches of `batchEvents` (version 2 or 4), a fingerprint after
    /// each gesture end as the recorder writes them, and `extra` more after `at` events (of
    /// the true state), then one of a wrong state after `wrongAt` events. With `written`,
    /// the fingerprints are those of `events` but the events stored are `written` (a log
    /// changed after it was written). With `checkpoint`, a checkpoint of that state before
    /// the batch that starts at its event count.
    static func forge(_ events: [TimedEvent], version: UInt16, at: Int, extra: Int, wrongAt: Int? = nil,
                      written: [TimedEvent]? = nil, checkpoint: (at: Int, state: TableState)? = nil,
                      batchEvents: Int = 100) throws -> [UInt8] {
        var states: [TableState] = [TableState()]
        var ends = Set<Int>()
        for (k, e) in events.enumerated() {
            var s = states[states.count - 1]
            if try s.apply(e).endsGesture { ends.insert(k + 1) }
            states.append(s)
        }
        var f = Forge(version: version)
        for b in stride(from: 0, to: events.count, by: batchEvents) {
            let base = b == 0 ? Int64(0) : events[b - 1].t?.raw ?? 0
            if let checkpoint, checkpoint.at == b { f.record("C", checkpoint.state.snapshot(), first: b, baseTime: base) }
            let end = min(b + batchEvents, events.count)
            var e = BinaryEventEncoder(baseTime: Micros(raw: base), version: version)
            if version >= 4 { _ = e.startBatch(baseTime: Micros(raw: base)) }
            for k in b..<end {
                e.append((written ?? events)[k])
                if ends.contains(k + 1) { e.appendGestureFingerprint(states[k + 1].gestureFingerprint) }
                if k + 1 == at { for _ in 0..<extra { e.appendGestureFingerprint(states[k + 1].gestureFingerprint) } }
                if k + 1 == wrongAt { e.appendGestureFingerprint(states[k + 1].gestureFingerprint ^ 1) }
            }
            f.record("B", version >= 4 ? e.seal(events: end - b) : e.out.bytes, events: end - b, first: b, baseTime: base)
        }
        f.index()
        return f.bytes
    }

    @Test("several fingerprints after a segment's last event, which the next segment hands over again, are each compared once; a wrong one there is found")
    func fingerprintsAtASegmentEnd() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 5, count: 1_000))
        for version in [2, 4] as [UInt16] {
            for extra in [1, 2, 3] {
                let path = dir.appendingPathComponent("extra-\(version)-\(extra).slog").path
                try Data(try Self.forge(events, version: version, at: 250, extra: extra)).write(to: URL(fileURLWithPath: path))
                let log = try LogReader(path: path)
                let inTurn = try log.checkInTurn()
                #expect(inTurn.isSame)
                let pass = try log.pipelinedCheck(segmentEvents: 250)
                #expect(pass.map(Self.summary) == Self.summary(inTurn), "version \(version), \(extra) more")
            }
            let path = dir.appendingPathComponent("wrong-\(version).slog").path
            try Data(try Self.forge(events, version: version, at: 250, extra: 2, wrongAt: 250)).write(to: URL(fileURLWithPath: path))
            #expect(!(try Self.agree(try LogReader(path: path), "a wrong fingerprint at a segment end, version \(version)", sizes: [250])).isSame)
        }
    }
}
