import Testing
@testable import SelectLog

/// A strip table with a 40 pt header: rows of 50 pt start at content y 40; row r is [40 + 50r, 90 + 50r).
let headerStripTable = """
{"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
{"type": "viewport", "width": 390, "height": 600}
{"type": "reload", "sections": [{"rows": 40, "rowHeight": 50, "header": 40}]}
"""

@Suite("v2 5.3: interrupted pans")
struct InterruptedPanTests {
    @Test("issue 8 reproducer: a row inserted by a background sync mid-pan; the next panMoved and panEnded are accepted")
    func backgroundInsertMidPan() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "panMoved", "x": 10, "y": 175}
            """)
        let edit = try apply(&s, #"{"type": "insertRows", "at": [[0, 0]]}"#)
        #expect(edit.gestures == [.interrupted(.strip)])
        #expect(edit.undoStepRecorded, "its changes become one undo step, as panEnded would")
        #expect(s.pan?.kind == .interrupted)
        #expect(s.selected == rows(2...4), "the selected rows followed the insert")
        let before = s
        let moved = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 475}"#)
        #expect(moved.isEmpty, "an interrupted pan's samples are ignored")
        #expect(s.selected == before.selected && s.contentOffset == before.contentOffset)
        let ended = try apply(&s, #"{"type": "panEnded", "x": 10, "y": 575, "targetOffset": 900}"#)
        #expect(ended.gestures == [.ended(.interrupted)])
        #expect(s.pan == nil)
        #expect(s.selected == rows(2...4) && s.offset == 0 && !s.decelerating, "its panEnded changes nothing else")
        #expect(s.undoStack.count == 1)
    }

    @Test("an interrupted pan shows as kind interrupted with null mode, anchor and auto-scroll (5.10.12)")
    func interruptedJSON() throws {
        var s = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 10, "y": 75}"#)
        try apply(&s, #"{"type": "deleteRows", "at": [[0, 50]]}"#)
        #expect(s.json.contains(#""pan": {"kind": "interrupted", "mode": null, "anchor": null, "autoscroll": null}"#))
    }

    @Test("a drag scroll shows as kind scroll with null mode, anchor and auto-scroll (5.10.12)")
    func dragScrollJSON() throws {
        let s = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 200, "y": 75}"#)
        #expect(s.json.contains(#""pan": {"kind": "scroll", "mode": null, "anchor": null, "autoscroll": null}"#))
    }

    @Test("panBegan, undo and redo during an interrupted pan are invalid; panCancelled ends it and changes nothing else")
    func interruptedRules() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "panMoved", "x": 10, "y": 175}
            {"type": "reloadRows", "at": [[0, 9]]}
            """)
        #expect(s.pan?.kind == .interrupted)
        #expect(reject(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#).contains("already active"))
        reject(&s, #"{"type": "undo"}"#)
        reject(&s, #"{"type": "redo"}"#)
        let cancelled = try apply(&s, #"{"type": "panCancelled"}"#)
        #expect(cancelled.gestures == [.cancelled(.interrupted)])
        #expect(cancelled.selected.isEmpty && cancelled.deselected.isEmpty)
        #expect(s.selected == rows(1...3), "the pan's changes were committed when it was interrupted")
        #expect(s.pan == nil)
    }

    @Test("an auto-scrolling pan interrupted by a row edit stops auto-scrolling; ticks do nothing")
    func interruptStopsAutoscroll() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 10, "y": 500}
            {"type": "panMoved", "x": 10, "y": 580}
            """)
        #expect(s.pan?.autoscroll == .down)
        try apply(&s, #"{"type": "insertRows", "at": [[0, 99]]}"#)
        let tick = try apply(&s, #"{"type": "tick", "t": 1000}"#)
        #expect(tick.isEmpty)
        #expect(s.offset == 0)
    }

    @Test("reload during a selection pan ends it as panEnded would; the touch stays interrupted")
    func reloadInterrupts() throws {
        var s = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 10, "y": 75}"#)
        let c = try apply(&s, #"{"type": "reload", "sections": [{"rows": 3}]}"#)
        #expect(c.gestures == [.interrupted(.strip)])
        #expect(s.pan?.kind == .interrupted && !s.dragging)
        #expect(s.selected.isEmpty && s.undoStack.isEmpty, "reload clears the selection and the history anyway")
    }

    @Test("a configure after which the mode is not multiple interrupts a selection pan; one that keeps it multiple does not")
    func configureInterrupts() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "panMoved", "x": 10, "y": 175}
            {"type": "configure", "optionWidth": 50}
            """)
        #expect(s.pan?.kind == .strip)
        try apply(&s, #"{"type": "configure", "allowsMultipleSelection": false}"#)
        #expect(s.pan?.kind == .interrupted)
        #expect(s.undoStack.count == 1, "its changes became one undo step")
        #expect(s.selected.isEmpty, "single mode with three rows selected clears the selection (5.1)")
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 375}"#)
        #expect(s.selected.isEmpty)
    }

    @Test("a setEditing that changes editing cancels a selection pan (as panCancelled), and the touch stays")
    func setEditingCancels() throws {
        var s = try play(stripTable + """

            {"type": "configure", "allowsMultipleSelectionDuringEditing": true}
            {"type": "select", "rows": [[0, 9]]}
            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "panMoved", "x": 10, "y": 175}
            """)
        let c = try apply(&s, #"{"type": "setEditing", "editing": true}"#)
        #expect(c.gestures == [.interrupted(.strip)])
        #expect(!c.undoStepRecorded, "cancelled: no undo step")
        #expect(c.deselected == rows(1...3) + [p(0, 9)], "back to the selection at panBegan, then cleared")
        #expect(s.pan?.kind == .interrupted)
        #expect(s.selected.isEmpty && s.undoStack.isEmpty)
        try apply(&s, #"{"type": "panEnded", "x": 10, "y": 300}"#)
        #expect(s.pan == nil && s.selected.isEmpty)
    }

    @Test("a drag scroll goes on through row edits, setEditing and configure, its offset re-clamped after each")
    func dragScrollNeverInterrupted() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 200, "y": 500}
            {"type": "panMoved", "x": 200, "y": 100}
            """)
        #expect(s.offset == 400)
        try apply(&s, #"{"type": "setEditing", "editing": true}"#)
        try apply(&s, #"{"type": "configure", "allowsMultipleSelection": false}"#)
        #expect(s.pan?.kind == .scroll && s.dragging)
        let deleted = try apply(&s, #"{"type": "deleteSections", "at": [0]}"#)
        #expect(deleted.gestures.isEmpty)
        #expect(s.offset == 0 && s.dragging)
        try apply(&s, #"{"type": "insertSections", "at": [0], "sections": [{"rows": 100, "rowHeight": 50}]}"#)
        try apply(&s, #"{"type": "panMoved", "x": 200, "y": 0}"#)
        #expect(s.offset == 500, "still measured from where the drag began")
        try apply(&s, #"{"type": "panEnded"}"#)
        #expect(!s.dragging)
    }
}

@Suite("v2 5.3: the start row of a pan that begins over no data row")
struct StartRowTests {
    @Test("issue 8 reproducer: a pan from a header straight to row 4 and on to row 6 selects rows 0-6, not 4-6")
    func headerToRowFour() throws {
        var s = try play(headerStripTable + "\n" + #"{"type": "panBegan", "x": 10, "y": 20}"#)
        #expect(s.selected.isEmpty)
        let c = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 250}"#)  // row 4: [240, 290)
        #expect(c.selected == rows(0...4), "every data row from S to R gets the mode at once")
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 350}"#)  // row 6
        #expect(s.selected == rows(0...6))
        #expect(s.pan?.start == p(0, 0) && s.pan?.anchor == p(0, 6))
    }

    @Test("past the content, moving up: S is the last data row whose bottom is at or above the starting point")
    func pastContentMovingUp() throws {
        let s = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 10, "rowHeight": 50}]}
            {"type": "panBegan", "x": 10, "y": 550}
            {"type": "panMoved", "x": 10, "y": 375}
            """)
        #expect(s.selected == rows(7...9))
        #expect(s.pan?.start == p(0, 9) && s.pan?.mode == .select)
    }

    @Test("over a section header with R above it: S is the last row of the section before")
    func headerMovingUp() throws {
        var s = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 5, "rowHeight": 50}, {"rows": 5, "rowHeight": 50, "header": 40}]}
            {"type": "panBegan", "x": 10, "y": 270}
            """)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 125}"#)  // [0, 2]
        #expect(s.selected == rows(2...4))
        #expect(s.pan?.start == p(0, 4))
    }

    @Test("over the editor row: S is the row below it; the editor row is never selected")
    func overEditorRow() throws {
        var s = try play(stripTable + """

            {"type": "toggleEditor", "row": [0, 2], "options": ["a"]}
            {"type": "panBegan", "x": 10, "y": 170}
            """)
        // Rows 0-2 [0, 150), editor [150, 194), row 3 [194, 244), row 4 [244, 294).
        #expect(s.selected.isEmpty && s.pan?.start == nil)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 250}"#)
        #expect(s.selected == rows(3...4))
    }

    @Test("the mode is decided at S: S selected means every row from S to R is deselected")
    func modeDecidedAtStart() throws {
        let s = try play(headerStripTable + """

            {"type": "select", "rows": [[0, 0], [0, 1], [0, 2], [0, 3]]}
            {"type": "panBegan", "x": 10, "y": 20}
            {"type": "panMoved", "x": 10, "y": 150}
            """)
        #expect(s.pan?.mode == .deselect)
        #expect(s.selected == [p(0, 3)], "rows 0-2 deselected; row 3 untouched")
    }

    @Test("with restore, the range is S..R and retreating gives rows back")
    func restoreFromHeader() throws {
        var s = try play(headerStripTable + """

            {"type": "configure", "scrollAndSelect": {"reversal": "restore"}}
            {"type": "select", "rows": [[0, 3]]}
            {"type": "panBegan", "x": 10, "y": 20}
            {"type": "panMoved", "x": 10, "y": 250}
            """)
        #expect(s.selected == rows(0...4))
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 100}"#)  // row 1
        #expect(s.selected == rows(0...1) + [p(0, 3)])
    }

    @Test("reversals before the start row exists flip nothing")
    func reversalBeforeStart() throws {
        let s = try play(headerStripTable + """

            {"type": "scroll", "y": 0}
            {"type": "panBegan", "x": 10, "y": 10}
            {"type": "panMoved", "x": 10, "y": 30}
            {"type": "panMoved", "x": 10, "y": 20}
            {"type": "panMoved", "x": 10, "y": 100}
            """)
        #expect(s.pan?.mode == .select)
        #expect(s.selected == rows(0...1))
    }
}

@Suite("v2 5.1, 5.10.13, 6")
struct ContractV2MiscTests {
    @Test("an unchanged setEditing closes an open option view (5.1)")
    func unchangedSetEditingClosesOptionView() throws {
        var s = try play(multipleTable + """

            {"type": "configure", "optionWidth": 80}
            {"type": "select", "rows": [[0, 1]]}
            {"type": "setOptionVisible", "row": [0, 4], "visible": true}
            """)
        let c = try apply(&s, #"{"type": "setEditing", "editing": false}"#)
        #expect(c.optionView == RowChange(from: p(0, 4), to: nil))
        #expect(s.options.open == nil)
        #expect(s.selected == [p(0, 1)] && s.undoStack.count == 1, "nothing else changes")
    }

    @Test("a selection pan reads jitter at each event; its reversal is fixed at panBegan (5.10.13)")
    func settingsReadAtEachEvent() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "configure", "scrollAndSelect": {"jitter": 60, "reversal": "restore"}}
            {"type": "panMoved", "x": 10, "y": 125}
            """)
        #expect(s.selected == [p(0, 1)], "a 50 pt move is under the new jitter")
        #expect(s.pan?.reversal == .flip)
        try apply(&s, #"{"type": "configure", "scrollAndSelect": {"jitter": 5}}"#)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 225}"#)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 125}"#)
        #expect(s.selected == [p(0, 1)], "flip: the reversal deselects rows 2-4 again")
    }

    @Test("swipe in the state JSON: its row and revealed width; null while ignored and between swipes (6)")
    func swipeJSON() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "configure", "optionWidth": 80}"#)
        #expect(s.json.contains(#""optionOpen": null, "swipe": null, "editor""#))
        try apply(&s, #"{"type": "swipeBegan", "row": [0, 7]}"#)
        try apply(&s, #"{"type": "swipeMoved", "offset": 30.5}"#)
        #expect(s.json.contains(#""swipe": {"row": [0, 7], "offset": 30.5}"#))
        try apply(&s, #"{"type": "swipeEnded"}"#)
        #expect(s.json.contains(#""swipe": null"#))
        try apply(&s, #"{"type": "select", "rows": [[0, 2]]}"#)
        try apply(&s, #"{"type": "swipeBegan", "row": [0, 2]}"#)
        #expect(s.options.swipe == .ignored)
        #expect(s.json.contains(#""swipe": null"#))
    }
}

/// How the engine reads contract v2 where an audit found its sentences open to two
/// readings (README, Semantics: "Readings of contract v2 at its edges").
@Suite("v2 readings at the contract's edges")
struct ContractEdgeReadingTests {
    @Test("swipeBegan on a selected row mid-swipe ends the other row's swipe, and the swipe events after it are ignored (5.5)")
    func swipeOnASelectedRowMidSwipe() throws {
        var s = try play("""
            {"type": "configure", "optionWidth": 100}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 20, "rowHeight": 50}]}
            {"type": "select", "rows": [[0, 5]]}
            {"type": "swipeBegan", "row": [0, 2]}
            {"type": "swipeMoved", "offset": 80}
            """)
        #expect(s.options.swipe != nil)
        try apply(&s, #"{"type": "swipeBegan", "row": [0, 5]}"#)
        #expect(s.json.contains(#""swipe": null"#), "row 2's swipe is over; the new one is ignored")
        try apply(&s, #"{"type": "swipeMoved", "offset": 90}"#)
        try apply(&s, #"{"type": "swipeEnded"}"#)
        #expect(s.options.swipe == nil && s.options.open == nil, "the selected row's swipe is ignored: nothing opens")
        #expect(s.selected == [RowPath(0, 5)])
    }

    @Test("a restore pan's anchor stays at the row it started from (5.3 defines it for flip)")
    func restorePanAnchor() throws {
        var s = try play(stripTable + "\n" + """
            {"type": "configure", "scrollAndSelect": {"reversal": "restore"}}
            {"type": "panBegan", "x": 10, "y": 25}
            {"type": "panMoved", "x": 10, "y": 175}
            """)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 375}"#)
        #expect(s.json.contains(#""anchor": [0, 0]"#), "\(s.json)")
        #expect(s.selected == rows(0...7))
    }

    @Test("rowHeights past rows are ignored for the layout but checked: a negative one is invalid (5.10.7)")
    func rowHeightsPastRows() throws {
        let s = try play(#"{"type": "reload", "sections": [{"rows": 1, "rowHeights": [30, 99]}]}"#)
        #expect(s.layout.contentHeight == Points(30))
        #expect(throws: (any Error).self) { try play(#"{"type": "reload", "sections": [{"rows": 1, "rowHeights": [44, -1]}]}"#) }
    }

    @Test("an auto-scroll tick moves at most 1e9 pt at once (a length's limit), where 5.10.1's exact distance is more; two ticks move further")
    func tickMovesAtMostALength() throws {
        let start = """
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 1000, "rowHeight": 1000000000}]}
            {"type": "panBegan", "x": 10, "y": 300, "t": 0}
            {"type": "panMoved", "x": 10, "y": 570, "t": 0}
            """
        // 20 rows a second of 1e9 pt for a second: 2e10 pt exactly, 1e9 moved.
        let one = try play(start + "\n" + #"{"type": "tick", "t": 1000}"#)
        #expect(one.contentOffset == EventLimits.length)
        let two = try play(start + "\n" + #"{"type": "tick", "t": 500}"# + "\n" + #"{"type": "tick", "t": 1000}"#)
        #expect(two.contentOffset == Points(raw: 2 * EventLimits.length.raw))
    }

    @Test("a line whose first non-blank character is # is a comment (4)")
    func indentedComments() throws {
        let s = try play("   # a comment\n\t# another\n" + #"{"type": "reload", "sections": [{"rows": 3}]}"#)
        #expect(s.events == 1)
    }
}
