import Foundation
import SelectLog
import SelectLogStore
import Testing

/// `LogRepair.repair`: check and cut in one call, holding the log from the check to the cut.
@Suite("LogRepair.repair")
struct LogRepairTests {
    @Test("a log damaged in the middle is cut back to the events before the damage, the rest kept beside it")
    func damagedInTheMiddle() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("m.slog").path
        let events = Array(SyntheticSession(seed: 5, count: 3_000))
        _ = try writeLog(events, to: path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let original = bytes
        bytes[bytes.count * 2 / 3] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path))

        let outcome = try LogRepair.repair(path)
        let problem = try #require(outcome.report.problem)
        #expect(!problem.isTornTail)
        #expect(outcome.checkedWhileHeld)
        #expect(outcome.isIntact)
        let cut = try #require(outcome.cut)
        #expect(cut.keptBytes == outcome.report.intactBytes)
        #expect(cut.keptBytes + cut.savedBytes == bytes.count)
        #expect(outcome.report.intactEvents > 0 && outcome.report.intactEvents < events.count)
        // What is kept is the log as it was up to the damage; what was cut is beside it.
        let kept = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(kept == original.prefix(cut.keptBytes))
        #expect(try Data(contentsOf: URL(fileURLWithPath: cut.savedPath)) == bytes.suffix(from: cut.keptBytes))
        #expect(try LogReader.verify(path: path).isIntact)
        let reader = try LogReader(path: path)
        #expect(reader.eventCount == outcome.report.intactEvents)
        #expect(try reader.events() == Array(events.prefix(outcome.report.intactEvents)))
    }

    @Test("an intact log is left alone; a report checked before is used while the log keeps its size")
    func intactAndChecked() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("i.slog").path
        _ = try writeLog(Array(SyntheticSession(seed: 6, count: 500)), to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let outcome = try LogRepair.repair(path)
        #expect(outcome.report.isIntact && outcome.cut == nil && outcome.isIntact && outcome.checkedWhileHeld)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        // A torn tail, checked before the repair: the repair cuts where that check said.
        try (before + Data([0x01, 0x02, 0x03])).write(to: URL(fileURLWithPath: path))
        let checked = try LogReader.verify(path: path)
        #expect(checked.problem?.isTornTail == true)
        let repaired = try LogRepair.repair(path, checked: checked)
        #expect(!repaired.checkedWhileHeld)
        #expect(repaired.report == checked)
        let cut = try #require(repaired.cut)
        #expect(cut.keptBytes == before.count && cut.savedBytes == 3 && cut.savedPath == path + ".cut-\(before.count)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("the cut bytes keep the log's permissions: a 0600 log's tail is not left readable by others", arguments: [0o600, 0o640, 0o644])
    func cutKeepsTheLogsMode(mode: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("p.slog").path
        _ = try writeLog(Array(SyntheticSession(seed: 7, count: 200)), to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try (before + Data([0x01, 0x02, 0x03])).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        let cut = try #require(try LogRepair.repair(path).cut)
        let saved = try FileManager.default.attributesOfItem(atPath: cut.savedPath)[.posixPermissions] as? Int
        #expect(saved == mode, "the cut file's mode is \(String(saved ?? -1, radix: 8)), the log's \(String(mode, radix: 8))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cut.savedPath)) == Data([0x01, 0x02, 0x03]))
    }

    @Test("a report made before the log grew is not trusted: the log is checked again before anything is cut")
    func staleReportCheckedAgain() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        let events = Array(SyntheticSession(seed: 7, count: 400))
        _ = try writeLog(Array(events.prefix(200)), to: path)
        let intact = try Data(contentsOf: URL(fileURLWithPath: path))
        try (intact + Data([0x07])).write(to: URL(fileURLWithPath: path))
        let checked = try LogReader.verify(path: path)
        #expect(checked.problem != nil)
        // Meanwhile a recorder cut the torn byte and appended the rest of the session.
        let recorder = try Recorder(appendingTo: path)
        for e in events.dropFirst(200) { try recorder.append(e) }
        try recorder.close()
        let grown = try Data(contentsOf: URL(fileURLWithPath: path))

        let outcome = try LogRepair.repair(path, checked: checked)
        #expect(outcome.checkedWhileHeld)
        #expect(outcome.report.isIntact && outcome.cut == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == grown)
        #expect(try LogReader(path: path).eventCount == 400)
    }

    @Test("a file that is not a log, or is damaged in its header, is left exactly as it was")
    func nothingToKeep() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("notes.slog").path
        let words = Data(String(repeating: "not a log at all\n", count: 10).utf8)
        try words.write(to: URL(fileURLWithPath: text))
        let notALog = try LogRepair.repair(text)
        #expect(notALog.report.problem?.isNotALog == true)
        #expect(notALog.cut == nil && !notALog.isIntact)
        #expect(try Data(contentsOf: URL(fileURLWithPath: text)) == words)

        let path = dir.appendingPathComponent("h.slog").path
        _ = try writeLog(Array(SyntheticSession(seed: 8, count: 100)), to: path)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[12] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        let header = try LogRepair.repair(path)
        #expect(header.report.problem?.offset == 0)
        #expect(header.cut == nil && !header.isIntact)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["h.slog", "notes.slog"])
    }

    @Test("a log a recorder in this process has open is refused, not checked or cut")
    func openByARecorder() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("o.slog").path
        let recorder = try Recorder(creating: path)
        try recorder.append(.reload(sections: [SectionSpec(rows: 10)]))
        try recorder.flush()
        let refused = #expect(throws: LogError.self) { _ = try LogRepair.repair(path) }
        #expect(refused?.code == .inUse)
        try recorder.append(.tap(ViewportPoint(x: 10, y: 10)))
        try recorder.close()
        #expect(try LogReader(path: path).eventCount == 2)
    }
}

/// docs/INTEGRATION.md's snippet, exactly as written there (an earlier form, with
/// `catch let error as LogError where …` and a `try` in its body, crashed the compiler).
func resumedRecorder(at url: URL, orElse newSessionURL: URL) throws -> Recorder {
    do {
        return try Recorder(appendingTo: url)
    } catch {
        switch error.code {
        case .io where error.errnoCode == ENOENT:
            // The first start: no log yet.
            return try Recorder(creating: url)
        case .damaged:
            // Keep what is intact, then continue after it.
            if try LogRepair.repair(url, replaying: true).isIntact { return try Recorder(appendingTo: url) }
            return try Recorder(creating: newSessionURL)   // nothing to keep
        case .unsupported:
            // Another build's log, kept as it is for that build or `selectlog upgrade`.
            return try Recorder(creating: newSessionURL)
        default:
            throw error
        }
    }
}

extension LogRepairTests {
    /// An app update that changes the engine refuses the last session's log: the snippet
    /// threw it on every launch before it started a new session for it (a docs audit,
    /// 2026-12-07).
    @Test("INTEGRATION.md's flow: another engine's log is left as it is and a new session starts")
    func otherEngineStartsOver() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("old.slog")
        try writeLog(SyntheticSession(seed: 9, count: 500), to: url.path, as: tapsNeverDeselect)
        let before = try Data(contentsOf: url)
        #expect(throws: LogError.self) { _ = try Recorder(appendingTo: url) }
        let fresh = dir.appendingPathComponent("new.slog")
        let recorder = try resumedRecorder(at: url, orElse: fresh)
        #expect(recorder.eventCount == 0)
        try recorder.append(.tick)
        try recorder.close()
        #expect(try Data(contentsOf: url) == before)
        #expect(try LogReader(url: fresh).eventCount == 1)
    }

    /// The snippet threw `.io` (no such file) on an app's first start (an embedding
    /// review, 2026-12-07).
    @Test("INTEGRATION.md's flow: on the first start, with no log yet, the log is created")
    func firstStartCreates() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("session.slog")
        let recorder = try resumedRecorder(at: url, orElse: dir.appendingPathComponent("new.slog"))
        try recorder.append(.tick)
        try recorder.close()
        #expect(try LogReader(url: url).eventCount == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["session.slog"])
        // Any other failure to open is the caller's: a file where a directory should be.
        let file = dir.appendingPathComponent("session.slog").path
        let refused = #expect(throws: LogError.self) {
            _ = try resumedRecorder(at: URL(fileURLWithPath: file + "/s.slog"), orElse: dir.appendingPathComponent("new.slog"))
        }
        #expect(refused?.code == .io && refused?.errnoCode == ENOTDIR, "\(String(describing: refused))")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("new.slog").path))
    }

    @Test("INTEGRATION.md's flow: a damaged log that Recorder(appendingTo:) refuses is repaired and continued")
    func repairThenContinue() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("c.slog")
        let events = Array(SyntheticSession(seed: 9, count: 2_000))
        _ = try writeLog(events, to: url.path)
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count / 2] ^= 0x21
        try bytes.write(to: url)

        let refused = #expect(throws: LogError.self) { _ = try Recorder(appendingTo: url) }
        #expect(refused?.code == .damaged, "\(String(describing: refused))")
        #expect(refused?.message.contains("LogRepair.repair") == true, "\(String(describing: refused))")
        let after = try Data(contentsOf: url)
        #expect(after == bytes, "\(after.count) bytes, not \(bytes.count)")

        let checked = try LogReader.verify(path: url.path)
        let kept = checked.intactEvents
        let recorder = try resumedRecorder(at: url, orElse: dir.appendingPathComponent("new.slog"))
        #expect(recorder.eventCount == kept)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["c.slog", "c.slog.cut-\(checked.intactBytes)"])
        if recorder.state.pan != nil { try recorder.append(.panCancelled) }
        try recorder.append(.tick)
        try recorder.close()
        let reader = try LogReader(path: url.path)
        let read = try reader.events()
        #expect(Array(read.prefix(kept)) == Array(events.prefix(kept)))
        #expect(read.last?.event == .tick)
        #expect(try LogReader.verify(path: url.path).isIntact)
    }
}
