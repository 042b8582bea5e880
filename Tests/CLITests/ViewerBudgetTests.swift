import Foundation
import SelectLog
@testable import selectlog
import Testing

/// The page's byte budget (`ViewerData.byteBudget`) is of the bytes the page holds, as
/// written: `<` is six bytes there (`\u003c`), and an event's whole record counts.
@Suite("selectlog view: the page's byte budget")
struct ViewerBudgetTests {
    /// A viewport, ten rows, then `events` toggleEditor events, each with one option of
    /// `length` copies of `text`.
    static func editorScript(events: Int, length: Int, text: String = "<") -> String {
        var lines = [#"{"type": "viewport", "width": 390, "height": 600}"#, #"{"type": "reload", "sections": [{"rows": 10}]}"#]
        let option = String(repeating: text, count: length)
        for i in 0..<events { lines.append(#"{"type": "toggleEditor", "row": [0, \#(i % 3)], "options": ["\#(option)"]}"#) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The data a window of every event of `script` gives with `budget`.
    static func data(_ script: String, budget: Int, from: Int = 0) throws -> ViewerData {
        let events = try Script(bytes: Array(script.utf8)).events
        var state = TableState()
        var data = ViewerData(file: "f.jsonl", total: events.count, from: from, to: events.count, start: events.count, budget: budget)
        for (i, e) in events.enumerated() {
            if i == from { data.begin(state) }
            let before = state
            try state.apply(e)
            if i >= from, !data.add(i + 1, e, before: before, after: state) { break }
        }
        if from == events.count { data.begin(state) }
        return data
    }

    /// The bytes of the page's data element, as written.
    static func embeddedData(_ data: ViewerData) throws -> Int {
        var page: [UInt8] = []
        let written = try ViewerPage.write(title: "f.jsonl", data: data) { page += $0 }
        #expect(written == page.count)
        let text = String(decoding: page, as: UTF8.self)
        let open = try #require(text.range(of: "<script type=\"application/json\" id=\"data\">"))
        let close = try #require(text.range(of: "</script>", range: open.upperBound..<text.endIndex))
        return text.utf8.distance(from: open.upperBound, to: close.lowerBound)
    }

    /// What the data holds besides the frames, events and gesture spans: the file's name,
    /// the field names, the types, the window's numbers (a few hundred bytes).
    static let fixedPart = 2_000

    @Test("the budget counts `<` as the six bytes it is on the page: options full of `<` stop the page within its budget")
    func lessThanCountsAsWritten() throws {
        let budget = 500_000
        let data = try Self.data(Self.editorScript(events: 30, length: 20_000), budget: budget)
        #expect(data.stoppedEarly)
        let written = try Self.embeddedData(data)
        #expect(written <= budget + Self.fixedPart, "\(written) bytes of data for a budget of \(budget)")
        #expect(written > budget / 2, "\(written) bytes: the budget is not used")
        // The same events without `<`: six times as many fit.
        let plain = try Self.data(Self.editorScript(events: 30, length: 20_000, text: "a"), budget: budget)
        #expect(plain.to > 3 * data.to, "\(plain.to) events of `a`, \(data.to) of `<`")
    }

    @Test("an event's whole record counts before it is kept: its fields too, not only its frame's delta")
    func eventFieldsCount() throws {
        // Jumps to the section the table is at, by its title: the frame does not change,
        // and each event's record is its fields, 200,000 bytes.
        let title = String(repeating: "a", count: 200_000)
        var lines = [#"{"type": "viewport", "width": 390, "height": 600}"#, #"{"type": "reload", "sections": [{"rows": 10, "title": "\#(title)"}]}"#]
        for _ in 0..<20 { lines.append(#"{"type": "jumpToSection", "title": "\#(title)"}"#) }
        let script = lines.joined(separator: "\n") + "\n"
        // The fifth record would end 100,000 bytes past the budget.
        let budget = 900_000
        let data = try Self.data(script, budget: budget)
        #expect(data.stoppedEarly)
        let written = try Self.embeddedData(data)
        #expect(written <= budget + Self.fixedPart, "\(written) bytes of data for a budget of \(budget)")
    }

    @Test("view of options full of `<`: a page within its 32 MB budget, and a note saying where it ends")
    func viewOfLessThanOptions() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write(Self.editorScript(events: 6, length: 1_000_000), to: "lt.jsonl", in: dir)
        let page = dir.appendingPathComponent("lt.html")
        let r = try CLI.run(["view", script, "-o", page.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("note: the page ends after event "), "\(r.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int)
        #expect(size <= ViewerData.byteBudget + 64_000, "\(size) bytes")
    }
}

/// A window's opening frame: what it holds is bounded where the page can show less, and
/// a page past its budget says so.
extension ViewerBudgetTests {
    @Test("a band keeps a header's title as inspect's picture shows it: 80 characters and how many more")
    func bandTitlesAreClipped() throws {
        var state = TableState()
        try state.apply(.viewport(ViewportSize(width: 390, height: 600)))
        let title = String(repeating: "x", count: 100_000)
        for i in 0..<40 {
            try state.apply(.insertSections(at: [i], sections: [SectionSpec(rows: 0, header: Points(10), title: title)]))
        }
        let band = ViewerBand(state)
        #expect(Self.bandRowsHeaders(band) == 40)
        // Compared outside #expect, which would print a band of megabytes.
        let bytes = band.json.utf8.count
        #expect(bytes < 40 * 200, "\(bytes) bytes")
        let clipped = band.json.contains(JSONText.quote(String(repeating: "x", count: 80) + "… (99920 more characters)"))
        #expect(clipped, "\(band.json.prefix(300))")
    }

    static func bandRowsHeaders(_ band: ViewerBand) -> Int { ViewerCommandTests.bandRows(band).headers }

    @Test("a window that opens on 40 headers with titles of a million characters: a small page of its events, no note")
    func longTitlesInTheOpeningFrame() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let title = String(repeating: "x", count: 1_000_000)
        var lines = [#"{"type": "viewport", "width": 390, "height": 600}"#]
        for i in 0..<40 {
            lines.append(#"{"type": "insertSections", "at": [\#(i)], "sections": [{"rows": 0, "header": 10, "title": "\#(title)"}]}"#)
        }
        lines += [#"{"type": "tap", "x": 1, "y": 1}"#, #"{"type": "scroll", "y": 0}"#]
        let script = try CLI.write(lines.joined(separator: "\n") + "\n", to: "titles.jsonl", in: dir)
        let page = dir.appendingPathComponent("titles.html")
        for from in [41, 42] {
            let r = try CLI.run(["view", script, "-o", page.path, "--from", String(from)])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("note:"), "--from \(from): \(r.stderr)")
            #expect(r.stdout.contains(from == 41 ? "events 42..43 of 43" : "events 43..43 of 43"), "\(r.stdout)")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int)
            #expect(size < 200_000, "--from \(from): \(size) bytes")
        }
    }
}

extension ViewerBudgetTests {
    /// Twenty thousand rows, every other one deselected at event 4 (a selection of 10,000
    /// ranges, about 140 KB in a frame), then `taps` taps.
    static func fragmentedScript(taps: Int) -> String {
        let odd = stride(from: 1, to: 20_000, by: 2).map { "[0, \($0)]" }.joined(separator: ", ")
        var lines = [#"{"type": "reload", "sections": [{"rows": 20000}]}"#, #"{"type": "configure", "allowsMultipleSelection": true}"#,
                     #"{"type": "selectAll"}"#, #"{"type": "deselect", "rows": [\#(odd)]}"#]
        for i in 0..<taps { lines.append(#"{"type": "tap", "x": 100, "y": \#(20 + 44 * i)}"#) }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("an opening frame past the budget: the page holds it and its first event, and says so, with a --from that moves on")
    func openingFramePastTheBudget() throws {
        let script = Self.fragmentedScript(taps: 3)
        let data = try Self.data(script, budget: 100_000, from: 4)
        #expect(data.to == 5 && data.stoppedEarly, "the page holds events 5...\(data.to)")
        #expect(data.openingBytes > 100_000 && data.byteCount > data.openingBytes)
        let notes = data.budgetNotes(windowEnd: 7, at: nil)
        #expect(notes.count == 2, "\(notes)")
        #expect(notes.first?.contains("past its 0.1 MB budget: the state it starts from (after event 4) alone takes 0.2 MB") == true, "\(notes)")
        #expect(notes.first?.contains("a page holds the state it starts from and its first event whatever they take") == true, "\(notes)")
        #expect(notes.last?.hasSuffix("view them with --from 5") == true, "\(notes)")

        // A window of no events: its opening state alone, and no --from to go on with.
        let alone = try Self.data(script, budget: 100_000, from: 7)
        let aloneNotes = alone.budgetNotes(windowEnd: 7, at: nil)
        #expect(aloneNotes.count == 1 && aloneNotes[0].contains("the state it starts from whatever it takes"), "\(aloneNotes)")

        // Within its budget with its opening frame, past it with its first event.
        let first = try Self.data(script, budget: 200_000, from: 4)
        let firstNotes = first.budgetNotes(windowEnd: 7, at: nil)
        #expect(first.to == 5 && firstNotes.count == 2, "\(firstNotes)")
        #expect(firstNotes.first?.contains("(after event 4) takes 0.2 MB and event 5 ") == true, "\(firstNotes)")

        // Within its budget: nothing to say.
        let within = try Self.data(script, budget: 10_000_000, from: 4)
        #expect(within.to == 7 && within.budgetNotes(windowEnd: 7, at: nil).isEmpty)
    }

    @Test("sizes in MB of 2^20 bytes, rounded up to a tenth: a page a byte past its budget is not shown as at it")
    func megabytes() {
        #expect(ViewerData.megabytes(32 << 20) == "32 MB")
        #expect(ViewerData.megabytes((32 << 20) + 1) == "32.1 MB")
        #expect(ViewerData.megabytes(40_034_196) == "38.2 MB")
        #expect(ViewerData.megabytes(100_000) == "0.1 MB")
    }

    @Test("the page shows its budget notes above the table, as view said them", .enabled(if: ViewerBrowser.executable != nil))
    func notesOnThePage() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var data = try Self.data(Self.fragmentedScript(taps: 3), budget: 100_000, from: 4)
        data.notes = data.budgetNotes(windowEnd: 7, at: nil)
        let page = dir.appendingPathComponent("notes.html")
        var bytes: [UInt8] = []
        _ = try ViewerPage.write(title: "f.jsonl", data: data) { bytes += $0 }
        try Data(bytes).write(to: page)
        let dom = try ViewerBrowser.dom(page, fragment: "event=5")
        #expect(dom.contains("<pre id=\"errors\" data-count=\"0\""), "console errors: \(ViewerBrowser.element("errors", in: dom) ?? "?")")
        #expect(dom.contains("<p id=\"notes\">note: the page takes "), "\(dom.prefix(2_000))")
        #expect(dom.contains("view them with --from 5</p>"))
        // A page within its budget shows none.
        let plain = try Self.data(Self.fragmentedScript(taps: 3), budget: 10_000_000, from: 4)
        bytes = []
        _ = try ViewerPage.write(title: "f.jsonl", data: plain) { bytes += $0 }
        try Data(bytes).write(to: page)
        #expect(try ViewerBrowser.dom(page, fragment: "").contains("<p id=\"notes\" hidden=\"\"></p>"))
    }
}
