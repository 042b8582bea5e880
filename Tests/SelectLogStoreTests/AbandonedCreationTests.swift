import Foundation
import SelectLog
@testable import SelectLogStore
import Testing

/// `Recorder.removeAbandonedCreations(in:)`: the `LOG.creating-PID` a creation killed in
/// its first milliseconds leaves, and nothing else.
@Suite("Recorder.removeAbandonedCreations(in:)")
struct AbandonedCreationTests {
    /// A process ID that was a process's and is no longer one's.
    func deadPID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    func make(_ name: String, in dir: URL, minutesOld: Double, directory: Bool = false) throws {
        let url = dir.appendingPathComponent(name)
        if directory {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        } else {
            try Data(count: 40).write(to: url)
        }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -minutesOld * 60)], ofItemAtPath: url.path)
    }

    @Test("a dead process's staged creation over a minute old is removed; a live process's, a fresh one, and anything else stay")
    func removesOnlyAbandoned() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dead = try deadPID()
        let abandoned = "s.slog.creating-\(dead)"
        try make(abandoned, in: dir, minutesOld: 5)
        let kept = ["fresh.slog.creating-\(dead)",   // a minute not yet gone: maybe being made
                    "init.slog.creating-1",          // process 1 lives
                    "own.slog.creating-\(getpid())", // this process's own
                    "s.slog", "notes.creating-abc", ".creating-\(dead)", "s.slog.creating-\(dead)x"]
        try make(kept[0], in: dir, minutesOld: 0)
        for name in kept.dropFirst() { try make(name, in: dir, minutesOld: 5) }
        try make("d.slog.creating-\(dead)", in: dir, minutesOld: 5, directory: true)

        #expect(try Recorder.removeAbandonedCreations(in: dir) == [abandoned])
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == (kept + ["d.slog.creating-\(dead)"]).sorted())
        // Nothing more to remove the second time.
        #expect(try Recorder.removeAbandonedCreations(in: dir.path) == [])
    }

    @Test("the staged name of a creation is what it looks for")
    func stagingNameIsRecognised() {
        #expect(Recorder.abandonedCreator(of: (LogFile.stagingPath(for: "/a/b/s.slog") as NSString).lastPathComponent) == getpid())
        #expect(Recorder.abandonedCreator(of: "s.slog.creating-") == nil)
        #expect(Recorder.abandonedCreator(of: "s.slog.creating-0") == nil)
        #expect(Recorder.abandonedCreator(of: "s.slog.creating-99999999999") == nil)
    }

    @Test("a directory that cannot be listed is an .io error naming it")
    func unlistable() throws {
        let error = #expect(throws: LogError.self) { try Recorder.removeAbandonedCreations(in: "/no/such/directory") }
        #expect(error?.code == .io && error?.path == "/no/such/directory", "\(String(describing: error))")
    }
}
