import Foundation
import SelectLog
@testable import selectlog
import Testing

/// Hidden rows (zero-height, as a collapsed section's) among visible ones: the text
/// picture and the viewer's band step over any number of them at once, so that the rows
/// after them are shown.
@Suite("Zero-height rows in the picture and the viewer")
struct ZeroHeightRowsTests {
    /// Section 0: five rows of 44 pt, 49,999,995 hidden rows, then twenty rows of 44 pt;
    /// section 1: three rows of 44 pt.
    static func table(_ more: String = "") throws -> TableState {
        let tail = (0..<20).map { "[0, \(50_000_000 + $0)]" }.joined(separator: ", ")
        let heights = Array(repeating: "44", count: 20).joined(separator: ", ")
        var state = TableState()
        try Script(bytes: Array(("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 50000000, "rowHeight": 0, "rowHeights": [44, 44, 44, 44, 44]}, {"rows": 3, "rowHeight": 44}]}
            {"type": "insertRows", "at": [\(tail)], "heights": [\(heights)]}
            {"type": "tap", "x": 100, "y": 250}
            """ + more).utf8)).replay(into: &state)
        return state
    }

    @Test("a run of hidden rows is one line, and the rows after it are listed with their marks")
    func pictureCollapsesTheRun() throws {
        let state = try Self.table()
        #expect(state.selection.paths == [RowPath(0, 50_000_000)])
        let lines = TablePicture(state).picture
        #expect(lines.contains("  0:5-49999999 [ ]  49999995 rows of 0 pt"), "\(lines)")
        #expect(lines.contains("  0:50000000 [x]"), "\(lines)")
        // The viewport's 600 pt end within row 0:50000008 (220 + 9 × 44 = 616).
        #expect(lines.last == "  0:50000008 [ ]", "\(lines)")
        #expect(!lines.contains { $0.contains("more rows") }, "\(lines)")
        #expect(lines.count == 1 + 5 + 1 + 9, "\(lines)")
    }

    @Test("a collapsed run is marked [x] when all its rows are selected and [~] when some are")
    func collapsedMarks() throws {
        let some = try Self.table("\n" + #"{"type": "select", "rows": [[0, 77]]}"#)
        #expect(TablePicture(some).picture.contains("  0:5-49999999 [~]  49999995 rows of 0 pt"))
        let all = try Self.table("\n" + #"{"type": "selectAll"}"#)
        #expect(TablePicture(all).picture.contains("  0:5-49999999 [x]  49999995 rows of 0 pt"))
    }

    @Test("a run stops before a row a line notes (the editor's), which keeps its own line")
    func notedRowsSplitTheRun() throws {
        let state = try Self.table("\n" + #"{"type": "toggleEditor", "row": [0, 1000], "options": ["a"], "multiple": false, "chosen": []}"#)
        let lines = TablePicture(state).picture
        #expect(lines.contains("  0:5-999   [ ]  995 rows of 0 pt"), "\(lines)")
        #expect(lines.contains("  0:1000    [ ]"), "\(lines)")
        #expect(lines.contains("    editor: ( ) a"), "\(lines)")
        #expect(lines.contains("  0:1001-49999999 [ ]  49998999 rows of 0 pt"), "\(lines)")
    }

    @Test("the viewer's band draws the rows after a run of hidden rows, and the editor inside it")
    func bandStepsOverTheRun() throws {
        let band = ViewerBand(try Self.table()).entries
        #expect(band.contains("[\"r\",0,0,0,44,5]"), "\(band)")
        #expect(band.contains("[\"r\",0,50000000,220,44,20]"), "\(band)")
        #expect(band.contains("[\"r\",1,0,1100,44,3]"), "\(band)")
        let withEditor = ViewerBand(try Self.table("\n" + #"{"type": "toggleEditor", "row": [0, 1000], "options": ["a"], "multiple": false, "chosen": []}"#)).entries
        #expect(withEditor.contains("[\"e\",220,44]"), "\(withEditor)")
        #expect(withEditor.contains("[\"r\",0,50000000,264,44,20]"), "\(withEditor)")
    }

    @Test("lastOfZeroHeightRun finds the end of a run in a tree of runs and explicit heights")
    func zeroRunEnd() throws {
        let rows = try Self.table().layout.sections[0].rows
        #expect(rows.lastOfZeroHeightRun(from: 4) == nil)
        #expect(rows.lastOfZeroHeightRun(from: 5) == 49_999_999)
        #expect(rows.lastOfZeroHeightRun(from: 49_999_000) == 49_999_999)
        #expect(rows.lastOfZeroHeightRun(from: 49_999_999) == 49_999_999)
        #expect(rows.lastOfZeroHeightRun(from: 50_000_000) == nil)
        #expect(rows.lastOfZeroHeightRun(from: rows.count) == nil)
    }
}
