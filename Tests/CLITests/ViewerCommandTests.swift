import Foundation
import SelectLog
@testable import selectlog
import Testing

@Suite("selectlog view")
struct ViewerCommandTests {
    static let examples = ["strip-pan-autoscroll", "single-selection-taps", "two-finger-multi-select", "row-edits-follow-selection",
                           "option-views", "editor-row", "section-index-and-images", "debugging-session"]

    @Test("the viewer's own state fields are the engine's JSON text at every event of every example")
    func ownFieldsMatchEngineJSON() throws {
        for name in ViewerCommandTests.examples {
            let script = try Script(bytes: Array(try Data(contentsOf: CLI.root.appendingPathComponent("Examples/\(name).jsonl"))))
            var state = TableState()
            for (line, event) in [(0, nil)] + script.entries.map({ ($0.line, Optional($0.event)) }) {
                if let event { _ = try state.apply(event) }
                let engine = ViewerFrame.split(state.json)
                #expect(engine.map(\.key).joined() == ViewerFrame.Shape(state).jsonOrder.joined())
                let own = ViewerFrame.specFields(state)
                for (key, value) in engine where !["events", "t", "selected", "hash"].contains(key) {
                    #expect(own[key] == value, "\(name) line \(line): \(key) is \(own[key] ?? "missing"), the engine says \(value)")
                }
                // Reassembling the split pairs gives the engine's text back.
                #expect("{" + engine.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}" == state.json, "\(name) line \(line)")
            }
        }
    }

    @Test("split keeps nested objects, arrays and strings with commas, colons and quotes whole")
    func splitNested() {
        let pairs = ViewerFrame.split(#"{"a": 1, "b": {"c": [1, 2], "d": "x, \"y\": }"}, "e": ["}", "]"], "f": null}"#)
        #expect(pairs.map(\.key) == ["a", "b", "e", "f"])
        #expect(pairs.map(\.value) == ["1", #"{"c": [1, 2], "d": "x, \"y\": }"}"#, #"["}", "]"]"#, "null"])
    }

    @Test("a field the viewer does not compute itself is copied from the engine's JSON")
    func unknownFieldsAreCopied() throws {
        var state = TableState()
        _ = try state.apply(TimedEvent(.viewport(width: Points(390), height: Points(600))))
        var shape = ViewerFrame.Shape(state)
        #expect(shape.copied.isEmpty)
        // As if the engine's JSON had a field this file does not know: the frame copies it.
        shape.copied.insert("undo")
        let frame = ViewerFrame(state, shape: shape)
        let index = try #require(shape.names.firstIndex(of: "undo"))
        #expect(frame.values[index] == JSONText.quote("0"))
    }

    func bounds(_ w: ViewerWindow) -> [Int] { [w.from, w.to, w.start] }

    @Test("the window: the last 50,000 events by default, centred on --at, or as given")
    func window() throws {
        #expect(try bounds(ViewerWindow(total: 10, from: nil, to: nil, at: nil)) == [0, 10, 10])
        #expect(try bounds(ViewerWindow(total: 120_000, from: nil, to: nil, at: nil)) == [70_000, 120_000, 120_000])
        #expect(try bounds(ViewerWindow(total: 120_000, from: nil, to: nil, at: 60_000)) == [35_000, 85_000, 60_000])
        #expect(try bounds(ViewerWindow(total: 120_000, from: nil, to: nil, at: 10)) == [0, 50_000, 10])
        #expect(try bounds(ViewerWindow(total: 120_000, from: nil, to: nil, at: 119_000)) == [70_000, 120_000, 119_000])
        #expect(try bounds(ViewerWindow(total: 120_000, from: 5, to: 9, at: 7)) == [5, 9, 7])
        #expect(try bounds(ViewerWindow(total: 120_000, from: 100, to: nil, at: nil)) == [100, 50_100, 50_100])
        #expect(throws: ViewerWindow.Problem.self) { try ViewerWindow(total: 120_000, from: 0, to: 50_001, at: nil) }
        #expect(throws: ViewerWindow.Problem.self) { try ViewerWindow(total: 10, from: nil, to: nil, at: 11) }
        #expect(throws: ViewerWindow.Problem.self) { try ViewerWindow(total: 100, from: 5, to: 9, at: 10) }
    }

    @Test("a streamed script keeps what any window needs: its walk equals replaying the whole script")
    func streamedScriptWindows() throws {
        let events = Array(SyntheticSession(seed: 7, count: 300))
        var hashes = [TableState().hashHex]
        var state = TableState()
        for e in events {
            _ = try state.apply(e)
            hashes.append(state.hashHex)
        }
        let limit = 64
        let cases: [(from: Int?, to: Int?, at: Int?)] = [(nil, nil, nil), (nil, nil, 5), (nil, nil, 150), (nil, nil, 299),
                                                         (10, nil, nil), (100, 130, 120), (nil, 200, nil), (300, 300, nil), (0, 0, nil)]
        for c in cases {
            var buffer = ScriptWindowBuffer(from: c.from, to: c.to, at: c.at, limit: limit)
            for (i, e) in events.enumerated() { try buffer.append(e, line: i + 1) }
            let window = try ViewerWindow(total: buffer.count, from: c.from, to: c.to, at: c.at, limit: limit)
            #expect(buffer.covers(from: window.from, to: window.to), "\(c)")
            var seen: [String] = []
            var numbers: [Int] = []
            try buffer.walk(from: window.from, to: window.to, start: { seen.append($0.hashHex) }, body: { n, _, _, after in
                numbers.append(n)
                seen.append(after.hashHex)
                return true
            })
            #expect(numbers == Array(stride(from: window.from + 1, through: window.to, by: 1)), "\(c)")
            #expect(seen == Array(hashes[window.from...window.to]), "\(c): window \(window.from)...\(window.to)")
        }
    }

    @Test("gesture spans: a strip pan until a row edit interrupts it, then the interrupted pan until it ends")
    func gestureSpans() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 20, "rowHeight": 50}]}
            {"type": "panBegan", "x": 20, "y": 25}
            {"type": "panMoved", "x": 20, "y": 125}
            {"type": "insertRows", "at": [[0, 0]]}
            {"type": "panMoved", "x": 20, "y": 225}
            {"type": "panEnded"}
            {"type": "swipeBegan", "row": [0, 9]}
            """, to: "spans.jsonl", in: dir)
        let page = dir.appendingPathComponent("spans.html")
        let r = try CLI.run(["view", script, "-o", page.path])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        let line = html.split(separator: "\n").first { $0.hasPrefix("\"gestures\": ") }
        // Event 4 begins the strip pan, event 6 interrupts it, event 8 ends it; a swipe
        // that begins at the last event (9) has no option width here, so it is ignored.
        #expect(line == #""gestures": [["strip", 4, 6], ["interrupted", 6, 8]],"#)
    }

    @Test("view writes one self-contained page: no network, no external scripts, styles or fonts")
    func selfContained() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html")
        let r = try CLI.run(["view", "Examples/debugging-session.jsonl", "-o", page.path, "--from", "2", "--to", "9", "--at", "4"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("events 3..9 of 12"))
        let html = try String(contentsOf: page, encoding: .utf8)
        for forbidden in ["http:", "https:", "<link", " src=", "@import", "url(", "<iframe", "fetch(", "XMLHttpRequest"] {
            #expect(!html.contains(forbidden), "the page contains \(forbidden)")
        }
        #expect(html.contains(#""from": 2, "to": 9, "start": 4"#))
    }

    @Test("text from the file cannot close the page's script element")
    func embeddedTextIsEscaped() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 3, "title": "</script><script>alert(1)</script>"}]}
            {"type": "toggleEditor", "row": [0, 1], "options": ["<!--", "</SCRIPT>"]}
            """, to: "evil.jsonl", in: dir)
        let page = dir.appendingPathComponent("evil.html")
        let r = try CLI.run(["view", script, "-o", page.path])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.components(separatedBy: "</script>").count == 3, "only the page's two script elements end")
        #expect(!html.contains("<!--") && !html.lowercased().contains("</script><script>alert"))
    }

    @Test("bad input: an invalid event exits 65 naming the line, a window outside the file exits 64, and no page is written")
    func badInput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 3}]}
            {"type": "select", "rows": [[0, 3]]}
            """, to: "bad.jsonl", in: dir)
        let page = dir.appendingPathComponent("page.html")
        let r = try CLI.run(["view", bad, "-o", page.path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("line 2: select: rows[0] [0, 3] is out of range"))
        let outside = try CLI.run(["view", "Examples/editor-row.jsonl", "-o", page.path, "--at", "99"])
        #expect(outside.status == 64)
        // Worded as every command words it.
        #expect(outside.stderr.contains("--at 99: Examples/editor-row.jsonl has only "), "\(outside.stderr)")
        let reversed = try CLI.run(["view", "Examples/editor-row.jsonl", "-o", page.path, "--from", "5", "--to", "2"])
        #expect(reversed.status == 64)
        // A window at the end of Int's range is past the file, not an overflow.
        for flag in ["--from", "--at", "--to"] {
            let huge = try CLI.run(["view", "Examples/editor-row.jsonl", "-o", page.path, flag, String(Int.max)])
            #expect(huge.status == 64, "\(flag): \(huge.stderr)")
            #expect(huge.stderr.contains("\(flag) \(Int.max): Examples/editor-row.jsonl has only "), "\(flag): \(huge.stderr)")
            let lowered = try CLI.run(["view", "Examples/editor-row.jsonl", "-o", page.path, flag, String(Int.max - 49_999)])
            #expect(lowered.status == 64, "\(flag): \(lowered.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: page.path))
    }

    @Test("a bad line after the window is noted and the page holds the events before it, as replay --at answers; one the window needs exits 65")
    func badLineAfterTheWindow() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 30}]}
            {"type": "tap", "x": 100, "y": 20, "t": 10}
            {"type": "tap", "x": 100, "y": 70, "t": 20}
            {"type": "tap", "x": 100, "y": 120, "t": 30}
            {"type": "tap", "x": 100, "y": 170, "t": 5}
            {"type": "tap", "x": 100, "y": 220, "t": 40}
            """, to: "late.jsonl", in: dir)
        let page = dir.appendingPathComponent("page.html")
        let early = try CLI.run(["view", bad, "-o", page.path, "--to", "3"])
        #expect(early.status == 0, "\(early.stderr)")
        #expect(early.stdout.contains("events 1..3 of 4"), "\(early.stdout)")
        #expect(early.stderr.contains("note: \(bad): line 5:"), "\(early.stderr)")
        #expect(early.stderr.contains("reading the 4 events before it"), "\(early.stderr)")
        let replayed = try CLI.run(["replay", bad, "--at", "3"])
        #expect(replayed.stderr == early.stderr)
        // `--from` and `--at` alone ask for up to 50,000 events from or around them: cut
        // short at line 5, the page held fewer (or another centre) and exited 0.
        for window in [[], ["--to", "5"], ["--from", "2", "--to", "5"], ["--from", "2"], ["--at", "3"], ["--from", "4"]] {
            let needed = try CLI.run(["view", bad, "-o", page.path] + window)
            #expect(needed.status == 65, "\(window): \(needed.stderr)")
            #expect(needed.stderr.contains("line 5:"), "\(window): \(needed.stderr)")
        }
        let empty = try CLI.run(["view", bad, "-o", page.path, "--to", "0"])
        #expect(empty.stdout.contains("the state after 0 of 4 events"), "\(empty.stdout)")
    }
}

extension ViewerCommandTests {
    /// A selection of 20,000 rows losing every other one, an event at a time: each event's
    /// frame holds a selection of more ranges than the one before (quadratic in all).
    static func fragmentingScript(events: Int) -> String {
        var lines = [#"{"type": "reload", "sections": [{"rows": 20000}]}"#,
                     #"{"type": "configure", "allowsMultipleSelection": true}"#,
                     #"{"type": "selectAll"}"#]
        for i in 0..<events { lines.append(#"{"type": "deselect", "rows": [[0, \#(2 * i + 1)]]}"#) }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("the windows view tries nearer --at keep the first window's end: never more events than a window, which is what a script read once keeps around --at")
    func nearerWindows() throws {
        for (total, at, fitted) in [(200_000, 120_000, 700), (3_003, 2_900, 2_249), (60_000, 30_000, 0), (1_000_000, 999_999, 10)] {
            let window = try ViewerWindow(total: total, from: nil, to: nil, at: at)
            let nearer = window.nearer(fitted: fitted)
            #expect(!nearer.isEmpty)
            for w in nearer {
                #expect(w.to == window.to && w.from > window.from && w.from <= at && w.start == at, "\(w) of \(window)")
                #expect(w.to - w.from <= ViewerWindow.limit)
            }
            #expect(nearer.last?.from == at, "the last try starts at --at")
            #expect(Set(nearer.map(\.from)).count == nearer.count, "a window tried twice")
        }
    }

    @Test("a page stops at its byte budget, at the event before the one that would pass it, and says so; what it holds is whole")
    func pageByteBudget() throws {
        let script = try Script(bytes: Array(Self.fragmentingScript(events: 400).utf8))
        var state = TableState()
        var data = ViewerData(file: "f.jsonl", total: script.events.count, from: 0, to: script.events.count, start: script.events.count,
                              budget: 500_000)
        data.begin(state)
        var added = 0
        for (i, e) in script.events.enumerated() {
            let before = state
            try state.apply(e)
            guard data.add(i + 1, e, before: before, after: state) else { break }
            added += 1
        }
        #expect(data.stoppedEarly)
        #expect(data.to == added && added > 3 && added < script.events.count, "\(added) events")
        #expect(data.start == data.to)
        let json = data.json()
        #expect(json.utf8.count < 600_000, "\(json.utf8.count) bytes")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["events"] as? [Any])?.count == added)
        #expect(object["to"] as? Int == added)
    }

    @Test("view of a selection that fragments at every event: a bounded page, a note naming where it ends")
    func viewStopsAtTheBudget() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write(Self.fragmentingScript(events: 3000), to: "frag.jsonl", in: dir)
        let page = dir.appendingPathComponent("frag.html")
        let r = try CLI.run(["view", script, "-o", page.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("note: the page ends after event "), "\(r.stderr)")
        #expect(r.stderr.contains("would take it past 32 MB"), "\(r.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int)
        #expect(size < 34_000_000, "\(size) bytes")
        #expect(r.stdout.contains("wrote \(page.path): events 1.."), "\(r.stdout)")
        #expect(!r.stdout.contains("..3003 of 3003"), "\(r.stdout)")

        // --at past what fits from the window's start: the page starts nearer it, holds
        // it and opens at it (it held the window's first states and opened elsewhere).
        let at = try CLI.run(["view", script, "-o", page.path, "--at", "2900"])
        #expect(at.status == 0, "\(at.stderr)")
        #expect(!at.stderr.contains("it opens there, not at"), "\(at.stderr)")
        let wrote = try #require(at.stdout.split(separator: " ").first { $0.contains("..") })
        let ends = wrote.split(separator: ".").compactMap { Int($0) }
        #expect(ends.count == 2 && ends[0] - 1 <= 2900 && 2900 <= ends[1], "\(at.stdout)")  // states after A - 1 through B
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("\"start\": 2900"), "the page does not open at --at")
    }
}

extension ViewerCommandTests {
    /// The rows a band lists, as (section, first row, count) runs, and how many headers.
    static func bandRows(_ band: ViewerBand) -> (runs: [(Int, Int, Int)], headers: Int) {
        var runs: [(Int, Int, Int)] = []
        var headers = 0
        for entry in band.entries {
            let parts = entry.dropFirst().dropLast().split(separator: ",")
            if parts.first == "\"r\"", parts.count == 6, let s = Int(parts[1]), let r = Int(parts[2]), let n = Int(parts[5]) {
                runs.append((s, r, n))
            } else if parts.first == "\"h\"" {
                headers += 1
            }
        }
        return (runs, headers)
    }

    @Test("every row in the viewport is in the band, down to rows a point tall at the worst alignment; headers count toward the band's limit")
    func bandCoversTheViewport() throws {
        for (height, offset, viewport) in [(2.0, 2000.0, 1000.0), (1.0, 1999.0, 1000.0), (1.0, 1000.0, 1000.0), (44.0, 5000.0, 1000.0),
                                           (1.0, 2751.0, 1376.0), (1.0, 4000.0, 2000.0)] {
            var state = TableState()
            try state.apply(.reload(sections: [SectionSpec(rows: 20_000, rowHeight: Points(rounding: height))]))
            try state.apply(.viewport(ViewportSize(width: 390, height: viewport)))
            try state.apply(.scroll(to: Points(rounding: offset)))
            let visible = try #require(state.visibleRows)
            let band = Self.bandRows(ViewerBand(state))
            for row in visible.lowerBound.row...visible.upperBound.row {
                #expect(band.runs.contains { $0.0 == 0 && $0.1 <= row && row < $0.1 + $0.2 }, "rows of \(height) pt at \(offset): row \(row) visible, not in the band")
            }
        }
        // 50,000 sections whose headers are 1/64 pt tall: the band lists at most its limit.
        var state = TableState()
        try state.apply(.reload(sections: Array(repeating: SectionSpec(rows: 0, header: Points(raw: 1)), count: 50_000)))
        try state.apply(.viewport(ViewportSize(width: 390, height: 600)))
        let band = ViewerBand(state)
        #expect(band.entries.count <= ViewerBand.rowLimit, "\(band.entries.count) entries")
        #expect(Self.bandRows(band).headers > 100)
    }
}
