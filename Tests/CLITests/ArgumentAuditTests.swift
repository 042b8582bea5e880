import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Findings of the 2026-12-06 audit of the command line with hostile arguments and
/// environment (the file bytes were fuzzed before): each with the result it must now give.
@Suite("Hostile arguments and environment (the 2026-12-06 audit)")
struct ArgumentAuditTests {
    /// Runs `selectlog` in the package root with extra environment and standard input
    /// read from `stdinFile` (or nothing).
    func run(_ arguments: [String], environment: [String: String] = [:], stdinFile: String? = nil) throws -> CLI.Result {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = CLI.root
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = try stdinFile.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
        return try CLI.collect(process)
    }

    /// ArgumentParser wraps option help at the width less 26 columns: at 26 or fewer a
    /// debug build trapped and a release build left the help out, and `Int.min`
    /// overflowed the subtraction in every build.
    @Test("help at any COLUMNS is printed whole, never a trap", arguments: [
        "-9223372036854775808", "-1", "0", "20", "26", "9223372036854775807", "abc",
    ])
    func helpAtAnyWidth(columns: String) throws {
        for arguments in [["--help"], ["help", "record"], ["inspect", "-h"]] {
            let r = try run(arguments, environment: ["COLUMNS": columns])
            #expect(r.status == 0, "COLUMNS=\(columns) \(arguments): \(r.stderr)")
            #expect(r.stdout.contains("OVERVIEW:") && r.stdout.contains("USAGE:"), "COLUMNS=\(columns) \(arguments): \(r.stdout)")
        }
        // Each option's help is there, not dropped for want of room.
        let record = try run(["help", "record"], environment: ["COLUMNS": columns])
        #expect(record.stdout.contains("--force") && record.stdout.contains("replace"), "COLUMNS=\(columns): \(record.stdout)")
    }

    /// `verify --repair /dev/stdin < LOG` cut the log through descriptor 0 and saved the
    /// cut bytes as `/dev/stdin.cut-N`: into /dev, as root.
    @Test("verify --repair of a name under /dev or /proc is refused, the log and /dev untouched")
    func repairThroughDevStdin() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("torn.slog").path
        #expect(try CLI.run(["synthesize", "--events", "2000", "-o", log]).status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        bytes.append(contentsOf: [1, 2, 3, 4, 5])   // a torn tail, which a repair would cut
        try bytes.write(to: URL(fileURLWithPath: log))
        let before = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.contains(".cut-") }
        for name in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "//dev/stdin", "/./dev/stdin", "/dev/../dev/stdin"] {
            let r = try run(["verify", "--repair", name], stdinFile: log)
            #expect(r.status == 64, "\(name): \(r.stderr)")
            #expect(r.stderr.contains("--repair needs the log's own path"), "\(name): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == bytes, "\(name) cut the log")
        }
        let after = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.contains(".cut-") }
        for made in Set(after).subtracting(before) { unlink("/dev/" + made) }
        #expect(after == before, "cut bytes saved in /dev: \(after)")
        // The log's own path is repaired as before.
        #expect(try run(["verify", "--repair", log]).status == 0)
    }

    /// A directory of its own under /dev (a tmpfs) holds files, not streams: a log there
    /// is repaired, compacted in place and upgraded as any other.
    @Test("a log in /dev/shm is repaired and rewritten in place as any other")
    func logInDevShm() throws {
        guard access("/dev/shm", W_OK) == 0 else { return }
        let name = "selectlog-tests-\(UUID().uuidString).slog"
        let log = "/dev/shm/" + name
        defer {
            // The log and the cut bytes saved beside it.
            for file in (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [] where file.hasPrefix(name) {
                unlink("/dev/shm/" + file)
            }
        }
        #expect(try CLI.run(["synthesize", "--events", "2000", "-o", log]).status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        bytes.append(contentsOf: [1, 2, 3, 4, 5])
        try bytes.write(to: URL(fileURLWithPath: log))
        let repaired = try run(["verify", "--repair", log])
        #expect(repaired.status == 0 && repaired.stdout.contains("saved 5 cut bytes in \(log).cut-"), "\(repaired.stdout) \(repaired.stderr)")
        for command in [["compact", log], ["upgrade", log]] {
            let r = try run(command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
        #expect(try run(["verify", log]).status == 0)
    }

    /// Controls in what was typed reached the terminal raw: a command name, an option's
    /// value in ArgumentParser's messages and in ours, a path.
    @Test("what was typed is shown with its controls escaped and clipped, in ArgumentParser's messages and ours")
    func typedTextEscaped() throws {
        let long = "\u{1B}[2J" + String(repeating: "a", count: 100_000)
        let cases: [[String]] = [
            ["rec\u{1B}[2Jord", "x"],                                     // no such command (ours)
            ["inspect", "Examples/editor-row.jsonl", "--why", long],     // a ValidationError (ArgumentParser prints it)
            ["replay", "Examples/editor-row.jsonl", "--at", "\u{1B}[2J"], // not a number (ArgumentParser's own message)
            ["replay", "Examples/editor-row.jsonl", "--\u{1B}[2Jx"],      // an unknown option
            ["replay", "/nonexistent/a\u{1B}[2Jb\nc.slog"],              // a path (ours)
        ]
        for arguments in cases {
            let r = try run(arguments)
            #expect(r.status == 64 || r.status == 74, "\(arguments.map { $0.prefix(40) }): \(r.status)")
            #expect(!r.stderr.unicodeScalars.contains("\u{1B}"), "\(arguments.map { $0.prefix(40) }): \(r.stderr.prefix(300))")
            #expect(r.stderr.contains("\\u{1B}"), "\(arguments.map { $0.prefix(40) }): \(r.stderr.prefix(300))")
            #expect(r.stderr.utf8.count < 3_000, "\(arguments.map { $0.prefix(40) }): \(r.stderr.utf8.count) bytes")
        }
        // A typed newline cannot start a line of its own: in a path (our message), an
        // option's value and an unknown option (ArgumentParser's), a row (our ValidationError).
        for arguments in [["replay", "/nonexistent/a\nselectlog: forged.slog"],
                          ["replay", "Examples/editor-row.jsonl", "--at", "1\nselectlog: forged"],
                          ["replay", "Examples/editor-row.jsonl", "--x\nselectlog: forged"],
                          ["inspect", "Examples/editor-row.jsonl", "--why", "x\nselectlog: forged"],
                          ["inspect", "Examples/editor-row.jsonl", "--events", "1..\nselectlog: forged"]] {
            let r = try run(arguments)
            #expect(r.status == 64 || r.status == 74, "\(arguments): \(r.status)")
            #expect(!r.stderr.split(separator: "\n").contains { $0.hasPrefix("selectlog: forged") }, "\(arguments): \(r.stderr)")
        }
    }

    /// The README: any view that fails (exit 64, 65, 74) prints the error object. The
    /// options' own checks ran in `validate()`, where ArgumentParser printed the usage
    /// and nothing on standard output.
    @Test("replay --json and inspect --json: a mistake in an option ends in the JSON error object too", arguments: [
        ["inspect", "--at", "-1"], ["inspect", "--diff", "2..1"], ["inspect", "--events", "1...5"],
        ["inspect", "--why", "-1,0"], ["inspect", "--history", "pan"], ["inspect", "--why", "0,0", "--at", "-1"],
        ["inspect", "--events", "1..2", "--diff", "1..2"], ["replay", "--at", "-1"],
    ])
    func optionMistakesAsJSON(arguments: [String]) throws {
        let example = "Examples/editor-row.jsonl"
        let r = try run([arguments[0], example, "--json"] + arguments.dropFirst())
        #expect(r.status == 64, "\(arguments): \(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(arguments): \(r.stdout)")
        #expect(object["file"] as? String == example)
        let error = try #require(object["error"] as? [String: Any], "\(r.stdout)")
        #expect(error["kind"] as? String == "usage", "\(r.stdout)")
        let message = try #require(error["message"] as? String)
        #expect(!message.isEmpty && r.stderr.contains(message), "\(message) against \(r.stderr)")
        // Without --json, the mistake is still ArgumentParser's usage error.
        let text = try run([arguments[0], example] + arguments.dropFirst())
        #expect(text.status == 64 && text.stdout.isEmpty && text.stderr.contains("Usage: selectlog \(arguments[0])"), "\(text.stderr)")
    }

    /// `shrink` refused a file at -o it did not write; `testgen` and `view` replaced any
    /// file that was neither a log nor a script: a hand-written test, notes.
    @Test("testgen -o and view -o replace only their own earlier output (or an empty file) without --force")
    func ownOutputOnly() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let example = CLI.root.appendingPathComponent("Examples/editor-row.jsonl").path
        for (command, name, extra) in [("testgen", "MineTests.swift", ["--expect", "true"]), ("view", "notes.html", [String]())] {
            let mine = try CLI.write("hand-written, not the command's\n", to: name, in: dir)
            let refused = try CLI.run([command, example, "-o", mine] + extra)
            #expect(refused.status == 64, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("is not an output of this command") && refused.stderr.contains("--force"), "\(refused.stderr)")
            #expect(try String(contentsOfFile: mine, encoding: .utf8) == "hand-written, not the command's\n")
            // With --force it is replaced; then, being the command's own, without it too.
            #expect(try CLI.run([command, example, "-o", mine, "--force"] + extra).status == 0)
            let first = try String(contentsOfFile: mine, encoding: .utf8)
            #expect(first != "hand-written, not the command's\n")
            #expect(try CLI.run([command, example, "-o", mine] + extra).status == 0, "its own output")
            // An empty file is taken, as shrink takes one.
            let empty = try CLI.write("", to: "empty-" + name, in: dir)
            #expect(try CLI.run([command, example, "-o", empty] + extra).status == 0)
            // --force replaces neither a script nor a log.
            let script = try CLI.write("{\"type\": \"undo\"}\n", to: "s-" + name, in: dir)
            #expect(try CLI.run([command, example, "-o", script, "--force"] + extra).status == 64)
            #expect(try String(contentsOfFile: script, encoding: .utf8) == "{\"type\": \"undo\"}\n")
        }
    }

    /// `upgrade /dev/stdin -o LOG < LOG` is a rewrite in place through a stream: refused,
    /// but the message said to pass -o, which was given.
    @Test("compact and upgrade of /dev/stdin with -o naming the same log say it is the input, and how to rewrite it in place",
          arguments: [("upgrade", ["--force"]), ("compact", [])])
    func outputIsRedirectedInput(command: String, extra: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("q.slog").path
        #expect(try CLI.run(["synthesize", "--events", "100", "-o", log]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        let r = try run([command, "/dev/stdin", "-o", log] + extra, stdinFile: log)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("\(log): is the input /dev/stdin itself") && r.stderr.contains("`selectlog \(command) \(log)`")
                && !r.stderr.contains("pass -o"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == bytes)
    }

    @Test("record's note on a bad line counts one valid event in the singular")
    func oneValidEventNotKept() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n{\"type\": \"nope\"}\n", to: "s.jsonl", in: dir)
        let existing = dir.appendingPathComponent("e.slog").path
        #expect(try CLI.run(["synthesize", "--events", "10", "-o", existing]).status == 0)
        let r = try CLI.run(["record", script, "-o", existing, "--force"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("the 1 valid event before the bad line was not kept"), "\(r.stderr)")
    }

    /// A suggested command named a path with a control in single quotes, where every
    /// message escapes it (`\u{A}`): pasted, it named another file. And every message's
    /// clipping cut a long word of it, or paired a `"` in it with another.
    @Test("a suggested command names the path so that a shell reads it back: $'…' for controls, whole when long or holding a quote mark",
          arguments: [
            (false, "a'b\\c\n\u{1B}[31m\u{202E}\u{85}d\tz.slog"),
            (true, String(repeating: "x", count: 70) + "\n" + String(repeating: "y", count: 30) + ".slog"),
            (true, "both'q\"d\u{7}.slog"),
            (true, "short\"q.slog"),
            (true, String(repeating: "z", count: 120) + ".slog"),
          ])
    func controlsInSuggestedCommands(relative: Bool, name: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = dir.appendingPathComponent(name).path
        let log = relative ? name : full
        #expect(try CLI.run(["synthesize", "--events", "100", "-o", full]).status == 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: full))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("garbage".utf8))
        try handle.close()
        let r = try CLI.run(["compact", log], in: dir)
        #expect(r.status != 0)
        let marker = "`selectlog verify --repair "
        let start = try #require(r.stderr.range(of: marker), "\(r.stderr)")
        let word = try #require(r.stderr[start.upperBound...].split(separator: "`").first.map(String.init))
        #expect(!word.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }, "\(word)")
        let echoed = try TestgenTests.run("/bin/bash", ["-c", "printf %s " + word], in: dir)
        #expect(echoed.stdout == log, "\(word)")
    }

    /// `CommandLine.arguments` puts U+FFFD for bytes that are not UTF-8: a path typed with
    /// them named another file, the one with U+FFFD in its name, and `compact` rewrote it.
    @Test("an argument that is not UTF-8 is refused (64), and the file its U+FFFD reading names is left alone")
    func argumentNotUTF8() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let other = dir.appendingPathComponent("\u{FFFD}a.slog").path
        #expect(try CLI.run(["synthesize", "--events", "100", "-o", other, "--durability", "none"]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: other))
        for command in ["compact", "verify --repair", "replay"] {
            let r = try TestgenTests.run("/bin/bash", ["-c", "'\(CLI.executable.path)' \(command) $'\\xffa.slog'"], in: dir)
            #expect(r.status == 64, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("is not UTF-8 text"), "\(command): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == bytes, "\(command)")
        }
    }

    /// The reports on standard output named the path raw: a newline in a file's name
    /// forged a verdict line (`fake: intact`) for a script that reads them.
    @Test("reports on standard output name a path with its controls escaped: a newline in it starts no line")
    func pathsOnStandardOutput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("nl\nfake: intact.slog").path
        let out = dir.appendingPathComponent("o\nfake: out.slog").path
        let page = dir.appendingPathComponent("v\nfake: page.html").path
        #expect(try CLI.run(["synthesize", "--events", "100", "-o", log]).status == 0)
        for arguments in [["verify", log], ["verify", "--deep", log], ["check", log], ["inspect", log],
                          ["compact", log, "-o", out, "--force"], ["upgrade", log, "-o", out, "--force"],
                          ["view", log, "-o", page, "--force"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 0, "\(arguments[0]): \(r.stderr)")
            #expect(!r.stdout.contains("\nfake") && !r.stdout.hasPrefix("fake"), "\(arguments[0]): \(r.stdout)")
            #expect(r.stdout.contains("\\u{A}fake"), "\(arguments[0]): \(r.stdout)")
        }
    }
}
