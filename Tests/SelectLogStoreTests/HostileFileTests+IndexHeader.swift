import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

extension HostileFileTests {
    /// The index record's header holds the log's event count, 0 events and base time 0
    /// (LOG-FORMAT.md; other than 0 events breaks the limits, damage to every reader). A
    /// reader never uses the first and the last, so it reads such a log whole from its
    /// index; but a file with other values there is not what a writer writes, and
    /// `verify` called it intact (found by the independent reader's index check).
    @Test("an index record whose header claims other events before it or a base time: read whole, but verify reports it at the index's offset, and a repair keeps every event",
          arguments: [(13, Int64(0)), (11, 0), (0, 0), (12, 5)])
    func indexRecordHeaderFields(first: Int, baseTime: Int64) throws {
        var f = soundLog()
        let indexAt = f.bytes.count
        f.index(header: (first, 0, baseTime))
        let (dir, p) = try path("index-header.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect(try log.events() == events)
        #expect(try log.state(at: 12) == states()[12])
        let report = try LogReader.verify(path: p)
        #expect(report.problem?.offset == indexAt, "\(String(describing: report.problem))")
        #expect(report.problem?.reason.contains("index record header") == true, "\(String(describing: report.problem))")
        #expect(report.intactEvents == 12)
        let outcome = try LogRepair.repair(p)
        #expect(outcome.isIntact)
        #expect(try LogReader.verify(path: p).isIntact)
        #expect(try LogReader(path: p).events() == events)
    }
}

extension HostileFileTests {
    /// A bit flipped in the seek index's record header made every read of an intact log
    /// fail ("event 13: record header checksum mismatch" for a log of 12 events), where
    /// the same damage to the index's payload was passed over (found by a review as a new
    /// user). When the trailer names the record and its entries list exactly the records
    /// before it, the damage is the index's alone.
    @Test("a seek index whose record header is damaged, listing the records: readers pass it over, verify reports it as the index's alone, a repair keeps every event",
          arguments: Array(0..<48))
    func damagedIndexHeader(at byte: Int) throws {
        var f = soundLog()
        let indexAt = f.bytes.count
        f.index()
        f.bytes[indexAt + byte] ^= 0x10
        let (dir, p) = try path("index-header-damaged.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect(log.storedIndexRejected && !log.usedStoredIndex && log.tail == nil && log.eventCount == 12)
        #expect(try log.events() == events)
        #expect(try log.state(at: 12) == states()[12])
        let report = try LogReader.verify(path: p)
        #expect(report.problem?.offset == indexAt, "\(String(describing: report.problem))")
        #expect(report.problem?.isIndexOnly == true, "\(String(describing: report.problem))")
        #expect(report.problem?.reason.contains("seek index's record") == true, "\(String(describing: report.problem))")
        #expect(report.intactEvents == 12)
        #expect(try LogRepair.repair(p).isIntact)
        #expect(try LogReader.verify(path: p).isIntact)
        #expect(try LogReader(path: p).events() == events)
    }

    /// The evidence is the entries' agreement with the records: an index that lists fewer
    /// events than the records hold, or a trailer that names another offset, leaves the
    /// damaged header what it was, damage after the last event.
    @Test("a damaged record header is not taken for the index when the entries or the trailer disagree",
          arguments: [false, true])
    func damagedHeaderNotTheIndex(trailerElsewhere: Bool) throws {
        var f = soundLog()
        let indexAt = f.bytes.count
        if trailerElsewhere {
            f.index()
            let n = f.bytes.count
            f.bytes[n - 16] ^= 0x01          // the trailer's own offset, one off
        } else {
            f.index(Array(f.entries.prefix(1)))
        }
        f.bytes[indexAt + 20] ^= 0x10
        try expectDamageRefused(f, at: indexAt, "not-the-index.slog")
    }

    /// Writes `f` and checks that its damage at `offset` stays damage: a reader refuses
    /// the log there, and `verify` does not call it the index's alone. `then` gets the
    /// path before the file is removed.
    func expectDamageRefused(_ f: Forge, at offset: Int, _ name: String, then: (String) throws -> Void = { _ in }) throws {
        let (dir, p) = try path(name)
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        #expect { try LogReader(path: p) } throws: { e in
            (e as? LogError)?.code == .damaged && (e as? LogError)?.offset == offset
        }
        let report = try LogReader.verify(path: p)
        #expect(report.problem?.offset == offset && report.problem?.isIndexOnly == false, "\(String(describing: report.problem))")
        try then(p)
    }

    /// A recorder reopening such a log cuts the damaged index with the rest of the index,
    /// as it cuts a sound one, and goes on.
    @Test("a recorder appends to a log whose seek index's header is damaged")
    func appendAfterDamagedIndexHeader() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = dir.appendingPathComponent("resume.slog").path
        let session = Array(SyntheticSession(seed: 3, count: 600))
        let first = try Recorder(creating: p)
        for e in session.prefix(400) { try first.append(e) }
        try first.close()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: p)))
        var own = 0
        for k in 0..<8 { own |= Int(bytes[bytes.count - 16 + k]) << (8 * k) }
        bytes[own + 20] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: p))
        #expect(try LogReader.verify(path: p).problem?.isIndexOnly == true)
        let resumed = try Recorder(appendingTo: p)
        #expect(resumed.eventCount == 400)
        for e in session.suffix(200) { try resumed.append(e) }
        try resumed.close()
        #expect(try LogReader.verify(path: p).isIntact)
        #expect(try LogReader(path: p).events() == session)
    }
}

extension HostileFileTests {
    /// Overwrites the 48-byte header at `at` (the index record's) with a sound header of
    /// `kind` over the same payload: its checksums pass.
    func soundHeader(_ f: inout Forge, at: Int, kind: Unicode.Scalar, events: Int, first: Int) {
        let stored = f.bytes.count - at - 48
        let payload = Array(f.bytes[(at + 48)...])
        var header = Array("SLR".utf8) + [UInt8(ascii: kind)]
        Forge.put32(&header, 0)
        Forge.put32(&header, CRC32C.checksum(payload, salt: f.salt))
        Forge.put32(&header, UInt32(stored))
        Forge.put32(&header, UInt32(stored))
        Forge.put32(&header, UInt32(events))
        Forge.put64(&header, UInt64(first))
        Forge.put64(&header, 0)
        header += [UInt8](repeating: 0, count: 8)
        Forge.setHeaderChecksum(&header, salt: f.salt)
        for k in 0..<48 { f.bytes[at + k] = header[k] }
    }

    /// Only a header that fails its own checks may be the index's: one that checks out
    /// says what its record is. A sound batch header out of sequence where the trailer
    /// names the index was taken for the index's damage, and a recorder cut the record
    /// without a repair (found by a helper's review of the change).
    @Test("a sound header out of sequence where the trailer names the index stays damage: readers refuse, a recorder refuses",
          arguments: [(1, 99), (0, 12), (3, 5)])
    func soundHeaderIsNotTheIndex(events: Int, first: Int) throws {
        var f = soundLog()
        let indexAt = f.bytes.count
        f.index()
        soundHeader(&f, at: indexAt, kind: "B", events: events, first: first)
        try expectDamageRefused(f, at: indexAt, "sound-header.slog") { p in
            let before = try Data(contentsOf: URL(fileURLWithPath: p))
            #expect { try Recorder(appendingTo: p) } throws: { e in (e as? LogError)?.code == .damaged }
            #expect(try Data(contentsOf: URL(fileURLWithPath: p)) == before)
        }
    }
}
