import Foundation
import SelectLog
import SelectLogStore
import Testing

/// `--force` replaces a file only with a whole new one, and a text output never replaces a
/// log by mistake: nothing already recorded is lost to a failed, interrupted or mistyped
/// command.
@Suite("outputs replaced only whole, and never a log by a text output")
struct ForcedOutputTests {
    /// `dir`'s entries other than `keep`: temporary files a command left behind.
    private func leftovers(in dir: URL, keeping keep: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !keep.contains($0) }.sorted()
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("record --force with an invalid line leaves the log it would have replaced as it was (65)")
    func recordInvalidLine() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("old.slog").path
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", log]).status == 0)
        let before = try bytes(log)
        for (name, text) in [("first.jsonl", "{\"type\": \"tap\", \"x\": 1}\n"),
                             ("later.jsonl", "{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n{\"type\": \"tap\", \"x\": 1}\n")] {
            let script = try CLI.write(text, to: name, in: dir)
            let r = try CLI.run(["record", script, "-o", log, "--force"])
            #expect(r.status == 65, "\(r.stderr)")
            #expect(r.stderr.contains("old.slog: unchanged (--force replaces it only with a whole recording"), "\(r.stderr)")
            #expect(try bytes(log) == before)
        }
        #expect(try leftovers(in: dir, keeping: ["old.slog", "first.jsonl", "later.jsonl"]).isEmpty)
    }

    @Test("record and synthesize --force over a file: replaced by the whole new log, keeping the file's mode; nothing left beside it")
    func replacedWhole() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("old.slog").path
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", log]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: log)
        #expect(try CLI.run(["record", "Examples/editor-row.jsonl", "-o", log, "--force"]).status == 0)
        let script = try Script(bytes: Array(try bytes(CLI.root.appendingPathComponent("Examples/editor-row.jsonl").path)))
        #expect(try LogReader(path: log).events() == script.events)
        #expect(try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions] as? Int == 0o640)
        #expect(try CLI.run(["synthesize", "--events", "300", "-o", log, "--force"]).status == 0)
        #expect(try LogReader(path: log).events() == Array(SyntheticSession(seed: 1, count: 300)))
        #expect(try leftovers(in: dir, keeping: ["old.slog"]).isEmpty)
    }

    @Test("synthesize --print-acknowledged with --force over a file is refused (64): the counts would be of a log not yet at the path")
    func acknowledgedReplacement() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("old.slog").path
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", log]).status == 0)
        let before = try bytes(log)
        let r = try CLI.run(["synthesize", "--events", "100", "--flush-every", "10", "--print-acknowledged", "-o", log, "--force"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--print-acknowledged counts the events written to the log at -o"), "\(r.stderr)")
        #expect(try bytes(log) == before)
        #expect(try leftovers(in: dir, keeping: ["old.slog"]).isEmpty)
    }

    @Test("synthesize --force that fails to write (a file size limit) leaves the log it would have replaced as it was (74)")
    func synthesizeWriteFailure() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("old.slog").path
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", log]).status == 0)
        let before = try bytes(log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 48; exec '\(CLI.executable.path)' synthesize --events 200000 -o '\(log)' --force"]
        let r = try CLI.collect(process)
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("old.slog is unchanged"), "\(r.stderr)")
        #expect(!r.stderr.contains(".new-"), "the temporary file's name: \(r.stderr)")
        #expect(try bytes(log) == before)
        #expect(try leftovers(in: dir, keeping: ["old.slog"]).isEmpty)
    }

    @Test("record --force stopped by SIGINT partway leaves the log it would have replaced, and no temporary file")
    func recordInterrupted() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("old.slog").path
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", log]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: log)
        let before = try bytes(log)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["record", "-", "-o", log, "--force"]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A session that is still arriving: the recorder is writing its new log.
        CLI.feed(input.fileHandleForWriting, Data((0..<2000).map { _ in "{\"type\": \"tick\", \"t\": 1}\n" }.joined().utf8))
        let deadline = Date().addingTimeInterval(20)
        while try leftovers(in: dir, keeping: ["old.slog"]).filter({ $0.hasPrefix("old.slog.new-") }).isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let beside = try #require(try leftovers(in: dir, keeping: ["old.slog"]).first { $0.hasPrefix("old.slog.new-") }, "the new log is written beside the old one")
        // As private as the log it replaces while it is recorded, not only once it is in place.
        #expect(try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(beside).path)[.posixPermissions] as? Int == 0o600)
        process.interrupt()
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try bytes(log) == before)
        #expect(try leftovers(in: dir, keeping: ["old.slog"]).isEmpty)
    }

    @Test("shrink, testgen and view refuse to write over a log (64) and leave it; synthesize --script replaces one only with --force")
    func textOverLog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("victim.slog").path
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", log]).status == 0)
        let before = try bytes(log)
        for arguments in [["shrink", "Examples/debugging-session.jsonl", "--expect", "true", "-o", log],
                          ["testgen", "Examples/debugging-session.jsonl", "--expect", "true", "-o", log],
                          ["view", "Examples/debugging-session.jsonl", "-o", log]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 64, "\(arguments[0]): \(r.stderr)")
            #expect(r.stderr.contains("victim.slog: is a selectlog log, which this output would replace"), "\(r.stderr)")
            #expect(try bytes(log) == before)
        }
        #expect(try CLI.run(["synthesize", "--script", "--events", "5", "-o", log]).status == 64)
        #expect(try bytes(log) == before)
        #expect(try CLI.run(["synthesize", "--script", "--events", "5", "-o", log, "--force"]).status == 0)
        #expect(try String(contentsOfFile: log, encoding: .utf8).hasPrefix("{\"type\": "))
    }

    @Test("a text output over a log a recorder is writing is refused (74), and the recorder's events stay")
    func textOverLiveLog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("live.slog").path
        let recorder = try Recorder(creating: log)
        for e in SyntheticSession(seed: 3, count: 100) { try recorder.append(e) }
        try recorder.flush()
        let r = try CLI.run(["synthesize", "--script", "--events", "5", "-o", log, "--force"])
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("another writer has this log open"), "\(r.stderr)")
        try recorder.close()
        #expect(try LogReader(path: log).events() == Array(SyntheticSession(seed: 3, count: 100)))
    }

    @Test("shrink, testgen and view fail at once, before any work, on an output that cannot be made (74)")
    func outputCheckedFirst() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = "Examples/debugging-session.jsonl"
        let file = try CLI.write("x", to: "file", in: dir)
        for (output, reason) in [("\(dir.path)/missing/x.out", "cannot create: No such file or directory"),
                                 ("\(file)/x.out", "cannot create: Not a directory"),
                                 (dir.path, "is a directory")] {
            for arguments in [["shrink", script, "--expect", "true", "-o", output],
                              ["testgen", script, "--expect", "false", "-o", output],
                              ["view", "/nonexistent-input.jsonl", "-o", output]] {
                let r = try CLI.run(arguments)
                #expect(r.status == 74, "\(arguments): \(r.stderr)")
                // testgen's false expectation and view's missing input would be other errors:
                // the output is what is refused first.
                #expect(r.stderr.contains(reason), "\(arguments): \(r.stderr)")
            }
        }
    }

    @Test("testgen holds at most 1,000,000 events: past them, a script (an endless pipe too) or a log exits 65 saying how to cut it")
    func heldEventsBounded() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let limit = 1_000_000
        let script = try CLI.write(String(repeating: "{\"type\": \"tick\"}\n", count: limit + 1), to: "ticks.jsonl", in: dir)
        let r = try CLI.run(["testgen", script, "--expect", "true", "-o", dir.appendingPathComponent("T.swift").path])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("line \(limit + 1): more than \(limit) events; testgen holds every event"), "\(r.stderr)")
        let log = dir.appendingPathComponent("long.slog").path
        #expect(try CLI.run(["synthesize", "--events", String(limit + 1), "-o", log]).status == 0)
        let fromLog = try CLI.run(["testgen", log, "--expect", "true", "-o", dir.appendingPathComponent("T.swift").path])
        #expect(fromLog.status == 65, "\(fromLog.stderr)")
        #expect(fromLog.stderr.contains("long.slog: \(limit + 1) events, more than \(limit) events"), "\(fromLog.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("T.swift").path))
    }

    @Test("a directory as a log's output is said to be one (74), with or without --force; an empty --name is refused (64); TMPDIR is named when the script's temporary log cannot be made")
    func wording() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [["record", "Examples/editor-row.jsonl", "-o", dir.path], ["record", "Examples/editor-row.jsonl", "-o", dir.path, "--force"],
                          ["synthesize", "--events", "3", "-o", dir.path], ["synthesize", "--events", "3", "-o", dir.path, "--force"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 74, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("is a directory; name a file"), "\(arguments): \(r.stderr)")
        }
        let named = try CLI.run(["testgen", "Examples/editor-row.jsonl", "--expect", "true", "--name", "", "-o", "-"])
        #expect(named.status == 64, "\(named.stderr)")
        #expect(named.stderr.contains("--name is empty"), "\(named.stderr)")
        // An expectation that reads no field lists none, and says nothing of them.
        let t = try CLI.run(["testgen", "Examples/editor-row.jsonl", "--expect", "true", "-o", "-"])
        #expect(t.status == 0)
        #expect(!t.stdout.contains("The fields it reads"), "\(t.stdout)")
        let inputs = HostileInputTests()
        let r = try inputs.run(["inspect", "Examples/editor-row.jsonl"], environment: ["TMPDIR": dir.appendingPathComponent("missing").path])
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("set TMPDIR to a writable directory"), "\(r.stderr)")
    }
}
