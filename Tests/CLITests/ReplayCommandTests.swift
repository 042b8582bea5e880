import Foundation
import SelectLog
import Testing

@Suite("selectlog replay")
struct ReplayCommandTests {
    @Test("replay --json prints the spec 6 object for every example, equal to the library's")
    func replayJSONMatchesLibrary() throws {
        let names = ["strip-pan-autoscroll", "single-selection-taps", "two-finger-multi-select", "row-edits-follow-selection",
                     "option-views", "editor-row", "section-index-and-images"]
        for name in names {
            let path = "Examples/\(name).jsonl"
            let r = try CLI.run(["replay", path, "--json"])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            var state = TableState()
            try Script(bytes: Array(try Data(contentsOf: CLI.root.appendingPathComponent(path)))).replay(into: &state)
            #expect(r.stdout == state.json + "\n", "\(name)")
        }
    }

    @Test("replay --json of the strip example has the exact selection, offset and pan")
    func stripExampleExact() throws {
        let r = try CLI.run(["replay", "Examples/strip-pan-autoscroll.jsonl", "--json"])
        // Tap row 0; strip pan from row 3 to row 11; three 100 ms ticks at 500 pt/s reach row 14.
        let selected = ([0] + Array(3...14)).map { "[0, \($0)]" }.joined(separator: ", ")
        #expect(r.stdout.contains(#""selected": [\#(selected)]"#))
        #expect(r.stdout.contains(#""contentOffset": 150, "contentHeight": 5000, "visible": [[0, 3], [0, 14]]"#))
        #expect(r.stdout.contains(#""pan": {"kind": "strip", "mode": "select", "anchor": [0, 14], "autoscroll": "down"}"#))
    }

    @Test("replay --at N prints the state after N events")
    func replayAt() throws {
        let r = try CLI.run(["replay", "Examples/single-selection-taps.jsonl", "--at", "3", "--json"])
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""events": 3, "t": 0"#))
        #expect(r.stdout.contains(#""selected": [[0, 0]]"#))
        let zero = try CLI.run(["replay", "Examples/single-selection-taps.jsonl", "--at", "0", "--json"])
        #expect(zero.stdout.contains(#""events": 0"#))
        #expect(zero.stdout.contains(#""sections": []"#))
    }

    @Test("a bad script exits 65 and names the line")
    func badScript() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 3}]}
            # a comment

            {"type": "select", "rows": [[0, 3]]}
            """, to: "bad.jsonl", in: dir)
        let r = try CLI.run(["replay", path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("line 4: select: rows[0] [0, 3] is out of range (section 0 has 3 rows)"))
        #expect(r.stdout.isEmpty)
        let syntax = try CLI.write("{\"type\": \"tap\", \"x\": 1,\n", to: "syntax.jsonl", in: dir)
        let s = try CLI.run(["replay", syntax])
        #expect(s.status == 65)
        #expect(s.stderr.contains("line 1: not valid JSON at column"))
    }

    @Test("--at N before a bad line answers with a note naming it, as inspect does; a bad line within N exits 65")
    func badLineAfterAt() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let head = """
            {"type": "reload", "sections": [{"rows": 3}]}
            {"type": "tap", "x": 20, "y": 10}

            """
        // One line that does not decode, one the engine rejects (no pan is active).
        for (name, bad, reason) in [("syntax", #"{"type": "tap", "x": 20}"#, "line 3: tap: missing field \"y\""),
                                    ("engine", #"{"type": "panMoved", "x": 20, "y": 30}"#, "line 3: panMoved")] {
            let path = try CLI.write(head + bad + "\n" + #"{"type": "tap", "x": 20, "y": 60}"# + "\n", to: "\(name).jsonl", in: dir)
            let before = try CLI.run(["replay", path, "--at", "2", "--json"])
            #expect(before.status == 0, "\(name): \(before.stderr)")
            #expect(before.stdout.contains(#""events": 2"#), "\(name)")
            #expect(before.stdout.contains(#""selected": [[0, 0]]"#), "\(name)")
            #expect(before.stderr.contains("note: \(path): \(reason)"), "\(name): \(before.stderr)")
            #expect(before.stderr.contains("reading the 2 events before it"), "\(name): \(before.stderr)")
            let inspect = try CLI.run(["inspect", path, "--at", "2", "--json"])
            #expect(inspect.status == 0, "\(name): \(inspect.stderr)")
            let note = try #require(before.stderr.split(separator: "\n").first { $0.hasPrefix("selectlog: note:") || $0.hasPrefix("note:") })
            #expect(inspect.stderr.contains(note), "\(name): the same note as inspect's: \(inspect.stderr)")
            for needed in [["--at", "3"], []] {
                let r = try CLI.run(["replay", path] + needed)
                #expect(r.status == 65, "\(name) \(needed): \(r.stderr)")
                #expect(r.stderr.contains(reason), "\(name) \(needed): \(r.stderr)")
                #expect(!r.stderr.contains("note:"), "\(name) \(needed)")
                #expect(r.stdout.isEmpty)
            }
        }
    }

    @Test("a missing file exits 74; --at past the end and unknown options exit 64")
    func otherFailures() throws {
        let missing = try CLI.run(["replay", "/nonexistent/x.jsonl"])
        #expect(missing.status == 74)
        #expect(missing.stderr.contains("/nonexistent/x.jsonl"))
        let past = try CLI.run(["replay", "Examples/editor-row.jsonl", "--at", "99"])
        #expect(past.status == 64)
        #expect(past.stderr.contains("has only 7 events"))
        let usage = try CLI.run(["replay", "--frobnicate"])
        #expect(usage.status == 64)
    }

    @Test("without --json, replay prints a summary and a picture with selection marks, the pan and the editor")
    func textPicture() throws {
        let r = try CLI.run(["replay", "Examples/strip-pan-autoscroll.jsonl"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("pan     strip | select | anchor [0, 14] | finger 30,575 | auto-scroll down"))
        #expect(r.stdout.contains("auto-scroll down"))
        #expect(r.stdout.contains("| 0:3       [x]  start"))
        #expect(r.stdout.contains("| 0:14      [x]  anchor <- finger"))
        let e = try CLI.run(["replay", "Examples/editor-row.jsonl"])
        #expect(e.stdout.contains("    editor: [x] Spring  [x] Summer  [ ] Autumn  [ ] Winter"))
        let o = try CLI.run(["replay", "Examples/option-views.jsonl"])
        #expect(o.stdout.contains("  0:0       [ ]  <options open>"))
        for line in (r.stdout + e.stdout + o.stdout).split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
            #expect(line.allSatisfy { $0.isASCII }, "\(line)")
        }
    }

    @Test("--help names every subcommand and the exit codes")
    func help() throws {
        let r = try CLI.run(["--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("replay"))
        #expect(r.stdout.contains("65 invalid"))
    }
}

@Suite("selectlog replay --expect")
struct ReplayExpectTests {
    @Test("exit 0 when it holds, 1 when it does not (printing what it read), 64 (usage) for a bad expression")
    func exitCodes() throws {
        let file = "Examples/strip-pan-autoscroll.jsonl"
        let holds = try CLI.run(["replay", file, "--expect", "selected contains [0, 14] and pan.autoscroll == \"down\""])
        #expect(holds.status == 0, "\(holds.stderr)")
        #expect(holds.stdout.hasPrefix("selected contains [0, 14] and pan.autoscroll == \"down\" holds after 10 events\n"))
        let fails = try CLI.run(["replay", file, "--expect", "count(selected) > 3 and not editing", "--at", "4"])
        #expect(fails.status == 1)
        #expect(fails.stdout.contains("does not hold after 4 events\n  selected = [[0, 0]]\n  editing = false\n"), "\(fails.stdout)")
        let json = try CLI.run(["replay", file, "--expect", "optionOpen == null", "--json"])
        #expect(json.stdout == "{\"expect\": \"optionOpen == null\", \"at\": 10, \"holds\": true, \"reads\": {\"optionOpen\": null}}\n")
        let bad = try CLI.run(["replay", file, "--expect", "selected contains"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("column 18: expected a field, a literal"), "\(bad.stderr)")
    }

    @Test("a mistake in a long expression is shown around its column, whole, with the caret under it (stderr clips long words)",
          arguments: ["short", "long"])
    func caretUnderTheMistake(_ length: String) throws {
        let expression = length == "short" ? "editing == bogus" : String(repeating: "(", count: 100) + "editing" + String(repeating: ")", count: 100) + "==bogus"
        let r = try CLI.run(["replay", "Examples/editor-row.jsonl", "--expect", expression])
        #expect(r.status == 64)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(r.stderr)")
        let shown = Array(lines[1].dropFirst("selectlog:   ".count)), caret = lines[2].dropFirst("selectlog:   ".count)
        #expect(caret.allSatisfy { $0 == " " || $0 == "^" } && caret.hasSuffix("^"), "\(lines[2])")
        #expect(shown.count <= 74, "\(lines[1])")
        #expect(Array(shown.dropFirst(caret.count - 1)).starts(with: Array("bogus")), "\(lines[1])\n\(lines[2])")
    }

    @Test("on a long synthetic log, --expect agrees with the library at every N tried")
    func longLog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "20000", "--seed", "3", "-o", path]).status == 0)
        var iterator = SyntheticSession(seed: 3, count: 20000).makeIterator()
        var n = 0
        let expectation = try StateExpectation("count(selected) >= 2 or editing")
        for target in [0, 1, 5000, 12_345, 20000] {
            while n < target, iterator.next() != nil { n += 1 }
            let expected = expectation.holds(in: iterator.state)
            let r = try CLI.run(["replay", path, "--at", String(target), "--expect", expectation.text])
            #expect(r.status == (expected ? 0 : 1), "at \(target)")
        }
    }
}

@Suite("scripts and logs alike, - for standard input")
struct SessionInputTests {
    /// `selectlog ARGS < file`, through the shell.
    func piped(_ file: String, _ arguments: [String], in dir: URL) throws -> CLI.Result {
        let quoted = ([CLI.executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try TestgenTests.run("/bin/sh", ["-c", quoted.joined(separator: " ") + " < '\(file)'"], in: dir)
    }

    @Test("replay, inspect, shrink and testgen give the same answers for a script, its log, and either on stdin")
    func alike() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path
        let log = dir.appendingPathComponent("d.slog").path
        #expect(try CLI.run(["record", script, "-o", log]).status == 0)
        let expect = "selected contains [0, 6]"
        let views: [[String]] = [
            ["replay", "FILE", "--expect", expect],
            ["inspect", "FILE", "--why", "0,6", "--json"],
            ["inspect", "FILE", "--history", "0,0"],
            ["inspect", "FILE", "--first", expect, "--json"],
            ["inspect", "FILE", "--events", "3..6"],
        ]
        for view in views {
            let fromLog = try CLI.run(view.map { $0 == "FILE" ? log : $0 }, in: dir)
            #expect(fromLog.status == 0, "\(view): \(fromLog.stderr)")
            #expect(!fromLog.stdout.isEmpty)
            let fromScript = try CLI.run(view.map { $0 == "FILE" ? script : $0 }, in: dir)
            #expect(fromScript.stdout == fromLog.stdout, "\(view)")
            for file in [script, log] {
                let stdin = try piped(file, view.map { $0 == "FILE" ? "-" : $0 }, in: dir)
                #expect(stdin.stdout == fromLog.stdout, "\(view) < \(file): \(stdin.stderr)")
            }
        }
        for file in [script, log] {
            let shrink = try piped(file, ["shrink", "-", "--expect", expect, "-o", "min.jsonl"], in: dir)
            #expect(shrink.status == 0, "\(shrink.stderr)")
            let gen = try piped(dir.appendingPathComponent("min.jsonl").path, ["testgen", "-", "--expect", expect, "-o", "T.swift"], in: dir)
            #expect(gen.status == 0, "\(gen.stderr)")
            let text = try String(contentsOf: dir.appendingPathComponent("T.swift"), encoding: .utf8)
            #expect(text.contains("try StateExpectation(\"selected contains [0, 6]\")"))
        }
        let bad = try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n{\"type\": \"select\", \"rows\": [[0, 9]]}\n", to: "bad.jsonl", in: dir)
        let r = try CLI.run(["inspect", bad, "--first", "editing"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("line 2:"), "\(r.stderr)")
    }
}
