import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// The recorder findings of issue 9, one test each.
@Suite("Recorder an app can trust")
struct RecorderTests {
    @Test("four threads appending 8,000 clock-stamped events: none is rejected as out of order")
    func stampedAppendsFromFourThreads() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        let recorder = try Recorder(creating: path, options: smallBatches())
        try recorder.append(.reload(sections: [SectionSpec(rows: 100)]))
        let rejected = LockedBox(0)
        DispatchQueue.concurrentPerform(iterations: 4) { k in
            for i in 0..<2000 {
                let event: Event = i % 2 == 0 ? .tick : .scroll(to: Points(k * 10 + i % 7))
                do { try recorder.append(event) } catch { rejected.withLockedValue { $0 += 1 } }
            }
        }
        try recorder.close()
        #expect(rejected.withLockedValue { $0 } == 0)
        let log = try LogReader(path: path)
        #expect(log.eventCount == 8001)
        let times = try log.events().map { $0.t }
        #expect(times.allSatisfy { $0 != nil })
        let stamps = times.compactMap { $0 }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(try log.state(at: 8001) == recorder.state)
    }

    @Test("the recorder's clock resumes from the log's last time when appending to it")
    func clockResumes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        let first = try Recorder(creating: path, options: smallBatches())
        try first.append(TimedEvent(.reload(sections: [SectionSpec(rows: 10)]), t: .milliseconds(60_000)))
        try first.close()
        let again = try Recorder(appendingTo: path, options: smallBatches())
        try again.append(.tick)
        #expect(again.state.t >= .milliseconds(60_000))
        try again.close()
    }

    @Test("creating a recorder where a file exists is an error, and the file is left as it was")
    func creatingOverAnExistingLog() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("reported.slog").path
        try writeLog([TimedEvent(.reload(sections: [SectionSpec(rows: 5)])), TimedEvent(.select(rows: [RowPath(0, 2)]))],
                     to: path, options: smallBatches())
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try Recorder(creating: path, options: smallBatches())
            Issue.record("creating over an existing log succeeded")
        } catch {
            #expect(error.code == .alreadyExists)
            #expect(error.description.contains("reported.slog"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try LogReader(path: path).eventCount == 2)

        let replacing = try Recorder(creating: path, options: smallBatches(), replacingExisting: true)
        try replacing.close()
        #expect(try LogReader(path: path).eventCount == 0)
    }

    @Test("close() from eight threads at once: one index, a verifiable log, the same outcome for all")
    func concurrentClose() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for round in 0..<30 {
            let path = dir.appendingPathComponent("c\(round).slog").path
            let recorder = try Recorder(creating: path, options: smallBatches())
            try recorder.append(.reload(sections: [SectionSpec(rows: 50)]))
            for i in 0..<60 { try recorder.append(.select(rows: [RowPath(0, i % 50)])) }
            let failures = LockedBox(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do { try recorder.close() } catch { failures.withLockedValue { $0 += 1 } }
            }
            #expect(failures.withLockedValue { $0 } == 0, "round \(round)")
            let report = try LogReader.verify(path: path)
            #expect(report.isIntact, "round \(round): \(String(describing: report.problem))")
            let log = try LogReader(path: path)
            #expect(log.usedStoredIndex, "round \(round)")
            #expect(log.eventCount == 61)
            #expect(log.records.filter { $0.header.kind == .index }.count <= 1)
            #expect(throws: LogError.self) { try recorder.append(.tick) }
            let again = try Recorder(appendingTo: path, options: smallBatches())
            try again.append(.tick)
            try again.close()
            #expect(try LogReader.verify(path: path).isIntact)
        }
    }

    @Test("close() after close() returns at once with the same outcome")
    func closeTwice() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("twice.slog").path
        let recorder = try Recorder(creating: path, options: smallBatches())
        try recorder.append(.reload(sections: [SectionSpec(rows: 3)]))
        try recorder.close()
        try recorder.close()
        #expect(try LogReader.verify(path: path).isIntact)
    }

    @Test("a recorder and its log can be handed to a Task (Sendable)")
    func sendable() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("task.slog").path
        let recorder = try Recorder(creating: path, options: smallBatches())
        let count = try await Task.detached {
            try recorder.append(.reload(sections: [SectionSpec(rows: 3)]))
            try recorder.close()
            return recorder.count
        }.value
        #expect(count == 1)
    }
}
