import Foundation
import SelectLog
import Testing

/// Text a log or a user chose, in what the commands print: the header comments of
/// `shrink` and `export` stay comments whatever the file's name and EXPR hold, and the
/// picture of `replay` and `inspect` shows titles and options with controls escaped.
@Suite("Hostile text in output")
struct HostileTextOutputTests {
    static let script = """
        # set-up
        {"type": "configure", "allowsMultipleSelection": true}
        {"type": "viewport", "width": 390, "height": 500}
        {"type": "reload", "sections": [{"rows": 20, "rowHeight": 50}]}
        {"type": "tap", "x": 20, "y": 75}
        {"type": "tap", "x": 20, "y": 125}

        """

    /// Whether a scalar other than LF is one a terminal or Swift source must not hold raw:
    /// C0 and C1 controls, DEL, line and paragraph separators, bidi overrides and isolates.
    static func isRawControl(_ u: Unicode.Scalar) -> Bool {
        u != "\n" && (u.value < 0x20 || (0x7F...0x9F).contains(u.value) || [0x2028, 0x2029].contains(u.value)
            || (0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value))
    }

    /// Whether every line of `text` is a comment or an event object.
    static func isScript(_ text: String) -> Bool {
        text.split(separator: "\n").allSatisfy { $0.hasPrefix("# ") || $0.hasPrefix("{") }
    }

    @Test("the picture lists an editor's first 32 options, then how many more there are and how many of those are chosen")
    func largeEditor() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let options = (0..<100_000).map { "\"o\($0)\"" }.joined(separator: ", ")
        let chosen = stride(from: 1, to: 100_000, by: 2).map(String.init).joined(separator: ", ")
        _ = try CLI.write(HostileTextOutputTests.script + """
            {"type": "toggleEditor", "row": [0, 0], "options": [\(options)], "multiple": true, "chosen": [\(chosen)]}

            """, to: "editor.jsonl", in: dir)
        let replay = try CLI.run(["replay", "editor.jsonl"], in: dir)
        try #require(replay.status == 0, "\(replay.stderr)")
        let line = try #require(replay.stdout.split(separator: "\n").first { $0.hasPrefix("    editor: ") })
        #expect(line.hasPrefix("    editor: [ ] o0  [x] o1  [ ] o2  [x] o3"), "\(line.prefix(100))")
        #expect(line.contains("[x] o31  … (99968 more options, 49984 of them chosen)"), "\(line.suffix(100))")
        #expect(line.count < 1_000)
    }

    @Test("shrink's header stays two comment lines with line breaks in the file's name and EXPR; the script replays")
    func shrinkHeader() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = "a\nb\r\u{2028}.jsonl"
        _ = try CLI.write(HostileTextOutputTests.script, to: input, in: dir)
        let expect = "selected contains [0, 1]\nand\rcount(selected) == 2"
        let shrink = try CLI.run(["shrink", input, "--expect", expect, "-o", "min.jsonl"], in: dir)
        try #require(shrink.status == 0, "\(shrink.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("min.jsonl"), encoding: .utf8)
        #expect(text.hasPrefix("# shrunk by selectlog from 5 events of a\\u{A}b\\u{D}\\u{2028}.jsonl\n# expect: selected contains [0, 1]\\u{A}and\\u{D}count(selected) == 2\n{"), "\(text)")
        #expect(HostileTextOutputTests.isScript(text), "\(text)")
        let replay = try CLI.run(["replay", "min.jsonl", "--expect", expect], in: dir)
        #expect(replay.status == 0, "\(replay.stderr)")
    }

    @Test("export's comment lines name a log with line breaks in its name escaped; the slice replays")
    func exportHeader() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = "s\n{\"type\": \"deselectAll\"}\r.jsonl"
        _ = try CLI.write(HostileTextOutputTests.script, to: input, in: dir)
        let whole = try CLI.run(["replay", input], in: dir)
        try #require(whole.status == 0, "\(whole.stderr)")
        for slice in [["--to", "5"], ["--from", "4"]] {
            let export = try CLI.run(["export", input] + slice, in: dir)
            try #require(export.status == 0, "\(export.stderr)")
            #expect(HostileTextOutputTests.isScript(export.stdout), "\(export.stdout)")
            #expect(export.stdout.contains("of s\\u{A}{\"type\": \"deselectAll\"}\\u{D}.jsonl"), "\(export.stdout)")
            _ = try CLI.write(export.stdout, to: "slice.jsonl", in: dir)
            let replay = try CLI.run(["replay", "slice.jsonl", "--expect", "count(selected) == 2"], in: dir)
            #expect(replay.status == 0, "\(slice): \(replay.stderr)")
        }
    }

    /// A table whose titles and options carry terminal controls, bidi overrides, line
    /// separators and a 500-character run.
    static let hostile: String = {
        let titles = ["\u{1B}[2J\u{1B}[31mRED\u{1B}]8;;http://evil.example/\u{1B}\\link\u{1B}]8;;\u{1B}\\ \rCR\u{7}BEL\u{9B}31mC1\u{7F}DEL",
                      "q\"uote \\back\u{2028}LS\u{2029}PS \u{0}nul", "abc\u{202E}txt.exe\u{202C} \u{2066}iso\u{2069}",
                      String(repeating: "A", count: 500)]
        let sections = titles.map { "{\"rows\": 3, \"rowHeight\": 40, \"header\": 20, \"title\": \(JSONText.quote($0))}" }
        return """
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "viewport", "width": 390, "height": 800}
            {"type": "reload", "sections": [\(sections.joined(separator: ", "))]}
            {"type": "toggleEditor", "row": [0, 1], "options": [\(titles.map(JSONText.quote).joined(separator: ", "))], "multiple": true, "chosen": [0]}

            """
    }()

    @Test("replay and inspect --at print titles and options with controls and bidi escaped, and long ones clipped")
    func pictureEscapes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.write(HostileTextOutputTests.hostile, to: "hostile.jsonl", in: dir)
        for command in [["replay", "hostile.jsonl"], ["inspect", "hostile.jsonl", "--at", "4"]] {
            let r = try CLI.run(command, in: dir)
            try #require(r.status == 0, "\(r.stderr)")
            let raw = r.stdout.unicodeScalars.filter(HostileTextOutputTests.isRawControl)
            #expect(raw.isEmpty, "\(command): \(raw.map { String($0.value, radix: 16) })")
            #expect(r.stdout.contains("-- section 0 \"\\u{1B}[2J\\u{1B}[31mRED\\u{1B}]8;;http://evil.example/\\u{1B}\\link"), "\(r.stdout)")
            #expect(r.stdout.contains("\\u{D}CR\\u{7}BEL\\u{9B}31mC1\\u{7F}DEL\" --"), "\(r.stdout)")
            #expect(r.stdout.contains("\\back\\u{2028}LS\\u{2029}PS \\u{0}nul"), "\(r.stdout)")
            #expect(r.stdout.contains("abc\\u{202E}txt.exe\\u{202C} \\u{2066}iso\\u{2069}"), "\(r.stdout)")
            #expect(r.stdout.contains("-- section 3 \"\(String(repeating: "A", count: 80))… (420 more characters)\" --"), "\(r.stdout)")
            #expect(r.stdout.contains("[ ] \(String(repeating: "A", count: 80))… (420 more characters)"), "\(r.stdout)")
            #expect(!r.stdout.contains(String(repeating: "A", count: 81)))
        }
    }
}
