#if canImport(Glibc)
import Foundation
import Glibc
import SelectLogStore
import Testing

/// The process environment a user's shell or CI can hand the command: closed standard
/// streams, an output that fails, a file size limit, signals, other processes at work
/// beside it. Each test is a finding of an audit that failed before its fix.
@Suite("A hostile process environment")
struct HostileEnvironmentTests {
    /// Runs `script` with `bash -c` (whose `cd` goes deeper than PATH_MAX, where dash's
    /// stops), `$0` being the selectlog executable, in `dir`.
    private func shell(_ script: String, in dir: URL) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, CLI.executable.path]
        process.currentDirectoryURL = dir
        return try CLI.collect(process)
    }

    @Test("with standard output closed, a log the command opens does not get its output written into it")
    func stdoutClosed() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try shell("\"$0\" synthesize --events 12000 --flush-every 4000 --print-acknowledged -o ack.slog >&-", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let verify = try CLI.run(["verify", dir.appendingPathComponent("ack.slog").path])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("intact: 12000 events"), "\(verify.stdout)")
    }

    @Test("with standard error closed, a rejected script line's message does not land in the log")
    func stderrClosed() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = try String(contentsOf: CLI.root.appendingPathComponent("Examples/editor-row.jsonl"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.prefix(5)
        _ = try CLI.write(lines.joined(separator: "\n") + "\n{bad\n", to: "bad.jsonl", in: dir)
        let r = try shell("\"$0\" record - -o r.slog 2>&- < bad.jsonl", in: dir)
        #expect(r.status == 65)
        let log = try LogReader(path: dir.appendingPathComponent("r.slog").path)
        #expect(log.tail == nil)
        #expect(log.eventCount == 5)
    }

    @Test("output that cannot be written fails the command, exit 74, where it exited 0 with the output cut short",
          arguments: ["export", "replay", "inspect"])
    func stdoutFull(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["synthesize", "--events", "3000", "-o", dir.appendingPathComponent("s.slog").path]).status == 0)
        let r = try shell("\"$0\" \(command) s.slog > /dev/full", in: dir)
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("selectlog: cannot write standard output: No space left on device"), "\(r.stderr)")
    }

    @Test("a file size limit is an I/O error (74) that leaves no temporary file, not a silent SIGXFSZ",
          arguments: ["compact", "upgrade"])
    func fileSizeLimit(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "15000", "-o", path]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // 8 KiB: less than the log.
        #expect(before.count > 10_000)
        let r = try shell("ulimit -f 8; exec \"$0\" \(command) s.slog", in: dir)
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("File too large"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["s.slog"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a new log whose header cannot be written (a file size limit of 0) is an I/O error that leaves nothing: no log, no staged header")
    func headerWriteFails() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = CLI.root.appendingPathComponent("Examples/editor-row.jsonl").path
        for command in ["record \"\(script)\" -o n.slog", "synthesize --events 10 -o n.slog"] {
            let r = try shell("ulimit -f 0; exec \"$0\" \(command)", in: dir)
            #expect(r.status == 74, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("File too large"), "\(r.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        }
    }

    @Test("record and synthesize -o a dangling symbolic link without --force is 'already exists', exit 64, and follows no link")
    func danglingOutput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("dangling.slog").path
        let victim = dir.appendingPathComponent("victim").path
        #expect(symlink(victim, link) == 0)
        for arguments in [["record", CLI.root.appendingPathComponent("Examples/editor-row.jsonl").path, "-o", link],
                          ["synthesize", "--events", "10", "-o", link],
                          ["synthesize", "--events", "10", "--script", "-o", link]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 64, "\(arguments[0]): \(r.stderr)")
            #expect(r.stderr.contains("dangling.slog: already exists; pass --force to replace it"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: victim))
        }
    }

    @Test("a piped log with no writable TMPDIR: the error names the directory and TMPDIR (exit 74)")
    func unwritableTemporaryDirectory() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "100", "-o", log]).status == 0)
        let missing = dir.appendingPathComponent("no-such-directory").path
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["check", "-"]
        process.environment = ["TMPDIR": missing]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: log))
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74)
        #expect(text.contains("cannot create a temporary copy in \(missing)") && text.contains("set TMPDIR to a writable directory"), "\(text)")
    }

    @Test("a log copied from a pipe is removed when the command is interrupted while it copies, even by kill -9",
          arguments: [SIGINT, SIGTERM, SIGKILL])
    func interruptedSpool(signal: Int32) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "3000", "-o", log]).status == 0)
        // Half the log, and the pipe kept open: the command waits for the rest.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        try killWhileReading(["verify", "-"], input: bytes.prefix(bytes.count / 2), signal: signal)
    }

    @Test("a script read from a pipe into a temporary log leaves nothing when the command is killed, even by kill -9",
          arguments: [SIGINT, SIGKILL])
    func interruptedScriptLog(signal: Int32) throws {
        // An expectation that never holds: the command reads the script for as long as it goes on.
        try killWhileReading(["inspect", "-", "--first", "editing"],
                             input: Data(String(repeating: "{\"type\": \"tick\"}\n", count: 1_000).utf8), signal: signal)
    }

    /// Runs `selectlog arguments` with `input` on a standard input left open and TMPDIR a
    /// new directory, sends `signal` once the command holds its temporary file there, and
    /// checks that the signal ended it and left the directory empty.
    func killWhileReading(_ arguments: [String], input bytes: Data, signal: Int32) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let temporary = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.environment = ["TMPDIR": temporary.path]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        CLI.feed(input.fileHandleForWriting, bytes)
        #expect(try Self.opens(process, fileIn: temporary), "\(arguments)")
        kill(process.processIdentifier, signal)
        // A command that ignores the signal would wait for the rest of its input forever.
        let ended = ContinuousClock.now + .seconds(30)
        while process.isRunning && ContinuousClock.now < ended { usleep(1_000) }
        if process.isRunning {
            Issue.record("the command did not end on signal \(signal)")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [], "\(arguments)")
    }

    /// Whether `process` holds a file of `directory` open, unlinked, within 30 seconds:
    /// a temporary file is unlinked as soon as it is made (`SpooledCopy`), and a signal
    /// in the microseconds before would find it still named. Deadlines, not counts of
    /// sleeps: on a loaded machine the command can take seconds to start, and a sleep can
    /// last far longer than it asks.
    static func opens(_ process: Process, fileIn directory: URL) throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        let fds = "/proc/\(process.processIdentifier)/fd"
        while ContinuousClock.now < deadline {
            let open = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
            if open.contains(where: {
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\($0)") else { return false }
                // A log is made under a `.creating-PID` name and linked into place (its
                // descriptor then shows that name deleted too): not the copy the reader keeps.
                return target.hasPrefix(directory.path) && target.hasSuffix(" (deleted)") && !target.contains(".creating-")
            }) {
                return true
            }
            usleep(1_000)
        }
        return false
    }

    @Test("a log whose absolute path passes PATH_MAX is refused in place for that reason, not as a pipe or a device")
    func pathTooLong() throws {
        let dir = try CLI.temporaryDirectory()
        defer {
            _ = try? shell("rm -rf deep", in: dir)
            try? FileManager.default.removeItem(at: dir)
        }
        // 21 levels of 200-byte names, reached by relative steps: over 4,096 bytes.
        let name = String(repeating: "d", count: 200)
        let r = try shell("""
            mkdir deep && cd deep && for i in $(seq 21); do mkdir \(name) && cd \(name) || exit 9; done
            "$0" synthesize --events 100 -o s.slog >/dev/null || exit 8
            "$0" compact s.slog; echo "compact $?"; "$0" upgrade s.slog; echo "upgrade $?"
            """, in: dir)
        #expect(r.stdout.contains("compact 74") && r.stdout.contains("upgrade 74"), "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("s.slog: cannot resolve its absolute path (File name too long), so it cannot be replaced in place; pass -o OUTPUT"),
                "\(r.stderr)")
        #expect(!r.stderr.contains("standard input, a pipe or a device"), "\(r.stderr)")
    }

    @Test("with few descriptors (ulimit -n), record either writes a whole log or fails and leaves none")
    func fewDescriptors() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path
        for limit in 4...12 {
            let log = dir.appendingPathComponent("n\(limit).slog").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "ulimit -n \(limit); exec \"$0\" record \"$1\" -o \"$2\"", CLI.executable.path, script, log]
            let r = try CLI.collect(process)
            if r.status == 0 {
                #expect(try LogReader(path: log).eventCount == 12, "ulimit -n \(limit)")
            } else {
                #expect(r.status == 74, "ulimit -n \(limit): \(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: log), "ulimit -n \(limit): a failed record left \(log)")
            }
        }
    }

    /// What `handle` gives until its text contains `needle`, it ends, or `deadline`
    /// passes, whichever is first; what it gives later is left to read.
    private static func text(of handle: FileHandle, until needle: String, by deadline: ContinuousClock.Instant) -> String {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while !String(decoding: data, as: UTF8.self).contains(needle) {
            let left = deadline - .now
            guard left > .zero else { break }
            var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(max(1, min(1_000, left / .milliseconds(1)))))
            if polled < 0 && errno != EINTR { break }
            guard polled > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            // The end of the stream (the command ended) or an error: nothing more to wait for.
            guard n > 0 else { break }
            data.append(contentsOf: buffer[..<n])
        }
        return String(decoding: data, as: UTF8.self)
    }

    @Test("a repair waits while another holds the log, then cuts it; a second finds it cut and saves nothing")
    func repairsTakeTurns() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.slog").path
        #expect(try CLI.run(["synthesize", "--events", "3000", "-o", path]).status == 0)
        let intact = try Data(contentsOf: URL(fileURLWithPath: path))
        let tail = Data([0]) + Data("not a record".utf8)
        try (intact + tail).write(to: URL(fileURLWithPath: path))
        // This test holds the log's lock, as a repair in progress would.
        let held = open(path, O_RDONLY)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        let waiting = "selectlog: \(path): another writer has it open (a recorder, until it closes, or another repair); waiting for it to finish (Ctrl-C stops waiting; nothing is cut)\n"
        let repair = try repairWaiting(path, until: waiting)
        #expect(repair.process.isRunning)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == intact + tail)
        close(held)
        let (status, said, complained) = finished(repair)
        #expect(status == 0, "\(said)")
        // It said why it waited, once, and nothing else.
        #expect(complained == waiting)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == intact)
        #expect(try Data(contentsOf: dir.appendingPathComponent("d.slog.cut-\(intact.count)")) == tail)
        // A repair that verified the log before the cut, run after it, finds it cut.
        let again = try LogRepair.cut(path, at: intact.count)
        #expect(again.savedBytes == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["d.slog", "d.slog.cut-\(intact.count)"])
    }

    /// Starts `selectlog verify --repair path` while this test holds the log's lock, and
    /// returns once it says it waits for the lock (`waiting`), with what it wrote to
    /// stderr so far. A fixed pause could end before a command slowed by a loaded machine
    /// tried the lock, and it would then never wait: its standard error is read as it
    /// arrives, for up to a minute.
    private func repairWaiting(_ path: String, until waiting: String = "another writer has it open") throws
        -> (process: Process, out: Pipe, err: Pipe, said: String) {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["verify", "--repair", path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let said = Self.text(of: err.fileHandleForReading, until: waiting, by: .now + .seconds(60))
        #expect(said.contains(waiting), "\(said)")
        return (process, out, err, said)
    }

    /// Waits (up to a minute) for a repair started by `repairWaiting` to end once the lock
    /// is let go: its exit status, its standard output and all of its standard error.
    private func finished(_ repair: (process: Process, out: Pipe, err: Pipe, said: String)) -> (status: Int32, stdout: String, stderr: String) {
        let deadline = ContinuousClock.now + .seconds(60)
        while repair.process.isRunning && ContinuousClock.now < deadline { usleep(1_000) }
        if repair.process.isRunning {
            Issue.record("the repair did not end once the lock was released")
            kill(repair.process.processIdentifier, SIGKILL)
        }
        repair.process.waitUntilExit()
        let said = String(decoding: repair.out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complained = repair.said + String(decoding: repair.err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (repair.process.terminationStatus, said, complained)
    }

    @Test("a repair that waited checks the log again under its lock: one changed meanwhile (cut, or its tail rewritten) is cut as it is then, not refused",
          arguments: ["cut", "rewritten", "completed", "replaced"])
    func repairChecksAgainAfterWaiting(change: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.slog").path
        #expect(try CLI.run(["synthesize", "--events", "3000", "-o", path]).status == 0)
        let intact = try Data(contentsOf: URL(fileURLWithPath: path))
        try (intact + Data([0, 1, 2])).write(to: URL(fileURLWithPath: path))
        let held = open(path, O_RDWR)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        let repair = try repairWaiting(path)
        // While it waits: another repair cuts the tail; a writer leaves a longer torn tail;
        // the tail it saw was a record in flight, now whole (a longer log, intact); or
        // another log is renamed over it (`compact` in place), and the one it waits for
        // is no longer the log at its path.
        var now = intact
        switch change {
        case "cut": break
        case "rewritten": now += Data([0]) + Data("a longer tail than the one checked".utf8)
        default:
            let longer = dir.appendingPathComponent("longer.slog").path
            #expect(try CLI.run(["synthesize", "--events", "3001", "-o", longer]).status == 0)
            now = try Data(contentsOf: URL(fileURLWithPath: longer))
            if change == "replaced" { #expect(rename(longer, path) == 0) }
        }
        if change != "replaced" {
            #expect(ftruncate(held, 0) == 0)
            #expect(now.withUnsafeBytes { pwrite(held, $0.baseAddress, $0.count, 0) } == now.count)
        }
        close(held)
        let (status, said, complained) = finished(repair)
        #expect(status == 0, "\(said)\(complained)")
        let kept = try Data(contentsOf: URL(fileURLWithPath: path))
        switch change {
        case "rewritten":
            #expect(kept == intact)
            #expect(try Data(contentsOf: dir.appendingPathComponent("d.slog.cut-\(intact.count)")) == now.dropFirst(intact.count))
            #expect(said.contains("repaired: kept \(intact.count) bytes"), "\(said)")
        default:
            #expect(kept == now, "nothing cut")
            #expect(said.contains("intact now"), "\(said)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("d.slog.cut-\(intact.count)").path))
        }
    }
}
#endif
