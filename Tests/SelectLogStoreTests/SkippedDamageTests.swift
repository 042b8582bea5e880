import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// Damage that a checkpoint after it would let a read skip: opening the log must find it.
@Suite("Damage hidden behind a checkpoint")
struct SkippedDamageTests {
    /// A log of 120 events in small batches with checkpoints every 40 events, with one
    /// payload byte of the first batch flipped; `indexed` keeps the stored seek index,
    /// otherwise the index record is cut off so that opening scans the records.
    private func damagedLog(indexed: Bool) throws -> (dir: URL, path: String, damagedAt: Int, lastCheckpoint: Int) {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent("d.slog").path
        _ = try writeLog(Array(SyntheticSession(seed: 5, count: 120)), to: path, options: smallBatches(checkpointInterval: 40))
        let clean = try LogReader(path: path)
        let batch = try #require(clean.records.first { $0.header.kind == .batch })
        let checkpoint = try #require(clean.records.last { $0.header.kind == .checkpoint })
        #expect(checkpoint.offset > batch.end)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[batch.payloadStart] ^= 0x5A
        if !indexed, let index = clean.records.last, index.header.kind == .index { bytes.removeLast(bytes.count - index.offset) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (dir, path, batch.offset, checkpoint.header.firstEvent)
    }

    @Test("a damaged batch before the last checkpoint is an error for every read, with or without the stored index",
          arguments: [true, false])
    func damageBeforeCheckpoint(indexed: Bool) throws {
        let d = try damagedLog(indexed: indexed)
        defer { try? FileManager.default.removeItem(at: d.dir) }
        #expect(try LogReader.verify(path: d.path).problem?.offset == d.damagedAt)
        do {
            let log = try LogReader(path: d.path)
            for n in [d.lastCheckpoint, d.lastCheckpoint + 1, log.eventCount] where n <= log.eventCount {
                let error = #expect(throws: LogError.self) { try log.state(at: n) }
                #expect(error?.code == .damaged)
                #expect(error?.offset == d.damagedAt)
            }
        } catch {
            #expect(error.code == .damaged)
            #expect(error.offset == d.damagedAt)
            #expect(error.description.contains("payload checksum mismatch"))
            #expect(error.description.contains("0 intact events before it"))
        }
    }
}

@Suite("Event numbers in errors")
struct ErrorEventNumberTests {
    @Test("a damaged second batch is reported at the event after the intact ones, numbered from 1")
    func oneBased() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("e.slog").path
        _ = try writeLog(Array(SyntheticSession(seed: 9, count: 60)), to: path, options: smallBatches(checkpointInterval: 40))
        let batches = try LogReader(path: path).records.filter { $0.header.kind == .batch }
        let second = try #require(batches.dropFirst().first)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[second.payloadStart] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let intact = try LogReader.verify(path: path).intactEvents
        #expect(intact == second.header.firstEvent)
        // A cleanly closed log checks each record before its first read (and every record
        // before it): the error comes with the first read that needs the damaged batch.
        let error = #expect(throws: LogError.self) { try LogReader(path: path).state(at: intact + 1) }
        #expect(error?.eventIndex == intact)
        #expect(error?.description.contains("event \(intact + 1): record payload checksum mismatch") == true,
                "\(String(describing: error))")
    }
}
