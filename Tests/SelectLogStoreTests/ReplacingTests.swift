import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// `Recorder(creating:replacingExisting: true)` and the recorder's clock at the time limit
/// (an audit of the library as an app embeds it, 2026-12-06).
@Suite("Replacing a log, and the clock at the time limit")
struct ReplacingTests {
    /// A closed log of `count` synthetic events at `path`; its bytes.
    private func log(_ count: Int, at path: String) throws -> Data {
        _ = try writeLog(Array(SyntheticSession(seed: 3, count: count)), to: path, options: smallBatches(checkpointInterval: 100))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("a replaced log is made beside the old one and renamed over it: the old file, as another process's reader holds it, keeps every byte")
    func replacedBeside() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.slog").path
        let before = try log(2_000, at: path)
        #expect(chmod(path, 0o640) == 0)
        // What a reader in another process has: the old file open (a mapping holds it so).
        let held = open(path, O_RDONLY)
        try #require(held >= 0)
        defer { close(held) }
        var old = stat(), new = stat()
        #expect(fstat(held, &old) == 0)
        let recorder = try Recorder(creating: path, options: smallBatches(), replacingExisting: true)
        try recorder.append(.reload(sections: [SectionSpec(rows: 3)]))
        try recorder.close()
        // The old file was not emptied: its size and bytes are what they were.
        var size = stat()
        #expect(fstat(held, &size) == 0)
        #expect(Int(size.st_size) == before.count)
        var bytes = [UInt8](repeating: 0, count: before.count)
        #expect(pread(held, &bytes, bytes.count, 0) == before.count)
        #expect(Data(bytes) == before)
        // The path names a new file, the new log, with the old one's permissions; nothing is left beside it.
        #expect(stat(path, &new) == 0)
        #expect(new.st_ino != old.st_ino)
        #expect(new.st_mode & 0o777 == 0o640)
        #expect(try LogReader(path: path).eventCount == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["r.slog"])
    }

    @Test("a log with another hard link is emptied in place, as before: the link keeps naming the log")
    func hardLinkedInPlace() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("h.slog").path, other = dir.appendingPathComponent("other.slog").path
        _ = try log(500, at: path)
        #expect(link(path, other) == 0)
        try Recorder(creating: path, options: smallBatches(), replacingExisting: true).close()
        #expect(try LogReader(path: other).eventCount == 0)
        #expect(try LogReader(path: path).eventCount == 0)
    }

    @Test("a log reopened at the time limit still takes stamped events, at the limit")
    func clockAtTheLimit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("late.slog").path
        let first = try Recorder(creating: path, options: smallBatches())
        try first.append(.reload(sections: [SectionSpec(rows: 30)]))
        try first.append(TimedEvent(.tick, t: Micros.limit))
        try first.close()
        let again = try Recorder(appendingTo: path, options: smallBatches())
        usleep(2_000)  // the clock moves on past the log's last time, which is the limit
        try again.append(.tap(ViewportPoint(x: Points(10), y: Points(10))))
        try again.append(.tick)
        #expect(again.state.t == Micros.limit)
        #expect(again.state.selection.count == 1)
        try again.close()
        #expect(try LogReader(path: path).eventCount == 4)
    }

    @Test("a writer that opened the log before another replaced it cannot claim the old file after: .inUse, nothing written where no reader looks")
    func staleOpenIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        _ = try log(500, at: path)
        // Opened by its path, as `Recorder(appendingTo:)` opens it, then the log is replaced.
        let stale = open(path, O_RDWR | O_CLOEXEC)
        try #require(stale >= 0)
        defer { close(stale) }
        let replacing = try Recorder(creating: path, options: smallBatches(), replacingExisting: true)
        try replacing.close()
        let refused = #expect(throws: LogError.self) { _ = try WriterClaim.take(stale, path: path, verifying: true) }
        #expect(refused?.code == .inUse, "\(String(describing: refused))")
        #expect(refused?.message.contains("replaced this log while it was being opened") == true)
        // The file the path names now is claimed as before.
        let current = open(path, O_RDWR | O_CLOEXEC)
        try #require(current >= 0)
        defer { close(current) }
        let claim = try WriterClaim.take(current, path: path, verifying: true)
        claim.release(current)
    }

    @Test("the new log keeps the old one's group, and a log this user may not write is not replaced beside it")
    func groupAndReadOnly() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("g.slog").path
        _ = try log(300, at: path)
        var before = stat(), after = stat()
        #expect(stat(path, &before) == 0)
        // As root, another group can be given; otherwise the user's own is carried.
        let group: gid_t = geteuid() == 0 ? 65_534 : before.st_gid
        #expect(chown(path, uid_t.max, group) == 0)
        try Recorder(creating: path, options: smallBatches(), replacingExisting: true).close()
        #expect(stat(path, &after) == 0)
        #expect(after.st_gid == group)
        #expect(after.st_ino != before.st_ino)
        // Read-only: refused where this user is bound by the mode (root is not), as before.
        guard geteuid() != 0 else { return }
        #expect(chmod(path, 0o444) == 0)
        let refused = #expect(throws: LogError.self) { try Recorder(creating: path, options: smallBatches(), replacingExisting: true) }
        #expect(refused?.code == .io)
        #expect(try LogReader(path: path).eventCount == 0)
    }
}
