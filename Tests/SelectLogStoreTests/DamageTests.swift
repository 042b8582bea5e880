import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// A small log of several batches and checkpoints, and the states after each prefix.
private struct Fixture {
    let dir: URL
    let path: String
    let bytes: [UInt8]
    let events: [TimedEvent]
    /// `states[n]` is the state after the first n events.
    let states: [TableState]

    init(count: Int = 120, seed: UInt64 = 11) throws {
        dir = try temporaryDirectory()
        path = dir.appendingPathComponent("f.slog").path
        events = Array(SyntheticSession(seed: seed, count: count))
        try writeLog(events, to: path, options: smallBatches(checkpointInterval: 40))
        bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var s = TableState()
        var states = [s]
        for e in events {
            try s.apply(e)
            states.append(s)
        }
        self.states = states
    }

    func write(_ data: [UInt8], as name: String) throws -> String {
        let p = dir.appendingPathComponent(name).path
        try Data(data).write(to: URL(fileURLWithPath: p))
        return p
    }
}

@Suite("Damaged logs")
struct DamageTests {
    @Test("truncation at every byte offset: verify counts the intact events, replay gives exactly that state")
    func truncationEverywhere() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        let log = try LogReader(path: f.path)
        #expect(log.records.filter { $0.header.kind == .batch }.count >= 3)
        #expect(log.records.contains { $0.header.kind == .checkpoint })
        // Events complete before each record ends.
        var completeAt: [(end: Int, events: Int)] = []
        for r in log.records where r.header.kind == .batch { completeAt.append((r.end, r.header.firstEvent + r.header.eventCount)) }
        // A cut exactly between records leaves a shorter, intact log.
        let boundaries = Set([LogFormat.fileHeaderSize] + log.records.map(\.end))
        let path = f.dir.appendingPathComponent("cut.slog").path
        for cut in 0..<f.bytes.count {
            try Data(f.bytes.prefix(cut)).write(to: URL(fileURLWithPath: path))
            let expected = completeAt.last { $0.end <= cut }?.events ?? 0
            let report = try LogReader.verify(path: path)
            #expect(report.isIntact == boundaries.contains(cut), "cut \(cut)")
            #expect(report.intactEvents == expected, "cut \(cut)")
            if !boundaries.contains(cut) {
                #expect(report.problem?.isTornTail == true, "cut \(cut): \(String(describing: report.problem))")
                let intactBytes = cut < LogFormat.fileHeaderSize ? 0 : (log.records.last { $0.end <= cut }?.end ?? LogFormat.fileHeaderSize)
                #expect(report.intactBytes == intactBytes, "cut \(cut)")
            }
            if cut < LogFormat.fileHeaderSize {
                #expect(throws: LogError.self) { try LogReader(path: path) }
                continue
            }
            let reader = try LogReader(path: path)
            #expect(reader.eventCount == expected, "cut \(cut)")
            #expect(try reader.state(at: expected) == f.states[expected], "cut \(cut)")
        }
    }

    @Test("1,000 random single-bit flips are all detected, and never give a wrong state")
    func bitFlips() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        var rng = SeededRandom(seed: 2026)
        let path = f.dir.appendingPathComponent("flip.slog").path
        var regions: [String: Int] = [:]
        let log = try LogReader(path: f.path)
        for k in 0..<1000 {
            var damaged = f.bytes
            let at = Int.random(in: 0..<damaged.count, using: &rng)
            damaged[at] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            let record = log.records.first { $0.offset <= at && at < $0.end }
            let region = at < LogFormat.fileHeaderSize ? "file header"
                : (record.map { at < $0.payloadStart ? "\($0.header.kind) header" : "\($0.header.kind) payload" } ?? "?")
            regions[region, default: 0] += 1
            let report = try LogReader.verify(path: path)
            #expect(!report.isIntact, "flip \(k) at \(at) (\(region)) went undetected")
            // Whatever the reader makes of it, it never returns a wrong state.
            if let reader = try? LogReader(path: path) {
                for n in [reader.eventCount, reader.eventCount / 2] {
                    if let s = try? reader.state(at: n) { #expect(s == f.states[n], "flip \(k) at \(at) (\(region)): wrong state") }
                }
            }
        }
        // Every region of the file was hit.
        for region in ["file header", "batch header", "batch payload", "checkpoint header", "checkpoint payload", "index header", "index payload"] {
            #expect(regions[region, default: 0] > 0, "no flip landed in \(region)")
        }
    }

    @Test("garbage appended after a valid tail is detected")
    func garbageAppended() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        for garbage in [[UInt8](repeating: 0x41, count: 200), Array("SLRB not really a record, just text that goes on".utf8), [1, 2, 3]] {
            let path = try f.write(f.bytes + garbage, as: "g.slog")
            let report = try LogReader.verify(path: path)
            #expect(!report.isIntact)
            #expect(report.intactEvents == f.events.count)
            #expect(report.intactBytes == f.bytes.count)
        }
    }

    @Test("a duplicated batch is detected at its offset")
    func duplicatedBatch() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        let log = try LogReader(path: f.path)
        let batch = try #require(log.records.first { $0.header.kind == .batch && $0.header.firstEvent > 0 })
        let copy = Array(f.bytes[batch.offset..<batch.end])
        let damaged = Array(f.bytes[..<batch.end]) + copy + Array(f.bytes[batch.end...])
        let path = try f.write(damaged, as: "d.slog")
        let report = try LogReader.verify(path: path)
        #expect(report.problem?.offset == batch.end)
        #expect(report.problem?.isTornTail == false)
        #expect(report.intactEvents == batch.header.firstEvent + batch.header.eventCount)
        #expect(throws: LogError.self) { try LogReader(path: path).state(at: 0) }
    }

    @Test("a record from another file (another salt) spliced in is detected")
    func splicedSalt() throws {
        let a = try Fixture(seed: 11)
        defer { try? FileManager.default.removeItem(at: a.dir) }
        // The same events, so the same bytes but for the salt.
        var options = smallBatches(checkpointInterval: 40)
        options.salt = 0xBAD5A17
        let otherPath = a.dir.appendingPathComponent("other.slog").path
        try writeLog(a.events, to: otherPath, options: options)
        let other = Array(try Data(contentsOf: URL(fileURLWithPath: otherPath)))
        let log = try LogReader(path: a.path)
        let batch = try #require(log.records.filter { $0.header.kind == .batch }.dropFirst().first)
        var spliced = a.bytes
        spliced.replaceSubrange(batch.offset..<batch.end, with: other[batch.offset..<batch.end])
        let path = try a.write(spliced, as: "s.slog")
        let report = try LogReader.verify(path: path)
        #expect(report.problem?.offset == batch.offset)
        #expect(report.problem?.reason.contains("checksum") == true)
        #expect(report.intactEvents == batch.header.firstEvent)
    }

    @Test("damage in the middle is an error with its byte offset, never skipped")
    func middleDamageIsReported() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        let log = try LogReader(path: f.path)
        let batch = try #require(log.records.filter { $0.header.kind == .batch }.dropFirst().first)
        var damaged = f.bytes
        damaged[batch.offset + 20] ^= 0x10  // the header's event count
        // Remove the index so the reader scans.
        let index = try #require(log.records.last)
        damaged.removeSubrange(index.offset...)
        let path = try f.write(damaged, as: "m.slog")
        do {
            _ = try LogReader(path: path)
            Issue.record("opened a log damaged in the middle")
        } catch {
            #expect(error.code == .damaged)
            #expect(error.offset == batch.offset)
            #expect(error.eventIndex == batch.header.firstEvent)
        }
        #expect(throws: LogError.self) { try Recorder(appendingTo: path) }
    }

    @Test("a read past damage throws it; reads before it still answer, before and after it was found")
    func readsBeforeDamageAnswer() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        let records = try LogReader(path: f.path).records
        let batch = try #require(records.last { $0.header.kind == .batch && $0.header.firstEvent > 60 })
        var damaged = f.bytes
        damaged[batch.end - 1] ^= 0x40  // its payload checksum fails; the index stays sound
        let path = try f.write(damaged, as: "r.slog")
        let log = try LogReader(path: path)
        let before = batch.header.firstEvent
        #expect(throws: LogError.self) { try log.state(at: before + 1) }
        // The same answers a fresh reader gives, which never met the damage.
        let fresh = try LogReader(path: path)
        #expect(try log.state(at: before - 1) == f.states[before - 1])
        #expect(try log.state(at: before / 2) == fresh.state(at: before / 2))
        #expect(try log.events(to: before - 1) == fresh.events(to: before - 1))
        #expect(throws: LogError.self) { try log.events(to: before + 1) }
    }

    @Test("the state after n events needs no record after them: damage right after a checkpoint at n leaves --at n answering")
    func damageAfterCheckpointLeavesItsState() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        let records = try LogReader(path: f.path).records
        // The record after the checkpoint at 40: the batch of event 41 on.
        let checkpoint = try #require(records.first { $0.header.kind == .checkpoint && $0.header.firstEvent == 40 })
        let next = try #require(records.first { $0.offset == checkpoint.end })
        var damaged = f.bytes
        damaged[next.end - 1] ^= 0x40
        let path = try f.write(damaged, as: "c.slog")
        // Both orders: the damage found by this read, or by an earlier one.
        for first in [40, 41] {
            let log = try LogReader(path: path)
            if first == 41 { #expect(throws: LogError.self) { try log.state(at: 41) } }
            #expect(try log.state(at: 40) == f.states[40])
            #expect(try log.state(at: 39) == f.states[39])
            #expect(throws: LogError.self) { try log.state(at: 41) }
        }
        // A damaged checkpoint at n itself: the state after n comes from the one before it.
        var badCheckpoint = f.bytes
        badCheckpoint[checkpoint.end - 1] ^= 0x40
        let log = try LogReader(path: try f.write(badCheckpoint, as: "k.slog"))
        #expect(try log.state(at: 40) == f.states[40])
        #expect(throws: LogError.self) { try log.state(at: 41) }
    }

    @Test("reopening for append cuts a torn tail first")
    func appendCutsTornTail() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        let log = try LogReader(path: f.path)
        let batches = log.records.filter { $0.header.kind == .batch }
        let last = try #require(batches.last)
        let path = try f.write(Array(f.bytes[..<(last.end - 5)]), as: "t.slog")
        let recorder = try Recorder(appendingTo: path, options: smallBatches(checkpointInterval: 40))
        #expect(recorder.eventCount == last.header.firstEvent)
        for e in f.events[last.header.firstEvent...] { try recorder.append(e) }
        try recorder.close()
        #expect(try LogReader.verify(path: path).isIntact)
        #expect(try LogReader(path: path).events() == f.events)
    }
    @Test("the torn-tail rule: a damaged record followed by whole records is damage, even when zeros end the file")
    func damageBeforeWholeRecordsIsNotATornTail() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        let log = try LogReader(path: f.path)
        let index = try #require(log.records.last)
        let batch = try #require(log.records.filter { $0.header.kind == .batch }.dropFirst().first)
        #expect(batch.end < index.offset)
        for zeros in [0, 1, 4096] {
            // No index (a crash leaves none), a payload byte of the second batch flipped, then zeros.
            var damaged = Array(f.bytes[..<index.offset])
            damaged[batch.payloadStart + 1] ^= 0x20
            damaged += [UInt8](repeating: 0, count: zeros)
            let path = try f.write(damaged, as: "z.slog")
            let report = try LogReader.verify(path: path)
            #expect(report.problem?.offset == batch.offset, "\(zeros) zeros")
            #expect(report.problem?.isTornTail == false, "\(zeros) zeros: \(String(describing: report.problem))")
            #expect(report.intactEvents == batch.header.firstEvent)
            let error = #expect(throws: LogError.self) { try LogReader(path: path) }
            #expect(error?.code == .damaged && error?.offset == batch.offset)
            #expect(throws: LogError.self) { try Recorder(appendingTo: path) }
        }
    }

    @Test("the torn-tail rule: a damaged last record with no zeros after it is damage; cut and padded with zeros, a torn tail")
    func lastRecordDamagedOrTorn() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.dir) }
        let log = try LogReader(path: f.path)
        let index = try #require(log.records.last)
        // The file is cut after the last record that ends in a non-zero byte (a stored
        // payload, in a build without zstd, may end in zeros of its own; then nothing
        // could tell damage before them from a cut padded with zeros), and whose payload
        // has more than 4 bytes (a format 4 continued batch may have fewer).
        let last = try #require(log.records.dropLast().last { f.bytes[$0.end - 1] != 0 && $0.end - $0.payloadStart > 4 })
        #expect(last.end <= index.offset && last.end - last.payloadStart > 4)
        // A flipped payload byte in the middle of the last record: nothing says a crash cut it.
        var flipped = Array(f.bytes[..<last.end])
        flipped[last.payloadStart + 2] ^= 0x04
        let damagedPath = try f.write(flipped, as: "d.slog")
        let damaged = try LogReader.verify(path: damagedPath)
        #expect(damaged.problem?.offset == last.offset && damaged.problem?.isTornTail == false)
        #expect(throws: LogError.self) { try LogReader(path: damagedPath) }
        // Cut in its header, or in its payload, then zeros to the old length and beyond: torn.
        for cut in [last.offset + 7, last.payloadStart + 2, last.end - 1] {
            var torn = Array(f.bytes[..<cut])
            torn += [UInt8](repeating: 0, count: last.end - cut + 100)
            let path = try f.write(torn, as: "t.slog")
            let report = try LogReader.verify(path: path)
            #expect(report.problem?.offset == last.offset, "cut \(cut)")
            #expect(report.problem?.isTornTail == true, "cut \(cut): \(String(describing: report.problem))")
            #expect(report.intactBytes == last.offset)
            let reader = try LogReader(path: path)
            #expect(reader.tail?.offset == last.offset, "cut \(cut)")
            let whole = last.header.firstEvent
            #expect(reader.eventCount == whole)
            #expect(try reader.state(at: whole) == f.states[whole])
            let recorder = try Recorder(appendingTo: path, options: smallBatches(checkpointInterval: 40))
            #expect(recorder.eventCount == whole)
            try recorder.close()
            #expect(try LogReader.verify(path: path).isIntact)
        }
    }
}
