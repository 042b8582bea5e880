import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// Format version 4's windows under damage: continued batches out of place, miscounted,
/// flipped or torn, and index entries that disagree with the records they list. Part of
/// the `FormatV4Tests` suite, whose helpers they use.
extension FormatV4Tests {
    /// Whether opening `path` (and, when the open succeeds from a stored index, reading every
    /// event) fails as damage at `offset`.
    func readFails(_ path: String, at offset: Int) -> Bool {
        do throws(LogError) {
            let log = try LogReader(path: path)
            _ = try log.events()
            _ = try log.state(at: log.eventCount)
            return false
        } catch {
            return error.code == .damaged && error.offset == offset
        }
    }

    /// The index entries of `f` with the continued batch at `hidden` (holding `events`
    /// events from `first`, `payload` bytes) listed as a batch of its own whose stored
    /// length makes the entries contiguous: an index that passes the structure check, so
    /// that the reader uses it and meets the record itself when it reads.
    func entriesHiding(_ f: Forge, continuedAt hidden: Int, payload: Int, events: Int, first: Int)
        -> ([(Int, UInt8, UInt8, Int, Int, Int, Int, Int64, UInt32)], [Forge.Continued]) {
        var entries = f.entries
        var continued = f.continued
        let at = entries.firstIndex { $0.0 > hidden } ?? entries.count
        entries.insert((hidden, UInt8(ascii: "B"), 0, payload - 32, payload - 32, events, first, 0, 0), at: at)
        continued.insert(Forge.Continued(), at: at)
        if at > 0 { continued[at - 1] = Forge.Continued() }
        return (entries, continued)
    }

    @Test("a continued batch first in the file, or right after a checkpoint, is damage at its offset: verify, walk and indexed read",
          arguments: [false, true])
    func continuedWithoutABatchBefore(afterCheckpoint: Bool) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 8, count: 90))
        let payloads = Forge.windowPayloads([Array(events[0..<30]), Array(events[30..<60])], baseTime: 0)
        try #require(payloads[1].count >= 32)
        var f = Forge(interval: 30, version: 4)
        var first = 0
        if afterCheckpoint {
            f.batch(Array(events[0..<30]), first: 0, baseTime: 0)
            let s = try replayed(Array(events[0..<30]))
            f.record("C", s.snapshot(), first: 30, baseTime: s.t.raw)
            first = 30
        }
        // A continued batch (the second of a window) where no batch comes before it.
        let at = f.continuedRecord(payloads[1], events: 30)
        f.batch(Array(events[60..<90]), first: first + 30, baseTime: events[59].t?.raw ?? 0)
        let path = dir.appendingPathComponent("orphan.slog").path
        try f.write(to: path)
        let report = try LogReader.verify(path: path)
        #expect(report.problem?.offset == at && report.problem?.isTornTail == false, "\(String(describing: report.problem))")
        #expect(report.intactEvents == first)
        #expect(readFails(path, at: at))
        // With an index that lists it as a batch: used, and the read meets the record.
        let (entries, continued) = entriesHiding(f, continuedAt: at, payload: payloads[1].count, events: 30, first: first)
        var indexed = f
        indexed.index(entries, continuedOverride: continued)
        try indexed.write(to: path)
        #expect(try LogReader(path: path).usedStoredIndex)
        #expect(readFails(path, at: at))
        #expect(try LogReader.verify(path: path).problem?.offset == at)
    }

    @Test("a continued batch in a version 3 log is refused: damage at its offset, with or without the index")
    func continuedInVersionThree() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 9, count: 90))
        let payloads = Forge.windowPayloads([Array(events[0..<30]), Array(events[30..<60])], baseTime: 0)
        try #require(payloads[1].count >= 32)
        var f = Forge(interval: 0, version: 3)
        f.batch(Array(events[0..<30]), first: 0, baseTime: 0)
        let at = f.continuedRecord(payloads[1], events: 30)
        f.batch(Array(events[60..<90]), first: 60, baseTime: events[59].t?.raw ?? 0)
        let path = dir.appendingPathComponent("v3b.slog").path
        try f.write(to: path)
        let report = try LogReader.verify(path: path)
        #expect(report.problem?.offset == at && report.problem?.isTornTail == false, "\(String(describing: report.problem))")
        #expect(report.intactEvents == 30)
        #expect(readFails(path, at: at))
        let (entries, continued) = entriesHiding(f, continuedAt: at, payload: payloads[1].count, events: 30, first: 30)
        var indexed = f
        indexed.index(entries, continuedOverride: continued)
        try indexed.write(to: path)
        #expect(try LogReader(path: path).usedStoredIndex)
        #expect(readFails(path, at: at))
        #expect(try LogReader(path: path).events(to: 30) == Array(events[0..<30]))
    }

    @Test("a window's first batch holding more events than its header says: damage at its offset, and no event past the header's count reaches a reader")
    func batchHoldsMoreThanItsHeaderSays() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 5, count: 10))
        // The first batch codes 4 events but says 3; the continued batch after it says 1.
        let payloads = Forge.windowPayloads([Array(events[0..<4]), [events[4]]], baseTime: 0)
        var f = Forge(interval: 0, version: 4)
        let at = f.record("B", payloads[0], events: 3, first: 0, baseTime: 0)
        f.continuedRecord(payloads[1], events: 1)
        f.index()
        let path = dir.appendingPathComponent("more.slog").path
        try f.write(to: path)
        #expect(try LogReader.verify(path: path).problem?.offset == at)
        let log = try LogReader(path: path)
        var seen: [TimedEvent] = []
        let error = #expect(throws: LogError.self) {
            try log.forEachEvent { (_, e) throws(LogError) -> Bool in
                seen.append(e)
                return true
            }
        }
        #expect(error?.code == .damaged && error?.offset == at)
        // The 4th event, which the headers put in the continued batch, never reaches the caller.
        #expect(seen == Array(events[0..<3]))
    }

    /// A recorded log with windows of several continued batches, and the states after each prefix.
    struct Recorded {
        let dir: URL
        let path: String
        let events: [TimedEvent]
        let bytes: [UInt8]
        let records: [RecordInfo]

        init(count: Int = 600, seed: UInt64 = 14) throws {
            dir = try temporaryDirectory()
            path = dir.appendingPathComponent("r.slog").path
            events = Array(RandomWalkSession(seed: seed, count: count))
            var o = smallBatches(checkpointInterval: 200)
            o.batchEvents = 20
            try writeLog(events, to: path, options: o)
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            records = try LogReader(path: path).records
        }

        /// The bytes before the index: the file a crash before close leaves.
        var unindexed: [UInt8] { Array(bytes[..<(records.last { $0.header.kind == .index }?.offset ?? bytes.count)]) }
    }

    @Test("every single-bit flip in a continued batch's header is damage at its offset, not a torn tail, indexed or not")
    func headerBitFlips() throws {
        let r = try Recorded()
        defer { try? FileManager.default.removeItem(at: r.dir) }
        let continued = r.records.filter(\.header.continues)
        try #require(continued.count > 10)
        let middle = continued[continued.count / 2]
        let path = r.dir.appendingPathComponent("flip.slog").path
        for (base, name) in [(r.bytes, "indexed"), (r.unindexed, "walked")] {
            for bit in 0..<128 {
                var b = base
                b[middle.offset + bit / 8] ^= UInt8(1) << (bit % 8)
                try write(b, to: path)
                let report = try LogReader.verify(path: path)
                #expect(report.problem?.offset == middle.offset && report.problem?.isTornTail == false,
                        "\(name), bit \(bit): \(String(describing: report.problem))")
                #expect(report.intactEvents == middle.header.firstEvent, "\(name), bit \(bit)")
                #expect(readFails(path, at: middle.offset), "\(name), bit \(bit)")
            }
        }
    }

    @Test("a bit flip in the last record's header, a continued batch the file ends with, is damage; a torn tail only when the flip makes a longer header than the file holds")
    func lastHeaderBitFlips() throws {
        let r = try Recorded()
        defer { try? FileManager.default.removeItem(at: r.dir) }
        // The file as a crash leaves it right after a continued batch.
        let last = try #require(r.records.last { $0.header.continues })
        let base = Array(r.bytes[..<last.end])
        let path = r.dir.appendingPathComponent("flip-last.slog").path
        for bit in 0..<128 {
            var b = base
            b[last.offset + bit / 8] ^= UInt8(1) << (bit % 8)
            try write(b, to: path)
            // Any other kind byte reads a 48-byte header: past the end of a short last record.
            let torn = bit / 8 == 3 && last.offset + 48 > b.count
            let report = try LogReader.verify(path: path)
            #expect(report.problem?.offset == last.offset && report.problem?.isTornTail == torn,
                    "bit \(bit): \(String(describing: report.problem))")
            #expect(report.intactEvents == last.header.firstEvent, "bit \(bit)")
            if torn {
                #expect(try LogReader(path: path).events() == Array(r.events[..<last.header.firstEvent]), "bit \(bit)")
            } else {
                #expect(readFails(path, at: last.offset), "bit \(bit)")
            }
        }
    }

    @Test("a continued batch's count or length changed, its check recomputed: verify names its offset, a read never returns other events")
    func forgedFields() throws {
        let r = try Recorded()
        defer { try? FileManager.default.removeItem(at: r.dir) }
        let continued = r.records.filter(\.header.continues)
        let middle = continued[continued.count / 2]
        let nextWindow = try #require(r.records.first { $0.offset > middle.offset && !$0.header.continues })
        let path = r.dir.appendingPathComponent("forged.slog").path
        for (field, delta) in [(13, 1), (13, -1), (10, 1), (10, -1)] {
            for base in [r.bytes, r.unindexed] {
                var b = base
                let v = Int(b[middle.offset + field]) | Int(b[middle.offset + field + 1]) << 8 | Int(b[middle.offset + field + 2]) << 16
                let w = v + delta
                for k in 0..<3 { b[middle.offset + field + k] = UInt8(truncatingIfNeeded: w >> (8 * k)) }
                Forge.setContinuedCheck(&b, at: middle.offset, salt: 0x5EED)
                try write(b, to: path)
                let deep = try LogReader.verify(path: path)
                #expect(deep.problem?.offset == middle.offset, "field \(field) \(delta): \(String(describing: deep.problem))")
                #expect(deep.problem?.isTornTail == false)
                // A walk may only notice at the next window's header (a continued batch does
                // not say its first event), but never returns events the log does not hold.
                do throws(LogError) {
                    let log = try LogReader(path: path)
                    let read = try log.events()
                    Issue.record("field \(field) \(delta): read \(read.count) events, \(read == r.events ? "the right ones" : "others")")
                } catch {
                    #expect(error.code == .damaged, "field \(field) \(delta)")
                    #expect((middle.offset...nextWindow.offset).contains(error.offset ?? -1), "field \(field) \(delta): \(error)")
                }
            }
        }
    }

    @Test("a continued batch claiming 0 events, or more than 2^20, is damage at its offset, not a torn tail",
          arguments: [0, (1 << 20) + 1, (1 << 24) - 1])
    func continuedCountLimits(count: Int) throws {
        let r = try Recorded()
        defer { try? FileManager.default.removeItem(at: r.dir) }
        let continued = r.records.filter(\.header.continues)
        let middle = continued[continued.count / 2]
        var b = r.unindexed
        for k in 0..<3 { b[middle.offset + 13 + k] = UInt8(truncatingIfNeeded: count >> (8 * k)) }
        Forge.setContinuedCheck(&b, at: middle.offset, salt: 0x5EED)
        let path = r.dir.appendingPathComponent("count.slog").path
        try write(b, to: path)
        let report = try LogReader.verify(path: path)
        #expect(report.problem?.offset == middle.offset && report.problem?.isTornTail == false, "\(String(describing: report.problem))")
        #expect(report.intactEvents == middle.header.firstEvent)
        #expect(readFails(path, at: middle.offset))
    }

    @Test("a continued batch cut at the end of the file (in its header or its payload) is a torn tail: everything before it is kept, and appending starts a window")
    func tornContinuedBatch() throws {
        let r = try Recorded()
        defer { try? FileManager.default.removeItem(at: r.dir) }
        let last = try #require(r.records.last { $0.header.continues })
        let path = r.dir.appendingPathComponent("torn.slog").path
        let kept = last.header.firstEvent
        for (cut, zeros) in [(last.offset + 7, 0), (last.payloadStart + 1, 0), (last.end - 1, 0), (last.payloadStart + 2, 64)] {
            try write(Array(r.bytes[..<cut]) + [UInt8](repeating: 0, count: zeros), to: path)
            let report = try LogReader.verify(path: path)
            #expect(report.problem?.offset == last.offset && report.problem?.isTornTail == true, "cut \(cut): \(String(describing: report.problem))")
            #expect(report.intactEvents == kept && report.intactBytes == last.offset)
            let log = try LogReader(path: path)
            #expect(log.tail?.offset == last.offset)
            #expect(log.eventCount == kept)
            #expect(try log.events() == Array(r.events[..<kept]))
            try expectStates(log, r.events, at: [kept, kept - 1, kept / 2])
        }
        // Appending cuts the tail and goes on with a fresh window.
        var o = smallBatches(checkpointInterval: 200)
        o.batchEvents = 20
        let recorder = try Recorder(appendingTo: path, options: o)
        #expect(recorder.eventCount == kept)
        for e in r.events[kept...] { try recorder.append(e) }
        try recorder.close()
        let log = try LogReader(path: path)
        let resumed = try #require(log.records.first { $0.header.kind == .batch && $0.header.firstEvent == kept })
        #expect(!resumed.header.continues)
        expectWindowRule(log.records, try fileBytes(path), reopenedAt: [kept])
        #expect(try log.events() == r.events)
        try expectStates(log, r.events, at: [kept, kept + 1, r.events.count])
        #expect(try LogReader.verify(path: path, replaying: true).isIntact)
    }

    /// The log of `r` with its index's entries changed by `change`, re-encoded with valid
    /// checksums and trailer.
    func reindexed(_ r: Recorded, _ change: (inout [IndexEntry]) -> Void) throws -> [UInt8] {
        let index = try #require(r.records.last)
        var entries = try #require(LogIndex.decode(Array(r.bytes[index.payloadStart..<index.end]), at: index.offset, version: 4))
        change(&entries)
        var f = Forge(version: 4)
        f.bytes = Array(r.bytes[..<index.offset])
        f.record("I", LogIndex.encode(entries, at: index.offset, version: 4), first: index.header.firstEvent)
        return f.bytes
    }

    @Test("an index entry whose continued batches disagree with the records is not used: the reader walks, verify reports the index")
    func indexContinuedDisagrees() throws {
        let r = try Recorded()
        defer { try? FileManager.default.removeItem(at: r.dir) }
        let path = r.dir.appendingPathComponent("index.slog").path
        // The re-encoding itself changes nothing.
        try write(try reindexed(r) { _ in }, to: path)
        #expect(try fileBytes(path) == r.bytes)
        let changes: [(String, (inout IndexEntry) -> Void)] = [
            ("events + 1", { $0.continuedEvents += 1 }),
            ("events - 1", { $0.continuedEvents -= 1 }),
            ("bytes + 16", { $0.continuedBytes += 16 }),
            ("bytes - 1", { $0.continuedBytes -= 1 }),
            ("one batch more, bytes and events to match", { $0.continued += 1; $0.continuedBytes += 16; $0.continuedEvents += 1 }),
        ]
        for (name, change) in changes {
            try write(try reindexed(r) { entries in
                let k = entries.indices.first { entries[$0].continued > 2 } ?? 0
                change(&entries[k])
            }, to: path)
            let log = try LogReader(path: path)
            #expect(!log.usedStoredIndex, "\(name)")
            #expect(try log.events() == r.events, "\(name)")
            let report = try LogReader.verify(path: path)
            #expect(report.problem?.reason.contains("seek index disagrees") == true, "\(name): \(String(describing: report.problem))")
            #expect(report.problem?.isIndexOnly == true, "\(name)")
            #expect(report.intactEvents == r.events.count, "\(name)")
        }
    }

    @Test("an index entry that miscounts only its continued batches is harmless to reads; verify reports it")
    func indexMiscountsBatches() throws {
        let r = try Recorded()
        defer { try? FileManager.default.removeItem(at: r.dir) }
        let path = r.dir.appendingPathComponent("miscount.slog").path
        // Bytes and events still add up: only a walk of the window can tell.
        try write(try reindexed(r) { entries in
            let k = entries.indices.first { entries[$0].continued > 2 } ?? 0
            entries[k].continued -= 1
        }, to: path)
        let log = try LogReader(path: path)
        #expect(log.eventCount == r.events.count)
        #expect(try log.events() == r.events)
        #expect(try log.state(at: r.events.count) == (try replayed(r.events)))
        let report = try LogReader.verify(path: path)
        #expect(report.problem?.reason.contains("seek index disagrees") == true, "\(String(describing: report.problem))")
    }

    @Test("an index whose last window claims one event more or less than its records hold is not believed: every read agrees with the records",
          arguments: [1, -1])
    func indexMiscountsLastWindow(delta: Int) throws {
        // The last data record is a continued batch, not a checkpoint (whose event count
        // the structure check compares with the window's).
        let r = try Recorded(count: 590)
        defer { try? FileManager.default.removeItem(at: r.dir) }
        try #require(r.records.dropLast().last?.header.continues == true)
        let path = r.dir.appendingPathComponent("miscount.slog").path
        try write(try reindexed(r) { entries in
            if let k = entries.indices.last(where: { entries[$0].record.header.kind == .batch }) { entries[k].continuedEvents += delta }
        }, to: path)
        #expect(try LogReader.verify(path: path).problem?.reason.contains("seek index disagrees") == true)
        // Opening compares the last entry with its window's record headers, so the index
        // is not used and the records are walked.
        let log = try LogReader(path: path)
        #expect(!log.usedStoredIndex)
        #expect(log.eventCount == r.events.count)
        #expect(try log.events() == r.events)
        #expect(try log.state(at: r.events.count) == (try replayed(r.events)))
    }
}
