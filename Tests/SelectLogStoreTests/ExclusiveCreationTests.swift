import Foundation
import SelectLog
@testable import SelectLogStore
import Testing

@Suite("Files the store creates beside others")
struct ExclusiveCreationTests {
    @Test("a recorder that must not replace a file follows no link planted at its path, dangling or not")
    func noLinkFollowed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let victim = dir.appendingPathComponent("victim").path
        let dangling = dir.appendingPathComponent("dangling.slog").path
        #expect(symlink(victim, dangling) == 0)
        let error = #expect(throws: LogError.self) { _ = try Recorder(creating: dangling) }
        #expect(error?.code == .alreadyExists)
        #expect(!FileManager.default.fileExists(atPath: victim))
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        let rewriter = #expect(throws: LogError.self) { _ = try LogRewriter(path: dangling, exclusive: true) }
        #expect(rewriter?.code == .alreadyExists)
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data("keep".utf8))
        // Nothing left beside them: the header staged for each refused log is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["dangling.slog", "victim"])
    }

    @Test("a new log appears at its path with its header whole: staged beside it, then linked, and nothing left behind")
    func creationIsWholeOrNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("new.slog").path
        // What a process that died at once after `open` left before: an empty file. A new
        // log never goes through that state, so a recorder always opens what is there.
        let recorder = try Recorder(creating: URL(fileURLWithPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["new.slog"])
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(Int(info.st_size) == LogFormat.fileHeaderSize)
        #expect(info.st_nlink == 1)
        try recorder.append(.tick)
        try recorder.close()
        let again = try Recorder(appendingTo: URL(fileURLWithPath: path))
        #expect(again.eventCount == 1)
        try again.close()
        let refused = #expect(throws: LogError.self) { _ = try Recorder(creating: URL(fileURLWithPath: path)) }
        #expect(refused?.code == .alreadyExists)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["new.slog"])
        // A directory is not a log to append to: the error says what is there.
        let directory = #expect(throws: LogError.self) { _ = try Recorder(creating: dir.path) }
        #expect(directory?.code == .alreadyExists)
        #expect(directory?.message.contains("a directory is here") == true, "\(directory?.message ?? "")")
    }

    @Test("a FIFO where the cut bytes would go is passed over, not opened and waited on")
    func fifoAtCutName() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("f.slog").path
        _ = try writeLog(Array(SyntheticSession(seed: 3, count: 200)), to: path)
        let intact = try Data(contentsOf: URL(fileURLWithPath: path))
        try (intact + Data("\u{0}tail".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(mkfifo(path + ".cut-\(intact.count)", 0o644) == 0)
        let done = try LogRepair.cut(path, at: intact.count)
        #expect(done.savedPath == path + ".cut-\(intact.count)-2")
        #expect(try Data(contentsOf: URL(fileURLWithPath: done.savedPath)) == Data("\u{0}tail".utf8))
    }

    @Test("a second repair at the same offset finds the log cut and saves nothing")
    func repairTwice() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.slog").path
        _ = try writeLog(Array(SyntheticSession(seed: 2, count: 500)), to: path)
        let intact = try Data(contentsOf: URL(fileURLWithPath: path))
        try (intact + Data("\u{0}tail".utf8)).write(to: URL(fileURLWithPath: path))
        let first = try LogRepair.cut(path, at: intact.count)
        #expect(first.savedBytes == 5)
        let second = try LogRepair.cut(path, at: intact.count)
        #expect(second == LogRepair.Result(keptBytes: intact.count, savedBytes: 0, savedPath: ""))
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.savedPath)) == Data("\u{0}tail".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["d.slog", "d.slog.cut-\(intact.count)"])
    }
}
