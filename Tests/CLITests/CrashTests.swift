import Foundation
import SelectLog
import SelectLogStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Kills a recording process with SIGKILL at random moments and checks that every
/// acknowledged event survives, and that the log verifies after recovery and after
/// another append. `make crash-test N=1000` runs more kills (CRASH_KILLS).
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
            usleep(UInt32.random(in: 30_000...400_000, using: &rng))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let acknowledged = printed.split(separator: "\n").compactMap { Int($0) }.last ?? 0
            #expect(process.terminationReason == .uncaughtSignal, "run \(run): the helper finished before the kill")

            // Whatever the kill left: every acknowledged event is there, in order.
            guard FileManager.default.fileExists(atPath: path),
                  let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int,
                  size >= LogFormat.fileHeaderSize else {
                #expect(acknowledged == 0, "run \(run): no log, but \(acknowledged) events were acknowledged")
                continue
            }
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
}
