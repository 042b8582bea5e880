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

    /// `bytes` written to `name` in `dir`: its path.
    func write(_ bytes: [UInt8], _ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The offset of the batch that holds event `index` (0-based) in the log at `path`.
    func batchOffset(holding index: Int, _ path: String) throws -> Int? {
        let log = try LogReader(path: path)
        defer { log.close() }
        return log.records.first {
            $0.header.kind == .batch && $0.header.firstEvent <= index && index < $0.header.firstEvent + $0.header.eventCount
        }?.offset
    }

    @Test("a wrong fingerprint: damage from the batch of the first event after the last one that agreed; a repair keeps the batches before it",
          arguments: [2, 4] as [UInt16])
    func wrongFingerprint(version: UInt16) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try write(try PipelinedCheckTests.forge(events, version: version, at: 0, extra: 0, wrongAt: 450), "wrong.slog", in: dir)
        #expect(try LogReader.verify(path: path).isIntact, "the walk alone replays nothing")
        let agreed = try #require(try gestureEnds(events).last { $0 <= 450 })
        let expected = try #require(try batchOffset(holding: agreed, path))
        let report = try deep(path)
        let problem = try #require(report.problem)
        #expect(problem.offset == expected && report.intactBytes == expected, "\(problem), expected \(expected)")
        #expect(report.intactEvents == agreed / 100 * 100, "batches of 100 events")
        #expect(problem.reason.contains("the state at the gesture's end differs"), "\(problem.reason)")
        #expect(!problem.isTornTail)
        #expect(report.gesturesReplayed == (try gestureEnds(events).filter { $0 <= 450 }.count), "the one that differs is not counted")
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
        let path = try write(try PipelinedCheckTests.forge(events, version: version, at: 0, extra: 0, written: written), "changed.slog", in: dir)
        #expect(try LogReader.verify(path: path).isIntact)
        let log = try LogReader(path: path)
        #expect(try log.checkpointList().isEmpty, "no checkpoint could tell")
        let check = try log.check()
        let divergence = try #require(check.divergence)
        let agreed = try #require(try gestureEnds(events).last { $0 <= k })
        var seenAgreed: Int?
        if case .fingerprint(let a, _) = divergence.seen { seenAgreed = a }
        #expect(seenAgreed == agreed, "\(divergence)")
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

    @Test("a wrong fingerprint after the same events as one that agreed, at a batch's end: damage from that batch, not the next",
          arguments: [2, 4] as [UInt16])
    func wrongFingerprintAtABatchEnd(version: UInt16) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A fingerprint of the true state after event 400, the last of its batch, then a wrong one.
        let path = try write(try PipelinedCheckTests.forge(events, version: version, at: 400, extra: 1, wrongAt: 400), "end.slog", in: dir)
        let expected = try batchOffset(holding: 399, path)
        let report = try deep(path)
        #expect(report.problem?.offset == expected && report.intactEvents == 300, "\(String(describing: report.problem))")
        #expect(try LogRepair.repair(path, replaying: true).cut != nil)
        #expect(try LogReader.verify(path: path, replaying: true).isIntact, "one repair is enough")
    }

    @Test("a checkpoint that disagrees: damage from the batch of the first event no fingerprint confirmed, or from the checkpoint when one after the same events agreed",
          arguments: [2, 4] as [UInt16])
    func wrongCheckpoint(version: UInt16) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var state = TableState()
        for e in events[..<300] { try state.apply(e) }
        var wrong = state
        wrong.selection = RowSet([RowPath(0, 1)])
        try #require(wrong.hashValue64 != state.hashValue64)
        let agreed = try #require(try gestureEnds(events).last { $0 < 300 })
        for confirmed in [false, true] {
            let bytes = try PipelinedCheckTests.forge(events, version: version, at: 300, extra: confirmed ? 1 : 0, checkpoint: (300, wrong))
            let path = try write(bytes, "checkpoint-\(confirmed).slog", in: dir)
            let checkpoint = try #require(try LogReader(path: path).records.first { $0.header.kind == .checkpoint })
            let report = try deep(path)
            if confirmed {
                // A fingerprint of the state after the same 300 events agreed: the checkpoint
                // alone is in doubt.
                #expect(report.problem?.offset == checkpoint.offset && report.intactEvents == 300)
            } else {
                // The events since the last gesture end, or the checkpoint, were changed.
                #expect(report.problem?.offset == (try batchOffset(holding: agreed, path)) && report.intactEvents == agreed / 100 * 100)
            }
            #expect(report.checkpointsReplayed == 0 && report.problem?.reason.contains("differs from the recorded checkpoint") == true,
                    "\(String(describing: report.problem))")
            #expect(report.records == (try LogReader(path: path).records.filter { $0.offset < report.intactBytes }.count))
        }
    }

    @Test("a later event the replay rejects, after a fingerprint that differs: the damage is the first difference, and one repair is enough")
    func rejectionAfterADifference() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var settings = ConfigurationPatch()
        settings.allowsMultipleSelection = true
        func pan(_ ms: Int) -> [TimedEvent] {
            [TimedEvent(.panBegan(ViewportPoint(x: Points(10), y: Points(22)), fingers: 1), t: .milliseconds(ms)),
             TimedEvent(.panMoved(ViewportPoint(x: Points(10), y: Points(140))), t: .milliseconds(ms + 1)),
             TimedEvent(.panEnded(nil, targetOffset: nil), t: .milliseconds(ms + 2))]
        }
        let recorded: [TimedEvent] = [
            TimedEvent(.configure(settings), t: .zero),
            TimedEvent(.viewport(width: Points(390), height: Points(600)), t: .zero),
            TimedEvent(.reload(sections: [SectionSpec(rows: 10)]), t: .zero),
        ] + pan(1) + [TimedEvent(.insertRows(at: [RowPath(0, 10)], heights: nil), t: .milliseconds(4))] + pan(5) + [
            TimedEvent(.deleteRows(at: [RowPath(0, 10)]), t: .milliseconds(8)),
            TimedEvent(.tick, t: .milliseconds(9)),
        ]
        // The insertion changed into a tick: the second pan ends on 10 rows, and the
        // deletion of row 10 is then rejected.
        var written = recorded
        written[6] = TimedEvent(.tick, t: .milliseconds(4))
        let path = try write(try PipelinedCheckTests.forge(recorded, version: 4, at: 0, extra: 0, written: written, batchEvents: 4), "rejected-later.slog", in: dir)
        let check = try LogReader(path: path).check()
        #expect(check.divergence?.seen == .fingerprint(agreed: 6, after: 10), "\(String(describing: check.divergence))")
        let expected = try batchOffset(holding: 6, path)
        let report = try deep(path)
        #expect(report.problem?.offset == expected && report.intactEvents == 4, "\(String(describing: report.problem))")
        #expect(report.problem?.reason.contains("the state at the gesture's end differs") == true)
        #expect(try LogRepair.repair(path, replaying: true).cut?.keptBytes == report.intactBytes)
        #expect(try LogReader.verify(path: path, replaying: true).isIntact, "one repair is enough")
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
