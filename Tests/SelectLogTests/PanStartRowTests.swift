import Testing
@testable import SelectLog

@Suite("5.3 The start row of a pan that begins over no data row")
struct PanStartRowTests {
    static let strip = #"{"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}"#

    @Test("over the editor row: the row below it going down, the editor's own row going up")
    func startOverEditor() throws {
        // Rows of 50: 0 [0,50) 1 [50,100) 2 [100,150); the editor [150,194); 3 [194,244) … 6 [344,394).
        let table = """
            \(Self.strip)
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 10, "rowHeight": 50}]}
            {"type": "toggleEditor", "row": [0, 2], "options": ["a", "b"]}
            """
        var down = try play(table)
        try apply(&down, #"{"type": "panBegan", "x": 10, "y": 170}"#)
        #expect(down.pan?.start == nil)
        try apply(&down, #"{"type": "panMoved", "x": 10, "y": 360}"#)
        #expect(down.pan?.start == p(0, 3), "the first data row whose top is at or below y 170")
        #expect(down.selected == rows(3...6))
        var up = try play(table)
        try apply(&up, #"{"type": "panBegan", "x": 10, "y": 170}"#)
        try apply(&up, #"{"type": "panMoved", "x": 10, "y": 60}"#)
        #expect(up.pan?.start == p(0, 2), "the last data row whose bottom is at or above y 170")
        #expect(up.selected == rows(1...2))
    }

    @Test("across 50,000,000 rows of height 0, in both directions, at once")
    func acrossAHugeZeroHeightRegion() throws {
        // Section 0: rows of 44, [0, 880); section 1: 50M rows of height 0 at 880; section 2:
        // 10 rows of height 0 at 880, then a footer [880, 910).
        let table = """
            {"type": "viewport", "width": 390, "height": 1000}
            {"type": "reload", "sections": [{"rows": 20}, {"rows": 50000000, "rowHeight": 0}, {"rows": 10, "rowHeight": 0, "footer": 30}]}
            \(Self.strip)
            """
        var up = try play(table)
        try apply(&up, #"{"type": "panBegan", "x": 10, "y": 895}"#)  // the footer
        try apply(&up, #"{"type": "panMoved", "x": 10, "y": 100}"#)  // row (0, 2)
        #expect(up.pan?.start == p(2, 9), "the last data row whose bottom is at or above y 895")
        #expect(up.selection.count == 18 + 50_000_000 + 10)
        #expect(up.selection.contains(p(1, 25_000_000)) && !up.selection.contains(p(0, 1)))
        // Down: from a header above a section of 0-height rows to a row below them.
        var down = try play("""
            {"type": "viewport", "width": 390, "height": 1000}
            {"type": "reload", "sections": [{"rows": 3, "rowHeight": 50, "header": 40}, {"rows": 50000000, "rowHeight": 0}, {"rows": 5, "rowHeight": 50}]}
            \(Self.strip)
            {"type": "panBegan", "x": 10, "y": 20}
            """)
        try apply(&down, #"{"type": "panMoved", "x": 10, "y": 250}"#)  // row (2, 1): [240, 290)
        #expect(down.pan?.start == p(0, 0), "the first data row whose top is at or below y 20")
        #expect(down.selection.count == 3 + 50_000_000 + 2)
    }

    @Test("a still finger finds the start row at the first event after which a data row is under it: a viewport, the editor closing or shrinking")
    func startRowFoundWithoutAMove() throws {
        // Rows of 10 [0, 900), a footer [900, 1000). At offset 400 of a 600-pt viewport, y
        // 550 is content y 950, the footer. A taller viewport clamps the offset to 300:
        // y 550 is content y 850, row 85.
        var viewport = try play("""
            \(Self.strip)
            {"type": "viewport", "height": 600}
            {"type": "reload", "sections": [{"rows": 90, "rowHeight": 10, "footer": 100}]}
            {"type": "scroll", "y": 400}
            {"type": "panBegan", "x": 5, "y": 550}
            """)
        #expect(viewport.pan?.start == nil)
        try apply(&viewport, #"{"type": "viewport", "height": 700}"#)
        #expect(viewport.offset == 300)
        // Started at content y 950, below every row: S is the last row whose bottom is at or
        // above it, 89, and every row from S to R = 85 gets the mode.
        #expect(viewport.pan?.start == p(0, 89))
        #expect(viewport.selected == rows(85...89))
        try apply(&viewport, #"{"type": "panEnded"}"#)
        #expect(viewport.selected == rows(85...89))
        #expect(viewport.undoStack.count == 1)
        // A pan over the editor row below row 0 (rows of 10, the editor [10, 54)). Closing
        // the editor puts row 3 [30, 40) under the finger at y 30; shrinking it to [10, 20)
        // puts row 1 [20, 30) under the finger at y 25. Either row holds the start.
        for (y, change, start) in [(30, #"{"type": "toggleEditor", "row": [0, 0]}"#, 3),
                                   (25, #"{"type": "configure", "editorHeight": 10}"#, 1)] {
            var s = try play("""
                \(Self.strip)
                {"type": "reload", "sections": [{"rows": 10, "rowHeight": 10}]}
                {"type": "toggleEditor", "row": [0, 0]}
                {"type": "panBegan", "x": 5, "y": \(y)}
                """)
            #expect(s.pan?.start == nil)
            try apply(&s, change)
            #expect(s.pan?.start == p(0, start), "\(change)")
            #expect(s.selected == rows(start...start), "\(change)")
        }
    }
}
