import Foundation
#if canImport(Glibc)
import Glibc
#endif
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

    /// `selectlog arguments` under a file size limit of 1 KiB, with SIGXFSZ ignored: a
    /// write past it fails with EFBIG, as on a full disk.
    static func underFileSizeLimit(_ arguments: [String]) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"", CLI.executable.path] + arguments
        process.currentDirectoryURL = CLI.root
        return try CLI.collect(process)
    }

    /// `log`, its payload byte at `offset` flipped (its checksum then fails).
    static func damaged(_ log: String, at offset: Int, in dir: URL) throws -> String {
        var data = try bytes(log)
        data[offset] ^= 0x10
        let path = dir.appendingPathComponent("damaged.slog").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("an empty -o is a usage error naming the option, for every command that writes a file; nothing is written",
          arguments: [["record", "Examples/editor-row.jsonl"], ["synthesize", "--events", "3"], ["view", "Examples/editor-row.jsonl"],
                      ["shrink", "Examples/editor-row.jsonl", "--expect", "events > 2"], ["testgen", "Examples/editor-row.jsonl", "--expect", "events > 2"],
                      ["upgrade", "LOG"], ["compact", "LOG"]])
    func emptyOutputPath(_ command: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(in: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        let r = try CLI.run(command.map { $0 == "LOG" ? log : $0 } + ["-o", ""])
        #expect(r.status == 64, "\(command): \(r.stderr)")
        #expect(r.stderr.contains("-o <output>") && r.stderr.contains("the output path is empty"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
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
        for arguments in [["upgrade", bad, "-o", out, "--force"], ["compact", bad, "-o", out, "--force"]] {
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

    @Test("view, shrink and testgen replace their output whole or not at all: a failed write leaves the previous file, a link stays a link")
    func derivedOutputsReplaceWhole() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(in: dir)
        let out = dir.appendingPathComponent("out.txt").path, link = dir.appendingPathComponent("link.txt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: out)
        let previous = "the previous output\n"
        // 40 taps on 40 rows, all of which a shrunk script keeps (over 1 KiB of it).
        var taps = #"{"type": "configure", "allowsMultipleSelection": true}"# + "\n"
            + #"{"type": "viewport", "width": 390, "height": 500}"# + "\n" + #"{"type": "reload", "sections": [{"rows": 40}]}"# + "\n"
        for row in 0..<40 { taps += #"{"type": "select", "rows": [[0, \#(row)]]}"# + "\n" }
        let script = try CLI.write(taps, to: "taps.jsonl", in: dir)
        // With --force: the previous output is not one the command wrote.
        let commands = [["view", log, "--force"], ["shrink", script, "--expect", "count(selected) >= 40", "--force"],
                        ["testgen", Self.script, "--expect", "true", "--force"]]
        for command in commands {
            for output in [out, link] {
                try Data(previous.utf8).write(to: URL(fileURLWithPath: out))
                chmod(out, 0o600)
                let failed = try Self.underFileSizeLimit(command + ["-o", output])
                #expect(failed.status == 74, "\(command) -o \(output): \(failed.stderr)")
                #expect(failed.stderr.contains("\(output): cannot write"), "\(command): \(failed.stderr)")
                #expect(try String(decoding: Self.bytes(out), as: UTF8.self) == previous, "\(command) -o \(output)")
                #expect(try Self.files(dir) == ["dbg.slog", "taps.jsonl", "out.txt", "link.txt"], "\(command) -o \(output)")
                // Without the limit: replaced, with the previous file's mode, through the link.
                let r = try CLI.run(command + ["-o", output])
                #expect(r.status == 0, "\(command) -o \(output): \(r.stderr)")
                #expect(try Self.bytes(out).count > 1024, "\(command) -o \(output)")
                let attributes = try FileManager.default.attributesOfItem(atPath: out)
                #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(command) -o \(output)")
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == out)
                #expect(try Self.files(dir) == ["dbg.slog", "taps.jsonl", "out.txt", "link.txt"], "\(command) -o \(output)")
            }
        }
        // A new file is made whole too: nothing at all after a failed write.
        try FileManager.default.removeItem(atPath: out)
        #expect(try Self.underFileSizeLimit(["view", log, "-o", out]).status == 74)
        #expect(try Self.files(dir) == ["dbg.slog", "taps.jsonl", "link.txt"])
        // Creating only (synthesize --script without --force): made whole too, then linked
        // to its name.
        let created = dir.appendingPathComponent("s.jsonl").path
        #expect(try Self.underFileSizeLimit(["synthesize", "--script", "--events", "2000", "-o", created]).status == 74)
        #expect(try Self.files(dir) == ["dbg.slog", "taps.jsonl", "link.txt"])
        #expect(try CLI.run(["synthesize", "--script", "--events", "2000", "-o", created]).status == 0)
        #expect(try CLI.run(["synthesize", "--script", "--events", "20", "-o", created]).status == 64, "it exists now")
        #expect(try Self.files(dir) == ["dbg.slog", "taps.jsonl", "link.txt", "s.jsonl"])
    }

    @Test("an output that replacing would change beyond its bytes is written in place: hard links, standard output")
    func derivedOutputsInPlace() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(in: dir)
        // A file with a second hard link: both names get the page (renaming would split them).
        let out = dir.appendingPathComponent("out.html").path, second = dir.appendingPathComponent("second.html").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: out))
        try FileManager.default.linkItem(atPath: out, toPath: second)
        #expect(try CLI.run(["view", log, "-o", out, "--force"]).status == 0)
        #expect(try Self.bytes(second) == Self.bytes(out) && Self.bytes(out).count > 1024)
        // -o /dev/stdout with standard output redirected to a file: the page alone in that
        // file, the command's own line on standard error (written after the page, the line
        // overwrote its start: opened again by its name, the file had a second offset).
        let captured = dir.appendingPathComponent("captured.html")
        try Data().write(to: captured)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["view", log, "-o", "/dev/stdout"]
        let handle = try FileHandle(forWritingTo: captured)
        process.standardOutput = handle
        let err = Pipe()
        process.standardError = err
        try process.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try handle.close()
        #expect(process.terminationStatus == 0)
        let page = String(decoding: try Self.bytes(captured.path), as: UTF8.self)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"), "\(page.prefix(60)) … \(page.suffix(60))")
        #expect(said == "wrote /dev/stdout: events 1..12 of 12, \(page.utf8.count) bytes\n", "\(said)")
        #expect(try Self.files(dir) == ["dbg.slog", "out.html", "second.html", "captured.html"])
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
            #expect(bare.status == 64 && bare.stderr.contains("cannot be replaced in place (standard input, a pipe or a device); pass -o OUTPUT"),
                    "\(command): \(bare.stderr)")
        }
    }

    @Test("the output is resolved through links, and must be a regular file: a FIFO stays a FIFO, a link stays a link")
    func outputKinds() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(in: dir)
        let state = try LogReader(path: log).state(at: 12).hashHex
        let fifo = dir.appendingPathComponent("fifo").path
        try #require(mkfifo(fifo, 0o644) == 0)
        for arguments in [["upgrade", log, "-o", fifo, "--force"], ["compact", log, "-o", fifo, "--force"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 74 && r.stderr.contains("\(fifo): is a pipe; the output must be a regular file"), "\(arguments): \(r.stderr)")
            var info = stat()
            #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "\(arguments)")
        }
        // A link to another file: the file is replaced, the link kept.
        let real = dir.appendingPathComponent("real.slog").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: real))
        let link = dir.appendingPathComponent("to-real.slog").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        for arguments in [["upgrade", log, "-o", link, "--force"], ["compact", log, "-o", link, "--force"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "\(arguments)")
            #expect(try LogReader(path: real).state(at: 12).hashHex == state, "\(arguments)")
        }
        // A log given through a link is rewritten in place where it lies.
        let viaLink = dir.appendingPathComponent("log-link.slog").path
        try FileManager.default.createSymbolicLink(atPath: viaLink, withDestinationPath: log)
        #expect(try CLI.run(["upgrade", viaLink]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: viaLink) == log)
        #expect(try LogReader(path: log).state(at: 12).hashHex == state)
        // A link to nothing, and a loop of links: refused (upgrade without --force replaced
        // them with a file), the links as they were.
        let dangling = dir.appendingPathComponent("dangling.slog").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "missing.slog")
        let loop = dir.appendingPathComponent("loop.slog").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop.slog")
        for output in [dangling, loop] {
            for arguments in [["upgrade", log, "-o", output], ["upgrade", log, "-o", output, "--force"], ["compact", log, "-o", output]] {
                let r = try CLI.run(arguments)
                #expect(r.status == 74 && r.stderr.contains("\(output): is a symbolic link to a missing file"), "\(arguments): \(r.stderr)")
            }
        }
        // A path through a file: the system's reason, not "a missing file".
        let throughFile = dir.appendingPathComponent("real.slog/x.slog").path
        let r = try CLI.run(["compact", log, "-o", throughFile])
        #expect(r.status == 74 && r.stderr.contains("\(throughFile): cannot create: Not a directory"), "\(r.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == "missing.slog")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: loop) == "loop.slog")
        // No temporary file is left anywhere.
        #expect(try Self.files(dir) == ["dbg.slog", "fifo", "real.slog", "to-real.slog", "log-link.slog", "dangling.slog", "loop.slog"])
    }

    @Test("-o naming a hard link of LOG writes there, not over LOG; in place keeps the log's permissions")
    func hardLinkAndMode() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(in: dir)
        let original = try Self.bytes(log)
        let hard = dir.appendingPathComponent("hard.slog").path
        try FileManager.default.linkItem(atPath: log, toPath: hard)
        let r = try CLI.run(["upgrade", log, "-o", hard, "--force"])
        #expect(r.status == 0 && r.stdout.hasPrefix("\(hard): "), "\(r.stdout) \(r.stderr)")
        #expect(try Self.bytes(log) == original)
        #expect(try LogReader(path: hard).eventCount == 12)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: log)
        for command in ["upgrade", "compact"] {
            #expect(try CLI.run([command, log]).status == 0, "\(command)")
            #expect((try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions] as? Int) == 0o600, "\(command)")
        }
    }

    @Test("an error about the output names the output, never the temporary file beside it")
    func messagesNameTheOutput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.log(in: dir)
        let out = dir.appendingPathComponent("missing-dir/out.slog").path
        for arguments in [["upgrade", log, "-o", out], ["compact", log, "-o", out]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 74, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains(out) && !r.stderr.contains(".upgrading-") && !r.stderr.contains(".compact-"), "\(arguments): \(r.stderr)")
        }
    }

    @Test("shrink - refuses an output that is the file standard input was redirected from")
    func standardInputRedirectedFromTheOutput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("s.jsonl").path
        try FileManager.default.copyItem(atPath: Self.script, toPath: script)
        let before = try Self.bytes(script)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["shrink", "-", "--expect", "true", "-o", script]
        process.currentDirectoryURL = CLI.root
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: script))
        let r = try CLI.collect(process)
        #expect(r.status == 64 && r.stderr.contains("is the input -"), "\(r.stderr)")
        #expect(try Self.bytes(script) == before)
    }

    @Test("an upgrade or a compaction stopped by a signal (SIGTERM here, as Ctrl-C's SIGINT) leaves no temporary file beside its output",
          arguments: ["upgrade", "compact"])
    func interrupted(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A long log (`CLI.synthesizeLongLog`): the command takes about a second to write
        // its output in the release build, so the signal lands while it works. A signal
        // that lands too late anyway is tried again (below).
        let log = dir.appendingPathComponent("big.slog").path
        try CLI.synthesizeLongLog(at: log)
        let output = dir.appendingPathComponent("out.slog").path
        func temporary() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".upgrading-") || $0.contains(".compact-") }
        }
        var missed: [String] = []
        for _ in 0..<5 {
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = [command, log, "-o", output]
            process.standardOutput = FileHandle.nullDevice
            let err = Pipe()
            process.standardError = err
            try process.run()
            // Interrupted once its temporary file exists (it takes a second or more to fill).
            let (seen, stuck) = try CLI.watch(process, every: 10_000) { try !temporary().isEmpty }
            if seen { kill(process.processIdentifier, SIGTERM) }
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if stuck {
                Issue.record("the command made no temporary file in 30 seconds: \(stderr)")
                return
            }
            // A command that ended normally finished before the signal landed (or before
            // its temporary file was seen): the run says nothing about an interruption, so
            // it is tried again, without the output it wrote. Only a run the signal ended,
            // or one that failed by itself, is the verdict; a command that ignored the
            // signal and finished every time fails below.
            if process.terminationReason == .exit && process.terminationStatus == 0 {
                missed.append(seen ? "it finished before SIGTERM landed" : "it finished before its temporary file was seen")
                try FileManager.default.removeItem(atPath: output)
                continue
            }
            #expect(seen, "the command failed before its temporary file was seen: \(stderr)")
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM, "\(stderr)")
            #expect(try temporary().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: output))
            return
        }
        Issue.record("in 5 attempts SIGTERM never landed while \(command) worked: \(missed.joined(separator: "; "))")
    }
}
