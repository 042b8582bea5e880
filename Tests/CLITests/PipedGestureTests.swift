import Foundation
import Testing

/// `inspect --why`, `--first` and `--history` read a piped script no further than their
/// answer, so a gesture that reaches the last event read may go on past it: it is not
/// "unfinished when the log ends" (JSON `unfinished: true`), which only a log that does
/// end mid-gesture is.
@Suite("inspect of a gesture a pipe was read no further than")
struct PipedGestureTests {
    static let session = "Examples/debugging-session.jsonl"
    // Its strip pan is events 4 to 7 (panBegan, two panMoved, panEnded).
    static let views = [["--why", "0,2", "--at", "5"], ["--first", "count(selected) >= 2"]]

    var script: [UInt8] { Array((try? Data(contentsOf: CLI.root.appendingPathComponent(Self.session))) ?? Data()) }

    func gesture(_ r: CLI.Result) throws -> [String: Any] {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        return try #require(o["gesture"] as? [String: Any], "\(r.stdout)")
    }

    @Test("from a file, the whole gesture; from a pipe read no further, the events read, its end not known", arguments: views)
    func pipedGestureIsNotCalledUnfinished(view: [String]) throws {
        let file = try CLI.run(["inspect", Self.session] + view + ["--json"])
        #expect(file.status == 0, "\(file.stderr)")
        let whole = try gesture(file)
        #expect(whole["first"] as? Int == 4 && whole["last"] as? Int == 7 && whole["unfinished"] as? Bool == false, "\(whole)")

        let piped = try CLI.run(["inspect", "-"] + view + ["--json"], stdin: script)
        #expect(piped.status == 0, "\(piped.stderr)")
        let read = try gesture(piped)
        #expect(read["first"] as? Int == 4 && read["last"] as? Int == 5, "\(read)")
        #expect(read["unfinished"] is NSNull, "\(read)")

        let text = try CLI.run(["inspect", "-"] + view, stdin: script)
        #expect(text.stdout.contains("  part of a strip pan, events 4 to 5 (and maybe later ones: the input read no further)"), "\(text.stdout)")
        #expect(!text.stdout.contains("unfinished"), "\(text.stdout)")
    }

    @Test("--history: the gesture's events read, and that the input was read no further")
    func history() throws {
        let piped = try CLI.run(["inspect", "-", "--history", "0,2", "--at", "5"], stdin: script)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.contains("(strip pan, events 4 to 5 and maybe later ones: the input read no further)"), "\(piped.stdout)")
        let json = try CLI.run(["inspect", "-", "--history", "0,2", "--at", "5", "--json"], stdin: script)
        let changes = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["changes"] as? [[String: Any]])
        let g = try #require(changes.last?["gesture"] as? [String: Any], "\(json.stdout)")
        #expect(g["last"] as? Int == 5 && g["unfinished"] is NSNull, "\(g)")
        let file = try CLI.run(["inspect", Self.session, "--history", "0,2", "--at", "5"])
        #expect(file.stdout.contains("(strip pan, events 4 to 7)"), "\(file.stdout)")
    }

    @Test("a script file that ends mid-gesture is unfinished (the same bytes piped and read no further: not known)", arguments: views)
    func endsMidGesture(view: [String]) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The session up to its first panMoved: the pan never ends.
        let lines = String(decoding: script, as: UTF8.self).split(separator: "\n").prefix { !$0.contains("\"y\": 275") }
        let cut = try CLI.write(lines.joined(separator: "\n") + "\n", to: "cut.jsonl", in: dir)
        let r = try CLI.run(["inspect", cut] + view + ["--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let g = try gesture(r)
        #expect(g["last"] as? Int == 5 && g["unfinished"] as? Bool == true, "\(g)")
        #expect(try CLI.run(["inspect", cut] + view).stdout.contains("  part of a strip pan, events 4 to 5, unfinished when the log ends"))
    }
}
