import Testing
@testable import SelectLog

/// 100 rows of 50 pt, 390 × 600, multiple selection, leading strip of 70 pt, 10 rows/s.
/// Bottom zone: y > 560; top zone: y < 40; max offset 4400.
let stripTable = """
{"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true, "rowsPerSecond": 10}}
{"type": "viewport", "width": 390, "height": 600}
{"type": "reload", "sections": [{"rows": 100, "rowHeight": 50}]}
"""

func rows(_ range: ClosedRange<Int>, section: Int = 0) -> [RowPath] { range.map { p(section, $0) } }

@Suite("5.3 Pans: classification")
struct PanClassificationTests {
    @Test("one finger in the strip in a multiple mode is a strip pan")
    func stripPan() throws {
        var s = try play(stripTable)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        #expect(s.pan?.kind == .strip)
        #expect(s.selected == [p(0, 1)])
        #expect(!s.dragging)
    }

    @Test("a pan with no touches (a trackpad's or a mouse wheel's scroll) is a drag scroll, even in the strip")
    func touchlessPanIsADragScroll() throws {
        var s = try play(stripTable)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 300, "fingers": 0}"#)
        #expect(s.pan?.kind == .scroll)
        #expect(s.dragging)
        #expect(s.selected.isEmpty)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 200}"#)
        #expect(s.contentOffset == Points(100))
        try apply(&s, #"{"type": "panEnded"}"#)
        #expect(!s.dragging)
        #expect(s.selected.isEmpty)
    }

    @Test("two pans are equal only when their kind and their state agree")
    func panStateEquality() throws {
        var a = try play(stripTable)
        try apply(&a, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        var b = a
        #expect(a.gesture == b.gesture)
        try apply(&b, #"{"type": "panMoved", "x": 10, "y": 175}"#)
        // Same kind (a strip pan), another finger and anchor: not the same pan.
        #expect(a.gesture.kind == b.gesture.kind)
        #expect(a.gesture != b.gesture)
        #expect(a != b)
    }

    @Test("the strip is the half-open band [0, stripWidth)")
    func stripBandIsHalfOpen() throws {
        var a = try play(stripTable)
        try apply(&a, #"{"type": "panBegan", "x": 69.984375, "y": 75}"#)
        #expect(a.pan?.kind == .strip)
        var b = try play(stripTable)
        try apply(&b, #"{"type": "panBegan", "x": 70, "y": 75}"#)
        #expect(b.pan?.kind == .scroll)
    }

    @Test("a trailing strip hugs x = width")
    func trailingStrip() throws {
        var a = try play(stripTable + "\n" + #"{"type": "configure", "scrollAndSelect": {"edge": "trailing"}}"#)
        var b = a
        try apply(&a, #"{"type": "panBegan", "x": 320, "y": 75}"#)
        #expect(a.pan?.kind == .strip)
        try apply(&b, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        #expect(b.pan?.kind == .scroll)
    }

    @Test("a strip pan needs a multiple mode; otherwise it is a drag scroll")
    func stripNeedsMultiple() throws {
        var s = try play(stripTable + "\n" + #"{"type": "configure", "allowsMultipleSelection": false}"#)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        #expect(s.pan?.kind == .scroll)
        #expect(s.dragging)
        #expect(s.selected.isEmpty)
    }

    @Test("two fingers on a data row with the interaction on enter editing and select with restore")
    func multiSelectInteraction() throws {
        var s = try play(singleTable + """

            {"type": "configure", "multiSelectInteraction": true, "allowsMultipleSelectionDuringEditing": true}
            {"type": "tap", "x": 200, "y": 25}
            """)
        try apply(&s, #"{"type": "panBegan", "x": 200, "y": 75, "fingers": 2}"#)
        #expect(s.editing)
        #expect(s.pan?.kind == .multiSelect)
        #expect(s.pan?.reversal == .restore)
        // Editing cleared the old selection, then the start row was selected.
        #expect(s.selected == [p(0, 1)])
        #expect(s.undoStack.isEmpty)
    }

    @Test("two fingers over a header are a drag scroll")
    func multiSelectNeedsARow() throws {
        var s = try play("""
            {"type": "configure", "multiSelectInteraction": true, "allowsMultipleSelectionDuringEditing": true}
            {"type": "reload", "sections": [{"rows": 10, "rowHeight": 50, "header": 40}]}
            {"type": "panBegan", "x": 200, "y": 20, "fingers": 2}
            """)
        #expect(s.pan?.kind == .scroll)
        #expect(!s.editing)
        try apply(&s, #"{"type": "panCancelled"}"#)
        #expect(!s.dragging)
    }

    @Test("a panBegan while a pan is active, or a move, end or cancel with none, is invalid")
    func panOrderIsChecked() throws {
        var s = try play(stripTable)
        reject(&s, #"{"type": "panMoved", "x": 1, "y": 1}"#)
        reject(&s, #"{"type": "panEnded"}"#)
        reject(&s, #"{"type": "panCancelled"}"#)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        reject(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
    }
}

@Suite("5.3 Pans: selection pans")
struct SelectionPanTests {
    @Test("the start row decides the mode: deselect if it is selected")
    func startRowDecidesMode() throws {
        var s = try play(stripTable + "\n" + #"{"type": "select", "rows": [[0, 1], [0, 2], [0, 3]]}"#)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        #expect(s.pan?.mode == .deselect)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 175}"#)
        #expect(s.selected.isEmpty)
    }

    @Test("a pan that starts over a header starts at the first data row below it; no row is skipped (5.3)")
    func startOverHeader() throws {
        var s = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 20, "rowHeight": 50, "header": 40}]}
            {"type": "panBegan", "x": 10, "y": 20}
            """)
        #expect(s.pan?.start == nil && s.pan?.mode == nil)
        #expect(s.json.contains(#""pan": {"kind": "strip", "mode": null, "anchor": null, "autoscroll": null}"#))
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 140}"#)  // row 2: [140, 190)
        // S is the first data row whose top is at or below the starting point (y 20): row 0.
        #expect(s.pan?.start == p(0, 0))
        #expect(s.pan?.anchor == p(0, 2))
        #expect(s.selected == rows(0...2))
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 240}"#)
        #expect(s.selected == rows(0...4))
    }

    @Test("a pan that starts over a header finds its start row across an empty section, in both directions (5.3)")
    func startOverHeaderAcrossEmptySection() throws {
        // Section 0 rows [0,50) [50,100) [100,150); section 1 (no rows) header [150,170);
        // section 2 header [170,190), rows [190,240) [240,290) [290,340).
        let table = """
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 3, "rowHeight": 50}, {"rows": 0, "header": 20}, {"rows": 3, "rowHeight": 50, "header": 20}]}
            """
        // Up from section 1's header to row (0, 1): S is the last data row whose bottom is
        // at or above the starting point, (0, 2); the walk passes the empty section.
        var up = try play(table)
        try apply(&up, #"{"type": "panBegan", "x": 10, "y": 160}"#)
        try apply(&up, #"{"type": "panMoved", "x": 10, "y": 60}"#)
        #expect(up.pan?.start == p(0, 2))
        #expect(up.selected == [p(0, 1), p(0, 2)])
        // Down from section 1's header to row (2, 1): S is (2, 0), the first data row below.
        var down = try play(table)
        try apply(&down, #"{"type": "panBegan", "x": 10, "y": 160}"#)
        try apply(&down, #"{"type": "panMoved", "x": 10, "y": 250}"#)
        #expect(down.pan?.start == p(2, 0))
        #expect(down.selected == [p(2, 0), p(2, 1)])
    }

    @Test("rows are never skipped, however far the finger jumps between samples")
    func fastPanSkipsNothing() throws {
        var s = try play(stripTable)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 475}"#)
        #expect(s.selected == rows(1...9))
        #expect(s.pan?.anchor == p(0, 9))
    }

    @Test("rows are never skipped across sections, and the editor row is passed over")
    func acrossSectionsAndEditor() throws {
        let s = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 3, "rowHeight": 50}, {"rows": 3, "rowHeight": 50, "header": 20}]}
            {"type": "toggleEditor", "row": [0, 1], "options": ["a"]}
            {"type": "panBegan", "x": 10, "y": 10}
            {"type": "panMoved", "x": 10, "y": 330}
            """)
        // Row 0 [0,50), row 1 [50,100), editor [100,144), row 2 [144,194), header [194,214),
        // section 1 rows [214,264), [264,314), [314,364).
        #expect(s.selected == [p(0, 0), p(0, 1), p(0, 2), p(1, 0), p(1, 1), p(1, 2)])
    }

    @Test("flip: a reversal flips the mode, and rows from the anchor to the finger get it")
    func flipReversal() throws {
        var s = try play(stripTable)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 275}"#)
        #expect(s.selected == rows(1...5))
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 175}"#)
        // Reversal: deselect from the anchor (5) to the finger (3).
        #expect(s.pan?.mode == .deselect)
        #expect(s.selected == rows(1...2))
        #expect(s.pan?.anchor == p(0, 3))
    }

    @Test("restore: the selection is the pre-pan selection with the mode applied from S to R")
    func restoreReversal() throws {
        var s = try play(stripTable + """

            {"type": "configure", "scrollAndSelect": {"reversal": "restore"}}
            {"type": "select", "rows": [[0, 3]]}
            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "panMoved", "x": 10, "y": 275}
            """)
        #expect(s.selected == rows(1...5))
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 125}"#)
        // Rows 4 and 5 go back to unselected; 3 was selected before the pan.
        #expect(s.selected == rows(1...3))
        #expect(s.pan?.mode == .select)
        #expect(s.pan?.anchor == p(0, 1))
    }

    @Test("restore in deselect mode gives retreated rows back")
    func restoreDeselect() throws {
        var s = try play(stripTable + """

            {"type": "configure", "scrollAndSelect": {"reversal": "restore"}}
            {"type": "select", "rows": [[0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6]]}
            {"type": "panBegan", "x": 10, "y": 125}
            {"type": "panMoved", "x": 10, "y": 225}
            """)
        #expect(s.selected == [p(0, 1), p(0, 5), p(0, 6)])
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 175}"#)
        #expect(s.selected == [p(0, 1), p(0, 4), p(0, 5), p(0, 6)])
    }

    @Test("restore: with no row under the finger the previous range stays")
    func restoreKeepsRangeOffRows() throws {
        let s = try play(stripTable + """

            {"type": "configure", "scrollAndSelect": {"reversal": "restore"}}
            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "panMoved", "x": 10, "y": 275}
            {"type": "panMoved", "x": 500, "y": 100}
            """)
        #expect(s.selected == rows(1...5))
    }

    @Test("a move under the jitter is ignored entirely")
    func jitterIgnoresSmallMoves() throws {
        var s = try play(stripTable)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 125}"#)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 121}"#)
        // 4 pt up is under the 5-pt jitter: no reversal, finger stays at 125.
        #expect(s.pan?.mode == .select)
        #expect(s.pan?.direction == .down)
        #expect(s.pan?.finger.y == Points(125))
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 120}"#)
        #expect(s.pan?.mode == .deselect)
    }

    @Test("reversals before the start row exists flip nothing")
    func reversalBeforeStart() throws {
        let s = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 20, "rowHeight": 50, "header": 100}]}
            {"type": "panBegan", "x": 10, "y": 10}
            {"type": "panMoved", "x": 10, "y": 60}
            {"type": "panMoved", "x": 10, "y": 20}
            {"type": "panMoved", "x": 10, "y": 125}
            """)
        #expect(s.pan?.mode == .select)
        #expect(s.selected == [p(0, 0)])
    }

    @Test("panEnded makes the pan's changes one undo step; its x, y count as a last move")
    func panEndedIsOneStep() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "panMoved", "x": 10, "y": 175}
            {"type": "panEnded", "x": 10, "y": 275}
            """)
        #expect(s.selected == rows(1...5))
        #expect(s.pan == nil)
        #expect(s.undoStack.count == 1)
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.selected.isEmpty)
        try apply(&s, #"{"type": "redo"}"#)
        #expect(s.selected == rows(1...5))
    }

    @Test("a selection pan that changed nothing is no undo step")
    func unchangedPanNoStep() throws {
        // Three rows fill [0, 150); the finger stays below them and never finds a start row.
        let s = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 3, "rowHeight": 50}]}
            {"type": "select", "rows": [[0, 1]]}
            {"type": "panBegan", "x": 10, "y": 300}
            {"type": "panMoved", "x": 10, "y": 400}
            {"type": "panEnded"}
            """)
        #expect(s.undoStack.count == 1)
        #expect(s.selected == [p(0, 1)])
    }

    @Test("programmatic selection during a selection pan does nothing")
    func programmaticSelectionDuringPan() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "panMoved", "x": 10, "y": 175}
            {"type": "deselect", "rows": [[0, 1]]}
            {"type": "select", "rows": [[0, 9]]}
            {"type": "deselectAll"}
            """)
        #expect(s.selected == rows(1...3))
        try apply(&s, #"{"type": "panEnded"}"#)
        #expect(s.undoStack.count == 1)
    }

    @Test("panCancelled puts the selection back as it was at panBegan and leaves no undo step")
    func panCancelledRestores() throws {
        var s = try play(stripTable + "\n" + #"{"type": "select", "rows": [[0, 7]]}"#)
        let before = s.hashHex
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 475}"#)
        try apply(&s, #"{"type": "panCancelled"}"#)
        #expect(s.selected == [p(0, 7)])
        #expect(s.undoStack.count == 1)
        #expect(s.hashHex == before)
    }

    @Test("panCancelled of a multi-select pan leaves editing on with the selection right after editing turned on")
    func multiSelectCancel() throws {
        var s = try play(singleTable + """

            {"type": "configure", "multiSelectInteraction": true, "allowsMultipleSelectionDuringEditing": true}
            {"type": "tap", "x": 200, "y": 25}
            {"type": "panBegan", "x": 200, "y": 75, "fingers": 2}
            {"type": "panMoved", "x": 200, "y": 275}
            """)
        #expect(s.selected == rows(1...5))
        try apply(&s, #"{"type": "panCancelled"}"#)
        #expect(s.editing)
        #expect(s.selected.isEmpty)
    }

    @Test("a row edit during a selection pan ends it first, as panEnded; the touch stays as an interrupted pan")
    func editEndsPan() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "panMoved", "x": 10, "y": 175}
            {"type": "insertRows", "at": [[0, 0]]}
            """)
        #expect(s.pan?.kind == .interrupted)
        #expect(s.selected == rows(2...4))
        #expect(s.undoStack.count == 1)
        reject(&s, #"{"type": "undo"}"#)
        try apply(&s, #"{"type": "panEnded"}"#)
        #expect(s.pan == nil)
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.selected.isEmpty)
    }

    @Test("reload during a drag scroll does not end it: the drag goes on, its offset re-clamped (5.3)")
    func reloadKeepsDragScroll() throws {
        var s = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 200, "y": 300}"# + "\n" + #"{"type": "panMoved", "x": 200, "y": 100}"#)
        #expect(s.offset == 200)
        try apply(&s, #"{"type": "reload", "sections": [{"rows": 14, "rowHeight": 50}]}"#)
        #expect(s.pan?.kind == .scroll && s.dragging)
        #expect(s.offset == 100, "re-clamped to 14 × 50 - 600")
        try apply(&s, #"{"type": "panMoved", "x": 200, "y": 250}"#)
        #expect(s.offset == 50)
        try apply(&s, #"{"type": "panEnded"}"#)
        #expect(s.pan == nil && !s.dragging)
    }

    @Test("a tap during a pan does nothing")
    func tapDuringPan() throws {
        var s = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 200, "y": 75}"#)
        try apply(&s, #"{"type": "tap", "x": 200, "y": 275}"#)
        #expect(s.selected.isEmpty)
    }
}
