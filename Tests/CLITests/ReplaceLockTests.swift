import ArgumentParser
import Foundation
@testable import selectlog
import Testing

/// The lock `compact`, `upgrade` and `record --force` take on a log before they rename a
/// new file over it (`lockForReplacing`): the race with another writer, made
/// deterministic by doing the other writer's part between the command's open and its lock.
/// In process, so serialized: `complain` keeps what it said in statics.
@Suite("the lock a command takes before it replaces a log", .serialized)
struct ReplaceLockTests {
    @Test("a log replaced between the command's open and its lock is refused (74), and the new log is left as it is")
    func replacedBeforeTheLock() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CLI.write("the old log", to: "s.slog", in: dir)
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        // Another writer (a recorder replacing the log) renames its new file over the path.
        let replacement = try CLI.write("the other writer's log", to: "s.slog.new", in: dir)
        try #require(rename(replacement, path) == 0)

        do {
            try lockForReplacing(fd, path: path, shown: path)
            Issue.record("the lock was taken on a file the path no longer names")
            close(fd)
        } catch let code as ExitCode {
            #expect(code.rawValue == 74)
        }
        // The descriptor was closed: the other writer's log can be locked again at once.
        let again = open(path, O_RDONLY)
        try #require(again >= 0)
        defer { close(again) }
        #expect(flock(again, LOCK_EX | LOCK_NB) == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "the other writer's log")
    }

    @Test("the log the path still names is locked, and a second command is refused (74) while it is held")
    func heldLockRefusesASecond() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CLI.write("a log", to: "s.slog", in: dir)
        let first = open(path, O_RDONLY)
        try #require(first >= 0)
        try lockForReplacing(first, path: path, shown: path)
        defer { close(first) }

        let second = open(path, O_RDONLY)
        try #require(second >= 0)
        do {
            try lockForReplacing(second, path: path, shown: path)
            Issue.record("a second lock was taken while the first was held")
            close(second)
        } catch let code as ExitCode {
            #expect(code.rawValue == 74)
        }
    }
}
