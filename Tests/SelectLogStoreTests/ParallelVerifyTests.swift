import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// `verify` of a long log checks its batches on other threads while the caller's walks
/// the headers (`DeepCheckPool`), and scans again in turn when a check fails there. Its
/// report must be the report of a scan in turn, whatever the damage and wherever it is:
/// the same first bad byte, reason, intact events and records. The logs are
/// `AlignedSegmentTests`'s (random-walk events, a window of coded batches after each
/// checkpoint, about 600 events), damaged in its six ways at windows early, in the
/// middle and last and in a window's last batch, cut short, and written with windows
/// too long for the pool.
@Suite("Verify: records checked on other threads")
struct ParallelVerifyTests {
    /// The reports of `verify` in turn and with 1 to 3 checking threads, which must agree.
    static func reports(_ path: String, replaying: Bool = false) throws -> [VerifyReport] {
        try [0, 1, 2, 3].map { threads throws(LogError) in
            try LogReader.verify(path: path, replaying: replaying, engine: .standard, checkThreads: threads)
        }
    }

    /// The pristine log with `damage` done to the window that starts after `after` events.
    static func damaged(_ damage: AlignedSegmentTests.Damage, windowAfter after: Int, in dir: URL) throws -> String {
        let (_, log, pristine, _) = try AlignedSegmentTests.pristineLog(in: dir)
        let records = log.records
        // The first window from `after` on that follows a checkpoint and holds a continued batch.
        let first = try #require(records.indices.first { i in
            let r = records[i]
            return r.header.kind == .batch && !r.header.continues && r.header.firstEvent >= after && i > 0 && i + 1 < records.count
                && records[i - 1].header.kind == .checkpoint && records[i + 1].header.continues
        }.map { records[$0] })
        let checkpoint = try #require(records.last { $0.end == first.offset })
        let second = try #require(records.first { $0.offset == first.end })
        try #require(checkpoint.header.kind == .checkpoint && second.header.continues)
        let record = switch damage {
        case .windowStartChecksum, .windowStartDecoding: first
        case .continuedChecksum, .continuedDecoding: second
        case .checkpointChecksum, .checkpointContents: checkpoint
        }
        var bytes = pristine
        try AlignedSegmentTests.damage(&bytes, damage, at: record, salt: log.header.salt)
        return try AlignedSegmentTests.write(bytes, in: dir, "d-\(damage)-\(after).slog")
    }

    @Test("an intact log: every batch passes on the pool's threads, and the report is the scan in turn's")
    func intact() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, log, pristine, _) = try AlignedSegmentTests.pristineLog(in: dir)
        let reports = try Self.reports(path, replaying: true)
        #expect(reports[0].isIntact && reports[0].intactEvents == AlignedSegmentTests.count)
        #expect(reports[0].checkpointsReplayed > 10)
        for r in reports.dropFirst() { #expect(r == reports[0]) }
        // The pool did check them: a scan on threads that passed needs no scan in turn, and
        // walked what the scan in turn did.
        pristine.withUnsafeBytes { bytes in
            let inTurn = LogScan.scan(bytes, deep: true, keep: false)
            for threads in 1...3 {
                let pooled = LogScan.scan(bytes, deep: true, keep: false, threads: threads)
                #expect(!pooled.needsScanInTurn)
                #expect(pooled.problem == nil && pooled.eventCount == inTurn.eventCount)
                #expect(pooled.recordCount == inTurn.recordCount && pooled.goodEnd == inTurn.goodEnd)
                #expect(pooled.last == inTurn.last)
            }
            #expect(inTurn.recordCount == log.records.count)
        }
    }

    @Test("damage in a window early, in the middle or last: the report of the scan in turn",
          arguments: AlignedSegmentTests.Damage.allCases, [1, 4_000, 7_400])
    func damage(damage: AlignedSegmentTests.Damage, after: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.damaged(damage, windowAfter: after, in: dir)
        let reports = try Self.reports(path)
        for r in reports.dropFirst() { #expect(r == reports[0], "\(damage) after \(after)") }
        if damage == .checkpointContents {
            // Bytes of the state changed, but it may still decode: the checkpoint's own
            // checks, not the pool's, say whether it is intact.
            return
        }
        #expect(!reports[0].isIntact, "\(damage) after \(after)")
        if damage == .windowStartDecoding || damage == .continuedDecoding {
            // Only decoding finds it: on the pool's threads, which leave the report to the
            // scan in turn.
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let problem = try #require(reports[0].problem)
            bytes.withUnsafeBytes { b in
                let pooled = LogScan.scan(b, deep: true, keep: false, threads: 2)
                #expect(pooled.needsScanInTurn)
                // What passed on the pool ends at or before the damaged batch, and the scan
                // in turn that skips it says what a whole scan in turn says.
                #expect(pooled.passedEnd <= problem.offset)
                let inTurn = LogScan.scan(b, deep: true, keep: false)
                let again = LogScan.scan(b, deep: true, keep: false, checkedBefore: pooled.passedEnd)
                #expect(again.problem == inTurn.problem && again.problem?.offset == problem.offset)
                #expect(again.eventCount == inTurn.eventCount && again.recordCount == inTurn.recordCount)
                #expect(again.goodEnd == inTurn.goodEnd && !again.needsScanInTurn)
            }
        }
    }

    @Test("a scan in turn skips the deep checks of the batches before checkedBefore, and only those")
    func checkedBeforeSkipsOnlyThose() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.damaged(.windowStartDecoding, windowAfter: 4_000, in: dir)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let problem = try #require(try LogReader.verify(path: path, replaying: false, engine: .standard, checkThreads: 0).problem)
        // The damaged batch starts its window: its header verifies, only decoding fails it.
        let headers = bytes.withUnsafeBytes { LogScan.scan($0, deep: false) }
        let record = try #require(headers.records.first { $0.offset == problem.offset })
        #expect(record.header.kind == .batch && !record.header.continues)
        let after = headers.records.drop { $0.offset <= record.offset }
        let windowEnd = after.prefix { $0.header.kind == .batch && $0.header.continues }.last?.end ?? record.end
        bytes.withUnsafeBytes { b in
            // Ending before it, or at its first byte: the batch is checked, and fails.
            #expect(LogScan.scan(b, deep: true, keep: false, checkedBefore: record.offset).problem == problem)
            #expect(LogScan.scan(b, deep: true, keep: false, checkedBefore: record.end - 1).problem == problem)
            // Past its window (checkedBefore ends one): not checked, so the walk goes on past
            // it, and finds nothing else.
            let skipped = LogScan.scan(b, deep: true, keep: false, checkedBefore: windowEnd)
            #expect(skipped.problem == nil && skipped.goodEnd == b.count)
        }
    }

    @Test("damage in the last batch of a window (before a checkpoint), to its checksum or only its decoding",
          arguments: [false, true], [1, 2_000, 4_000])
    func lastBatchOfAWindow(decoding: Bool, after: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, log, pristine, _) = try AlignedSegmentTests.pristineLog(in: dir)
        let records = log.records
        let k = try #require(records.indices.first { i in
            i + 1 < records.count && records[i].header.kind == .batch && records[i].header.firstEvent >= after
                && records[i + 1].header.kind == .checkpoint && records[i].header.storedLength >= 24
        })
        try #require(records[k].header.continues, "a window of several batches")
        var bytes = pristine
        try AlignedSegmentTests.damage(&bytes, decoding ? .continuedDecoding : .continuedChecksum, at: records[k],
                                       salt: log.header.salt)
        let path = try AlignedSegmentTests.write(bytes, in: dir, "last.slog")
        let reports = try Self.reports(path)
        #expect(!reports[0].isIntact && reports[0].problem?.offset == records[k].offset)
        for r in reports.dropFirst() { #expect(r == reports[0], "after \(after), decoding \(decoding)") }
    }

    @Test("a log cut short, at a record boundary or inside one: the report of the scan in turn",
          arguments: [0.2, 0.5, 0.9, 0.999])
    func cutShort(fraction: Double) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, log, pristine, _) = try AlignedSegmentTests.pristineLog(in: dir)
        let cut = Int(Double(pristine.count) * fraction)
        let boundary = try #require(log.records.last { $0.end <= cut }).end
        for length in [cut, boundary] {
            let path = try AlignedSegmentTests.write(Array(pristine[..<length]), in: dir, "cut-\(length).slog")
            let reports = try Self.reports(path)
            for r in reports.dropFirst() { #expect(r == reports[0], "cut at \(length)") }
        }
    }

    @Test("windows of one-event batches (a recorder that flushes at every event) are checked on the pool's threads")
    func oneEventBatches() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("flushed.slog").path
        // One event a batch, a checkpoint (and a window) every 8,192 events, as the writer
        // makes them: windows of up to 8,192 batches.
        let w = try LogRewriter(path: path, checkpointInterval: 8_192, batchEvents: 1)
        for e in RandomWalkSession(seed: 9, count: 20_000) { try w.append(e) }
        try w.close()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.withUnsafeBytes { b in
            #expect(!LogScan.scan(b, deep: true, keep: false, threads: 2).needsScanInTurn)
        }
        let reports = try Self.reports(path)
        #expect(reports[0].isIntact && reports[0].intactEvents == 20_000)
        for r in reports.dropFirst() { #expect(r == reports[0]) }
    }

    @Test("a window of more batches than the pool takes (forged: past 8,192 events they do not decode): the scan in turn's report")
    func longWindow() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A version 4 window of one-event batches, more than a unit may have.
        let count = DeepCheckPool.maxUnitRecords + 100
        var forge = Forge(interval: 8192, version: 4)
        forge.window(RandomWalkSession(seed: 9, count: count).map { [$0] }, first: 0, baseTime: 0)
        let path = dir.appendingPathComponent("long.slog").path
        try forge.write(to: path)
        forge.bytes.withUnsafeBytes { b in
            #expect(LogScan.scan(b, deep: true, keep: false, threads: 2).needsScanInTurn)
        }
        let reports = try Self.reports(path)
        #expect(!reports[0].isIntact)
        for r in reports.dropFirst() { #expect(r == reports[0]) }
    }

    @Test("a unit of more records or bytes than the pool takes is refused, and the pool then fails")
    func refusesLargeUnits() throws {
        let pool = DeepCheckPool.self
        #expect(pool.fits(records: pool.maxUnitRecords, bytes: pool.maxUnitBytes))
        #expect(!pool.fits(records: pool.maxUnitRecords + 1, bytes: 100))
        #expect(!pool.fits(records: 1, bytes: pool.maxUnitBytes + 1))
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, log, pristine, _) = try AlignedSegmentTests.pristineLog(in: dir)
        let batch = try #require(log.records.first { $0.header.kind == .batch && !$0.header.continues })
        pristine.withUnsafeBytes { bytes in
            let checks = DeepCheckPool(bytes, salt: log.header.salt, version: log.header.version, threads: 2)
            #expect(checks.check([batch]))
            #expect(checks.waitForAll())
            #expect(!checks.check(Array(repeating: batch, count: pool.maxUnitRecords + 1)))
            #expect(!checks.check([batch]))
            #expect(!checks.finish())
        }
    }
}
