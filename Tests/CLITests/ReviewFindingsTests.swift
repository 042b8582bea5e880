import Foundation
import Testing

/// What a new-user review of the command line found, each pinned by its reproducer.
@Suite("Review findings: export and inspect")
struct ReviewFindingsTests {
    static let script = "Examples/debugging-session.jsonl"

    @Test("export takes a script like every debugging command: its slice equals the recorded log's")
    func exportOfScript() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["record", ReviewFindingsTests.script, "-o", log]).status == 0)
        let fromScript = try CLI.run(["export", ReviewFindingsTests.script, "--from", "6", "--to", "9"])
        let fromLog = try CLI.run(["export", log, "--from", "6", "--to", "9"])
        #expect(fromScript.status == 0, "\(fromScript.stderr)")
        // The same events; only the header comment names a different source file.
        func events(_ text: String) -> [Substring] { text.split(separator: "\n").filter { !$0.hasPrefix("#") } }
        #expect(events(fromScript.stdout) == events(fromLog.stdout))
        #expect(!events(fromScript.stdout).isEmpty)
    }

    @Test("a script with a bad line: views that end before it answer, with a note naming the line; views that need it fail on it")
    func scriptWithABadLine() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 20}]}
            {"type": "viewport", "width": 390, "height": 500}
            {"type": "tap", "x": 100, "y": 30}
            {"type": "tap", "x": 100, "y": 130}
            {"type": "panBegan", "x": 100, "y": 100}
            {"type": "undo"}

            """, to: "bad.jsonl", in: dir)
        let reason = "bad.jsonl: line 6: undo: not allowed during a pan"
        // What replay --at gives, inspect --at and a range ending before the line give too.
        let replayed = try CLI.run(["replay", bad, "--at", "5", "--json"])
        try #require(replayed.status == 0, "\(replayed.stderr)")
        let at = try CLI.run(["inspect", bad, "--at", "5", "--json"])
        #expect(at.status == 0, "\(at.stderr)")
        #expect(at.stdout == replayed.stdout)
        #expect(at.stderr.contains("note: ") && at.stderr.contains(reason) && at.stderr.contains("reading the 5 events before it"), "\(at.stderr)")
        let range = try CLI.run(["inspect", bad, "--events", "2..4"])
        #expect(range.status == 0 && range.stdout.contains("tap"), "\(range.stderr)")
        let slice = try CLI.run(["export", bad, "--to", "3"])
        #expect(slice.status == 0 && slice.stdout.contains(#"{"type": "tap", "x": 100, "y": 30}"#), "\(slice.stderr)")
        // Past the line, or a view of the whole script: the line's error, exit 65.
        for arguments in [["inspect", bad, "--at", "6"], ["inspect", bad], ["inspect", bad, "--events", "2.."], ["export", bad]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 65, "\(arguments)")
            #expect(r.stderr.contains(reason) && !r.stderr.contains("note:"), "\(arguments): \(r.stderr)")
        }
        // A line that is not JSON at all, the same way.
        let broken = try CLI.write("{\"type\": \"tick\"}\n{bad\n", to: "broken.jsonl", in: dir)
        let first = try CLI.run(["inspect", broken, "--at", "1"])
        #expect(first.status == 0 && first.stderr.contains("line 2: not valid JSON") && first.stderr.contains("reading the 1 event before it"), "\(first.stderr)")
        #expect(try CLI.run(["inspect", broken, "--at", "2"]).status == 65)
    }

    @Test("the summary of a script describes the script, not the temporary log it was read through")
    func summaryOfScript() throws {
        let text = try CLI.run(["inspect", ReviewFindingsTests.script])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("script      \(ReviewFindingsTests.script)"))
        #expect(!text.stdout.contains("bytes, format"))
        #expect(!text.stdout.contains("records "))
        let json = try CLI.run(["inspect", ReviewFindingsTests.script, "--json"])
        #expect(json.stdout.contains("\"source\": \"script\""))
        #expect(json.stdout.contains("\"bytes\": null"))
    }

    @Test("rows are two whole numbers, 0 or more; anything else is a usage error naming the option",
          arguments: [["--why=-0,-6"], ["--why", "0.6"], ["--why", "foo"], ["--history", "x"], ["--history", "1,2,3"]])
    func strictRows(arguments: [String]) throws {
        let r = try CLI.run(["inspect", ReviewFindingsTests.script] + arguments)
        #expect(r.status == 64, "\(arguments): \(r.stdout) \(r.stderr)")
        let option = arguments[0].hasPrefix("--why") ? "--why" : "--history"
        #expect(r.stderr.contains("\(option) takes a row"), "\(r.stderr)")
        #expect(r.stderr.contains("selectlog inspect"), "inspect's own usage: \(r.stderr)")
    }

    @Test("a malformed range is a usage error that shows inspect's usage", arguments: ["5..3", "x..", "1..2..3"])
    func ranges(range: String) throws {
        let r = try CLI.run(["inspect", ReviewFindingsTests.script, "--events", range])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--events takes a range"), "\(r.stderr)")
        #expect(r.stderr.contains("selectlog inspect"), "\(r.stderr)")
    }

    @Test("counts read as English: 1 pan, 2 taps")
    func plurals() throws {
        let r = try CLI.run(["inspect", "Examples/strip-pan-autoscroll.jsonl"])
        #expect(r.stdout.contains("1 pan,"), "\(r.stdout)")
        #expect(!r.stdout.contains("1 pans"))
    }

    @Test("a script given to a command that takes only logs gets the command that makes a log of it")
    func scriptWhereALogIsNeeded() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("o.slog").path
        for arguments in [["verify", ReviewFindingsTests.script], ["check", ReviewFindingsTests.script],
                          ["upgrade", ReviewFindingsTests.script, "-o", out], ["compact", ReviewFindingsTests.script, "-o", out]] {
            let r = try CLI.run(arguments)
            #expect(r.status != 0, "\(arguments)")
            #expect(r.stderr.contains("looks like a JSON Lines script, not a log: `selectlog record \(ReviewFindingsTests.script) -o LOG`"),
                    "\(arguments): \(r.stderr)")
        }
        // Not for a log that is damaged, nor for other files that are not logs.
        let junk = try CLI.write("not a log\n", to: "junk.slog", in: dir)
        #expect(!(try CLI.run(["verify", junk]).stderr.contains("JSON Lines")))
    }

    @Test("inspect --first names --first in its expression's errors; counts of one are singular")
    func wording() throws {
        let first = try CLI.run(["inspect", ReviewFindingsTests.script, "--first", "count(selectd) > 1"])
        #expect(first.stderr.contains("selectlog: --first: column 7: unknown field \"selectd\""), "\(first.stderr)")
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write(#"{"type": "tick"}"#, to: "one.jsonl", in: dir)
        let log = dir.appendingPathComponent("one.slog").path
        #expect(try CLI.run(["record", script, "-o", log]).status == 0)
        let verified = try CLI.run(["verify", log])
        #expect(verified.stdout.contains("intact: 1 event in "), "\(verified.stdout)")
        #expect(!verified.stdout.contains("1 events"), "\(verified.stdout)")
        let checked = try CLI.run(["check", log])
        #expect(checked.stdout.contains("same behaviour: 1 event replayed"), "\(checked.stdout)")
    }

    @Test("a log may be written to /dev/null (a device that cannot be synced)")
    func devNull() throws {
        let r = try CLI.run(["synthesize", "--events", "100", "-o", "/dev/null", "--force"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test("the summary of an empty log says so: no per-event sizes, no times (null in JSON)")
    func emptySummary() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("", to: "empty.jsonl", in: dir)
        let log = dir.appendingPathComponent("empty.slog").path
        #expect(try CLI.run(["record", script, "-o", log]).status == 0)
        let json = try CLI.run(["inspect", log, "--json"])
        #expect(json.stdout.contains(#""events": 0, "firstT": null, "lastT": null"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""bytesPerEvent": null, "compressionRatio": null"#), "\(json.stdout)")
        let text = try CLI.run(["inspect", log])
        #expect(text.stdout.contains("size        no events") && !text.stdout.contains("bytes/event"), "\(text.stdout)")
    }

    @Test("an empty input is an empty script to the commands that read scripts, said on stderr (a failed upload shows); damage to those that read logs only")
    func emptyInput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = try CLI.write("", to: "upload.slog", in: dir)
        let note = "upload.slog: empty (0 bytes): read as a script of no events"
        for arguments in [["replay", empty], ["replay", empty, "--json"], ["inspect", empty], ["export", empty],
                          ["record", empty, "-o", dir.appendingPathComponent("r.slog").path],
                          ["view", empty, "-o", dir.appendingPathComponent("v.html").path],
                          ["shrink", empty, "--expect", "true", "-o", dir.appendingPathComponent("s.jsonl").path],
                          ["testgen", empty, "--expect", "true", "-o", dir.appendingPathComponent("T.swift").path]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains(note), "\(arguments): \(r.stderr)")
        }
        #expect(try CLI.run(["replay", empty, "--json"]).stdout.hasPrefix(#"{"events": 0,"#))
        // A script with a line, even a blank one, is not empty; one of blank lines and
        // comments alone holds no events, and `replay` says so too (a CI review, 2026-12-07:
        // `replay --expect 'not …'` held on it without a word).
        for text in ["\n", "# a title\n\n# nothing else\n"] {
            let blank = try CLI.write(text, to: "blank.jsonl", in: dir)
            for arguments in [["replay", blank], ["replay", blank, "--expect", "not (selected contains [0, 6])", "--json"]] {
                let r = try CLI.run(arguments)
                #expect(r.status == 0, "\(arguments): \(r.stderr)")
                #expect(r.stderr.hasSuffix("blank.jsonl: holds no events (only blank lines and # comments): the state is a new table's\n"), "\(r.stderr)")
                #expect(r.stderr.split(separator: "\n").count == 1, "one note: \(r.stderr)")
            }
        }
        // Events, and no note.
        let one = try CLI.write("# a title\n{\"type\": \"tick\"}\n", to: "one.jsonl", in: dir)
        #expect(try CLI.run(["replay", one]).stderr.isEmpty)
        // Commands that read logs only call it damaged, each with its own exit code.
        for (arguments, status) in [(["verify", empty], Int32(1)), (["check", empty], 65), (["compact", empty, "-o", dir.appendingPathComponent("c.slog").path], 65)] {
            let r = try CLI.run(arguments)
            #expect(r.status == status && (r.stdout + r.stderr).contains("empty file"), "\(arguments): \(r.status) \(r.stdout)\(r.stderr)")
            #expect(!r.stderr.contains("read as a script"), "\(arguments)")
        }
    }

    @Test("a view that names its last event answers from a pipe that stays open, holding exactly its events or more, reading no further",
          arguments: [["export", "-", "--to", "3"], ["replay", "-", "--at", "2"], ["replay", "-", "--at", "0"], ["inspect", "-", "--events", "1..4"],
                      ["inspect", "-", "--diff", "0..2"], ["view", "-", "--to", "3", "-o", "OUT"]], [false, true])
    func endlessPipe(arguments: [String], more: Bool) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("v.html").path
        // The events the view needs (the number its range or position ends at; at least
        // one, as the input is told a log or a script by its first bytes), or many more.
        let needed = Int(arguments[3].split(separator: ".").last ?? "") ?? 0
        let (answered, r) = try CLI.runOnOpenInput(arguments.map { $0 == "OUT" ? page : $0 },
                                                   input: Data(String(repeating: "{\"type\": \"tick\", \"t\": 5}\n", count: more ? 200 : max(needed, 1)).utf8))
        let stdout = r.stdout
        #expect(answered, "\(arguments) waited for the end of its input")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = stdout.split(separator: "\n")
        switch arguments[0] {
        case "export": #expect(lines.filter { $0.hasPrefix("{") }.count == 3, "\(stdout)")
        case "replay": #expect(stdout.hasPrefix("events  \(needed) | t \(needed == 0 ? 0 : 5) ms"), "\(stdout)")
        case "view": #expect(FileManager.default.fileExists(atPath: page))
        case "inspect" where arguments[2] == "--events":
            // Events 2 through 4, numbered.
            #expect(lines.count == 3 && lines.allSatisfy { $0.contains("tick") } && lines.last?.contains(" 4 ") == true, "\(stdout)")
        default: #expect(stdout.hasPrefix("after 0 events -> after 2 events: "), "\(stdout)")
        }
    }

    @Test("a mistake in --first is found before the input is read: at once on a pipe that sends nothing and stays open")
    func firstParsedFirst() throws {
        let (answered, r) = try CLI.runOnOpenInput(["inspect", "-", "--first", "selected ===", "--json"], input: Data())
        #expect(answered, "waited for the input before parsing --first")
        #expect(r.status == 64)
        #expect(r.stderr.contains("--first: column 12"), "\(r.stderr)")
        #expect(r.stdout.contains(#""kind": "usage""#), "\(r.stdout)")
    }

    @Test("a log cut inside its file header, in its magic or after it, says the same and names no event")
    func cutHeader() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("h.slog").path
        #expect(try CLI.run(["record", ReviewFindingsTests.script, "-o", log]).status == 0)
        let whole = try Data(contentsOf: URL(fileURLWithPath: log))
        for length in [5, 20] {
            let cut = dir.appendingPathComponent("cut\(length).slog").path
            try whole.prefix(length).write(to: URL(fileURLWithPath: cut))
            let r = try CLI.run(["replay", cut])
            #expect(r.status == 65, "\(length): \(r.stderr)")
            #expect(r.stderr.contains("\(cut): byte offset 0: file header is incomplete (0 intact events before it)"), "\(length): \(r.stderr)")
            #expect(!r.stderr.contains("event 1"), "\(length): \(r.stderr)")
        }
    }

    @Test("a file shorter than a header that does not begin as a log is no log, not a torn one: verify, check --json and --repair say so")
    func shortNonLog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("h.slog").path
        #expect(try CLI.run(["record", ReviewFindingsTests.script, "-o", log]).status == 0)
        let torn = dir.appendingPathComponent("torn.slog").path
        try Data(contentsOf: URL(fileURLWithPath: log)).prefix(20).write(to: URL(fileURLWithPath: torn))
        for (name, bytes, reason) in [("hello.txt", Data("hello\n".utf8), "not a selectlog log (bad magic)"),
                                      ("short.slog", Data("SELECTLX".utf8), "not a selectlog log (bad magic)")] {
            let path = dir.appendingPathComponent(name).path
            try bytes.write(to: URL(fileURLWithPath: path))
            let verify = try CLI.run(["verify", path])
            #expect(verify.status == 1)
            #expect(verify.stdout.contains(reason) && !verify.stdout.contains("torn tail"), "\(verify.stdout)")
            let check = try CLI.run(["check", path, "--json"])
            #expect(check.status == 65)
            #expect(check.stdout.contains("\"kind\": \"notALog\""), "\(check.stdout)")
            let repair = try CLI.run(["verify", "--repair", path])
            #expect(repair.status == 1)
            #expect(repair.stderr.contains("cannot repair: it is not a selectlog log"), "\(repair.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
        // A log cut inside its header (or to nothing) is still a torn one, which no repair can mend.
        let empty = dir.appendingPathComponent("empty.slog").path
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(try CLI.run(["verify", empty]).stdout.contains("torn tail at byte offset 0: empty file"))
        let verify = try CLI.run(["verify", torn])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("torn tail at byte offset 0: file header is incomplete"), "\(verify.stdout)")
        let repair = try CLI.run(["verify", "--repair", torn])
        #expect(repair.status == 1)
        #expect(repair.stderr.contains("cut inside its file header, before any event"), "\(repair.stderr)")
    }
}

/// What the new-user review of 2026-11-28 found, each pinned by its reproducer.
@Suite("Review findings: outputs and rows")
struct OutputAndRowFindingsTests {
    @Test("-o - is standard output for a script, a test and a page; for a log it is refused, and no file named - is made")
    func dashIsStandardOutput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = CLI.root.appendingPathComponent(ReviewFindingsTests.script).path
        let shrunk = try CLI.run(["shrink", script, "--expect", "selected contains [0, 6] and optionOpen == [0, 3]", "-o", "-"], in: dir)
        #expect(shrunk.status == 0, "\(shrunk.stderr)")
        #expect(shrunk.stdout.hasPrefix("# shrunk by selectlog"), "\(shrunk.stdout)")
        let written = try CLI.write(shrunk.stdout, to: "shrunk.jsonl", in: dir)
        #expect(try CLI.run(["record", written, "-o", dir.appendingPathComponent("s.slog").path]).status == 0)
        let test = try CLI.run(["testgen", script, "--expect", "editing == false", "-o", "-"], in: dir)
        #expect(test.status == 0 && test.stdout.contains("struct ReproductionTests"), "\(test.stderr)")
        let page = try CLI.run(["view", script, "-o", "-"], in: dir)
        #expect(page.status == 0 && page.stdout.hasPrefix("<!DOCTYPE html>"), "\(page.stderr)")
        #expect(page.stderr.contains("wrote standard output: "), "\(page.stderr)")
        for arguments in [["record", script, "-o", "-"], ["synthesize", "--events", "10", "-o", "-"], ["compact", script, "-o", "-"],
                          ["upgrade", script, "-o", "-"]] {
            let r = try CLI.run(arguments, in: dir)
            #expect(r.status == 64, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("-o -: a log is written to a file, not to standard output"), "\(arguments): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["s.slog", "shrunk.jsonl"])
    }

    @Test("--why and --history take a row as the JSON and the picture print it, [S, R]; a field's typo gets a suggestion")
    func rowsAsPrinted() throws {
        let script = ReviewFindingsTests.script
        let plain = try CLI.run(["inspect", script, "--why", "0,6"])
        #expect(plain.status == 0, "\(plain.stderr)")
        for spelled in ["[0, 6]", "[0,6]", "0, 6", " 0 : 6 "] {
            let r = try CLI.run(["inspect", script, "--why", spelled])
            #expect(r.status == 0 && r.stdout == plain.stdout, "\(spelled): \(r.stderr)")
        }
        #expect(try CLI.run(["inspect", script, "--history", "[0, 6]"]).stdout == CLI.run(["inspect", script, "--history", "0,6"]).stdout)
        let typo = try CLI.run(["inspect", script, "--why", "optionopen"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("(did you mean \"optionOpen\"?)"), "\(typo.stderr)")
        for bad in ["[0, 6", "0,,6", "[]", "0 6", "[-1, 6]"] {
            #expect(try CLI.run(["inspect", script, "--why", bad]).status == 64, "\(bad)")
        }
    }
}

extension OutputAndRowFindingsTests {
    @Test("inspect ranges: an empty --events range says why it lists nothing; one past the end names the option and the log")
    func rangeMessages() throws {
        let script = ReviewFindingsTests.script
        let empty = try CLI.run(["inspect", script, "--events", "4..4"])
        #expect(empty.status == 0 && empty.stdout.isEmpty)
        #expect(empty.stderr.contains("--events 4..4: lists no event (A..B lists events A+1 through B; event 5 alone is 4..5)"), "\(empty.stderr)")
        let one = try CLI.run(["inspect", script, "--events", "4..5"])
        #expect(one.status == 0 && one.stdout.split(separator: "\n").count == 1, "\(one.stdout)")
        let past = try CLI.run(["inspect", script, "--events", "3..20"])
        #expect(past.status == 64)
        #expect(past.stderr.contains("--events 3..20: \(script) has only 12 events"), "\(past.stderr)")
        let diff = try CLI.run(["inspect", script, "--diff", "3..20"])
        #expect(diff.stderr.contains("--diff 3..20: \(script) has only 12 events"), "\(diff.stderr)")
    }
}
