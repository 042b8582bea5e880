import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// When the system will not start a thread (an address-space limit such as `ulimit -v`,
/// a process's thread limit), a replay, `verify` and `check` go on with the threads they
/// got or on the caller's, with the same results; a recorder fails at once with the
/// reason. `Foundation.Thread` said nothing, and `replay --from-start` under
/// `ulimit -v 100000` waited forever for a decoder that never started.
/// (`WorkerThread.allowingStarts(n)` makes starts after the first n fail, in this task only.)
@Suite("Threads the system would not start")
struct ThreadStartFailureTests {
    /// A log of 20,000 random-walk events, a checkpoint every 2,048, batches of 300; and
    /// the events.
    static func log(in dir: URL) throws -> (path: String, events: [TimedEvent]) {
        let path = dir.appendingPathComponent("t.slog").path
        let events = Array(RandomWalkSession(seed: 21, count: 20_000))
        let w = try LogRewriter(path: path, checkpointInterval: 2_048, batchEvents: 300, putsOffLargeCheckpoints: false)
        for e in events { try w.append(e) }
        try w.close()
        return (path, events)
    }

    @Test("a replay that gets none, some or all of its decoding threads reaches the state applying in turn does",
          arguments: [0, 1, 2, 3, 4])
    func replay(allowed: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, events) = try Self.log(in: dir)
        var expected = TableState()
        for e in events { try expected.apply(e) }
        let log = try LogReader(path: path)
        var state = TableState()
        try WorkerThread.allowingStarts(allowed) {
            try log.replay(into: &state, to: events.count, pipelinedFrom: 1, segmentEvents: 3_001, decoders: 4)
        }
        #expect(state == expected)
        // The pipelined replay itself says when it could not start: the state untouched.
        var other = TableState()
        let ran = try WorkerThread.allowingStarts(allowed) {
            try log.pipelinedReplay(into: &other, to: events.count, segmentEvents: 3_001, decoders: 4)
        }
        #expect(ran == (allowed > 0))
        #expect(other == (allowed > 0 ? expected : TableState()))
    }

    @Test("verify (with its checking threads and its deep replay) and check report the same without threads",
          arguments: [0, 1, 2])
    func verifyAndCheck(allowed: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _) = try Self.log(in: dir)
        // Intact, and with a byte of a batch in the middle flipped (its checksum fails).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let damaged = dir.appendingPathComponent("d.slog").path
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: damaged))
        for file in [path, damaged] {
            let expected = try LogReader.verify(path: file, replaying: true, engine: .standard, pipelinedFrom: 1, checkThreads: 2)
            let got = try WorkerThread.allowingStarts(allowed) {
                try LogReader.verify(path: file, replaying: true, engine: .standard, pipelinedFrom: 1, checkThreads: 2)
            }
            #expect(got == expected, "\(file)")
        }
        #expect(try LogReader.verify(path: damaged, replaying: false).problem != nil)
        let reader = try LogReader(path: path)
        let expected = try reader.check(pipelinedFrom: 1, segmentEvents: 3_001)
        let got = try WorkerThread.allowingStarts(allowed) { try reader.check(pipelinedFrom: 1, segmentEvents: 3_001) }
        // The pipelined check itself ran with the threads it got, or said it could not start.
        let pipelined = try WorkerThread.allowingStarts(allowed) { try reader.pipelinedCheck(segmentEvents: 3_001) }
        #expect((pipelined != nil) == (allowed > 0))
        #expect(pipelined.map { $0.gesturesCompared == expected.gesturesCompared && $0.checkpointsCompared == expected.checkpointsCompared } ?? true)
        #expect(expected.isSame && got.isSame)
        #expect(got.events == expected.events && got.events == 20_000)
        #expect(got.gesturesCompared == expected.gesturesCompared && got.checkpointsCompared == expected.checkpointsCompared)
    }

    @Test("a recorder whose writer thread cannot start throws .io at once, and leaves no file it made")
    func recorder() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.slog").path
        do {
            _ = try WorkerThread.allowingStarts(0) { try Recorder(creating: path) }
            Issue.record("a recorder was made without its writer thread")
        } catch let error as LogError {
            #expect(error.code == .io)
            #expect(error.description.contains("cannot start the recorder's writer thread"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        // Reopening a log to append: refused alike, the log as it was.
        let (log, events) = try Self.log(in: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        #expect(throws: LogError.self) { _ = try WorkerThread.allowingStarts(0) { try Recorder(appendingTo: log) } }
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
        // With its thread, it records.
        let recorder = try WorkerThread.allowingStarts(1) { try Recorder(appendingTo: log) }
        try recorder.append(TimedEvent(.tick, t: Micros(raw: (events.last?.t?.raw ?? 0) + 1)))
        try recorder.close()
        #expect(try LogReader(path: log).eventCount == events.count + 1)
    }
}
