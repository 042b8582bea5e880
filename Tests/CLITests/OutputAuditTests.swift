import Foundation
import SelectLogStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Findings of the 2026-12-05 audit of `record`, `replay`, `export`, `shrink`, `testgen`
/// and `synthesize` against hostile inputs and outputs.
@Suite("Outputs, empty paths and expressions (the 2026-12-05 CLI audit)")
struct OutputAuditTests {
    let inputs = HostileInputTests()

    @Test("-o FIFO --force with nothing reading it: record, synthesize and synthesize --script wait a while, then exit 74; the FIFO stays")
    func fifoWithoutReader() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("out").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // A watchdog: a build that waits for a reader for good is given one after 60 s, so
        // that it fails the checks below instead of hanging the suite.
        let finished = LockedFlag()
        Thread.detachNewThread {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline, !finished.value { usleep(100_000) }
            guard !finished.value else { return }
            let fd = open(fifo, O_RDONLY | O_NONBLOCK)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while fd >= 0, !finished.value {
                if buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) <= 0 { usleep(10_000) }
            }
            if fd >= 0 { close(fd) }
        }
        defer { finished.set() }
        for arguments in [["record", "Examples/editor-row.jsonl", "-o", fifo, "--force"],
                          ["synthesize", "--events", "10", "-o", fifo, "--force"],
                          ["synthesize", "--script", "--events", "10", "-o", fifo, "--force"]] {
            let started = ContinuousClock.now
            let r = try inputs.run(arguments, environment: ["SELECTLOG_FIFO_WAIT": "1"])
            #expect(r.status == 74, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("\(fifo): a FIFO with no reader: nothing opened it for reading in 1 s"), "\(arguments): \(r.stderr)")
            #expect(ContinuousClock.now - started < .seconds(20), "\(arguments)")
            var info = stat()
            #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "\(arguments)")
        }
        let negative = try inputs.run(["synthesize", "--events", "1", "-o", fifo, "--force"], environment: ["SELECTLOG_FIFO_WAIT": "-1"])
        #expect(negative.status == 74)
        #expect(negative.stderr.contains("note: SELECTLOG_FIFO_WAIT=-1 is not from 0 to 3600 seconds; waiting 0 s"), "\(negative.stderr)")
    }

    @Test("-o FIFO --force with a reader: record writes the log through it, whole")
    func fifoWithReader() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("out").path
        let copy = dir.appendingPathComponent("copy.slog").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // A reader that comes half a second late: the command waits for it.
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(500_000)
            let input = open(fifo, O_RDONLY), output = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while input >= 0, output >= 0 {
                let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                _ = buffer.withUnsafeBytes { write(output, $0.baseAddress, n) }
            }
            close(input)
            close(output)
            done.signal()
        }
        let r = try inputs.run(["record", "Examples/editor-row.jsonl", "-o", fifo, "--force"], environment: ["SELECTLOG_FIFO_WAIT": "20"])
        #expect(r.status == 0, "\(r.stderr)")
        done.wait()
        let replayed = try CLI.run(["replay", copy, "--json"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout == (try CLI.run(["replay", "Examples/editor-row.jsonl", "--json"])).stdout)
    }

    @Test("a FIFO nothing reads, given to Recorder(creating:replacingExisting:), is an error at once, not a wait")
    func libraryFIFO() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("out").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let refused = #expect(throws: LogError.self) { _ = try Recorder(creating: fifo, replacingExisting: true) }
        #expect(refused?.code == .io)
        #expect(refused?.message.contains("a FIFO that nothing reads") == true, "\(String(describing: refused))")
    }

    @Test("synthesize --script refuses the options that only a log takes (64); without them it writes what it wrote before")
    func scriptOptions() throws {
        for option in [["--flush-every", "5"], ["--print-acknowledged"], ["--checkpoint-interval", "8"], ["--durability", "none"], ["--batch-events", "9"]] {
            let r = try CLI.run(["synthesize", "--script", "--events", "5", "-o", "-"] + option)
            #expect(r.status == 64, "\(option)")
            #expect(r.stderr.contains("\(option[0]) is for a log; --script writes a script"), "\(option): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Written a megabyte at a time: the same script as standard output, and it records.
        let path = dir.appendingPathComponent("s.jsonl").path
        let file = try CLI.run(["synthesize", "--script", "--events", "30000", "-o", path])
        #expect(file.status == 0, "\(file.stderr)")
        let piped = try CLI.run(["synthesize", "--script", "--events", "30000", "-o", "-"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.count > 1 << 20)
        #expect(piped.stdout == text)
        #expect(text.split(separator: "\n").count == 30_000)
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["record", path, "-o", log]).status == 0)
        let synthesized = dir.appendingPathComponent("t.slog").path
        #expect(try CLI.run(["synthesize", "--events", "30000", "-o", synthesized]).status == 0)
        #expect(try LogReader(path: log).state(at: 30_000).hashHex == (try LogReader(path: synthesized).state(at: 30_000).hashHex))
    }

    @Test("an empty path as the input is a usage error naming it (64), for every command that reads one", arguments: [
        ["record", "", "-o", "/nonexistent/never.slog"], ["replay", ""], ["export", ""], ["inspect", ""], ["verify", ""], ["check", ""],
        ["shrink", "", "--expect", "true", "-o", "/nonexistent/never.jsonl"], ["testgen", "", "--expect", "true", "-o", "/nonexistent/never.swift"],
        ["compact", ""], ["upgrade", ""], ["view", "", "-o", "/nonexistent/never.html"],
    ])
    func emptyInputPath(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("an empty path: name a file, or - for standard input"), "\(arguments): \(r.stderr)")
    }

    @Test("a control or bidi character in --expect is escaped in the error and its excerpt, the caret under it")
    func escapedExpression() throws {
        for (expression, escaped, shown) in [("true and \u{1B}[2Jx", #""\u001b""#, #"true and \u{1B}[2Jx"#),
                                             ("true and \u{202E}x", #""\u202e""#, #"true and \u{202E}x"#)] {
            let r = try CLI.run(["replay", "Examples/editor-row.jsonl", "--expect", expression])
            #expect(r.status == 64)
            #expect(!r.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E }, "\(r.stderr)")
            #expect(r.stderr.contains("column 10: unexpected character \(escaped)"), "\(r.stderr)")
            let lines = r.stderr.split(separator: "\n").map(String.init)
            let excerpt = try #require(lines.firstIndex { $0.hasSuffix("  \(shown)") }, "\(r.stderr)")
            let caret = try #require(lines.dropFirst(excerpt + 1).first)
            let start = try #require(lines[excerpt].range(of: shown)).lowerBound
            let column = lines[excerpt].distance(from: lines[excerpt].startIndex, to: start) + "true and ".count
            #expect(caret.count == column + 1 && caret.hasSuffix("^"), "\(r.stderr)")
        }
    }
}

extension OutputAuditTests {
    @Test("testgen of more than 10,000 events notes that shrink makes a short test; of fewer, says nothing")
    func testgenOfAWholeSession() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = dir.appendingPathComponent("long.jsonl").path
        #expect(try CLI.run(["synthesize", "--script", "--events", "10001", "-o", long]).status == 0)
        let many = try CLI.run(["testgen", long, "--expect", "true", "-o", dir.appendingPathComponent("long.swift").path])
        #expect(many.status == 0, "\(many.stderr)")
        #expect(many.stderr.contains("note: the test embeds all 10001 events") && many.stderr.contains("`selectlog shrink` first"), "\(many.stderr)")
        let few = try CLI.run(["testgen", "Examples/editor-row.jsonl", "--expect", "true", "-o", dir.appendingPathComponent("few.swift").path])
        #expect(few.status == 0 && !few.stderr.contains("note:"), "\(few.stderr)")
    }
}

extension OutputAuditTests {
    @Test("shrink names a line the engine refuses after the moment EXPR holds, as it names a line that is not JSON there (65)")
    func shrinkChecksEveryEvent() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let head = """
            {"type": "reload", "sections": [{"rows": 3}]}
            {"type": "tap", "x": 20, "y": 10}
            {"type": "tap", "x": 20, "y": 60}

            """
        for (bad, reason) in [(#"{"type": "panMoved", "x": 20, "y": 30}"#, "line 4: panMoved"), ("{bad", "line 4: not valid JSON")] {
            let path = try CLI.write(head + bad + "\n", to: "s.jsonl", in: dir)
            let r = try CLI.run(["shrink", path, "--expect", "count(selected) == 1", "-o", dir.appendingPathComponent("out.jsonl").path])
            #expect(r.status == 65, "\(bad): \(r.stderr)")
            #expect(r.stderr.contains("\(path): \(reason)"), "\(bad): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.jsonl").path))
        }
    }
}

/// A flag set once, read from another thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    var value: Bool { lock.withLock { isSet } }
    func set() { lock.withLock { isSet = true } }
}
