import Foundation
@testable import SelectLog
import SelectLogStore
import Testing

@Suite("Damaged logs and guarded outputs through the CLI")
struct DamagedLogTests {
    @Test("a directory given as a log is a clear error (exit 74) for every command that opens one", arguments: [
        ["verify", "DIR"], ["verify", "DIR", "--repair"], ["verify", "DIR", "--deep"], ["compact", "DIR"], ["compact", "DIR", "-o", "OUT"],
        ["check", "DIR"], ["export", "DIR"], ["upgrade", "DIR"], ["inspect", "DIR"], ["replay", "DIR", "--at", "1"],
    ])
    func directoryAsLog(arguments: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("logs.slog")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        let out = dir.appendingPathComponent("out.slog").path
        let r = try CLI.run(arguments.map { $0 == "DIR" ? target.path : $0 == "OUT" ? out : $0 })
        #expect(r.status == 74, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("\(target.path): is a directory"), "\(arguments): \(r.stderr)")
        #expect(!r.stderr.contains("mmap") && !r.stderr.contains("No such device"), "\(arguments): \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a device given as a log to compact or upgrade is a clear error, not a read of /dev/zero", arguments: ["compact", "upgrade"])
    func deviceAsLog(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run([command, "/dev/zero", "-o", dir.appendingPathComponent("o.slog").path])
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("/dev/zero: is a device, not a log file"), "\(r.stderr)")
    }

    @Test("verify and check refuse a device, and read no further than its first bytes a pipe that is not a log",
          arguments: ["verify", "check"])
    func notALogIsNotCopied(command: String) throws {
        let device = try CLI.run([command, "/dev/zero"])
        #expect(device.status == 74 && device.stderr.contains("/dev/zero: is a device, not a log file"), "\(device.stderr)")
        // An endless pipe: copied whole, it would stop only at the 4 GiB limit.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cat /dev/zero | \"$0\" \(command) -", CLI.executable.path]
        let r = try CLI.collect(process)
        #expect(r.status == (command == "verify" ? 1 : 65), "\(r.stdout) \(r.stderr)")
        #expect((r.stdout + r.stderr).contains("not a selectlog log (bad magic)"), "\(r.stdout) \(r.stderr)")
        #expect(!r.stderr.contains("longer than"), "\(r.stderr)")
    }

    @Test("synthesize refuses an existing output without --force, and replaces it with --force")
    func synthesizeRefusesExisting() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CLI.write("keep me\n", to: "existing.slog", in: dir)
        let refused = try CLI.run(["synthesize", "--events", "50", "-o", path])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("already exists; pass --force"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
        let script = try CLI.run(["synthesize", "--events", "50", "--script", "-o", path])
        #expect(script.status == 64)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
        #expect(try CLI.run(["synthesize", "--events", "50", "-o", path, "--force"]).status == 0)
        #expect(try LogReader(path: path).eventCount == 50)
    }

    @Test("synthesize --print-acknowledged prints a count after each flush and after the close, once each",
          arguments: [(0, "2500\n"), (1000, "1000\n2000\n2500\n"), (500, "500\n1000\n1500\n2000\n2500\n")])
    func acknowledgedCounts(flushEvery: Int, expected: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("a.slog").path
        let r = try CLI.run(["synthesize", "--events", "2500", "--flush-every", String(flushEvery), "--print-acknowledged", "-o", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == expected)
    }

    @Test("synthesize rejects a negative --events or --flush-every with the option's own message",
          arguments: ["--events=-5", "--flush-every=-1"])
    func synthesizeRejectsNegative(option: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("n.slog").path
        let r = try CLI.run(["synthesize", "-o", path, option])
        #expect(r.status == 64)
        #expect(r.stderr.contains(String(option.prefix { $0 != "=" })), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Runs `selectlog ARGS` with the file at `path` piped to its standard input.
    private func piped(_ path: String, _ arguments: [String]) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exe=$1; shift; cat \"$0\" | \"$exe\" \"$@\"", path, CLI.executable.path] + arguments
        return try CLI.collect(process)
    }

    @Test("verify and check read a piped log (- and /dev/stdin); verify --repair refuses a pipe")
    func pipedLogs() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("p.slog").path
        #expect(try CLI.run(["synthesize", "--events", "500", "-o", path]).status == 0)
        for name in ["-", "/dev/stdin"] {
            let verified = try piped(path, ["verify", name])
            #expect(verified.status == 0, "\(name): \(verified.stderr)")
            #expect(verified.stdout.contains("\(name): intact: 500 events"), "\(verified.stdout)")
            let checked = try piped(path, ["check", name])
            #expect(checked.status == 0, "\(name): \(checked.stderr)")
        }
        let repair = try piped(path, ["verify", "--repair", "-"])
        #expect(repair.status == 64)
        #expect(repair.stderr.contains("--repair needs a regular file"))
    }

    @Test("upgrade -o refuses an existing output without --force")
    func upgradeRefusesExisting() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("u.slog").path
        #expect(try CLI.run(["synthesize", "--events", "100", "-o", log]).status == 0)
        let existing = try CLI.write("keep me\n", to: "existing.slog", in: dir)
        let refused = try CLI.run(["upgrade", log, "-o", existing])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("already exists; pass --force"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me\n")
        #expect(try CLI.run(["upgrade", log, "-o", existing, "--force"]).status == 0)
        #expect(try LogReader(path: existing).eventCount == 100)
    }

    /// Each record of a log of one-event batches damaged in turn: the error counts the
    /// events before it in the right number ("1 intact event", "2 intact events").
    @Test("a damaged log's error counts the intact events before it, one or more")
    func intactEventsCounted() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 20}]}
            {"type": "tap", "x": 10, "y": 10}
            {"type": "tap", "x": 10, "y": 60}
            {"type": "tap", "x": 10, "y": 110}

            """, to: "s.jsonl", in: dir)
        let log = dir.appendingPathComponent("one.slog").path
        #expect(try CLI.run(["record", script, "-o", log, "--batch-events", "1"]).status == 0)
        let intact = try Data(contentsOf: URL(fileURLWithPath: log))
        let damaged = dir.appendingPathComponent("damaged.slog")
        var seen = Set<Int>()
        // A byte at a time until damage after one and after two events have both been reported.
        for offset in 64..<intact.count where !seen.isSuperset(of: [1, 2]) {
            var bytes = intact
            bytes[offset] ^= 0x5A
            try bytes.write(to: damaged)
            let r = try CLI.run(["replay", damaged.path])
            guard r.status == 65, let range = r.stderr.range(of: #"\(\d+ intact events? before it\)"#, options: .regularExpression) else { continue }
            let words = r.stderr[range].dropFirst().split(separator: " ")
            let n = try #require(Int(words[0]))
            #expect(words[2] == (n == 1 ? "event" : "events"), "byte \(offset): \(r.stderr)")
            seen.insert(n)
        }
        #expect(seen.isSuperset(of: [1, 2]), "damage after 1 and 2 events reported: \(seen)")
    }

    @Test("counts of one event are singular: --at past the end, an expectation's verdict, a torn tail's note")
    func oneEventCounted() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 20}]}\n", to: "one.jsonl", in: dir)
        let past = try CLI.run(["replay", script, "--at", "5"])
        #expect(past.status == 64 && past.stderr.contains("has only 1 event") && !past.stderr.contains("1 events"), "\(past.stderr)")
        let expect = try CLI.run(["replay", script, "--expect", "events == 1"])
        #expect(expect.status == 0 && expect.stdout.contains("holds after 1 event") && !expect.stdout.contains("1 events"), "\(expect.stdout)")
        // A log of one event whose last record is cut short: the note counts one complete event.
        let log = dir.appendingPathComponent("one.slog").path
        #expect(try CLI.run(["record", script, "-o", log]).status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        bytes.append(contentsOf: [0x01, 0x02, 0x03])
        try bytes.write(to: URL(fileURLWithPath: log))
        let torn = try CLI.run(["replay", log])
        #expect(torn.status == 0 && torn.stderr.contains("1 complete event") && !torn.stderr.contains("1 complete events"), "\(torn.stderr)")
    }
}
