import Foundation
import SelectLogStore
import Testing

/// Commands that write a file never destroy what they read, and never leave a partial
/// output that looks like a good log: found by a new-user review (`upgrade LOG -o LOG
/// --force` emptied the log; `view`, `shrink` and `testgen -o` replaced their input; a
/// failed `upgrade -o` or `compact -o` left a short log that `verify` called intact; an
/// in-place upgrade dropped a torn tail without keeping its bytes).
@Suite("Outputs never destroy inputs")
struct OutputSafetyTests {
    static let script = "Examples/debugging-session.jsonl"

    /// The walkthrough's log (12 events, a checkpoint every 4, batches of 3) in `dir`.
    static func log(in dir: URL, _ name: String = "dbg.slog") throws -> String {
        let path = dir.appendingPathComponent(name).path
        let r = try CLI.run(["record", script, "-o", path, "--checkpoint-interval", "4", "--batch-events", "3"])
        try #require(r.status == 0, "\(r.stderr)")
        return path
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// The files in `dir`, by name.
    static func files(_ dir: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
    }

    /// `log`, its payload byte at `offset` flipped (its checksum then fails).
    static func damaged(_ log: String, at offset: Int, in dir: URL) throws -> String {
        var data = try bytes(log)
        data[offset] ^= 0x10
        let path = dir.appendingPathComponent("damaged.slog").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("upgrade and compact with -o naming the log itself, directly or through a link, work in place")
    func outputIsTheLog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(in: dir)
        let state = try LogReader(path: log).state(at: 12).hashHex
        let link = dir.appendingPathComponent("link.slog").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: log)
        for arguments in [["upgrade", log, "-o", log, "--force"], ["upgrade", log, "-o", link], ["compact", log, "-o", log],
                          ["compact", log, "-o", link]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(try CLI.run(["verify", log]).status == 0, "\(arguments)")
            let reader = try LogReader(path: log)
            #expect(reader.eventCount == 12 && reader.tail == nil, "\(arguments)")
            #expect(try reader.state(at: 12).hashHex == state, "\(arguments)")
        }
        // The link is still a link, to the log; nothing else was left behind.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == log)
        #expect(try Self.files(dir) == ["dbg.slog", "link.slog"])
    }

    @Test("view, shrink and testgen refuse to write over the file they read (exit 64), under any path")
    func derivedOutputsOverTheirInput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(in: dir)
        let script = dir.appendingPathComponent("s.jsonl").path
        try FileManager.default.copyItem(atPath: Self.script, toPath: script)
        let link = dir.appendingPathComponent("link.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: script)
        let logBytes = try Self.bytes(log), scriptBytes = try Self.bytes(script)
        for arguments in [["view", log, "-o", log], ["shrink", log, "--expect", "count(selected) >= 1", "-o", log],
                          ["testgen", script, "--expect", "true", "-o", script], ["view", script, "-o", link],
                          ["shrink", link, "--expect", "true", "-o", script]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("is the input"), "\(arguments): \(r.stderr)")
            #expect(try Self.bytes(log) == logBytes && Self.bytes(script) == scriptBytes, "\(arguments)")
        }
        // Another output is still written (and replaced) as before.
        let page = dir.appendingPathComponent("page.html").path
        #expect(try CLI.run(["view", log, "-o", page]).status == 0)
        #expect(try CLI.run(["view", log, "-o", page]).status == 0)
    }

    @Test("a failed upgrade -o or compact -o leaves no output, and an existing output as it was")
    func failuresLeaveNoPartialLog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(in: dir)
        // A batch's payload damaged (byte 436 of the walkthrough's log: event 9's batch).
        let bad = try Self.damaged(log, at: 436, in: dir)
        let verify = try CLI.run(["verify", bad])
        try #require(verify.status == 1 && verify.stdout.contains("damaged"), "\(verify.stdout)")
        let out = dir.appendingPathComponent("out.slog").path
        // (A damaged log is exit 1 for upgrade, as for verify; 65 for compact, as for replay.)
        func failed(_ r: CLI.Result, _ arguments: [String]) -> Bool { r.status == (arguments[0] == "upgrade" ? 1 : 65) }
        for arguments in [["upgrade", bad, "-o", out], ["compact", bad, "-o", out]] {
            let r = try CLI.run(arguments)
            #expect(failed(r, arguments), "\(arguments): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(arguments)")
            #expect(try Self.files(dir) == ["dbg.slog", "damaged.slog"], "\(arguments)")
        }
        try Data("an older file\n".utf8).write(to: URL(fileURLWithPath: out))
        for arguments in [["upgrade", bad, "-o", out, "--force"], ["compact", bad, "-o", out]] {
            #expect(failed(try CLI.run(arguments), arguments), "\(arguments)")
            #expect(try String(decoding: Self.bytes(out), as: UTF8.self) == "an older file\n", "\(arguments)")
            #expect(try Self.files(dir) == ["dbg.slog", "damaged.slog", "out.slog"], "\(arguments)")
        }
        // In place, the damaged log stays byte for byte.
        let damagedBytes = try Self.bytes(bad)
        for arguments in [["upgrade", bad], ["compact", bad]] {
            #expect(failed(try CLI.run(arguments), arguments), "\(arguments)")
            #expect(try Self.bytes(bad) == damagedBytes, "\(arguments)")
        }
        #expect(try Self.files(dir) == ["dbg.slog", "damaged.slog", "out.slog"])
    }

    @Test("a torn tail: refused in place (the log untouched, verify --repair named); left out with a note with -o")
    func tornTail() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Self.bytes(try Self.log(in: dir))
        let torn = dir.appendingPathComponent("torn.slog").path
        // Cut inside a batch: its events are lost, the ones before it are complete.
        try whole.prefix(300).write(to: URL(fileURLWithPath: torn))
        let complete = try LogReader(path: torn)
        let tail = try #require(complete.tail)
        let events = complete.eventCount
        for command in ["upgrade", "compact"] {
            let r = try CLI.run([command, torn])
            #expect(r.status == (command == "upgrade" ? 1 : 65), "\(command): \(r.stderr)")
            #expect(r.stderr.contains("torn tail at byte offset \(tail.offset)") && r.stderr.contains("verify --repair"), "\(command): \(r.stderr)")
            #expect(try Self.bytes(torn) == whole.prefix(300), "\(command)")
            let out = dir.appendingPathComponent("\(command).slog").path
            let o = try CLI.run([command, torn, "-o", out])
            #expect(o.status == 0, "\(command): \(o.stderr)")
            #expect(o.stderr.contains("note: ignoring a torn tail at byte offset \(tail.offset)"), "\(command): \(o.stderr)")
            #expect(try LogReader(path: out).eventCount == events && CLI.run(["verify", out]).status == 0, "\(command)")
            #expect(try Self.bytes(torn) == whole.prefix(300), "\(command)")
        }
    }

    @Test("upgrade - and compact - read a log from standard input into -o; without -o, a clear usage error")
    func standardInput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(in: dir)
        let state = try LogReader(path: log).state(at: 12).hashHex
        func piped(_ arguments: [String]) throws -> CLI.Result {
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = arguments
            process.currentDirectoryURL = CLI.root
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: log))
            return try CLI.collect(process)
        }
        for command in ["upgrade", "compact"] {
            let out = dir.appendingPathComponent("\(command)-out.slog").path
            let r = try piped([command, "-", "-o", out])
            #expect(r.status == 0, "\(command): \(r.stderr)")
            #expect(try LogReader(path: out).state(at: 12).hashHex == state, "\(command)")
            let bare = try piped([command, "-"])
            #expect(bare.status == 64 && bare.stderr.contains("cannot be replaced; pass -o OUTPUT"), "\(command): \(bare.stderr)")
        }
    }
}
