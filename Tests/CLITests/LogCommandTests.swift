import Foundation
@testable import SelectLog
import SelectLogStore
import Testing

@Suite("selectlog record, replay LOG, export, verify")
struct LogCommandTests {
    @Test("record then replay LOG gives the script's hash; export then record gives it again")
    func recordReplayExport() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["strip-pan-autoscroll", "row-edits-follow-selection", "editor-row", "section-index-and-images"] {
            let script = "Examples/\(name).jsonl"
            let log = dir.appendingPathComponent("\(name).slog").path
            let r = try CLI.run(["record", script, "-o", log])
            #expect(r.status == 0, "\(r.stderr)")
            let fromScript = try CLI.run(["replay", script, "--json"])
            let fromLog = try CLI.run(["replay", log, "--json"])
            #expect(fromLog.status == 0)
            #expect(fromLog.stdout == fromScript.stdout, "\(name)")
            let exported = try CLI.run(["export", log])
            #expect(exported.status == 0)
            let again = try CLI.write(exported.stdout, to: "\(name).exported.jsonl", in: dir)
            let log2 = dir.appendingPathComponent("\(name).2.slog").path
            #expect(try CLI.run(["record", again, "-o", log2]).status == 0)
            #expect(try CLI.run(["replay", log2, "--json"]).stdout == fromScript.stdout)
            #expect(try CLI.run(["replay", log, "--at", "3", "--json"]).stdout == CLI.run(["replay", script, "--at", "3", "--json"]).stdout)
        }
    }

    @Test("record stops at an invalid event, keeps the valid log before it, names the line, exits 65")
    func recordInvalid() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 5}]}
            {"type": "tap", "x": 5, "y": 5}
            {"type": "tap", "x": 5, "y": 50, "t": 10}
            {"type": "tap", "x": 5, "y": 90, "t": 5}
            {"type": "tap", "x": 5, "y": 130}
            """, to: "bad.jsonl", in: dir)
        let log = dir.appendingPathComponent("bad.slog").path
        let r = try CLI.run(["record", script, "-o", log])
        #expect(r.status == 65)
        #expect(r.stderr.contains("line 5: tap: t 5 ms is earlier than the previous event's t 10 ms"))
        let reader = try LogReader(path: log)
        #expect(reader.eventCount == 4)
        #expect(try CLI.run(["verify", log]).status == 0)
        let state = try CLI.run(["replay", log, "--json"])
        #expect(state.stdout.contains(#""selected": [[0, 0], [0, 1]]"#))
    }

    @Test("verify: exit 0 when intact; else the first bad offset and the intact count, exit 1; --repair keeps the cut bytes")
    func verifyAndRepair() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "3000", "-o", log, "--batch-events", "100", "--durability", "none"]).status == 0)
        let ok = try CLI.run(["verify", log])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("intact: 3000 events"))
        // Damage a byte in the middle.
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        let reader = try LogReader(path: log)
        let victim = try #require(reader.records.filter { $0.header.kind == .batch }.dropFirst(5).first)
        bytes[victim.offset + 60] ^= 0x04
        try Data(bytes).write(to: URL(fileURLWithPath: log))
        let bad = try CLI.run(["verify", log])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("damaged at byte offset \(victim.offset): record payload checksum mismatch; \(victim.header.firstEvent) intact events"))
        // The way on, as other commands' reports of damage give it.
        #expect(bad.stderr.contains("`selectlog verify --repair \(log)` keeps the intact part"), "\(bad.stderr)")
        #expect(try CLI.run(["verify", log, "--deep"]).stderr.contains("`selectlog verify --deep --repair \(log)`"))
        let replay = try CLI.run(["replay", log])
        #expect(replay.status == 65)
        #expect(replay.stderr.contains("byte offset \(victim.offset)"))
        let repaired = try CLI.run(["verify", log, "--repair"])
        #expect(repaired.status == 0)
        let cutPath = "\(log).cut-\(victim.offset)"
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: cutPath))) == Array(bytes[victim.offset...]))
        let after = try CLI.run(["verify", log])
        #expect(after.status == 0)
        #expect(after.stdout.contains("intact: \(victim.header.firstEvent) events"))
    }

    @Test("verify notes a log that ends at a record boundary without its seek index (still recorded, or cut there); a closed log gets no note")
    func verifyNotesAMissingIndex() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("closed.slog").path
        #expect(try CLI.run(["synthesize", "--events", "3000", "-o", path, "--batch-events", "100"]).status == 0)
        let closed = try CLI.run(["verify", path])
        #expect(closed.status == 0 && closed.stderr.isEmpty, "\(closed.stderr)")
        let index = try #require(try LogReader(path: path).records.last { $0.header.kind == .index })
        let cut = dir.appendingPathComponent("cut.slog").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(index.offset)).write(to: URL(fileURLWithPath: cut))
        let r = try CLI.run(["verify", cut])
        #expect(r.status == 0 && r.stdout.contains("intact: 3000 events"), "\(r.stdout)")
        #expect(r.stderr.contains("\(cut): no seek index at its end: the log was not closed"), "\(r.stderr)")
    }

    @Test("a torn log replays its complete events with a note on stderr")
    func tornReplay() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["record", "Examples/strip-pan-autoscroll.jsonl", "-o", log, "--batch-events", "3"]).status == 0)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        let reader = try LogReader(path: log)
        let lastBatch = try #require(reader.records.last { $0.header.kind == .batch })
        try Data(bytes[..<(lastBatch.end - 1)]).write(to: URL(fileURLWithPath: log))
        let r = try CLI.run(["replay", log, "--json"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("torn tail at byte offset \(lastBatch.offset)"))
        #expect(r.stdout.contains(#""events": \#(lastBatch.header.firstEvent)"#))
        #expect(try CLI.run(["verify", log]).status == 1)
        // check says so too, and checks the complete events.
        let checked = try CLI.run(["check", log])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stderr.contains("note: ignoring a torn tail at byte offset \(lastBatch.offset)"), "\(checked.stderr)")
        #expect(checked.stdout.contains("same behaviour: \(lastBatch.header.firstEvent) events replayed"), "\(checked.stdout)")
    }

    @Test("damage after the last event (a checkpoint's payload) names no event past the last")
    func damageAfterTheLastEvent() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try OutputSafetyTests.log(in: dir)
        let reader = try LogReader(path: log)
        let last = try #require(reader.records.last { $0.header.kind == .checkpoint })
        try #require(last.header.firstEvent == reader.eventCount && reader.eventCount == 12)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        bytes[last.end - 1] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: log))
        let r = try CLI.run(["replay", log])
        #expect(r.stderr.contains("byte offset \(last.offset): record payload checksum mismatch in the checkpoint after the last event (12 intact events before it: every event is intact)"), "\(r.stderr)")
        #expect(!r.stderr.contains("event 13"), "\(r.stderr)")
        // check --json says so on stdout too (exit 65: not "diverged").
        let checked = try CLI.run(["check", log, "--json"])
        #expect(checked.status == 65, "\(checked.stderr)")
        #expect(checked.stdout.contains(#""same": null, "error": {"kind": "damaged", "cause": "damaged", "offset": \#(last.offset), "event": null, "message": "record payload checksum mismatch"#),
                "\(checked.stdout)")
        #expect(checked.stdout.hasSuffix(#", "tornTail": null}"# + "\n"), "every check --json has the key: \(checked.stdout)")
    }

    @Test("check --json of a log with a torn tail says where the events it checked stop (tornTail), and null when there is none")
    func checkJSONTornTail() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try OutputSafetyTests.log(in: dir)
        let whole = try CLI.run(["check", log, "--json"])
        #expect(whole.status == 0)
        #expect(whole.stdout.contains(#""tornTail": null"#), "\(whole.stdout)")
        let size = try Data(contentsOf: URL(fileURLWithPath: log)).count
        try (try Data(contentsOf: URL(fileURLWithPath: log)) + Data([7, 7, 7])).write(to: URL(fileURLWithPath: log))
        let torn = try CLI.run(["check", log, "--json"])
        #expect(torn.status == 0, "\(torn.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(torn.stdout.utf8)) as? [String: Any])
        #expect(object["same"] as? Bool == true)
        let tail = try #require(object["tornTail"] as? [String: Any], "\(torn.stdout)")
        #expect(tail["offset"] as? Int == size)
        #expect((tail["reason"] as? String)?.isEmpty == false)
    }

    @Test("a file that is neither a script nor a log is invalid input")
    func notALog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let junk = try CLI.write("SELECTLG but not really a log header at all.........", to: "junk.slog", in: dir)
        #expect(try CLI.run(["replay", junk]).status == 65)
        #expect(try CLI.run(["verify", junk]).status == 1)
        #expect(try CLI.run(["export", "/nonexistent.slog"]).status == 74)
    }

    @Test("verify --repair can be run again after a failed attempt left an empty or partial .cut file")
    func repairRetry() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "2000", "-o", log, "--batch-events", "100", "--durability", "none"]).status == 0)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        let victim = try #require(try LogReader(path: log).records.filter { $0.header.kind == .batch }.dropFirst(3).first)
        bytes[victim.offset + 60] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: log))
        let cutPath = "\(log).cut-\(victim.offset)"
        // What a repair that failed on a full disk used to leave behind.
        try Data().write(to: URL(fileURLWithPath: cutPath))
        let repaired = try CLI.run(["verify", log, "--repair"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: cutPath))) == Array(bytes[victim.offset...]))
        #expect(!FileManager.default.fileExists(atPath: cutPath + ".partial"))
        #expect(try CLI.run(["verify", log, "--deep"]).status == 0)
    }

    @Test("verify --deep replays the log and confirms every checkpoint and gesture fingerprint")
    func verifyDeep() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "3000", "-o", log, "--checkpoint-interval", "500", "--durability", "none"]).status == 0)
        let r = try CLI.run(["verify", log, "--deep"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("intact: 3000 events") && r.stdout.contains("6 checkpoints and "), "\(r.stdout)")
        let check = try CLI.run(["check", log, "--json"])
        let gestures = try #require((try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])?["gesturesCompared"] as? Int)
        #expect(gestures > 1 && r.stdout.contains("6 checkpoints and \(gestures) gestures confirmed by replay"), "\(r.stdout)")
    }

    /// Writes `events` (default: the standard session's first 3,000) to `path` as a build
    /// with `tapsNeverDeselect` records them: checkpoints every 256 events, batches of 100.
    static func writeOtherEngineLog(_ path: String, _ events: some Sequence<TimedEvent> = SyntheticSession(seed: 1, count: 3000)) throws {
        let w = try LogRewriter(path: path, engine: tapsNeverDeselect, checkpointInterval: 256, batchEvents: 100)
        for e in events { try w.append(e) }
        try w.close()
    }

    /// A second engine: a tap on a selected row leaves it selected.
    static let tapsNeverDeselect = EngineBehaviour(name: "taps never deselect") { (state: inout TableState, e: TimedEvent) throws(InvalidEvent) in
        var kept: RowPath?
        if case .tap(let p) = e.event, let row = state.row(at: p), state.selection.contains(row) { kept = row }
        let changes = try state.apply(e)
        if let kept { state.selection.insert(kept) }
        return changes
    }

    @Test("check of a log whose fingerprint differs but whose states match: no notice to run check, and upgrade named as the way to trust its checkpoints")
    func checkPointsToUpgrade() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try CLI.logWithOtherFingerprint(in: dir)

        let replayed = try CLI.run(["replay", log])
        #expect(replayed.stderr.contains("replaying from the start instead of using its checkpoints"), "\(replayed.stderr)")
        let checked = try CLI.run(["check", log])
        #expect(checked.status == 0)
        #expect(!checked.stderr.contains("selectlog check"), "\(checked.stderr)")
        #expect(checked.stdout.contains("same behaviour: 3000 events replayed"), "\(checked.stdout)")
        #expect(checked.stdout.contains("`selectlog upgrade \(log)` re-records it with this build"), "\(checked.stdout)")
        #expect(try CLI.run(["upgrade", log]).status == 0)
        let after = try CLI.run(["replay", log])
        #expect(after.status == 0 && after.stderr.isEmpty, "\(after.stderr)")
        #expect(!(try CLI.run(["check", log]).stdout.contains("selectlog upgrade")))
    }

    @Test("check: exit 0 for the same engine; exit 1 with the first diverging gesture and a checkpoint diff for another; --json")
    func check() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let same = dir.appendingPathComponent("same.slog").path
        #expect(try CLI.run(["synthesize", "--events", "3000", "-o", same, "--checkpoint-interval", "256", "--durability", "none"]).status == 0)
        let ok = try CLI.run(["check", same])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("same behaviour: 3000 events replayed"), "\(ok.stdout)")
        #expect(try CLI.run(["check", same, "--json"]).stdout.contains(#""same": true"#))

        // The log a build with another engine would have written.
        let other = dir.appendingPathComponent("other.slog").path
        try LogCommandTests.writeOtherEngineLog(other)
        let expected = try #require(try LogReader(path: other).check().divergence)
        let text = try CLI.run(["check", other])
        #expect(text.status == 1)
        #expect(text.stdout.contains("diverged at the \(expected.kind) of events \(expected.events.lowerBound + 1)-\(expected.events.upperBound + 1)"), "\(text.stdout)")
        #expect(text.stdout.contains("at the checkpoint after \(expected.checkpoint ?? -1) events (recorded -> this build):"))
        #expect(text.stdout.contains("  selected "))
        let json = try CLI.run(["check", other, "--json"])
        #expect(json.status == 1)
        #expect(json.stdout.contains(#""same": false"#) && json.stdout.contains(#""first": \#(expected.events.lowerBound + 1), "last": \#(expected.events.upperBound + 1)"#), "\(json.stdout)")
    }

    @Test("a log another engine wrote replays from the start with one notice on stderr; upgrade re-records it")
    func otherEngineAndUpgrade() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let other = dir.appendingPathComponent("other.slog").path
        try LogCommandTests.writeOtherEngineLog(other)
        let exported = try CLI.run(["export", other])
        let script = try CLI.write(exported.stdout, to: "session.jsonl", in: dir)
        for n in ["1000", "2900"] {
            let fromLog = try CLI.run(["replay", other, "--at", n, "--json"])
            #expect(fromLog.status == 0)
            #expect(fromLog.stdout == (try CLI.run(["replay", script, "--at", n, "--json"])).stdout, "--at \(n)")
            #expect(fromLog.stderr.components(separatedBy: "replaying from the start instead of using its checkpoints").count == 2, "\(fromLog.stderr)")
        }
        let up = try CLI.run(["upgrade", other])
        #expect(up.status == 0, "\(up.stderr)")
        #expect(try CLI.run(["check", other]).status == 0)
        let after = try CLI.run(["replay", other, "--at", "2900", "--json"])
        #expect(after.stderr.isEmpty)
        #expect(after.stdout == (try CLI.run(["replay", script, "--at", "2900", "--json"])).stdout)
        #expect(try CLI.run(["export", other]).stdout == exported.stdout)
    }
}
