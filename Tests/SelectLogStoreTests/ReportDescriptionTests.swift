import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// The reports' descriptions (`print(report)`, a log message, the debugger): the facts in
/// the words `selectlog` uses, events numbered from 1, fingerprints as 16 hex digits.
@Suite("report descriptions: what print(report) says")
struct ReportDescriptionTests {
    /// Sixteen lowercase hex digits, as the command line writes a fingerprint.
    func hex(_ v: UInt64) -> String { String(format: "%016llx", v) }

    func fileSize(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    /// A byte in the middle of the log at `path` flipped: a checksum no longer holds.
    func damage(_ path: String, at fraction: Double = 2.0 / 3.0) throws -> Int {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let at = Int(Double(bytes.count) * fraction)
        bytes[at] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path))
        return at
    }

    @Test("an intact log: its events, records and bytes, and the checkpoints a replay confirmed; counts singular and plural")
    func verifiedIntact() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("intact.slog").path
        try writeLog(Array(SyntheticSession(seed: 21, count: 500)), to: path, options: smallBatches())
        let report = try LogReader.verify(path: path, replaying: true)
        #expect(report.isIntact && report.checkpointsReplayed == 500 / 40)
        let size = try fileSize(path)
        let gestures = try LogReader(path: path).check().gesturesCompared
        #expect(gestures > 1 && report.gesturesReplayed == gestures)
        #expect(report.description == "intact: 500 events in \(report.records) records, \(size) bytes, 12 checkpoints and \(gestures) gestures confirmed by replay")
        #expect("\(report)" == report.description)

        // One event, no checkpoint, and a log still being recorded (no seek index): a note.
        let one = dir.appendingPathComponent("one.slog").path
        try writeLog([TimedEvent(.reload(sections: [SectionSpec(rows: 3)]))], to: one)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: one))
        let unindexed = try #require(try LogReader(path: one).records.first { $0.header.kind == .index })
        bytes = bytes.prefix(unindexed.offset)
        try bytes.write(to: URL(fileURLWithPath: one))
        let short = try LogReader.verify(path: one)
        let lines = short.description.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(short)")
        #expect(lines.first == "intact: 1 event in 1 record, \(bytes.count) bytes")
        #expect(lines.last?.hasPrefix("note: no seek index at its end: the log was not closed") == true)
    }

    @Test("a damaged log: the byte offset of the damage and the events before it; a torn tail says so")
    func verifiedDamaged() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("damaged.slog").path
        let events = Array(SyntheticSession(seed: 22, count: 3_000))
        try writeLog(events, to: path)
        let flipped = try damage(path)
        let report = try LogReader.verify(path: path)
        let problem = try #require(report.problem)
        #expect(problem.offset > 0 && problem.offset <= flipped)
        #expect(report.intactEvents > 0 && report.intactEvents < events.count)
        #expect(report.description == "damaged at byte offset \(problem.offset): \(problem.reason); \(report.intactEvents) intact events")
        #expect(!report.description.contains("Optional"))

        // Three stray bytes after a closed log: a torn tail where the log ended.
        let torn = dir.appendingPathComponent("torn.slog").path
        try writeLog(Array(events.prefix(200)), to: torn)
        let end = try fileSize(torn)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: torn))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))
        try handle.close()
        let tail = try LogReader.verify(path: torn)
        #expect(tail.description.hasPrefix("torn tail at byte offset \(end): "), "\(tail)")
        #expect(tail.description.hasSuffix("; 200 intact events"), "\(tail)")
    }

    @Test("check, same behaviour: the counts compared and both fingerprints as 16 hex digits")
    func checkSame() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("same.slog").path
        try writeLog(Array(SyntheticSession(seed: 23, count: 3_000)), to: path, as: .standard)
        let log = try LogReader(path: path)
        let checkpoints = log.records.filter { $0.header.kind == .checkpoint }.count
        let report = try log.check()
        #expect(report.isSame && checkpoints > 1)
        let fingerprint = hex(BehaviourFingerprint.current)
        #expect(report.description == "same behaviour: 3000 events replayed; \(report.gesturesCompared) gestures and \(checkpoints) checkpoints as recorded; "
                + "behaviour fingerprint: recorded \(fingerprint), this build \(fingerprint)")
        #expect(!report.description.contains(String(BehaviourFingerprint.current)), "the fingerprint in decimal")

        // Recorded by another engine: the same states, but its checkpoints are not used.
        let other = dir.appendingPathComponent("other.slog").path
        try writeLog(SyntheticSession(seed: 23, count: 20), to: other, as: tapsNeverDeselect)
        let untrusted = try LogReader(path: other).check()
        #expect(untrusted.description.contains("behaviour fingerprint: recorded \(hex(tapsNeverDeselect.fingerprint)), this build \(fingerprint)"))
        // Its first 20 events deselect nothing by a tap: this build replays them the same.
        #expect(untrusted.isSame, "\(untrusted)")
        #expect(untrusted.description.contains("behaviour fingerprint: recorded \(hex(tapsNeverDeselect.fingerprint)), this build \(fingerprint) (they differ"))
    }

    @Test("check of a version 1 log: its fingerprint is none")
    func checkVersion1() throws {
        let events = Array(SyntheticSession(seed: 5, count: 12))
        var f = Forge(version: 1)
        f.batch(events, first: 0, baseTime: 0)
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("v1.slog").path
        try f.write(to: path)
        let report = try LogReader(path: path).check()
        #expect(report.recordedBehaviour == nil)
        // No gesture end in its 12 events, and no build named: nothing to compare.
        #expect(report.description.hasPrefix("nothing to compare: 12 events replayed; "), "\(report)")
        #expect(report.description.contains("it is a version 1 log, which names no build"), "\(report)")
        #expect(report.description.contains("behaviour fingerprint: recorded none, this build \(hex(BehaviourFingerprint.current))"), "\(report)")
    }

    @Test("check, diverged: the gesture's events numbered from 1, both fingerprints, and the checkpoint's fields a line each")
    func checkDiverged() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("standard.slog").path
        try writeLog(Array(SyntheticSession(seed: 3, count: 3_000)), to: path, as: .standard)
        let report = try LogReader(path: path, engine: tapsNeverDeselect).check()
        let d = try #require(report.divergence)
        let c = try #require(d.checkpoint)
        let first = d.events.lowerBound + 1, last = d.events.upperBound + 1
        let span = first == last ? "event \(first)" : "events \(first)-\(last)"
        let lines = report.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "diverged at the \(d.kind) of \(span): \(d.reason)")
        #expect(lines.dropFirst().first == "behaviour fingerprint: recorded \(hex(BehaviourFingerprint.current)), this build \(hex(tapsNeverDeselect.fingerprint))")
        #expect(lines.contains("at the checkpoint after \(c) events (recorded -> this build):"))
        #expect(lines.contains { $0.hasPrefix("  selected ") && ($0.contains("+0:") || $0.contains("-0:")) }, "\(report)")
        #expect(lines.suffix(d.changes.count) == d.changes.map { "  \($0)" }[...])
        // The divergence alone: the same, without the fingerprints.
        #expect(d.description == ([String(lines[0].dropFirst("diverged at the ".count))] + lines.suffix(d.changes.count + 1)).joined(separator: "\n"))

        // One event, and no checkpoint after it.
        let rejected = CheckReport.Divergence(events: 4...4, kind: "select", reason: "this build rejects the event: no such row")
        #expect(rejected.description == "select of event 5: this build rejects the event: no such row\nno recorded checkpoint after the divergence")
    }

    @Test("a repair that cut: the verdict, then what was kept (bytes and events) and where the cut bytes are")
    func repairWithCut() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("m.slog").path
        try writeLog(Array(SyntheticSession(seed: 24, count: 3_000)), to: path)
        let size = try fileSize(path)
        _ = try damage(path)
        let outcome = try LogRepair.repair(path)
        let cut = try #require(outcome.cut)
        let problem = try #require(outcome.report.problem)
        #expect(cut.savedPath == path + ".cut-\(problem.offset)")
        #expect(cut.keptBytes == problem.offset && cut.keptBytes + cut.savedBytes == size)
        #expect(cut.description == "kept \(problem.offset) bytes; saved \(size - problem.offset) cut bytes in \(path).cut-\(problem.offset)")
        #expect(outcome.description == """
            damaged at byte offset \(problem.offset): \(problem.reason); \(outcome.report.intactEvents) intact events
            repaired: kept \(problem.offset) bytes (\(outcome.report.intactEvents) events); saved \(size - problem.offset) cut bytes in \(cut.savedPath)
            """)

        // One stray byte: "1 cut byte". Then the log is intact, and nothing is cut.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([7]))
        try handle.close()
        let tail = try #require(try LogRepair.repair(path).cut)
        // (The first cut's bytes have the first name: these take the next.)
        #expect(tail.description == "kept \(problem.offset) bytes; saved 1 cut byte in \(path).cut-\(problem.offset)-2")
        let intact = try LogRepair.repair(path)
        #expect(intact.description.hasPrefix("intact: \(outcome.report.intactEvents) events in "))
        #expect(intact.description.hasSuffix("\nnothing to cut"))
    }

    @Test("a repair that keeps nothing says why: not a log, or written by a newer selectlog")
    func repairWithoutCut() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("notes.slog").path
        try Data(String(repeating: "not a log at all\n", count: 10).utf8).write(to: URL(fileURLWithPath: text))
        let notALog = try LogRepair.repair(text)
        // Bytes that were never a log are not called damage.
        #expect(notALog.description == "not a selectlog log (bad magic)\ncannot repair: it is not a selectlog log", "\(notALog)")

        let events = Array(SyntheticSession(seed: 5, count: 12))
        var f = Forge()
        f.batch(Array(events[0..<3]), first: 0, baseTime: 0)
        let newerAt = f.record("B", [EventTag.redo.rawValue + 5, 0], events: 1, first: 3, baseTime: events[2].t?.raw ?? 0)
        f.index()
        let newer = dir.appendingPathComponent("newer.slog").path
        try f.write(to: newer)
        let outcome = try LogRepair.repair(newer, replaying: true)
        let lines = outcome.description.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("cannot be checked past byte offset \(newerAt): ") == true, "\(outcome)")
        #expect(lines.first?.hasSuffix("; 3 intact events before it") == true, "\(outcome)")
        #expect(lines.last == "not repaired: a newer selectlog wrote what this build cannot read, so it is no damage to cut")
    }

    @Test("a summary: events and their times, records and sizes, gestures, and the types most frequent first")
    func summary() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        let events = Array(SyntheticSession(seed: 25, count: 3_000))
        try writeLog(events, to: path, options: smallBatches())
        let summary = try LogReader(path: path).summary()
        let times = events.compactMap(\.t)
        let first = try #require(times.first), last = try #require(times.last)
        let ms = Int((last.raw - first.raw) / 1000)
        let length = "\(ms / 60_000):" + String(format: "%02ld.%03ld", (ms / 1000) % 60, ms % 1000)
        var counts: [String: Int] = [:]
        for e in events { counts[e.event.typeName, default: 0] += 1 }
        let top = try #require(counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key })
        let lines = summary.description.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(summary)")
        #expect(lines.first == "3000 events, t \(first) ms to \(last) ms (\(length))")
        #expect(lines.dropFirst().first?.hasPrefix("\(summary.batches) batches, 75 checkpoints; batches \(summary.rawBytes) -> \(summary.storedBytes) bytes compressed (") == true,
                "\(summary)")
        #expect(lines.dropFirst(2).first == "\(counts["panBegan", default: 0]) pans, \(counts["tap", default: 0]) taps, \(counts["swipeBegan", default: 0]) swipes")
        #expect(lines.last?.hasPrefix("types: \(top.key) \(top.value), ") == true, "\(summary)")

        // No event at all, and events without times.
        let empty = dir.appendingPathComponent("empty.slog").path
        try writeLog([], to: empty)
        #expect(try LogReader(path: empty).summary().description == "0 events\n0 batches, 0 checkpoints\n0 pans, 0 taps, 0 swipes")
        let untimed = dir.appendingPathComponent("untimed.slog").path
        try writeLog([TimedEvent(.reload(sections: [SectionSpec(rows: 3)])), TimedEvent(.tick)], to: untimed)
        let two = try LogReader(path: untimed).summary()
        #expect(two.description.hasPrefix("2 events, no times\n1 batch, 0 checkpoints; "), "\(two)")
        #expect(two.description.hasSuffix("\ntypes: reload 1, tick 1"), "\(two)")
    }

    @Test("a repair of a log whose magic alone is damaged writes the magic again and says what was there; other header damage is left as it is")
    func repairOfTheMagic() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("m.slog").path
        try writeLog(Array(SyntheticSession(seed: 26, count: 500)), to: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        var damaged = original
        damaged.replaceSubrange(0..<4, with: [0, 0, 0, 0])
        try damaged.write(to: URL(fileURLWithPath: path))
        #expect(damaged.withUnsafeBytes(FileHeader.onlyMagicDamaged))
        #expect { try LogReader(path: path) } throws: { e in
            (e as? LogError).map { $0.code == .damaged && $0.offset == 0 && $0.message == FileHeader.damagedMagic } ?? false
        }
        let found = try LogReader.verify(path: path)
        #expect(found.problem?.isDamagedMagic == true && found.problem?.isNotALog == false)

        let outcome = try LogRepair.repair(path, checked: found)
        #expect(outcome.restoredMagic == [0, 0, 0, 0] + Array("CTLG".utf8))
        #expect(outcome.isIntact && outcome.cut == nil && outcome.report.problem == nil && outcome.checkedWhileHeld)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(outcome.description.split(separator: "\n").dropFirst().first == "repaired: wrote its magic \"SELECTLG\" again over bytes 0-7, which read 00 00 00 00 43 54 4C 47")

        // The checksum covers the magic: with another header byte damaged too, nothing is written.
        damaged[24] ^= 1
        try damaged.write(to: URL(fileURLWithPath: path))
        #expect(!damaged.withUnsafeBytes(FileHeader.onlyMagicDamaged))
        let refused = try LogRepair.repair(path)
        #expect(refused.restoredMagic == nil && !refused.isIntact && refused.report.problem?.isNotALog == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
    }

    @Test("a span of time as the reports write it: m:ss.mmm, h:mm:ss.mmm from an hour, never a trap on a negative span")
    func durations() {
        #expect(ReportText.duration(0) == "0:00.000")
        #expect(ReportText.duration(2_200_000) == "0:02.200")
        #expect(ReportText.duration(3_599_999_999) == "59:59.999")
        #expect(ReportText.duration(3_600_000_000) == "1:00:00.000")
        #expect(ReportText.duration(14_690_580_000) == "4:04:50.580")
        #expect(ReportText.duration(-999_000) == "-0:00.999")
        #expect(ReportText.duration(Int64.min) == "-2562047788:00:54.775")
    }

    /// A trap audit (2026-12-07) set the reports' public fields to the extremes and printed
    /// them: five descriptions trapped on `Int.max + 1`, a range's `count` or `bytes * 100`.
    @Test("reports whose public fields hold the extremes print without a trap, events still numbered from 1")
    func extremeFields() {
        #expect(ReportText.number(0) == "1" && ReportText.number(-1) == "0")
        #expect(ReportText.number(Int.max) == "9223372036854775808")
        #expect(ReportText.number(Int.min) == "-9223372036854775807")
        #expect(ReportText.events(4...4) == "event 5")
        #expect(ReportText.events(0...Int.max) == "events 1-9223372036854775808")
        #expect(LoggedGesture(kind: "strip pan", events: (Int.max - 1)...Int.max).description
                == "strip pan, events 9223372036854775807 to 9223372036854775808")
        #expect(LoggedGesture(kind: "tap", events: Int.max...Int.max).description == "tap, event 9223372036854775808")
        #expect(RowHistory(kind: .changed, event: Int.max, pathThen: nil).description == "last changed by event 9223372036854775808")
        #expect(SelectionChange(event: Int.max, path: RowPath(0, 1), selected: true, kind: .changed).description
                == "event 9223372036854775808: [0, 1] selected")
        var error = LogError(.damaged, "x", eventIndex: Int.max)
        #expect(error.description.contains("event 9223372036854775808"))
        error.eventIndex = Int.min
        #expect(error.description.contains("event -9223372036854775807"))
        // The ratio, exact to the hundredth (half up, carried into the whole part) however
        // large: `bytes * 100` would not fit.
        #expect(ReportText.ratio(235, over: 100) == "2.35x" && ReportText.ratio(2, over: 3) == "0.67x")
        #expect(ReportText.ratio(199, over: 200) == "1.00x" && ReportText.ratio(7, over: 1) == "7.00x")
        #expect(ReportText.ratio(Int.max, over: 1) == "9223372036854775807.00x")
        #expect(ReportText.ratio(Int.max, over: 1 << 20) == "8796093022208.00x")
        #expect(ReportText.ratio(Int.max, over: Int.max) == "1.00x" && ReportText.ratio(Int.max - 1, over: Int.max) == "1.00x")
        #expect(ReportText.ratio(-5, over: 2) == "-2.50x" && ReportText.ratio(Int.min, over: 1) == "-9223372036854775808.00x")
        #expect(ReportText.ratio(5, over: 0) == "-")
        var summary = LogSummary()
        summary.events = 2
        summary.rawBytes = Int.max
        summary.storedBytes = 1
        summary.firstT = Micros(raw: .min)
        summary.lastT = Micros(raw: .max)
        let text = summary.description
        #expect(text.contains("(9223372036854775807.00x)"), "\(text)")
        #expect(text.contains("(2562047788:00:54.775)"), "\(text)")
    }

    @Test("a repair acting on a check made before it held the log writes the magic only if the header still needs it")
    func staleMagicCheck() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("m.slog").path
        try writeLog(Array(SyntheticSession(seed: 27, count: 300)), to: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        var damaged = original
        damaged[0] = 0
        try damaged.write(to: URL(fileURLWithPath: path))
        let before = try LogReader.verify(path: path)
        #expect(before.problem?.isDamagedMagic == true)
        // Another repair wrote the magic meanwhile: the size is the same, the check stale.
        try original.write(to: URL(fileURLWithPath: path))
        let outcome = try LogRepair.repair(path, checked: before)
        #expect(outcome.restoredMagic == nil && outcome.isIntact && outcome.report.problem == nil, "\(outcome)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    @Test("compact makes its copy as private as its source from the first byte")
    func compactKeepsPrivacy() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        guard Zstd.isAvailable else { return }
        let source = dir.appendingPathComponent("s.slog").path, copy = dir.appendingPathComponent("c.slog").path
        try writeLog(Array(SyntheticSession(seed: 28, count: 300)), to: source)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: source)
        _ = try Recorder.compact(source, into: copy)
        #expect(try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int == 0o600)
    }
}
