import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// The reproducers of issue 10, item 3, forged from docs/LOG-FORMAT.md with valid
/// checksums: the reader trusts nothing it reads.
@Suite("hostile files: a reader that trusts nothing")
struct HostileFileTests {
    let events = Array(SyntheticSession(seed: 5, count: 12))

    func states() throws -> [TableState] {
        var s = TableState()
        var out = [s]
        for e in events {
            try s.apply(e)
            out.append(s)
        }
        return out
    }

    /// Two batches of 6 events and their index: a sound forged log.
    func soundLog() -> Forge {
        var f = Forge()
        f.batch(Array(events[0..<6]), first: 0, baseTime: 0)
        f.batch(Array(events[6..<12]), first: 6, baseTime: events[5].t?.raw ?? 0)
        return f
    }

    func path(_ name: String) throws -> (URL, String) {
        let dir = try temporaryDirectory()
        return (dir, dir.appendingPathComponent(name).path)
    }

    @Test("the forged sound log reads back: the forge follows the format")
    func forgeIsSound() throws {
        var f = soundLog()
        f.index()
        let (dir, p) = try path("sound.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect(log.usedStoredIndex)
        #expect(try log.events() == events)
        #expect(try LogReader.verify(path: p, replaying: true).isIntact)
    }

    @Test("a stored index pointing past the end of the file is not used: the reader scans, verify reports it")
    func indexPastTheEnd() throws {
        var f = soundLog()
        var entries = f.entries
        entries[1].3 = 1 << 20     // the second batch's stored length, far past the end
        f.index(entries)
        let (dir, p) = try path("past-end.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect(!log.usedStoredIndex)
        #expect(try log.events() == events)
        #expect(try log.state(at: 12) == states()[12])
        let report = try LogReader.verify(path: p)
        #expect(report.problem?.reason.contains("seek index disagrees") == true)
        #expect(report.problem?.isIndexOnly == true)
        #expect(report.intactEvents == 12)
    }

    @Test("an index entry at a wrong offset is not used; verify reports the index, not intact")
    func indexWrongOffset() throws {
        var f = soundLog()
        var entries = f.entries
        entries[1].0 += 3
        f.index(entries)
        let (dir, p) = try path("wrong-offset.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect(!log.usedStoredIndex)
        #expect(try log.events() == events)
        #expect(try !LogReader.verify(path: p).isIntact)
    }

    @Test("an 8-byte trailer offset near 2^64 overflows nothing")
    func trailerOverflow() throws {
        var f = soundLog()
        Forge.put64(&f.bytes, UInt64.max - 7)
        f.bytes += Array("SLINDEX1".utf8)
        let (dir, p) = try path("overflow.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect(!log.usedStoredIndex)
        #expect(try log.events() == events)
        #expect(try !LogReader.verify(path: p).isIntact)
    }

    @Test("a header's claim of 1.5 GB uncompressed allocates nothing: a clear error at its offset")
    func hugeRawLength() throws {
        var f = Forge()
        let at = f.record("B", [0x28, 0xB5, 0x2F, 0xFD, 1, 2, 3, 4], rawLength: 0x6000_0000, events: 3, codec: 1)
        let (dir, p) = try path("huge.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        #expect(f.bytes.count < 160)
        #expect { try LogReader(path: p) } throws: { e in
            guard let e = e as? LogError else { return false }
            return e.code == .damaged && e.offset == at && e.message.contains("limit")
        }
        let report = try LogReader.verify(path: p)
        #expect(report.problem?.offset == at)
    }

    @Test("a checkpoint whose header says 4 events but whose state has seen 12 is refused, never used")
    func checkpointDisagreesWithHeader() throws {
        var f = Forge()
        f.batch(Array(events[0..<4]), first: 0, baseTime: 0)
        let s = try states()
        let at = f.record("C", s[12].snapshot(), first: 4, baseTime: s[12].t.raw)
        f.batch(Array(events[4..<12]), first: 4, baseTime: events[3].t?.raw ?? 0)
        f.index()
        let (dir, p) = try path("checkpoint-header.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect { try log.state(at: 8) } throws: { e in
            guard let e = e as? LogError else { return false }
            return e.code == .damaged && e.offset == at
        }
        #expect(try log.state(at: 3) == s[3])
        let report = try LogReader.verify(path: p)
        #expect(report.problem?.offset == at)
    }

    @Test("a checkpoint with a negative auto-scroll rate is refused before any tick can trap on it")
    func checkpointNegativeRate() throws {
        var f = Forge()
        f.batch(Array(events[0..<4]), first: 0, baseTime: 0)
        let s = try states()
        var forged = s[4]
        forged.configuration.strip.rowsPerSecond = Points(-20)
        let at = f.record("C", forged.snapshot(), first: 4, baseTime: s[4].t.raw)
        f.batch([TimedEvent(.tick, t: Micros(raw: s[4].t.raw + 16_667))], first: 4, baseTime: s[4].t.raw)
        f.index()
        let (dir, p) = try path("negative-rate.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect { try log.state(at: 5) } throws: { e in
            guard let e = e as? LogError else { return false }
            return e.code == .damaged && e.offset == at
        }
        #expect(try LogReader.verify(path: p).problem?.offset == at)
    }

    @Test("a checkpoint that disagrees with the events passes the shallow verify, fails verify --deep from the first event nothing confirmed")
    func checkpointDisagreesWithEvents() throws {
        var f = Forge()
        let first = f.batch(Array(events[0..<4]), first: 0, baseTime: 0)
        let s = try states()
        // The state after 4 events, but with the selection of another moment.
        var wrong = s[4]
        wrong.selection = RowSet([RowPath(0, 1)])
        let at = f.record("C", wrong.snapshot(), first: 4, baseTime: s[4].t.raw)
        f.batch(Array(events[4..<12]), first: 4, baseTime: events[3].t?.raw ?? 0)
        f.index()
        let (dir, p) = try path("checkpoint-events.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        #expect(wrong != s[4])
        #expect(try LogReader.verify(path: p).isIntact)
        let deep = try LogReader.verify(path: p, replaying: true)
        // No gesture fingerprint confirms the 4 events before it: they, or the checkpoint,
        // were changed, and nothing tells which.
        #expect(deep.problem?.offset == first && at > first)
        #expect(deep.intactEvents == 0 && deep.records == 0)
    }

    @Test("an event the engine rejects, in a log whose checksums all pass: verify --deep names its batch's offset and the events before it, and a repair keeps them")
    func rejectedEventIsDamageAtItsBatch() throws {
        var f = Forge()
        f.batch(Array(events[0..<4]), first: 0, baseTime: 0)
        // A selection of a section the table does not have: a writer of this engine never logs one.
        let t = events[3].t?.raw ?? 0
        let at = f.batch([TimedEvent(.select(rows: [RowPath(99, 0)]), t: Micros(raw: t))], first: 4, baseTime: t)
        f.index()
        let (dir, p) = try path("rejected.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        #expect(try LogReader.verify(path: p).isIntact, "the shallow walk decodes it")
        let deep = try LogReader.verify(path: p, replaying: true)
        #expect(deep.problem?.offset == at && deep.intactEvents == 4 && deep.intactBytes == at, "\(String(describing: deep.problem))")
        #expect(deep.problem?.reason.hasPrefix("event 5: logged event is rejected by the engine: select") == true, "\(String(describing: deep.problem))")
        // Appending is refused, and the refusal names the repair that finds the damage: one
        // that does not replay finds the log intact and cuts nothing.
        do {
            _ = try Recorder(appendingTo: p)
            Issue.record("a recorder appended to a log with an event its engine rejects")
        } catch {
            #expect(error.message.contains("LogRepair.repair(path, replaying: true)") && error.message.contains("selectlog verify --deep --repair"),
                    "\(error)")
        }
        #expect(try LogRepair.repair(p).cut == nil)
        let outcome = try LogRepair.repair(p, replaying: true)
        #expect(outcome.cut?.keptBytes == at)
        #expect(try LogReader.verify(path: p, replaying: true).isIntact)
        #expect(try LogReader(path: p).eventCount == 4)
        let recorder = try Recorder(appendingTo: p)
        try recorder.close()
    }

    @Test("an event the engine rejects in a continued batch of a coded window: damage at that batch, the window's earlier batches kept by a repair")
    func rejectedEventInAWindow() throws {
        let t = events[5].t?.raw ?? 0
        let bad = TimedEvent(.select(rows: [RowPath(99, 0)]), t: Micros(raw: t))
        var f = Forge(interval: 0, version: 4)
        let offsets = f.window([Array(events[0..<3]), Array(events[3..<6]), [bad]], first: 0, baseTime: 0)
        f.index()
        let (dir, p) = try path("rejected-window.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let deep = try LogReader.verify(path: p, replaying: true)
        #expect(deep.problem?.offset == offsets[2] && deep.intactEvents == 6 && deep.intactBytes == offsets[2],
                "\(String(describing: deep.problem)), batches at \(offsets)")
        #expect(deep.problem?.reason.hasPrefix("event 7: logged event is rejected by the engine: select") == true)
        #expect(try LogRepair.repair(p, replaying: true).cut?.keptBytes == offsets[2])
        #expect(try LogReader.verify(path: p, replaying: true).isIntact)
        #expect(try LogReader(path: p).events() == Array(events[0..<6]))
    }

    @Test("a file header's version past this reader's: newer when its checksum matches, damaged when it does not; 0 never")
    func headerVersion() throws {
        func failure(_ bytes: [UInt8]) -> LogError? {
            guard case .failure(let e) = bytes.withUnsafeBytes({ FileHeader.decode($0) }) else { return nil }
            return e
        }
        let newer = try #require(failure(Forge(version: LogFormat.newestVersion + 1).bytes))
        #expect(newer.code == .unsupported && newer.message.contains("written by a newer selectlog"), "\(newer)")
        // A bit flipped in the version of a sound header (a review's reproducer): its
        // checksum no longer matches, so it is damage, not a newer build's log.
        var flipped = Forge().bytes
        flipped[8] ^= 0x14
        let damaged = try #require(failure(flipped))
        #expect(damaged.code == .damaged && damaged.offset == 0 && damaged.message.contains("file header checksum mismatch"), "\(damaged)")
        #expect(!damaged.message.contains("newer"), "\(damaged)")
        let zero = try #require(failure(Forge(version: 0).bytes))
        #expect(zero.code == .damaged && zero.message.contains("format version 0 does not exist"), "\(zero)")
        // Through a reader, as the commands meet it.
        let (dir, p) = try path("flipped.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(flipped).write(to: URL(fileURLWithPath: p))
        #expect { try LogReader(path: p) } throws: { e in
            guard let e = e as? LogError else { return false }
            return e.message.contains("file header checksum mismatch") && !e.message.contains("newer")
        }
    }

    @Test("a log without an index, a payload damaged before a header that fails: opening it names the payload, as verify does")
    func firstBadByteAtOpen() throws {
        var f = Forge()
        let first = f.batch(Array(events[0..<4]), first: 0, baseTime: 0)
        f.batch(Array(events[4..<8]), first: 4, baseTime: events[3].t?.raw ?? 0)
        let third = f.batch(Array(events[8..<12]), first: 8, baseTime: events[7].t?.raw ?? 0)
        var bytes = f.bytes
        bytes[first + LogFormat.recordHeaderSize] ^= 0x40    // the first batch's payload
        bytes[third] ^= 0x40                                  // the third batch's header (its magic)
        let (dir, p) = try path("payload-then-header.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        let verified = try LogReader.verify(path: p)
        #expect(verified.problem?.offset == first && verified.problem?.reason == "record payload checksum mismatch")
        #expect { try LogReader(path: p) } throws: { e in
            guard let e = e as? LogError else { return false }
            return e.code == .damaged && e.offset == first && e.message.hasPrefix("record payload checksum mismatch (0 intact events")
        }
        // With only the header damaged, that is what it names.
        var header = f.bytes
        header[third] ^= 0x40
        try Data(header).write(to: URL(fileURLWithPath: p))
        #expect { try LogReader(path: p) } throws: { e in (e as? LogError)?.offset == third }
        #expect(try LogReader.verify(path: p).problem?.offset == third)
    }

    @Test("an event type this reader does not know is refused as written by a newer selectlog")
    func newerEventType() throws {
        var f = Forge()
        f.batch(Array(events[0..<3]), first: 0, baseTime: 0)
        f.record("B", [EventTag.redo.rawValue + 5, 0], events: 1, first: 3, baseTime: events[2].t?.raw ?? 0)
        f.index()
        let (dir, p) = try path("newer.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect { try log.events() } throws: { e in
            guard let e = e as? LogError else { return false }
            return e.code == .unsupported && e.message.contains("written by a newer selectlog")
        }
        // verify --deep says so, not "damaged", and a repair keeps it for a newer build.
        let report = try LogReader.verify(path: p, replaying: true)
        #expect(report.problem?.isNewer == true && report.intactEvents == 3, "\(String(describing: report.problem))")
        let before = try Data(contentsOf: URL(fileURLWithPath: p))
        let outcome = try LogRepair.repair(p)
        #expect(outcome.cut == nil && !outcome.isIntact && outcome.report.problem?.isNewer == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: p)) == before, "a repair cut what a newer build reads")
    }

    @Test("a file header of a newer format is newer, not damage: verify says so and a repair leaves the file as it was")
    func newerHeaderIsNotDamage() throws {
        var f = Forge()
        f.batch(Array(events[0..<3]), first: 0, baseTime: 0)
        f.index()
        var bytes = f.bytes
        bytes[8] = UInt8(LogFormat.newestVersion + 1)
        // The file header's checksum covers the version: fixed, as a newer writer would write it.
        Forge.setFileHeaderChecksum(&bytes)
        let (dir, p) = try path("newer-header.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        let report = try LogReader.verify(path: p)
        #expect(report.problem?.isNewer == true && report.problem?.offset == 8, "\(String(describing: report.problem))")
        #expect(report.problem?.isTornTail == false && report.problem?.isNotALog == false)
        let outcome = try LogRepair.repair(p)
        #expect(outcome.cut == nil && !outcome.isIntact)
        #expect(try Data(contentsOf: URL(fileURLWithPath: p)) == Data(bytes))
        // A damaged header (its checksum wrong) is not newer.
        bytes[36] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        #expect(try LogReader.verify(path: p).problem?.isNewer == false)
    }

    @Test("a log whose batches are stored uncompressed (a build without zstd) reads, verifies and replays")
    func storedBatches() throws {
        let (dir, p) = try path("stored.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Array(SyntheticSession(seed: 9, count: 2_000))
        let w = try LogRewriter(path: p, checkpointInterval: 500, batchEvents: 300, zstd: false)
        for e in session { try w.append(e) }
        try w.close()
        let log = try LogReader(path: p)
        // Batches stored; checkpoints range-coded (format 5, codec 2), never zstd.
        #expect(log.records.allSatisfy { $0.header.codec == ($0.header.kind == .checkpoint ? LogFormat.codecRange : LogFormat.codecRaw) })
        #expect(log.header.features & LogFormat.featureZstd == 0)
        #expect(try log.events() == session)
        #expect(try log.state(at: 1_234) == replayed(Array(session.prefix(1_234))))
        #expect(try LogReader.verify(path: p, replaying: true).isIntact)
    }

    @Test("a version 1 log replays (from the start: it recorded no behaviour fingerprint) and upgrades to version 2")
    func versionOne() throws {
        let session = Array(RandomWalkSession(seed: 4, count: 600))
        var f = Forge(version: 1)
        var s = TableState()
        var first = 0
        for chunk in stride(from: 0, to: session.count, by: 100) {
            let part = Array(session[chunk..<Swift.min(chunk + 100, session.count)])
            f.batch(part, first: first, baseTime: s.t.raw)
            for e in part { try s.apply(e) }
            first += part.count
            f.record("C", s.snapshot(), first: first, baseTime: s.t.raw)
        }
        f.index()
        let (dir, p) = try path("v1.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect(log.header.version == 1 && log.header.behaviour == nil)
        #expect(!log.checkpointsTrusted)
        #expect(try log.events() == session)
        #expect(try log.state(at: 450) == replayed(Array(session.prefix(450))))
        #expect(try LogReader.verify(path: p).isIntact)
        #expect(throws: LogError.self) { try Recorder(appendingTo: p) }
        // Upgrade: the same events, re-recorded by this build.
        let upgraded = dir.appendingPathComponent("v2.slog").path
        let w = try LogRewriter(path: upgraded, checkpointInterval: 128)
        try log.forEachEvent { (_, e) throws(LogError) -> Bool in
            try w.append(e)
            return true
        }
        try w.close()
        let v2 = try LogReader(path: upgraded)
        #expect(v2.header.version == LogFormat.version && v2.checkpointsTrusted)
        #expect(try v2.events() == session)
        #expect(try v2.check().isSame)
    }
}
