import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// A second engine for the tests: a tap on a selected row leaves it selected (the
/// standard engine deselects it in multiple mode, spec 5.1).
let tapsNeverDeselect = EngineBehaviour(name: "taps never deselect") { (state: inout TableState, e: TimedEvent) throws(InvalidEvent) in
    var kept: RowPath?
    if case .tap(let p) = e.event, let row = state.row(at: p), state.selection.contains(row) { kept = row }
    var changes = try state.apply(e)
    if let kept, !state.selection.contains(kept) {
        state.selection.insert(kept)
        changes.deselected.removeAll { $0 == kept }
    }
    return changes
}

/// Writes `events` to `path` as a build with `engine` records them: checkpoints every
/// 256 events, batches of 100.
func writeLog(_ events: some Sequence<TimedEvent>, to path: String, as engine: EngineBehaviour) throws {
    let w = try LogRewriter(path: path, engine: engine, checkpointInterval: 256, batchEvents: 100)
    for e in events { try w.append(e) }
    try w.close()
}

/// Where the naive reference finds the two engines part ways: replays both side by
/// side, comparing gesture fingerprints at gesture ends and full hashes at checkpoints.
struct ReferenceDivergence {
    var events: ClosedRange<Int>
    var kind: String
    var checkpoint: Int?
}

func referenceDivergence(_ events: [TimedEvent], written: EngineBehaviour, replayed: EngineBehaviour, interval: Int) -> ReferenceDivergence? {
    var a = TableState(), b = TableState()
    var gestureStart = 0, gestureKind = ""
    var found: ReferenceDivergence?
    for (i, e) in events.enumerated() {
        let recorded = (try? written.apply(e, to: &a)) ?? TableChanges()
        var rejected = false
        do {
            let changes = try replayed.apply(e, to: &b)
            if let k = GestureBoundary.kind(began: changes) {
                gestureStart = i
                gestureKind = k
            }
        } catch { rejected = true }
        if found == nil {
            if rejected {
                found = ReferenceDivergence(events: i...i, kind: e.event.typeName)
            } else if recorded.endsGesture, a.gestureFingerprint != b.gestureFingerprint {
                found = ReferenceDivergence(events: gestureStart...i, kind: gestureKind)
            }
        }
        if (i + 1) % interval == 0 {
            if found == nil, a.hashValue64 != b.hashValue64 {
                found = ReferenceDivergence(events: (i + 1 - interval)...i, kind: "checkpoint window")
            }
            if found != nil {
                found?.checkpoint = i + 1
                return found
            }
        }
    }
    return found
}

func replayed(_ events: ArraySlice<TimedEvent>, with engine: EngineBehaviour) -> TableState {
    var s = TableState()
    for e in events { _ = try? engine.apply(e, to: &s) }
    return s
}

@Suite("behaviour fingerprints: a build that behaves differently never trusts the log's checkpoints")
struct FingerprintTests {
    let events = Array(SyntheticSession(seed: 3, count: 3_000))
    let interval = 256

    func writeLog(_ path: String, engine: EngineBehaviour) throws {
        let w = try LogRewriter(path: path, engine: engine, checkpointInterval: interval, batchEvents: 100, putsOffLargeCheckpoints: false)
        for e in events { try w.append(e) }
        try w.close()
    }

    @Test("the behaviour fingerprint is the same on every computation and differs for a second engine")
    func fingerprints() {
        let again = BehaviourFingerprint.compute(with: .standard)
        #expect(again == BehaviourFingerprint.current)
        #expect(EngineBehaviour.standard.fingerprint == BehaviourFingerprint.current)
        #expect(tapsNeverDeselect.fingerprint != BehaviourFingerprint.current)
        // Its cost is the corpus's length (milliseconds in a release build; measured in
        // the README, not timed here): a few thousand events, never a long session.
        let corpusEvents = BehaviourFingerprint.corpus.reduce(0) { $0 + $1.reduce(0) { n, _ in n + 1 } }
        #expect(corpusEvents <= 5_000, "the fingerprint corpus has \(corpusEvents) events")
    }

    @Test("the test session really tells the two engines apart")
    func sessionDiverges() {
        var a = TableState(), b = TableState()
        var differ = 0
        for e in events {
            _ = try? EngineBehaviour.standard.apply(e, to: &a)
            _ = try? tapsNeverDeselect.apply(e, to: &b)
            if a.selection != b.selection { differ += 1 }
        }
        #expect(differ > 0)
    }

    @Test("a log another engine wrote: state(at:) is this build's replay from the start, never the checkpoints' hybrid")
    func untrustedCheckpoints() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("old-engine.slog").path
        try writeLog(path, engine: tapsNeverDeselect)
        let log = try LogReader(path: path)
        #expect(log.header.behaviour == tapsNeverDeselect.fingerprint)
        #expect(!log.checkpointsTrusted)
        #expect(log.records.contains { $0.header.kind == .checkpoint })
        for n in [0, 1, 255, 256, 257, 1_000, 2_048, 2_050, 2_999, 3_000] {
            #expect(try log.state(at: n) == replayed(events[..<n], with: .standard), "n \(n)")
        }
        // The same file read by the engine that wrote it trusts and uses its checkpoints.
        let same = try LogReader(path: path, engine: tapsNeverDeselect)
        #expect(same.checkpointsTrusted)
        for n in [256, 1_000, 3_000] {
            #expect(try same.state(at: n) == replayed(events[..<n], with: tapsNeverDeselect), "n \(n)")
        }
    }

    @Test("an app takes the notice itself: once for every reader, naming both fingerprints; never for a log it trusts")
    func noticeHandedToTheCaller() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let other = dir.appendingPathComponent("other.slog").path
        try writeLog(other, engine: tapsNeverDeselect)
        var notices: [String] = []
        let log = try LogReader(path: other) { notices.append($0) }
        #expect(!log.checkpointsTrusted)
        #expect(notices.count == 1)
        let notice = try #require(notices.first)
        #expect(notice.contains(TableState.hex(tapsNeverDeselect.fingerprint)))
        #expect(notice.contains(TableState.hex(BehaviourFingerprint.current)))
        #expect(notice.contains(other))
        // The stderr notice is said once per process; a caller's is told for each reader.
        _ = try LogReader(url: URL(fileURLWithPath: other)) { notices.append($0) }
        #expect(notices.count == 2)
        let same = dir.appendingPathComponent("same.slog").path
        try writeLog(same, engine: .standard)
        let trusted = try LogReader(path: same) { notices.append($0) }
        #expect(trusted.checkpointsTrusted)
        #expect(notices.count == 2)
    }

    @Test("check: the same build reports the same behaviour")
    func checkSame() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("same.slog").path
        try writeLog(path, engine: .standard)
        let report = try LogReader(path: path).check()
        #expect(report.isSame)
        #expect(report.events == events.count)
        #expect(report.gesturesCompared > 10)
        #expect(report.checkpointsCompared == events.count / interval)
    }

    @Test("check: a second engine finds the first gesture that differs and diffs the nearest checkpoint after it")
    func checkDiverged() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("standard.slog").path
        try writeLog(path, engine: .standard)
        let report = try LogReader(path: path, engine: tapsNeverDeselect).check()
        let expected = try #require(referenceDivergence(events, written: .standard, replayed: tapsNeverDeselect, interval: interval))
        let d = try #require(report.divergence)
        #expect(d.events == expected.events)
        #expect(d.kind == expected.kind)
        #expect(d.checkpoint == expected.checkpoint)
        let c = try #require(d.checkpoint)
        let recorded = replayed(events[..<c], with: .standard)
        let thisBuild = replayed(events[..<c], with: tapsNeverDeselect)
        #expect(d.changes == thisBuild.changes(since: recorded))
        #expect(d.changes.contains { $0.field == "selected" })
    }

    @Test("appending to a log another engine wrote is refused with a way out")
    func appendRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("other.slog").path
        try writeLog(path, engine: tapsNeverDeselect)
        #expect { try Recorder(appendingTo: path) } throws: { e in
            guard let e = e as? LogError else { return false }
            return e.code == .unsupported && e.message.contains("selectlog upgrade")
        }
    }
}

/// `Recorder.compact` records the copy with this build: it must not pass another
/// engine's log off as this build's (the 2026-12-05 afternoon audit).
@Suite("States this build rebuilds for another build's log: bounded, whatever its header says")
struct RebuiltCheckpointTests {
    @Test("a checkpoint interval of 1 in the header (forged, or recorded so): states kept 8,192 events apart at least, each the replay from the start")
    func intervalOfOne() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("k1.slog").path
        let events = Array(SyntheticSession(seed: 4, count: 30_000))
        try writeLog(events, to: path, as: tapsNeverDeselect)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.replaceSubrange(24..<28, with: [1, 0, 0, 0])
        Forge.setFileHeaderChecksum(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let log = try LogReader(path: path)
        #expect(log.header.checkpointInterval == 1)
        #expect(!log.checkpointsTrusted)
        var reference = TableState()
        var done = 0
        for n in [5, 9_000, 8_193, 29_999, 17_000, 30_000] {
            if n < done { reference = TableState(); done = 0 }
            for e in events[done..<n] { _ = try? EngineBehaviour.standard.apply(e, to: &reference) }
            done = n
            #expect(try log.state(at: n) == reference, "n \(n)")
        }
        let kept = log.rebuilt.positions
        #expect(!kept.isEmpty && kept.count <= 3, "\(kept)")
        #expect(kept.allSatisfy { $0 % RebuiltCheckpoints.leastInterval == 0 }, "\(kept)")
    }

    @Test("kept states' snapshots stay within the byte budget: every other one is let go, the latest kept")
    func byteBudget() throws {
        // A selection of every other row of 400,000: a snapshot of about a megabyte.
        var state = TableState()
        try state.apply(.configure({ var c = ConfigurationPatch(); c.allowsMultipleSelection = true; return c }()))
        try state.apply(.reload(sections: [SectionSpec(rows: 400_000, rowHeight: Points(10))]))
        for part in 0..<2 {
            try state.apply(.select(rows: stride(from: part * 200_000, to: (part + 1) * 200_000, by: 2).map { RowPath(0, $0) }))
        }
        let size = state.snapshot().count
        #expect(size > RebuiltCheckpoints.byteBudget / 8 && size < RebuiltCheckpoints.byteBudget, "\(size) bytes")
        let rebuilt = RebuiltCheckpoints()
        for _ in 0..<20 {
            try state.apply(.tick)
            rebuilt.keep(state)
            #expect(rebuilt.bytes <= RebuiltCheckpoints.byteBudget)
        }
        #expect(rebuilt.positions.count >= 2, "\(rebuilt.positions)")
        #expect(rebuilt.positions.last == 24, "the latest is kept: \(rebuilt.positions)")
    }
}

// `Recorder.compact` needs zstd: a build without it refuses every log (`.unsupported`,
// RangeCodedPayloadTests), so make test-nozstd skips the suite.
@Suite("Compacting keeps what the log recorded", .enabled(if: Zstd.isAvailable, "compact needs zstd; this build has none"))
struct CompactProvenanceTests {
    @Test("a log another engine wrote is refused (.diverged), nothing written; one this build replays as recorded compacts")
    func anotherEnginesLogIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Array(SyntheticSession(seed: 1, count: 3_000))
        let other = dir.appendingPathComponent("other.slog").path
        try writeLog(session, to: other, as: tapsNeverDeselect)
        let divergence = try #require(try LogReader(path: other).check().divergence)
        let destination = dir.appendingPathComponent("compacted.slog").path
        #expect { try Recorder.compact(other, into: destination) } throws: { e in
            guard let e = e as? LogError else { return false }
            return e.code == .diverged && e.message.contains("\(divergence.kind) of event")
        }
        #expect(!FileManager.default.fileExists(atPath: destination), "a refused compaction left a file")

        // The same events recorded by this build compact, with the same final state.
        let same = dir.appendingPathComponent("same.slog").path
        let v = try LogRewriter(path: same, checkpointInterval: 256, batchEvents: 100)
        for e in session { try v.append(e) }
        try v.close()
        let state = try Recorder.compact(same, into: destination)
        #expect(try state == replayed(session))
        #expect(try LogReader(path: destination).check().isSame)
    }

    @Test("a log of events with large lists compacts through the flushes that keep them from piling up: the same events, state and check")
    func heavyEventsCompact() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Editors of 30,000 options (about 60 KB of fields each) opened between taps and
        // pans: a flush every 17 or so, inside gestures too.
        var events: [TimedEvent] = [TimedEvent(.reload(sections: [SectionSpec(rows: 50, rowHeight: Points(44))]))]
        let options = (0..<30_000).map { String($0 % 100) }
        for (k, e) in SyntheticSession(seed: 6, count: 4_000).dropFirst(3).enumerated() {
            if k % 40 == 0 { events.append(TimedEvent(.toggleEditor(row: RowPath(0, k % 9), options: options, multiple: k % 80 == 0, chosen: [k % 30_000]))) }
            events.append(e)
        }
        var expected = TableState()
        events = events.filter { (try? expected.apply($0)) != nil }
        let source = dir.appendingPathComponent("heavy.slog").path
        let w = try LogRewriter(path: source, checkpointInterval: 512, batchEvents: 100)
        for e in events { try w.append(e) }
        try w.close()
        let total = events.reduce(0) { $0 + ($1.event.fieldBytes ?? 0) }
        #expect(total > 4 * Recorder.compactFlushWeight, "\(total) bytes of lists")
        let destination = dir.appendingPathComponent("compacted.slog").path
        let state = try Recorder.compact(source, into: destination)
        #expect(state == expected)
        let compacted = try LogReader(path: destination)
        #expect(try compacted.events() == events)
        #expect(try compacted.check().isSame)
    }

    @Test("a log whose checkpoint disagrees with its events (checksums fixed) is refused, not re-recorded into a clean-looking copy")
    func forgedCheckpointIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Array(SyntheticSession(seed: 1, count: 3_000))
        let path = dir.appendingPathComponent("forged.slog").path
        // A second engine's checkpoints and gesture fingerprints in a log whose file header
        // claims this build's behaviour fingerprint (its checksum fixed): what a forged or
        // buggy writer leaves. Readers trust its checkpoints.
        try writeLog(session, to: path, as: tapsNeverDeselect)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let current = BehaviourFingerprint.current
        for k in 0..<8 { bytes[28 + k] = UInt8(truncatingIfNeeded: current >> (8 * k)) }
        Forge.setFileHeaderChecksum(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let forged = try LogReader(path: path)
        #expect(forged.header.behaviour == current && forged.checkpointsTrusted)
        let divergence = try #require(try forged.check().divergence)
        let destination = dir.appendingPathComponent("compacted.slog").path
        // The error names the first event of the gesture that differs.
        #expect { try Recorder.compact(path, into: destination) } throws: {
            ($0 as? LogError)?.code == .diverged && ($0 as? LogError)?.eventIndex == divergence.events.lowerBound
        }
        #expect(!FileManager.default.fileExists(atPath: destination))
    }
}

extension CompactProvenanceTests {
    @Test("another engine's log with no gesture end and no checkpoint is refused too: nothing shows this build replays it as recorded")
    func noEvidenceIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Taps only (no gesture ends), fewer events than the checkpoint interval.
        var events = [TimedEvent(.viewport(width: Points(390), height: Points(600))),
                      TimedEvent(.reload(sections: [SectionSpec(rows: 30, rowHeight: Points(44))]))]
        for k in 0..<5 { events.append(TimedEvent(.tap(ViewportPoint(x: Points(100), y: Points(20 + 44 * k))), t: .milliseconds(10 * (k + 1)))) }
        let other = dir.appendingPathComponent("other.slog").path
        try writeLog(events, to: other, as: tapsNeverDeselect)
        let report = try LogReader(path: other).check()
        #expect(report.isSame && report.gesturesCompared == 0 && report.checkpointsCompared == 0, "\(report)")
        // Nothing diverged, but nothing was compared: the report says so rather than "same behaviour".
        #expect(report.comparedNothing)
        #expect(report.description.hasPrefix("nothing to compare: 7 events replayed"), "\(report)")
        let destination = dir.appendingPathComponent("c.slog").path
        #expect { try Recorder.compact(other, into: destination) } throws: { e in
            guard let e = e as? LogError else { return false }
            return e.code == .diverged && e.message.contains("another build recorded it") && e.eventIndex == nil
        }
        #expect(!FileManager.default.fileExists(atPath: destination))
        // The same events from this build compact.
        let same = dir.appendingPathComponent("same.slog").path
        let v = try LogRewriter(path: same, checkpointInterval: 256, batchEvents: 100)
        for e in events { try v.append(e) }
        try v.close()
        #expect(try Recorder.compact(same, into: destination).events == events.count)
    }
}

/// `check` names the gesture where two engines part ways; `inspect --why` and
/// `--history` name the gesture an event is part of. They named a two-finger pan
/// "multiSelect pan" and "multi-select pan": one vocabulary now (the README's).
@Suite("gesture names: check and inspect name a gesture alike")
struct GestureNameTests {
    @Test("the gesture an event begins is named in inspect's words",
          arguments: [("{\"type\": \"panBegan\", \"x\": 200, \"y\": 90, \"fingers\": 2, \"t\": 0}", "multi-select pan"),
                      ("{\"type\": \"panBegan\", \"x\": 30, \"y\": 90, \"t\": 0}", "strip pan"),
                      ("{\"type\": \"panBegan\", \"x\": 200, \"y\": 90, \"t\": 0}", "drag scroll")])
    func began(line: String, name: String) throws {
        var state = TableState()
        for setUp in ["{\"type\": \"configure\", \"multiSelectInteraction\": true, \"allowsMultipleSelectionDuringEditing\": true, \"allowsMultipleSelection\": true, \"scrollAndSelect\": {\"enabled\": true}}",
                      "{\"type\": \"viewport\", \"width\": 390, \"height\": 600}",
                      "{\"type\": \"reload\", \"sections\": [{\"rows\": 30, \"rowHeight\": 60}]}"] {
            try state.apply(try #require(try EventDecoder.decode(line: Array(setUp.utf8))))
        }
        let changes = try state.apply(try #require(try EventDecoder.decode(line: Array(line.utf8))))
        let kind = try #require(GestureBoundary.kind(began: changes))
        #expect(kind == name)
        #expect(kind == GestureBoundaries.name(try #require(state.pan.map { GestureBoundaries.kind(of: $0) })))
    }
}
