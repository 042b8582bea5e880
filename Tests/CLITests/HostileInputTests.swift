import Foundation
import SelectLog
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 13, items 1-3, through the command line: every input the audit found
/// mishandled, each with the error or result it must now give.
@Suite("Hostile inputs (CLI)")
struct HostileInputTests {
    /// Runs `selectlog` with `input` on standard input (through a pipe) and extra environment.
    func run(_ arguments: [String], stdin input: [UInt8]? = nil, environment: [String: String] = [:]) throws -> CLI.Result {
        try CLI.run(arguments, stdin: input, environment: environment)
    }

    @Test("a file named like options (-dash.log) is refused with the way to name it, never taken for -h (help, exit 0)")
    func fileNamedLikeOptions() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("-dash.log").path
        let r = try CLI.run(["record", "Examples/editor-row.jsonl", "-o", log])
        try #require(r.status == 0, "\(r.stderr)")
        let refused = try CLI.run(["verify", "-dash.log"], in: dir)
        #expect(refused.status == 64, "\(refused.stdout)")
        #expect(refused.stderr.contains("-dash.log: a file whose name starts with '-' is read as options; write ./-dash.log, or put -- before it"),
                "\(refused.stderr)")
        #expect(!refused.stdout.contains("OVERVIEW"))
        for arguments in [["verify", "./-dash.log"], ["verify", "--", "-dash.log"]] {
            let r = try CLI.run(arguments, in: dir)
            #expect(r.status == 0 && r.stdout.contains("intact"), "\(arguments): \(r.stderr)")
        }
        // Options, and a group of short options naming no file, are read as before.
        #expect(try CLI.run(["verify", "-h"], in: dir).stdout.contains("OVERVIEW"))
        #expect(try CLI.run(["replay", "Examples/editor-row.jsonl", "--at", "-3"]).stderr.contains("--at"))
    }

    @Test("a file that is neither a log nor a script is called that, by every command that reads both, not bad JSON on line 1")
    func neitherLogNorScript() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var random = SystemRandomNumberGenerator()
        var binary = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        binary[0] = 0x00
        let noise = try CLI.write("", to: "noise.bin", in: dir)
        try Data(binary).write(to: URL(fileURLWithPath: noise))
        let log = dir.appendingPathComponent("m.slog").path
        try #require(try CLI.run(["record", "Examples/editor-row.jsonl", "-o", log]).status == 0)
        var damaged = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        damaged[5] = UInt8(ascii: "X")
        try Data(damaged).write(to: URL(fileURLWithPath: log))
        for command in [["replay"], ["inspect"], ["export"], ["view", "-o", dir.appendingPathComponent("v.html").path]] {
            for file in [noise, log] {
                let r = try CLI.run([command[0], file] + command.dropFirst())
                #expect(r.status == 65, "\(command) \(file): \(r.stderr)")
                // The log's header checks out but for its magic: it is named as a damaged log.
                #expect(r.stderr.contains(file == log ? "a selectlog log whose magic (its first 8 bytes, which should read \"SELECTLG\") is damaged"
                                          : "neither a selectlog log (which begins with \"SELECTLG\") nor a JSON Lines script"), "\(command): \(r.stderr)")
                #expect(!r.stderr.contains("not valid JSON"), "\(command): \(r.stderr)")
            }
        }
        #expect(try CLI.run(["replay", log]).stderr.contains("they are 53 45 4C 45 43 58 4C 47 (\"SELECXLG\"); the rest of its file header checks out, and `selectlog verify --repair \(log)` writes the magic again"))
        // record takes scripts only: a log or noise is refused before any output exists.
        let out = dir.appendingPathComponent("out.slog").path
        for file in [noise, log] {
            let r = try CLI.run(["record", file, "-o", out])
            #expect(r.status == 65 && r.stderr.contains(file == log ? "a selectlog log whose magic" : "neither a selectlog log"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let fromLog = try CLI.run(["record", try #require(CLI.run(["synthesize", "--events", "5", "-o", out]).status == 0 ? out : nil), "-o", dir.appendingPathComponent("again.slog").path])
        #expect(fromLog.status == 65 && fromLog.stderr.contains("is a log, not a script"), "\(fromLog.stderr)")
        // Scripts that begin with a byte-order mark, a comment or a blank line are scripts.
        let marked = try CLI.write("\u{FEFF}# a comment\n\n{\"type\": \"tick\"}\n", to: "ok.jsonl", in: dir)
        #expect(try CLI.run(["replay", marked]).status == 0)
    }

    var example: [UInt8] { Array((try? Data(contentsOf: CLI.root.appendingPathComponent("Examples/editor-row.jsonl"))) ?? Data()) }

    @Test("a script through a pipe is read once, whole: /dev/stdin and - give the file's state")
    func scriptThroughPipe() throws {
        let expected = try CLI.run(["replay", "Examples/editor-row.jsonl", "--json"])
        #expect(expected.status == 0)
        for path in ["/dev/stdin", "-"] {
            let r = try run(["replay", path, "--json"], stdin: example)
            #expect(r.status == 0, "\(path): \(r.stderr)")
            #expect(r.stdout == expected.stdout, "\(path)")
        }
    }

    @Test("a script piped to a command that takes only logs gets the script hint, not an error about its deleted temporary copy")
    func scriptPipedToALogCommand() throws {
        for command in [["check", "-"], ["check", "-", "--json"], ["verify", "-"]] {
            let r = try run(command, stdin: example)
            #expect(r.status == 65 || r.status == 1, "\(command): \(r.status)")
            #expect(r.stderr.contains("looks like a JSON Lines script"), "\(command): \(r.stderr)")
            #expect(!r.stderr.contains("selectlog-input-"), "\(command): \(r.stderr)")
        }
    }

    @Test("a log through a pipe is sniffed from the same bytes and replays like the file")
    func logThroughPipe() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("a.slog").path
        #expect(try CLI.run(["record", "Examples/editor-row.jsonl", "-o", log]).status == 0)
        let expected = try CLI.run(["replay", log, "--json"])
        let piped = try run(["replay", "-", "--json"], stdin: Array(try Data(contentsOf: URL(fileURLWithPath: log))))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == expected.stdout)
        let inspected = try run(["inspect", "/dev/stdin"], stdin: Array(try Data(contentsOf: URL(fileURLWithPath: log))))
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("events      7"))
    }

    @Test("an endless input that begins with a log's magic and no sound file header stops at once: the header is refused, the rest never copied",
          .timeLimit(.minutes(1)))
    func endlessInputAfterTheMagic() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Endless zeros after the magic. A command that copied them would pass the file
        // size limit set here (100 MB) and be killed (SIGXFSZ): the status says so.
        let shell = "ulimit -f 102400; (printf SELECTLG; cat /dev/zero) | '\(CLI.executable.path)' verify -"
        let r = try TestgenTests.run("/bin/sh", ["-c", shell], in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        // verify's report is on standard output.
        #expect(r.stdout.contains("damaged at byte offset 8: format version 0 does not exist"), "\(r.stdout) \(r.stderr)")
    }

    @Test("an endless input stops at once when it is no script, and at the line limit when its line never ends")
    func endlessInput() throws {
        let r = try CLI.run(["replay", "/dev/zero"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("/dev/zero: neither a selectlog log"), "\(r.stderr)")
        // A line that begins like a script's and goes on past the limit.
        var line = [UInt8](repeating: UInt8(ascii: " "), count: 64 << 20 + 16)
        line[0] = UInt8(ascii: "{")
        let long = try run(["replay", "-"], stdin: line)
        #expect(long.status == 65)
        #expect(long.stderr.contains("-: line 1: longer than 64 MiB"), "\(long.stderr)")
    }

    @Test("a FIFO with no writer is an error after a bounded wait; with a writer it is read")
    func fifo() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("f").path
        #expect(mkfifo(path, 0o600) == 0)
        let lonely = try run(["replay", path], environment: ["SELECTLOG_FIFO_WAIT": "1"])
        #expect(lonely.status == 74)
        #expect(lonely.stderr.contains("\(path): a FIFO with no writer: nothing arrived in 1 s"))
        let bytes = example
        Thread.detachNewThread {
            usleep(200_000)
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let fed = try run(["replay", path, "--json"], environment: ["SELECTLOG_FIFO_WAIT": "20"])
        #expect(fed.status == 0, "\(fed.stderr)")
        #expect(fed.stdout == (try CLI.run(["replay", "Examples/editor-row.jsonl", "--json"])).stdout)
    }

    @Test("a directory is a clear error for replay, inspect and record", arguments: [
        ["replay", "Examples"], ["inspect", "Examples"], ["record", "Examples", "-o", "/nonexistent/x.slog"],
    ])
    func directory(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 74)
        #expect(r.stderr.contains("Examples: is a directory, not a script or a log"), "\(r.stderr)")
    }

    /// The commands that take only a log do not say a script would do.
    @Test("a directory is a clear error for the commands that take only a log, naming a log", arguments: [
        ["verify", "Examples"], ["check", "Examples"], ["compact", "Examples", "-o", "/nonexistent/x.slog"],
        ["upgrade", "Examples", "-o", "/nonexistent/x.slog"], ["compact", "Examples"],
    ])
    func directoryForLogCommands(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("Examples: is a directory, not a log") && !r.stderr.contains("script"), "\(r.stderr)")
    }

    @Test("record refuses to write over its own script, even with --force, and over a log without --force")
    func recordRefusesToOverwrite() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write(String(decoding: example, as: UTF8.self), to: "s.jsonl", in: dir)
        let alias = dir.appendingPathComponent("alias.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: script)
        for args in [["record", script, "-o", script], ["record", script, "-o", alias, "--force"]] {
            let r = try CLI.run(args)
            #expect(r.status == 64)
            #expect(r.stderr.contains("is the script being recorded"))
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: script))) == example)
        }
        let log = dir.appendingPathComponent("a.slog").path
        #expect(try CLI.run(["record", script, "-o", log]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        let again = try CLI.run(["record", "Examples/single-selection-taps.jsonl", "-o", log])
        #expect(again.status == 64)
        #expect(again.stderr.contains("\(log): already exists; pass --force to replace it"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
        let forced = try CLI.run(["record", "Examples/single-selection-taps.jsonl", "-o", log, "--force"])
        #expect(forced.status == 0)
        #expect(try CLI.run(["replay", log, "--json"]).stdout == CLI.run(["replay", "Examples/single-selection-taps.jsonl", "--json"]).stdout)
    }

    @Test("record reads its script from a pipe")
    func recordFromPipe() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("p.slog").path
        let r = try run(["record", "-", "-o", log], stdin: example)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLI.run(["replay", log, "--json"]).stdout == CLI.run(["replay", "Examples/editor-row.jsonl", "--json"]).stdout)
    }

    @Test("a byte-order mark is skipped; a bare CR is named with its line; CRLF is fine")
    func lineEnds() throws {
        let bom = try run(["replay", "-", "--json"], stdin: [0xEF, 0xBB, 0xBF] + example)
        #expect(bom.status == 0, "\(bom.stderr)")
        let crlf = String(decoding: example, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try run(["replay", "-", "--json"], stdin: Array(crlf.utf8)).stdout == bom.stdout)
        let crOnly = String(decoding: example, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r")
        let r = try run(["replay", "-"], stdin: Array(crOnly.utf8))
        #expect(r.status == 65)
        #expect(r.stderr.contains("-: line 1: a bare carriage return (CR) at column"))
    }

    @Test("a negative number after an option gets the option's own message", arguments: [
        (["replay", "Examples/editor-row.jsonl", "--at", "-1"], "--at takes a number of events, 0 or more"),
        (["record", "Examples/editor-row.jsonl", "-o", "/nonexistent/x", "--batch-events", "-3"], "--batch-events must be from 1 to 1048576"),
    ])
    func negativeNumbers(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(!r.stderr.contains("Missing value"))
    }

    @Test("a 1 MB title is quoted in at most 80 characters")
    func longTitle() throws {
        let title = String(repeating: "x", count: 1_000_000)
        let script = "{\"type\": \"reload\", \"sections\": [{\"rows\": 1, \"title\": \"a\"}]}\n{\"type\": \"jumpToSection\", \"title\": \"\(title)\"}\n"
        let r = try run(["replay", "-"], stdin: Array(script.utf8))
        #expect(r.status == 65)
        #expect(r.stderr.contains("line 2: jumpToSection: no section has the title \"" + String(repeating: "x", count: 80) + "… (999920 more characters)\""))
        #expect(r.stderr.utf8.count < 300)
    }

    @Test("replay of a script streams: a bad line far down still names its line, after the events before it")
    func streamingNamesLines() throws {
        var text = "{\"type\": \"reload\", \"sections\": [{\"rows\": 10}]}\n"
        text += String(repeating: "{\"type\": \"tick\"}\n", count: 20_000)
        text += "{\"type\": \"tick\", \"t\": -1}\n"
        let r = try run(["replay", "-"], stdin: Array(text.utf8))
        #expect(r.status == 65)
        #expect(r.stderr.contains("-: line 20002: tick: field \"t\" must not be negative"), "\(r.stderr)")
    }

    @Test("replay and record read as the input arrives: a bad line is reported while the writer still holds the pipe open", arguments: ["replay", "record"])
    func streamsBeforeTheEnd(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = command == "replay" ? ["replay", "-"] : ["record", "-", "-o", dir.appendingPathComponent("s.slog").path]
        // The pipe stays open: a reader that waits for the end of its input never answers.
        let (answered, r) = try CLI.runOnOpenInput(arguments, input: Data("{\"type\": \"tick\"}\n{\"type\": \"tick\",\n".utf8))
        #expect(answered, "\(command) waited for the end of its input")
        #expect(r.status == 65)
        #expect(r.stderr.contains("-: line 2: not valid JSON"), "\(r.stderr)")
    }

    @Test("fuzz finding: a forged 378-byte log whose checkpoint claims 730 MB uncompressed is refused at once, naming the byte", arguments: [
        (["verify"], Int32(1)), (["replay"], Int32(65)), (["inspect"], Int32(65)), (["export"], Int32(65)),
    ])
    func forgedLengthClaim(command: [String], status: Int32) throws {
        let seed = CLI.root.appendingPathComponent("Fuzz/Seeds/log/checkpoint-claims-730MB.slog").path
        let started = Date()
        let r = try CLI.run(command + [seed])
        #expect(r.status == status, "\(r.stderr)")
        #expect((r.stdout + r.stderr).contains("byte offset"), "\(r.stdout)\(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
    }

    /// A log of a few hundred bytes whose table has 100,000,000 rows, all selected: what
    /// a row count claims in a few bytes must cost no memory per row.
    static let hugeTable = """
        {"type": "configure", "allowsMultipleSelection": true}
        {"type": "reload", "sections": [{"rows": 50000000}, {"rows": 50000000, "rowHeight": 30}]}
        {"type": "selectAll"}
        {"type": "tap", "x": 10, "y": 100}
        {"type": "tap", "x": 10, "y": 200}
        """

    @Test("a tiny log of a 100,000,000-row table, all selected, is read within 1 GB of address space by every command", arguments: [
        ["replay"], ["replay", "--from-start"], ["verify", "--deep"], ["inspect"], ["check"], ["export"], ["inspect", "--why", "1,7"],
        ["view", "--from", "4", "-o", "page.html"],
        // `selected` outside the forms the parser answers from the selection: it listed every row (13 GB at 100M).
        ["replay", "--expect", "selected and selected == selected and not (selected contains optionOpen) and selected contains [0.4, 7]"],
        ["inspect", "--first", "selected != selected or events >= 5"],
        ["testgen", "--expect", "selected and not (selected == visible)", "-o", "Huge.swift"],
    ])
    func hugeTableInBoundedMemory(command: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write(Self.hugeTable + "\n", to: "huge.jsonl", in: dir)
        let log = dir.appendingPathComponent("huge.slog").path
        let recorded = try CLI.run(["record", script, "-o", log], in: dir)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int ?? 0 < 1_000)
        // Under an address-space limit (where the shell can set one): the heights took
        // 1.7 GB, the changes of the selectAll 1.6 GB, and the viewer 16 GB and 260 s.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -v 1048576 2>/dev/null; exec \"$0\" \"$@\"", CLI.executable.path, command[0], log] + command.dropFirst()
        process.currentDirectoryURL = dir
        let started = Date()
        let r = try CLI.collect(process)
        #expect(r.status == 0, "\(command): \(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 30, "\(command)")
    }

    @Test("replay --expect --json and inspect --first --json list a selection of 10,000,000 rows in full, within 256 MB of address space")
    func expectationReadsInBoundedMemory() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 10000000}]}
            {"type": "selectAll"}

            """, to: "selected.jsonl", in: dir)
        let log = dir.appendingPathComponent("selected.slog").path
        #expect(try CLI.run(["record", script, "-o", log], in: dir).status == 0)
        underLimit(dir, ["replay", log, "--expect", "count(selected) == 10000000", "--json"])
        let out = try Data(contentsOf: dir.appendingPathComponent("out.json"))
        let head = #"{"expect": "count(selected) == 10000000", "at": 3, "holds": true, "reads": {"selected": [[0, 0], [0, 1], "#
        let tail = "[0, 9999998], [0, 9999999]]}}\n"
        #expect(String(decoding: out.prefix(head.utf8.count), as: UTF8.self) == head)
        #expect(String(decoding: out.suffix(tail.utf8.count), as: UTF8.self) == tail)
        // Every row once: "[0, r]" is 5 bytes and r's digits, and ", " between rows.
        var digits = 1, power = 1                       // row 0, then rows 1-9, 10-99, …
        for d in 1...7 {
            digits += d * (power * 10 - power)
            power *= 10
        }
        let head0 = #"{"expect": "count(selected) == 10000000", "at": 3, "holds": true, "reads": {"selected": ["#
        #expect(out.count == head0.utf8.count + 10_000_000 * 5 + digits + 9_999_999 * 2 + "]}}\n".utf8.count)

        // inspect --first --json writes the states before and after the same way.
        underLimit(dir, ["inspect", log, "--first", "count(selected) > 5", "--json"])
        let first = try Data(contentsOf: dir.appendingPathComponent("out.json"))
        let firstText = String(decoding: first.prefix(200), as: UTF8.self)
        #expect(firstText.hasPrefix(#"{"expect": "count(selected) > 5", "event": 3, "type": "selectAll""#), "\(firstText)")
        #expect(first.count > 10_000_000 * 7)
        #expect(String(decoding: first.suffix(2), as: UTF8.self) == "}\n")
        #expect(String(decoding: first, as: UTF8.self).contains(#""after": {"events": 3, "#))
    }

    @Test("export --from of a partial selection of 10,000,000 rows writes each set-up line as it makes it, within 256 MB")
    func sliceOfALargeSelectionInBoundedMemory() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // An auto-scrolling strip pan selects 10,121,010 of 20,000,000 rows.
        let script = try CLI.write("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true, "rowsPerSecond": 1000000}}
            {"type": "reload", "sections": [{"rows": 10000000}, {"rows": 10000000, "rowHeight": 30}]}
            {"type": "panBegan", "x": 10, "y": 100, "t": 0}
            {"type": "panMoved", "x": 10, "y": 830, "t": 10}
            {"type": "tick", "t": 6000}
            {"type": "tick", "t": 12000}
            {"type": "panMoved", "x": 10, "y": 400, "t": 12002}
            {"type": "panEnded", "t": 12010}
            {"type": "tap", "x": 100, "y": 100}

            """, to: "pan.jsonl", in: dir)
        let log = dir.appendingPathComponent("pan.slog").path
        #expect(try CLI.run(["record", script, "-o", log], in: dir).status == 0)
        #expect(try CLI.run(["replay", log], in: dir).stdout.contains("10121010 selected"))
        // The set-up was built whole before its first line: 330 MB here.
        underLimit(dir, ["export", log, "--from", "9"])
        let out = String(decoding: try Data(contentsOf: dir.appendingPathComponent("out.json")), as: UTF8.self)
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let header = try #require(lines.first)
        let count = try #require(header.split(separator: " ").firstIndex(of: "set-up").map { Int(header.split(separator: " ")[$0 - 1]) ?? -1 })
        #expect(header.hasPrefix("# events 9 to 9 of "), "\(header)")
        #expect(lines.count == count + 3, "the header's count of set-up events, the events, the marker and event 9")
        #expect(lines.filter { $0.hasPrefix(#"{"type": "deselect""#) || $0.hasPrefix(#"{"type": "select""#) }.count > 90)
        #expect(lines.last?.hasPrefix(#"{"type": "tap""#) == true)
    }

    /// Runs `arguments` under a 256 MB address-space limit (where the shell can set one),
    /// standard output into out.json. The build before took 1.58 GB for the reads and
    /// 429 MB for `--first`'s states; both now take about 25 MB.
    private func underLimit(_ dir: URL, _ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -v 262144 2>/dev/null; exec \"$0\" \"$@\" > out.json", CLI.executable.path] + arguments
        process.currentDirectoryURL = dir
        let r = try? CLI.collect(process)
        #expect(r?.status == 0, "\(arguments): \(r?.stderr ?? "")")
    }
}

