import Foundation
import Testing

/// What a review of the command line as a new user would use it found (2026-12-06).
@Suite("A new user's review of the command line")
struct NewUserReviewTests {
    static let example = CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path
    static let expect = "selected contains [0, 6] and optionOpen == [0, 3]"

    /// The arguments of `command` writing to `output`.
    private func arguments(_ command: String, to output: String) -> [String] {
        command == "view" ? ["view", Self.example, "-o", output]
            : ["testgen", Self.example, "--expect", Self.expect, "-o", output]
    }

    @Test("view and testgen refuse to replace a JSON Lines script (a mistyped -o), and leave it as it was",
          arguments: ["view", "testgen"])
    func scriptIsNotReplaced(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let comments = (1...600).map { "# comment line \($0) of a long header\n" }.joined()
        for text in ["{\"type\": \"reload\", \"sections\": [3]}\n",
                     "\u{FEFF}# a recorded session\r\n\r\n  {\"type\": \"tap\", \"x\": 10, \"y\": 10}\r\n",
                     comments + "{\"type\": \"tick\"}\n",  // past the first 4 KiB
                     "# only comments: a script of no events\n# still a script\n"] {
            let script = try CLI.write(text, to: "session.jsonl", in: dir)
            let r = try CLI.run(arguments(command, to: script))
            #expect(r.status == 64, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("looks like a JSON Lines script (its first line that is not blank or a # comment begins with {"), "\(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: script)) == Data(text.utf8))
        }
    }

    /// A page, or a Swift file that begins with `#if`, is not taken for a script (whose
    /// `#` comments it resembles): one the command did not write is refused as that, and
    /// `--force` replaces it; what the command wrote before is replaced without it.
    @Test("view and testgen replace a page or a Swift file that begins with #if with --force, and what they wrote before without it",
          arguments: ["view", "testgen"])
    func ownOutputIsReplaced(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let previous = command == "view" ? "<!DOCTYPE html>\n<html></html>\n" : "#if canImport(Testing)\nimport Testing\n#endif\n"
        let output = try CLI.write(previous, to: command == "view" ? "page.html" : "SessionTests.swift", in: dir)
        let refused = try CLI.run(arguments(command, to: output))
        #expect(refused.status == 64 && refused.stderr.contains("is not an output of this command"), "\(command): \(refused.stderr)")
        #expect(!refused.stderr.contains("JSON Lines script"), "\(command): \(refused.stderr)")
        let r = try CLI.run(arguments(command, to: output) + ["--force"])
        #expect(r.status == 0, "\(command): \(r.stderr)")
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written != previous)
        #expect(try CLI.run(arguments(command, to: output)).status == 0, "its own output again")
    }

    @Test("check says when only the behaviour fingerprints were compared: a log of this build with no gesture end or checkpoint")
    func onlyFingerprintsCompared() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let taps = try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 30, \"rowHeight\": 50}]}\n{\"type\": \"tap\", \"x\": 10, \"y\": 10}\n", to: "taps.jsonl", in: dir)
        let log = dir.appendingPathComponent("taps.slog").path
        try #require(try CLI.run(["record", taps, "-o", log]).status == 0)
        let r = try CLI.run(["check", log])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("same behaviour: 2 events replayed; 0 gestures and 0 checkpoints as recorded"), "\(r.stdout)")
        #expect(r.stdout.contains("only the behaviour fingerprints were compared"), "\(r.stdout)")
        // A log with gestures compares them, and says nothing of the kind.
        let pans = dir.appendingPathComponent("pans.slog").path
        try #require(try CLI.run(["record", Self.example, "-o", pans]).status == 0)
        let compared = try CLI.run(["check", pans])
        #expect(compared.status == 0, "\(compared.stderr)")
        #expect(!compared.stdout.contains("only the behaviour fingerprints"), "\(compared.stdout)")
    }

    @Test("replay --expect's help gives an expectation that parses, and the object --json prints with it")
    func expectHelp() throws {
        let help = try CLI.run(["replay", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("{\"expect\", \"at\", \"holds\", \"reads\"}"), "\(help)")
        let example = try #require(help.range(of: "for example '"), "\(help)")
        let quoted = String(help[example.upperBound...].prefix { $0 != "'" })
        let r = try CLI.run(["replay", Self.example, "--expect", quoted, "--json"])
        #expect(r.status == 0 || r.status == 1, "\(quoted): \(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        #expect(Set(object.keys) == ["expect", "at", "holds", "reads"], "\(r.stdout)")
    }

    @Test("replay --json and inspect --json give stderr's reason as the error's message, not a pointer to stderr",
          arguments: [["replay", "--json"], ["inspect", "--json"], ["replay", "--at", "99", "--json"]])
    func errorMessageIsTheReason(arguments: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = arguments.contains("--at") ? Self.example
            : try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 3, \"rowHeight\": 50}]}\n{\"type\": \"tap\", \"x\": 1}\n", to: "bad.jsonl", in: dir)
        let r = try CLI.run([arguments[0], bad] + arguments.dropFirst())
        #expect(r.status == (arguments.contains("--at") ? 64 : 65), "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        let error = try #require(object["error"] as? [String: Any])
        let said = r.stderr.split(separator: "\n").map { $0.hasPrefix("selectlog: ") ? String($0.dropFirst(11)) : String($0) }
        #expect(error["message"] as? String == said.joined(separator: "\n"), "\(r.stdout) against \(r.stderr)")
        #expect((error["message"] as? String)?.contains(arguments.contains("--at") ? "has only" : "line 2: tap: missing field") == true, "\(r.stdout)")
    }

    @Test("a first argument that names no command is said to be one, with the closest command (exit 64)")
    func unknownCommand() throws {
        let typo = try CLI.run(["replya", "session.slog"])
        #expect(typo.status == 64)
        #expect(typo.stderr == "selectlog: \"replya\" is not a command (did you mean `selectlog replay`?); `selectlog --help` lists them\n", "\(typo.stderr)")
        let file = try CLI.run(["session.slog"])
        #expect(file.status == 64)
        #expect(file.stderr.hasPrefix("selectlog: \"session.slog\" is not a command; "), "\(file.stderr)")
        // Commands, help and options are as before.
        #expect(try CLI.run(["help", "verify"]).stdout.contains("USAGE: selectlog verify"))
        #expect(try CLI.run(["--version"]).status == 0)
    }

    @Test("an input that is neither log nor script shows its first bytes as text when they are, and names a page")
    func pageGivenAsInput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html").path
        try #require(try CLI.run(["view", Self.example, "-o", page]).status == 0)
        let r = try CLI.run(["replay", page])
        #expect(r.status == 65)
        #expect(r.stderr.contains("it begins with bytes 3C 21 44 4F 43 54 59 50 (\"<!DOCTYP\"): an HTML page, such as `selectlog view` writes"), "\(r.stderr)")
        let binary = try CLI.write("\u{01}\u{02}abc", to: "b.bin", in: dir)
        let b = try CLI.run(["replay", binary])
        #expect(b.status == 65)
        #expect(b.stderr.hasSuffix("it begins with bytes 01 02 61 62 63\n"), "\(b.stderr)")
    }

    @Test("the error object's message leaves out notes said before the error (a torn tail ignored)")
    func notesAreNotTheError() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        try #require(try CLI.run(["record", Self.example, "-o", log]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        try bytes.prefix(bytes.count - 30).write(to: URL(fileURLWithPath: log))
        let r = try CLI.run(["inspect", log, "--at", "99", "--json"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("note: ignoring a torn tail"), "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        let message = try #require((object["error"] as? [String: Any])?["message"] as? String)
        #expect(message.hasPrefix("--at 99: "), "\(message)")
        #expect(!message.contains("note:"), "\(message)")
    }
}
