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
}
