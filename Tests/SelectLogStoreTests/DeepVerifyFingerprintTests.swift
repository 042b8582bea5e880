import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// `verify --deep` compares each gesture end's recorded state fingerprint with the
/// replay, as `check` does: a log whose events were changed after they were written, in
/// a stretch that no later checkpoint covers, is damaged, not intact (it was called
/// intact while `check` said it diverged).
@Suite("verify --deep: gesture fingerprints compared with the replay")
struct DeepVerifyFingerprintTests {
    let events = Array(SyntheticSession(seed: 5, count: 1_000))

    /// The events after which the engine ends a gesture (a fingerprint follows them).
    func gestureEnds(_ events: [TimedEvent]) throws -> [Int] {
        var state = TableState()
        var ends: [Int] = []
        for (k, e) in events.enumerated() where try state.apply(e).endsGesture { ends.append(k + 1) }
        return ends
    }

    /// `verify --deep` in turn and pipelined, which must agree.
    func deep(_ path: String) throws -> VerifyReport {
        let inTurn = try LogReader.verify(path: path, replaying: true, engine: .standard, pipelinedFrom: .max)
        let pipelined = try LogReader.verify(path: path, replaying: true, engine: .standard, pipelinedFrom: 0)
        #expect(PipelinedCheckTests.summary(pipelined) == PipelinedCheckTests.summary(inTurn))
        return inTurn
    }

    /// The offset of the batch that holds event `index` (0-based) in the log at `path`.
    func batchOffset(holding index: Int, _ path: String) throws -> Int? {
        try LogReader(path: path).records.first {
            $0.header.kind == .batch && $0.header.firstEvent <= index && index < $0.header.firstEvent + $0.header.eventCount
        }?.offset
    }

    @Test("a wrong fingerprint: damage from the batch of the first event after the last one that agreed; a repair keeps the batches before it",
          arguments: [2, 4] as [UInt16])
    func wrongFingerprint(version: UInt16) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("wrong.slog").path
        try Data(try PipelinedCheckTests.forge(events, version: version, at: 0, extra: 0, wrongAt: 450)).write(to: URL(fileURLWithPath: path))
        #expect(try LogReader.verify(path: path).isIntact, "the walk alone replays nothing")
        let agreed = try #require(try gestureEnds(events).last { $0 <= 450 })
        let expected = try #require(try batchOffset(holding: agreed, path))
        let report = try deep(path)
        let problem = try #require(report.problem)
        #expect(problem.offset == expected && report.intactBytes == expected, "\(problem), expected \(expected)")
        #expect(report.intactEvents == agreed / 100 * 100, "batches of 100 events")
        #expect(problem.reason.contains("the state at the gesture's end differs"), "\(problem.reason)")
        #expect(!problem.isTornTail)
        let outcome = try LogRepair.repair(path, replaying: true)
        #expect(outcome.cut?.keptBytes == expected)
        let repaired = try LogReader.verify(path: path, replaying: true)
        #expect(repaired.isIntact && repaired.intactEvents == agreed / 100 * 100)
        #expect(repaired.gesturesReplayed == (try gestureEnds(Array(events[..<(agreed / 100 * 100)])).count))
    }

    @Test("an event changed after it was written, with no checkpoint after it: check diverges and verify --deep calls it damage there",
          arguments: [2, 4] as [UInt16])
    func changedEvent(version: UInt16) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A tap moved two rows down: the log keeps the fingerprints of the taps as made.
        var written = events
        var changed: Int?
        for k in 300..<events.count {
            guard case .tap(let p) = events[k].event else { continue }
            written[k] = TimedEvent(.tap(ViewportPoint(x: p.x, y: p.y + Points(88))), t: events[k].t)
            var a = TableState(), b = TableState()
            for e in events[...k] { try a.apply(e) }
            for e in written[...k] { try b.apply(e) }
            if a.gestureFingerprint != b.gestureFingerprint {
                changed = k
                break
            }
            written[k] = events[k]
        }
        let k = try #require(changed, "a tap whose move changes the state")
        let path = dir.appendingPathComponent("changed.slog").path
        try Data(try PipelinedCheckTests.forge(events, version: version, at: 0, extra: 0, written: written)).write(to: URL(fileURLWithPath: path))
        #expect(try LogReader.verify(path: path).isIntact)
        let log = try LogReader(path: path)
        #expect(try log.checkpointList().isEmpty, "no checkpoint could tell")
        let check = try log.check()
        let divergence = try #require(check.divergence)
        let agreed = try #require(try gestureEnds(events).last { $0 <= k })
        #expect(divergence.seen == .fingerprint(agreed: agreed), "\(divergence)")
        if divergence.events.lowerBound > k {
            // A tap has no fingerprint of its own: the reason names the events before the
            // gesture, since the last that agreed.
            #expect(divergence.reason.hasSuffix("; it last agreed with the log after event \(agreed), so events \(agreed + 1)-\(divergence.events.lowerBound) before the gesture may hold the cause"),
                    "\(divergence)")
        }
        let report = try deep(path)
        let problem = try #require(report.problem, "verify --deep called a changed log intact")
        #expect(problem.reason == divergence.headline)
        #expect(problem.offset == (try batchOffset(holding: agreed, path)))
        #expect(report.intactEvents <= k)
    }

    @Test("an intact log: every gesture fingerprint and checkpoint confirmed, as check counts them")
    func intactCounts() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("intact.slog").path
        try PipelinedCheckTests.write(events, path)
        let report = try deep(path)
        let check = try LogReader(path: path).check()
        #expect(report.isIntact && check.isSame)
        #expect(report.gesturesReplayed == check.gesturesCompared && report.gesturesReplayed > 0)
        #expect(report.checkpointsReplayed == check.checkpointsCompared && report.checkpointsReplayed > 0)
        #expect(report.description.hasSuffix(", \(report.checkpointsReplayed) checkpoints and \(report.gesturesReplayed) gestures confirmed by replay"))
    }
}
