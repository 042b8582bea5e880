import Foundation
import Testing

/// The mistakes a second review of the command line as a new user made (2026-12-07):
/// each gets an answer that says what was meant, and no advice that fails when followed.
@Suite("A newcomer's mistakes get answers that lead somewhere")
struct NewcomerMistakesTests {
    @Test("a Markdown file given to a log command is no log, not damage, and is not sent to record; a script with comments is")
    func markdownIsNoScript() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notes = try CLI.write("# Notes on the session\n\nThe pan went wrong near row 40.\n", to: "NOTES.md", in: dir)
        let verify = try CLI.run(["verify", notes])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("not a selectlog log (bad magic)") && !verify.stdout.contains("damaged"), "\(verify.stdout)")
        for command in [["verify", notes], ["check", notes]] {
            let r = try CLI.run(command)
            #expect(!r.stderr.contains("looks like a JSON Lines script"), "\(command): \(r.stderr)")
        }
        // `record` of it fails on its third line: the advice would have led there.
        #expect(try CLI.run(["record", notes, "-o", dir.appendingPathComponent("n.slog").path]).status == 65)
        // Headings alone: `record` would make a log of no events of it.
        let headings = try CLI.write("# Notes\n\n## The session\n", to: "HEADINGS.md", in: dir)
        let h = try CLI.run(["verify", headings])
        #expect(h.status == 1 && !h.stderr.contains("looks like a JSON Lines script"), "\(h.stderr)")
        let script = try CLI.write("# a recorded session\n\n{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n", to: "s.jsonl", in: dir)
        let r = try CLI.run(["verify", script])
        #expect(r.stderr.contains("looks like a JSON Lines script, not a log"), "\(r.stderr)")
    }

    @Test("record that stops at a bad line says how to record again once it is mended, and --force then replaces the partial log")
    func recordAgain() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        let bad = try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n{\"type\": \"tapp\", \"x\": 5, \"y\": 5}\n", to: "s.jsonl", in: dir)
        let first = try CLI.run(["record", bad, "-o", log])
        #expect(first.status == 65)
        #expect(first.stderr.contains("kept the 1 valid event before it; once the line is mended, record again with --force to replace it"), "\(first.stderr)")
        let mended = try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n{\"type\": \"tap\", \"x\": 5, \"y\": 5}\n", to: "s.jsonl", in: dir)
        #expect(try CLI.run(["record", mended, "-o", log]).status != 0)
        #expect(try CLI.run(["record", mended, "-o", log, "--force"]).status == 0)
        let replayed = try CLI.run(["replay", log, "--expect", "events == 2 and selected contains [0, 0]"])
        #expect(replayed.status == 0, "\(replayed.stdout) \(replayed.stderr)")
    }

    @Test("an event pretty-printed over several lines, and a JSON array of events, are told to be one event per line")
    func oneEventPerLine() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pretty = try CLI.write("{\n  \"type\": \"reload\",\n  \"sections\": [{\"rows\": 3}]\n}\n", to: "pretty.jsonl", in: dir)
        let r = try CLI.run(["replay", pretty])
        #expect(r.status == 65)
        #expect(r.stderr.contains("line 1: not valid JSON at column 2: expected a field name; a script holds each event whole on one line (`jq -c . FILE` writes them so)"),
                "\(r.stderr)")
        // A line that is wrong before its end gets no such advice, nor one that ends early
        // but opens no object or list.
        for (name, text) in [("wrong", "{\"type\": \"reload\" \"sections\": [{\"rows\": 3}]}\n"), ("number", "12.\n"), ("string", "\"abc\n")] {
            let w = try CLI.run(["replay", try CLI.write(text, to: "\(name).jsonl", in: dir)])
            #expect(w.status == 65 && !w.stderr.contains("one line") && !w.stderr.contains("jq"), "\(name): \(w.stderr)")
        }
        // A pretty-printed array after a comment: its `[` alone on line 2.
        let list = try CLI.write("# events\n[\n  {\"type\": \"tick\"}\n]\n", to: "list.jsonl", in: dir)
        let l = try CLI.run(["replay", list])
        #expect(l.status == 65)
        #expect(l.stderr.contains("line 2: not valid JSON at column 2: unexpected end of line; a script holds one event object on each line, not a JSON array (`jq -c '.[]' FILE` writes them so)"),
                "\(l.stderr)")
        let array = try CLI.write("[{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}]\n", to: "array.json", in: dir)
        let a = try CLI.run(["replay", array])
        #expect(a.status == 65)
        #expect(a.stderr.contains("a JSON array, perhaps of events; a script holds one event object on each line (`jq -c '.[]' FILE` writes them so)"), "\(a.stderr)")
    }
}
