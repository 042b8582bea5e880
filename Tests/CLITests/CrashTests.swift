import Foundation
import SelectLog
import SelectLogStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Kills a recording process with SIGKILL at random moments and checks that every
/// acknowledged event survives, and that the log verifies after recovery and after
/// another append. A kill alone never tears a record (each is one write), so every
/// run also cuts its log inside the last record, and a second test tears freshly
/// written logs at random bytes. `make crash-test N=1000` runs more of both (CRASH_KILLS).
@Suite("Crash recovery")
struct CrashTests {
    static let kills = Int(ProcessInfo.processInfo.environment["CRASH_KILLS"] ?? "") ?? 100
    static let shards = 4

    @Test("SIGKILL at random moments loses no acknowledged event", arguments: 0..<shards)
    func killAndRecover(shard: Int) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var rng = SystemRandomNumberGenerator()
        let runs = (CrashTests.kills + CrashTests.shards - 1) / CrashTests.shards
        var acknowledgedRuns = 0, tornRuns = 0
        defer {
            // The kills must land while events are being acknowledged, or the test proves nothing.
            #expect(acknowledgedRuns * 4 >= runs * 3, "only \(acknowledgedRuns) of \(runs) runs acknowledged events before the kill")
            print("crash shard \(shard): \(runs) kills, \(acknowledgedRuns) after acknowledged events, \(tornRuns) left a torn tail")
        }
        for run in 0..<runs {
            let seed = UInt64(shard * 10_000 + run)
            let path = dir.appendingPathComponent("crash-\(run).slog").path
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = ["synthesize", "--events", "400000", "--seed", String(seed), "-o", path,
                                 "--durability", "always", "--flush-every", String(Int.random(in: 5...80, using: &rng)),
                                 "--print-acknowledged", "--batch-events", "64", "--checkpoint-interval", "500"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Most kills land once the helper is acknowledging (on a loaded machine its start
            // alone can outlast a fixed sleep); one in eight lands at any moment from the start.
            var early = Data()
            if run % 8 != 0 { early = out.fileHandleForReading.availableData }
            usleep(UInt32.random(in: run % 8 == 0 ? 30_000...400_000 : 0...300_000, using: &rng))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let printed = String(decoding: early + out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let acknowledged = printed.split(separator: "\n").compactMap { Int($0) }.last ?? 0
            #expect(process.terminationReason == .uncaughtSignal, "run \(run): the helper finished before the kill")

            // Whatever the kill left: every acknowledged event is there, in order.
            guard FileManager.default.fileExists(atPath: path),
                  let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int,
                  size >= LogFormat.fileHeaderSize else {
                #expect(acknowledged == 0, "run \(run): no log, but \(acknowledged) events were acknowledged")
                continue
            }
            // Tear the last record on a copy: every acknowledged event of a whole record survives.
            try CrashTests.tearLastRecord(of: path, acknowledged: acknowledged, seed: seed, using: &rng)
            let reader = try LogReader(path: path)
            if acknowledged > 0 { acknowledgedRuns += 1 }
            if reader.tail != nil { tornRuns += 1 }
            #expect(reader.eventCount >= acknowledged, "run \(run): \(reader.eventCount) events recovered, \(acknowledged) acknowledged")
            let expected = Array(SyntheticSession(seed: seed, count: reader.eventCount + 50))
            #expect(try reader.events() == Array(expected.prefix(reader.eventCount)), "run \(run)")

            // Recovery (cutting a torn tail) leaves a log that verifies.
            let recovered = try Recorder(appendingTo: path)
            try recorderClose(recovered)
            #expect(try LogReader.verify(path: path).isIntact, "run \(run): not intact after recovery")

            // A second append continues the session and still verifies.
            let more = try Recorder(appendingTo: path)
            for e in expected[reader.eventCount...] { try more.append(e) }
            try recorderClose(more)
            let report = try LogReader.verify(path: path)
            #expect(report.isIntact && report.intactEvents == expected.count, "run \(run): \(String(describing: report.problem))")
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    private func recorderClose(_ r: Recorder) throws { try r.close() }

    /// Copies the log at `path`, cuts the copy at a random byte inside its last record
    /// (with `zeros`, followed by zeros, as a file system may leave it), and checks
    /// that the reader keeps exactly the events of the whole records before it, in
    /// order, reports the torn tail, and that recovery leaves a log that verifies.
    static func tearLastRecord(of path: String, acknowledged: Int, seed: UInt64, zeros: Bool = false,
                               using rng: inout some RandomNumberGenerator) throws {
        let intact = try LogReader(path: path)
        guard let last = intact.records.last, last.end - last.offset > 1 else { return }
        let whole = intact.records.dropLast().filter { $0.header.kind == .batch }
            .map { $0.header.firstEvent + $0.header.eventCount }.max() ?? 0
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(last.end))
        let cut = Int.random(in: (last.offset + 1)..<last.end, using: &rng)
        bytes.removeSubrange(cut...)
        // With `zeros`, the file ends in zeros after the cut, as a preallocated extent may.
        let zeroCount = zeros ? Int.random(in: 1...4096, using: &rng) : 0
        bytes += [UInt8](repeating: 0, count: zeroCount)
        let torn = path + ".torn"
        defer { try? FileManager.default.removeItem(atPath: torn) }
        try Data(bytes).write(to: URL(fileURLWithPath: torn))
        let how = "seed \(seed): cut at \(cut) inside [\(last.offset), \(last.end)), then \(zeroCount) zero bytes"
        let reader = try LogReader(path: torn)
        #expect(reader.tail != nil, "\(how): the torn record was not reported")
        #expect(reader.eventCount == whole, "\(how): \(reader.eventCount) events kept, \(whole) in whole records")
        #expect(reader.eventCount >= min(acknowledged, whole), "\(how): an acknowledged event of a whole record was lost")
        #expect(try reader.events() == Array(SyntheticSession(seed: seed, count: whole)), "\(how)")
        let recovered = try Recorder(appendingTo: torn)
        try recovered.close()
        let report = try LogReader.verify(path: torn)
        #expect(report.isIntact && report.intactEvents == whole, "\(how): \(String(describing: report.problem))")
    }

    @Test("a record cut and followed by zeros is a torn tail too (LOG-FORMAT.md: \"file ends inside a record, or in zeros\")")
    func tornRecordsThenZeros() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var rng = SplitMix64(seed: 7)
        let path = dir.appendingPathComponent("zeros.slog").path
        var options = Recorder.Options()
        options.batchEvents = 16
        options.durability = .none
        let recorder = try Recorder(creating: path, options: options)
        for e in SyntheticSession(seed: 7, count: 100) { try recorder.append(e) }
        try recorder.flush()
        for _ in 0..<20 { try CrashTests.tearLastRecord(of: path, acknowledged: 100, seed: 7, zeros: true, using: &rng) }
        try recorder.close()
    }

    static let tears = Int(ProcessInfo.processInfo.environment["CRASH_KILLS"] ?? "") ?? 100

    @Test("a record torn at any byte loses only itself: every event of a whole record survives")
    func tornRecords() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var rng = SplitMix64(seed: UInt64(ProcessInfo.processInfo.environment["CRASH_SEED"] ?? "") ?? 13)
        var options = Recorder.Options()
        options.batchEvents = 16
        options.checkpointInterval = 40
        options.durability = .none
        for run in 0..<CrashTests.tears {
            let seed = UInt64(run) &+ 0x1300
            let path = dir.appendingPathComponent("tear-\(run).slog").path
            let recorder = try Recorder(creating: path, options: options)
            let count = Int.random(in: 1...120, using: &rng)
            for e in SyntheticSession(seed: seed, count: count) { try recorder.append(e) }
            try recorder.flush()
            // Left unclosed, as a crash leaves it: no index record at the end.
            try CrashTests.tearLastRecord(of: path, acknowledged: count, seed: seed, using: &rng)
            try recorder.close()
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
