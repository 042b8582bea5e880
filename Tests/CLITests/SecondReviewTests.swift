import Foundation
import SelectLogStore
import Testing

/// A second review of the command line as a new user would use it (2026-12-06, later).
@Suite("A new user's second review of the command line")
struct SecondReviewTests {
    static let example = CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path
    static let expect = "selected contains [0, 6] and optionOpen == [0, 3]"

    private func shrink(to output: String, _ extra: [String] = []) throws -> CLI.Result {
        try CLI.run(["shrink", Self.example, "--expect", Self.expect, "-o", output] + extra)
    }

    @Test("shrink -o replaces an existing file only when shrink wrote it, or with --force; another file is left as it was (64)")
    func shrinkKeepsOtherFiles() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A bundled example, a script of comments alone, and notes that are no script.
        for text in [try String(contentsOfFile: Self.example, encoding: .utf8), "# a script of no events\n", "notes\n"] {
            let output = try CLI.write(text, to: "out.jsonl", in: dir)
            let refused = try shrink(to: output)
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.stderr.contains(output) && refused.stderr.contains("--force"), "\(refused.stderr)")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == text)
            let forced = try shrink(to: output, ["--force"])
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(try CLI.run(["replay", output, "--expect", Self.expect]).status == 0)
        }
        // What shrink wrote is replaced without --force, and so is an empty file.
        let own = dir.appendingPathComponent("min.jsonl").path
        #expect(try shrink(to: own).status == 0)
        let again = try shrink(to: own)
        #expect(again.status == 0, "\(again.stderr)")
        let empty = try CLI.write("", to: "empty.jsonl", in: dir)
        #expect(try shrink(to: empty).status == 0)
        #expect(try CLI.run(["replay", empty, "--expect", Self.expect]).status == 0)
    }

    /// Runs `script` with `bash -c`, `$0` being the selectlog executable.
    private func shell(_ script: String) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, CLI.executable.path]
        return try CLI.collect(process)
    }

    /// README: a command exits 74 with "cannot write standard output" when its output
    /// cannot be written; help and the version are output too.
    @Test("help and the version that cannot be written exit 74 saying so, as every other output does",
          arguments: ["--help", "replay --help", "help replay", "help", "--version", "inspect -h"])
    func helpToFullDevice(_ arguments: String) throws {
        let r = try shell("\"$0\" \(arguments) > /dev/full")
        #expect(r.status == 74, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("cannot write standard output"), "\(arguments): \(r.stderr)")
    }

    @Test("help that can be written still exits 0 with the command's help on standard output")
    func helpStillWorks() throws {
        for (arguments, usage) in [(["--help"], "USAGE: selectlog <subcommand>"), (["help"], "USAGE: selectlog <subcommand>"),
                                   (["help", "replay"], "USAGE: selectlog replay"), (["replay", "--help"], "USAGE: selectlog replay")] {
            let r = try CLI.run(arguments)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(arguments): \(r.stderr)")
            #expect(r.stdout.contains(usage), "\(arguments): \(r.stdout)")
        }
        #expect(try CLI.run(["--version"]).stdout.split(separator: "\n").count == 1)
    }

    @Test("help for a name that is no command is refused (64) as that name alone is, not answered with the root help")
    func helpForNoCommand() throws {
        for arguments in [["help", "bogus"], ["help", "replya"], ["help", "replay", "bogus"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 64, "\(arguments): \(r.stdout)")
            #expect(r.stderr.contains("not a command"), "\(arguments): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(arguments): \(r.stdout)")
        }
        #expect(try CLI.run(["help", "replya"]).stderr.contains("did you mean `selectlog replay`?"))
    }

    /// README, "Trust across builds": a fingerprint that differs is what the reader knows;
    /// whether the engines behave differently is `check`'s to say, and it may say they do not.
    @Test("replay of a log whose fingerprint differs says that, not that its engine behaves differently, where check finds the same behaviour")
    func fingerprintNoticeSaysWhatIsKnown() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try CLI.logWithOtherFingerprint(in: dir)
        #expect(try CLI.run(["check", log]).status == 0)
        let replayed = try CLI.run(["replay", log])
        #expect(replayed.status == 0)
        #expect(!replayed.stderr.contains("behaves differently"), "\(replayed.stderr)")
        #expect(!replayed.stderr.contains("part ways"), "\(replayed.stderr)")
        #expect(replayed.stderr.contains("behaviour fingerprint"), "\(replayed.stderr)")
        #expect(replayed.stderr.contains("replaying from the start instead of using its checkpoints"), "\(replayed.stderr)")
    }

    static let head = #"{"type": "reload", "sections": [{"rows": 5}]}"# + "\n" + #"{"type": "tap", "x": 20, "y": 10}"# + "\n"

    /// README: a view that names its last event reads a script from a pipe only up to it;
    /// `--first` needs the events up to the first where its expectation holds, and `--why`
    /// or `--history` with `--at N` the first N. Before, each recorded the whole endless
    /// stream first (`timeout` ended it: 124).
    @Test("inspect - --first, and --why or --history with --at N, answer an endless stream",
          arguments: [["--first", "events == 3"], ["--first", "events == 3", "--json"], ["--first", "events == 0"],
                      ["--why", "0,0", "--at", "5"], ["--why", "contentOffset", "--at", "5"], ["--history", "0,0", "--at", "5"]])
    func endlessStream(_ view: [String]) throws {
        let quoted = view.map { "'\($0)'" }.joined(separator: " ")
        let r = try shell("{ printf '%s' '\(Self.head)'; yes '{\"type\": \"tick\"}'; } | timeout 20 \"$0\" inspect - \(quoted)")
        #expect(r.status == 0, "\(view): \(r.stderr)")
        if view[0] == "--first" {
            let n = view[1] == "events == 3" ? "3" : "0"
            #expect(r.stdout.contains(view.contains("--json") ? "\"event\": \(n)," : n == "0" ? "holds before the first event" : "first holds after event 3"),
                    "\(r.stdout)")
        } else {
            #expect(r.stdout.contains("after 5 events"), "\(r.stdout)")
        }
    }

    @Test("--first of a script file still counts its events; --why --at N of one with a bad line after N answers with a note, as --at N does")
    func scriptFiles() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ticks = String(repeating: #"{"type": "tick"}"# + "\n", count: 5)
        let script = try CLI.write(Self.head + ticks, to: "s.jsonl", in: dir)
        let first = try CLI.run(["inspect", script, "--first", "events == 3"])
        #expect(first.status == 0 && first.stdout.contains("first holds after event 3 of 7"), "\(first.stdout)")
        let bad = try CLI.write(Self.head + ticks + "{bad\n", to: "bad.jsonl", in: dir)
        for view in [["--why", "0,0", "--at", "4"], ["--history", "0,0", "--at", "4"]] {
            let r = try CLI.run(["inspect", bad] + view)
            #expect(r.status == 0, "\(view): \(r.stderr)")
            #expect(r.stderr.contains("line 8") && r.stderr.contains("reading the 7 events before it"), "\(view): \(r.stderr)")
        }
        // Without --at, the view needs every event: the bad line is the error.
        #expect(try CLI.run(["inspect", bad, "--why", "0,0"]).status == 65)
    }
}
