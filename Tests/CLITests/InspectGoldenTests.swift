import Foundation
import Testing

/// `selectlog inspect` on Examples/debugging-session.jsonl against golden files in Golden/,
/// reviewed by hand. Byte counts depend on the zstd version, so those lines and fields are
/// compared by shape only.
@Suite("selectlog inspect (golden)")
struct InspectGoldenTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    func recordSession(in dir: URL) throws {
        let r = try CLI.run(["record", CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path,
                             "-o", "session.slog", "--checkpoint-interval", "4", "--batch-events", "3"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Lines with byte counts, and JSON byte fields, reduced to their shape.
    func masked(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("log ") || line.hasPrefix("size ") { return String(line.prefix(12)) + "…" }
            var s = String(line)
            for key in ["\"bytes\": ", "\"bytesPerEvent\": ", "\"compressionRatio\": "] {
                while let r = s.range(of: key), let end = s[r.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) {
                    s.replaceSubrange(r.lowerBound..<end, with: key.replacingOccurrences(of: "\": ", with: "\"=…"))
                }
            }
            return s
        }.joined(separator: "\n")
    }

    @Test("every view matches its golden file", arguments: [
        (["inspect", "session.slog"], "summary.txt"),
        (["inspect", "session.slog", "--json"], "summary.json"),
        (["inspect", "session.slog", "--events", "0..12"], "events.txt"),
        (["inspect", "session.slog", "--events", "3..5", "--json"], "events-3-5.jsonl"),
        (["inspect", "session.slog", "--at", "5"], "at-5.txt"),
        (["inspect", "session.slog", "--at", "12"], "at-12.txt"),
        (["inspect", "session.slog", "--diff", "7..12"], "diff.txt"),
        (["inspect", "session.slog", "--diff", "7..12", "--json"], "diff.json"),
        (["inspect", "session.slog", "--why", "0,6"], "why.txt"),
        (["inspect", "session.slog", "--why", "0:6", "--json"], "why.json"),
    ])
    func golden(arguments: [String], file: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try recordSession(in: dir)
        let r = try CLI.run(arguments, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = try String(contentsOf: InspectGoldenTests.golden.appendingPathComponent(file), encoding: .utf8)
        #expect(masked(r.stdout) == masked(expected))
    }

    @Test("the picture fits 80 columns and is plain ASCII, with NO_COLOR or without")
    func pictureIsPlain() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try recordSession(in: dir)
        for n in [0, 3, 5, 8, 12] {
            let r = try CLI.run(["inspect", "session.slog", "--at", String(n)], in: dir)
            for line in r.stdout.split(separator: "\n") {
                #expect(line.count <= 80)
                #expect(line.allSatisfy { $0.isASCII })
            }
        }
    }

    @Test("bad ranges and rows are usage errors; --why on a missing row says so")
    func badArguments() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try recordSession(in: dir)
        #expect(try CLI.run(["inspect", "session.slog", "--events", "5..2"], in: dir).status == 64)
        #expect(try CLI.run(["inspect", "session.slog", "--events", "0..99"], in: dir).status == 64)
        #expect(try CLI.run(["inspect", "session.slog", "--why", "zero"], in: dir).status == 64)
        #expect(try CLI.run(["inspect", "session.slog", "--at", "3", "--diff", "0..1"], in: dir).status == 64)
        let missing = try CLI.run(["inspect", "session.slog", "--why", "0,99"], in: dir)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("row [0, 99] does not exist after 12 events"))
    }
}

/// `--why` gesture boundaries come from what events did to the state (issue 8), and
/// events are numbered from 1 (spec 7).
@Suite("selectlog inspect --why: gestures")
struct InspectWhyGestureTests {
    func log(_ script: String) throws -> (URL, String) {
        let dir = try CLI.temporaryDirectory()
        let path = try CLI.write(script, to: "s.jsonl", in: dir)
        let r = try CLI.run(["record", path, "-o", "s.slog", "--checkpoint-interval", "2"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        return (dir, "s.slog")
    }

    @Test("a strip pan ended by a mode-changing configure ends there: events 3 to 4")
    func panEndedByConfigure() throws {
        let (dir, slog) = try log("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "reload", "sections": [{"rows": 30, "rowHeight": 50}]}
            {"type": "panBegan", "x": 20, "y": 125, "t": 1000}
            {"type": "configure", "allowsMultipleSelection": false, "t": 1010}
            {"type": "tick", "t": 1020}
            {"type": "tick", "t": 1030}
            {"type": "tick", "t": 1040}
            """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["inspect", slog, "--why", "0,2"], in: dir)
        #expect(r.stdout.contains("last changed by event 3 at t 1000 ms"), "\(r.stdout)")
        #expect(r.stdout.contains("part of a strip pan, events 3 to 4\n"), "\(r.stdout)")
        let j = try CLI.run(["inspect", slog, "--why", "0,2", "--json"], in: dir)
        #expect(j.stdout.contains("\"gesture\": {\"kind\": \"strip pan\", \"first\": 3, \"last\": 4, \"unfinished\": false}"), "\(j.stdout)")
    }

    /// The log of a crash mid-pan, the one a bug report brings (a review, 2026-12-07: it
    /// read "events 3 to 5" as if the pan had ended there).
    @Test("a pan the log ends in is said to be unfinished, in text and JSON; one that ends with the log's last event is not")
    func unfinishedPan() throws {
        let script = """
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "reload", "sections": [{"rows": 30, "rowHeight": 50}]}
            {"type": "panBegan", "x": 20, "y": 125, "t": 1000}
            {"type": "panMoved", "x": 20, "y": 225, "t": 1010}
            {"type": "panMoved", "x": 20, "y": 325, "t": 1020}
            """
        for (ended, text) in [(false, ""), (true, "\n{\"type\": \"panEnded\", \"t\": 1030}")] {
            let (dir, slog) = try log(script + text)
            defer { try? FileManager.default.removeItem(at: dir) }
            let last = ended ? 6 : 5
            let r = try CLI.run(["inspect", slog, "--why", "0,4"], in: dir)
            #expect(r.stdout.contains("part of a strip pan, events 3 to \(last)\(ended ? "\n" : ", unfinished when the log ends\n")"), "\(r.stdout)")
            let j = try CLI.run(["inspect", slog, "--why", "0,4", "--json"], in: dir)
            #expect(j.stdout.contains("\"gesture\": {\"kind\": \"strip pan\", \"first\": 3, \"last\": \(last), \"unfinished\": \(!ended)}"), "\(j.stdout)")
        }
    }

    @Test("a setEditing that changes nothing stays part of the strip pan")
    func unchangedSetEditing() throws {
        let (dir, slog) = try log("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "reload", "sections": [{"rows": 30, "rowHeight": 50}]}
            {"type": "panBegan", "x": 20, "y": 125, "t": 1000}
            {"type": "setEditing", "editing": false, "t": 1008}
            {"type": "panMoved", "x": 20, "y": 275, "t": 1016}
            {"type": "panEnded", "t": 1024}
            {"type": "tap", "x": 200, "y": 625, "t": 2000}
            """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["inspect", slog, "--why", "0,5"], in: dir)
        #expect(r.stdout.contains("last changed by event 5 at t 1016 ms"), "\(r.stdout)")
        #expect(r.stdout.contains("part of a strip pan, events 3 to 6\n"), "\(r.stdout)")
        // The event --why names is the one --at shows the state after.
        let before = try CLI.run(["replay", "\(dir.path)/s.jsonl", "--at", "4", "--json"])
        let after = try CLI.run(["replay", "\(dir.path)/s.jsonl", "--at", "5", "--json"])
        #expect(!before.stdout.contains("[0, 5]") && after.stdout.contains("[0, 5]"))
    }

    @Test("--why answers for optionOpen, editor and contentOffset; a reload is summarised")
    func fields() throws {
        let rows = (0..<2000).map { _ in "44" }.joined(separator: ", ")
        let (dir, slog) = try log("""
            {"type": "configure", "optionWidth": 80}
            {"type": "reload", "sections": [{"rows": 2000, "rowHeights": [\(rows)]}]}
            {"type": "setOptionVisible", "row": [0, 3], "visible": true, "t": 10}
            {"type": "scroll", "y": 300, "t": 20}
            {"type": "tap", "x": 200, "y": 10, "t": 30}
            """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let option = try CLI.run(["inspect", slog, "--why", "optionOpen", "--at", "4"], in: dir)
        #expect(option.stdout.hasPrefix("optionOpen after 4 events is [0, 3]\n  last changed by event 3 at t 10 ms"), "\(option.stdout)")
        let offset = try CLI.run(["inspect", slog, "--why", "contentOffset", "--json"], in: dir)
        #expect(offset.stdout.contains("\"field\": \"contentOffset\", \"at\": 5, \"kind\": \"changed\", \"event\": 4, \"type\": \"scroll\""), "\(offset.stdout)")
        let editor = try CLI.run(["inspect", slog, "--why", "editor"], in: dir)
        #expect(editor.stdout.contains("no event changed it"), "\(editor.stdout)")
        let row = try CLI.run(["inspect", slog, "--why", "0,1500"], in: dir)
        #expect(row.stdout.contains("created by event 2 at t 0 ms: {\"type\": \"reload\", \"sections\": 1, \"rows\": 2000} (summarised)"), "\(row.stdout)")
        #expect(row.stdout.count < 400)
    }

    @Test("an event alone has no gesture in any JSON view, as the text shows none: --why, --history and --first agree")
    func loneEventHasNoGesture() throws {
        let file = CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path
        // Row [0, 11] last changed by a lone event; event 3 (the reload) is a lone event too.
        for arguments in [["--why", "0,11", "--json"], ["--history", "0,11", "--json"], ["--first", "events == 3", "--json"]] {
            let r = try CLI.run(["inspect", file] + arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            let text = try CLI.run(["inspect", file] + arguments.dropLast())
            if !text.stdout.contains("part of a") {
                #expect(!r.stdout.contains("\"gesture\": {"), "\(arguments): \(r.stdout)")
            }
        }
    }
}
