import Foundation
@testable import selectlog
import Testing

/// What a page's header and `view`'s report say about the file: its count of events, or
/// that the input was read no further; its name, with controls shown as the page shows
/// them in titles.
@Suite("selectlog view: the page's header and view's report")
struct ViewerHeaderTests {
    static func ticks(_ count: Int) -> Data { Data(String(repeating: "{\"type\": \"tick\", \"t\": 5}\n", count: count).utf8) }

    @Test("a window of a piped script read no further than it needs says so where a count would be, on stdout and on the page")
    func pipeReadNoFurther() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("v.html")
        for (window, said) in [(["--from", "5", "--to", "10"], "events 6..10 (the input read no further)"),
                               (["--to", "10"], "events 1..10 (the input read no further)"),
                               (["--at", "3", "--to", "10"], "events 1..10 (the input read no further)"),
                               (["--from", "5", "--to", "5"], "the state after 5 events (the input read no further)")] {
            // 200 events on a pipe that stays open: view reads up to its window's end.
            let (answered, r) = try CLI.runOnOpenInput(["view", "-", "-o", page.path] + window, input: Self.ticks(200))
            #expect(answered, "\(window) waited for the end of its input")
            #expect(r.status == 0, "\(window): \(r.stderr)")
            #expect(r.stdout.contains("wrote \(page.path): \(said),"), "\(window): \(r.stdout)")
            let noCount = try String(contentsOf: page, encoding: .utf8).contains(#""total": null"#)
            #expect(noCount, "\(window): the page gives a count")
        }
        // A pipe read to its end, and a file, give their count.
        let whole = try Self.runOnClosedPipe(["view", "-", "-o", page.path, "--from", "5"], input: Self.ticks(8))
        #expect(whole.stdout.contains("events 6..8 of 8,"), "\(whole.stdout) \(whole.stderr)")
        let file = try CLI.write(String(decoding: Self.ticks(12), as: UTF8.self), to: "ticks.jsonl", in: dir)
        let byPath = try CLI.run(["view", file, "-o", page.path, "--from", "5", "--to", "10"])
        #expect(byPath.stdout.contains("events 6..10 of 12,"), "\(byPath.stdout)")
        let counted = try String(contentsOf: page, encoding: .utf8).contains(#""total": 12"#)
        #expect(counted)
    }

    /// Runs `selectlog` with `input` on a pipe closed after it.
    static func runOnClosedPipe(_ arguments: [String], input: Data) throws -> CLI.Result {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = CLI.root
        let stdin = Pipe()
        process.standardInput = stdin
        CLI.feed(stdin.fileHandleForWriting, input, closing: true, waiting: false)
        return try CLI.collect(process)
    }

    @Test("the page's header says the input was read no further, not a count", .enabled(if: ViewerBrowser.executable != nil))
    func pipeReadNoFurtherOnThePage() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("v.html")
        for (window, shown) in [(["--from", "5", "--to", "10"], "events 6–10 (the input read no further)"),
                                (["--from", "5", "--to", "5"], "the state after 5 events (the input read no further)")] {
            let (answered, r) = try CLI.runOnOpenInput(["view", "-", "-o", page.path] + window, input: Self.ticks(200))
            #expect(answered && r.status == 0, "\(window): \(r.stderr)")
            let dom = try ViewerBrowser.dom(page, fragment: "")
            #expect(dom.contains("<pre id=\"errors\" data-count=\"0\""), "console errors: \(ViewerBrowser.element("errors", in: dom) ?? "?")")
            let header = dom.range(of: "<span id=\"window\">").map { String(dom[$0.upperBound...].prefix(80)) } ?? "none"
            #expect(header.hasPrefix(shown + "</span>"), "\(window): \(header)")
        }
    }

    /// A script in `dir` whose name holds a bidi override, a newline, a carriage return
    /// and an escape.
    static func hostileName(in dir: URL) throws -> String {
        try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n{\"type\": \"tap\", \"x\": 10, \"y\": 10}\n",
                      to: "a\u{202E}b\nc\rd\u{1B}[31m.jsonl", in: dir)
    }

    /// Whether `text` holds a scalar the page shows escaped (`esc()`, `escapingControls`).
    static func holdsUnsafe(_ text: some StringProtocol) -> Bool { text.unicodeScalars.contains { $0.isUnsafeToShow } }

    @Test("the file's name in the page's title shows controls and bidi marks as the page shows them in titles: \\u{202E}")
    func nameInTheTitle() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try Self.hostileName(in: dir)
        let page = dir.appendingPathComponent("page.html")
        let r = try CLI.run(["view", script, "-o", page.path])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        let title = try #require(html.range(of: "<title>").flatMap { open in
            html.range(of: "</title>", range: open.upperBound..<html.endIndex).map { String(html[open.upperBound..<$0.lowerBound]) }
        })
        #expect(title.hasSuffix("a\\u{202E}b\\u{A}c\\u{D}d\\u{1B}[31m.jsonl"), "\(title.debugDescription)")
        #expect(!Self.holdsUnsafe(title), "\(title.debugDescription)")
        // Nowhere in the page raw, the data's JSON included (`JSONText.quote`), but for its
        // own line breaks.
        let raw = Self.holdsUnsafe(html.replacingOccurrences(of: "\n", with: ""))
        #expect(!raw, "a raw control in the page")
    }

    @Test("the file's name in the page's header shows controls and bidi marks as titles are shown", .enabled(if: ViewerBrowser.executable != nil))
    func nameInTheHeader() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try Self.hostileName(in: dir)
        let page = dir.appendingPathComponent("page.html")
        #expect(try CLI.run(["view", script, "-o", page.path]).status == 0)
        let dom = try ViewerBrowser.dom(page, fragment: "")
        #expect(dom.contains("<pre id=\"errors\" data-count=\"0\""), "console errors: \(ViewerBrowser.element("errors", in: dom) ?? "?")")
        let header = dom.range(of: "<span id=\"file\">").map { String(dom[$0.upperBound...].prefix { $0 != "<" }) } ?? "none"
        #expect(header.hasSuffix("a\\u{202E}b\\u{A}c\\u{D}d\\u{1B}[31m.jsonl"), "\(header.debugDescription)")
        let raw = Self.holdsUnsafe(dom.replacingOccurrences(of: "\n", with: ""))
        #expect(!raw, "a raw control in the page's DOM")
    }
}
