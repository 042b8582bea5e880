import Testing
@testable import SelectLog

/// `TableState.description`: the summary `selectlog replay` prints, and what a failing
/// test shows of a state instead of its storage.
@Suite("A state describes itself in a few bounded lines")
struct StateDescriptionTests {
    @Test("the summary of a strip pan: the state's own counts, pan and strip; replay's adds the hash")
    func stripPan() throws {
        let state = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true, "rowsPerSecond": 10}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 100, "rowHeight": 50}]}
            {"type": "panBegan", "t": 0, "x": 30, "y": 175}
            {"type": "panMoved", "t": 16, "x": 30, "y": 575}
            """)
        let lines = state.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "events  5 | t 16 ms")
        // `replay`'s summary is the same with the hash.
        #expect(state.summaryLines(hash: true) == ["events  5 | t 16 ms | hash \(state.hashHex)"] + lines.dropFirst())
        #expect(lines.contains("table   1 section | 100 rows | content 5000 pt | viewport 390x600"))
        #expect(lines.contains { $0.hasPrefix("mode    multiple | not editing | \(state.selection.count) selected") })
        #expect(state.selection.count > 1)
        #expect(lines.contains { $0.hasPrefix("pan     strip | select | anchor ") && $0.hasSuffix("| finger 30,575 | auto-scroll down") })
        #expect(lines.contains("strip   leading, 70 pt | reversal flip | 10 rows/s"))
        #expect(lines.contains("option  none"))
        #expect(lines.contains("editor  none"))
        #expect("\(state)" == state.description)
    }

    @Test("a pan prints as words, not a dump: a drag scroll by its kind, a strip pan before its start row says so")
    func panDescriptions() throws {
        let table = """
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"header": 100, "rows": 20, "rowHeight": 50}]}
            """
        let drag = try play(table + "\n" + #"{"type": "panBegan", "t": 0, "x": 200, "y": 300}"#)
        #expect(drag.pan.map { "\($0)" } == "scroll")
        // Over the header: no data row under the finger yet, so no mode, no anchor.
        let strip = try play(table + "\n" + #"{"type": "panBegan", "t": 0, "x": 30, "y": 50}"#)
        #expect(strip.pan.map { "\($0)" } == "strip | no start row yet | finger 30,50")
    }

    @Test("a million rows, all selected: the same few lines, no row listed")
    func bounded() throws {
        var state = try play("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 1000000}]}
            """)
        try state.apply(.selectAll)
        #expect(state.selection.count == 1_000_000)
        #expect(state.description.utf8.count < 1_000)
        #expect(state.description.contains("| 1000000 selected |"))
    }
}
