import Testing
@testable import SelectLog

@Suite("apply says what changed (TableChanges)")
struct TableChangesTests {
    @Test("a tap in single mode reports the new row selected and the old one deselected, and an undo step")
    func tapSingle() throws {
        var s = try play(singleTable)
        let first = try apply(&s, #"{"type": "tap", "x": 10, "y": 75}"#)
        #expect(first.selected == [p(0, 1)])
        #expect(first.deselected.isEmpty)
        #expect(first.undoStepRecorded)
        let second = try apply(&s, #"{"type": "tap", "x": 10, "y": 175}"#)
        #expect(second.selected == [p(0, 3)])
        #expect(second.deselected == [p(0, 1)])
        let again = try apply(&s, #"{"type": "tap", "x": 10, "y": 175}"#)
        #expect(again.isEmpty, "tapping the selected row in single mode changes nothing")
    }

    @Test("programmatic selection reports rows in ascending order; undo reports them back")
    func selectAndUndo() throws {
        var s = try play(multipleTable)
        let c = try apply(&s, #"{"type": "select", "rows": [[0, 9], [0, 2], [0, 5]]}"#)
        #expect(c.selected == [p(0, 2), p(0, 5), p(0, 9)])
        #expect(c.undoStepRecorded)
        let u = try apply(&s, #"{"type": "undo"}"#)
        #expect(u.deselected == [p(0, 2), p(0, 5), p(0, 9)])
        #expect(u.selected.isEmpty)
        #expect(!u.undoStepRecorded, "undo does not record a new step")
    }

    @Test("rows that only move through the event's own edits are not selection changes")
    func editsMoveRowsWithoutChanges() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "select", "rows": [[0, 3], [0, 4]]}"#)
        let c = try apply(&s, #"{"type": "insertRows", "at": [[0, 0]]}"#)
        #expect(s.selected == [p(0, 4), p(0, 5)])
        #expect(c.selected.isEmpty && c.deselected.isEmpty)
        #expect(c.rowOperations == [.insert(p(0, 0), source: .new(0))])
        #expect(!c.reloaded)
        let d = try apply(&s, #"{"type": "deleteRows", "at": [[0, 4]]}"#)
        #expect(d.deselected.isEmpty, "a deleted row leaves the selection through rowOperations")
        #expect(d.rowOperations == [.remove(p(0, 4), move: nil)])
        let r = try apply(&s, #"{"type": "reloadRows", "at": [[0, 4]]}"#)
        #expect(r.deselected == [p(0, 4)], "reloadRows deselects a row that still exists")
        #expect(r.rowOperations.isEmpty)
    }

    @Test("reload replaces the table and says so")
    func reload() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "select", "rows": [[0, 3]]}"#)
        let c = try apply(&s, #"{"type": "reload", "sections": [{"rows": 5}]}"#)
        #expect(c.reloaded)
        #expect(c.rowOperations.isEmpty)
        let other = try apply(&s, #"{"type": "tap", "x": 10, "y": 10}"#)
        #expect(!other.reloaded)
    }

    @Test("a strip pan reports began, its rows as the finger passes them, and ended")
    func stripPanGestures() throws {
        var s = try play(stripTable)
        let began = try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        #expect(began.gestures == [.began(.strip)])
        #expect(began.selected == [p(0, 1)])
        let still = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 76}"#)
        #expect(still.isEmpty, "a move under the jitter changes nothing")
        let moved = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 225}"#)
        #expect(moved.selected == [p(0, 2), p(0, 3), p(0, 4)])
        #expect(moved.gestures.isEmpty)
        let back = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 125}"#)
        #expect(back.deselected == [p(0, 2), p(0, 3), p(0, 4)], "a reversal flips the mode back over the rows")
        #expect(back.selected.isEmpty)
        let ended = try apply(&s, #"{"type": "panEnded"}"#)
        #expect(ended.gestures == [.ended(.strip)])
        #expect(ended.undoStepRecorded)
    }

    @Test("a cancelled selection pan reports its rows going back and the cancellation")
    func cancelledPan() throws {
        var s = try play(stripTable)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 175}"#)
        let c = try apply(&s, #"{"type": "panCancelled"}"#)
        #expect(c.gestures == [.cancelled(.strip)])
        #expect(c.deselected == [p(0, 1), p(0, 2), p(0, 3)])
        #expect(!c.undoStepRecorded)
    }

    @Test("a drag scroll reports began, the offset change, and ended")
    func dragScroll() throws {
        var s = try play(multipleTable)
        let began = try apply(&s, #"{"type": "panBegan", "x": 200, "y": 300}"#)
        #expect(began.gestures == [.began(.scroll)])
        let moved = try apply(&s, #"{"type": "panMoved", "x": 200, "y": 200}"#)
        #expect(moved.offsetChange == OffsetChange(from: .zero, to: Points(100)))
        #expect(moved.contentOffset?.to == Points(100))
        let ended = try apply(&s, #"{"type": "panEnded"}"#)
        #expect(ended.gestures == [.ended(.scroll)])
        #expect(ended.offsetChange == nil)
    }

    @Test("a multi-select pan reports its kind")
    func multiSelectPan() throws {
        var s = try play(singleTable + "\n" + #"{"type": "configure", "multiSelectInteraction": true, "allowsMultipleSelectionDuringEditing": true}"#)
        let c = try apply(&s, #"{"type": "panBegan", "x": 200, "y": 75, "fingers": 2}"#)
        #expect(c.gestures == [.began(.multiSelect)])
        #expect(c.selected == [p(0, 1)])
    }

    @Test("swipes report their gesture and revealed width; the option view its row")
    func swipes() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "configure", "optionWidth": 80}"#)
        let began = try apply(&s, #"{"type": "swipeBegan", "row": [0, 4]}"#)
        #expect(began.gestures == [.began(.swipe)])
        #expect(began.swipeChanged)
        let moved = try apply(&s, #"{"type": "swipeMoved", "offset": 60}"#)
        #expect(moved.swipeChanged)
        #expect(moved.gestures.isEmpty)
        let ended = try apply(&s, #"{"type": "swipeEnded"}"#)
        #expect(ended.gestures == [.ended(.swipe)])
        #expect(ended.optionView == RowChange(from: nil, to: p(0, 4)))
        let shifted = try apply(&s, #"{"type": "insertRows", "at": [[0, 0]]}"#)
        #expect(shifted.optionView == RowChange(from: p(0, 4), to: p(0, 5)), "the open row moved through the edit")
        let closed = try apply(&s, #"{"type": "tap", "x": 200, "y": 275}"#)
        #expect(closed.optionView == RowChange(from: p(0, 5), to: nil))
        #expect(closed.selected.isEmpty)
    }

    @Test("the editor reports opened, moved, chosen changed, and closed")
    func editor() throws {
        var s = try play(multipleTable)
        let opened = try apply(&s, #"{"type": "toggleEditor", "row": [0, 2], "options": ["a", "b"], "multiple": true}"#)
        #expect(opened.editor == .opened(below: p(0, 2)))
        let chose = try apply(&s, #"{"type": "choose", "option": 1}"#)
        #expect(chose.chosenChanged)
        #expect(chose.undoStepRecorded)
        #expect(chose.editor == nil)
        let moved = try apply(&s, #"{"type": "toggleEditor", "row": [0, 6], "options": ["c"]}"#)
        #expect(moved.editor == .moved(from: p(0, 2), to: p(0, 6)))
        let shifted = try apply(&s, #"{"type": "insertRows", "at": [[0, 1]]}"#)
        #expect(shifted.editor == .moved(from: p(0, 6), to: p(0, 7)))
        let closed = try apply(&s, #"{"type": "toggleEditor", "row": [0, 7]}"#)
        #expect(closed.editor == .closed(below: p(0, 7)))
        #expect(!closed.chosenChanged)
    }

    @Test("a scroll reports the offset change; an auto-scroll tick the offset and the rows it selects")
    func scrollAndTick() throws {
        var s = try play(stripTable)
        let scrolled = try apply(&s, #"{"type": "scroll", "y": 50}"#)
        #expect(scrolled.offsetChange == OffsetChange(from: .zero, to: Points(50)))
        #expect(scrolled.selected.isEmpty)
        try apply(&s, #"{"type": "scroll", "y": 0}"#)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 500}"#)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 580, "t": 0}"#)
        let tick = try apply(&s, #"{"type": "tick", "t": 1000}"#)
        // 10 rows/s of 50 pt for one second: 500 pt; the finger at 580 is now over row 21.
        #expect(tick.offsetChange == OffsetChange(from: .zero, to: Points(500)))
        #expect(tick.selected == rows(12...21))
        let idle = try apply(&s, #"{"type": "scroll", "phase": "idle"}"#)
        #expect(idle.isEmpty)
    }

    /// A two-finger multi-select pan turns editing on by itself (EVENTS.md 5.3, rule 1): a
    /// host that mirrors only `TableChanges`, as `TableViewForwarder` does, learns of it here.
    @Test("editing is reported when an event changes it: a multi-select panBegan, a changing setEditing; nil otherwise")
    func editingChanges() throws {
        var s = TableState()
        var cfg = ConfigurationPatch()
        cfg.allowsMultipleSelectionDuringEditing = true
        cfg.multiSelectInteraction = true
        try s.apply(.configure(cfg))
        try s.apply(.reload(sections: [SectionSpec(rows: 20, rowHeight: Points(50))]))
        let tap = try s.apply(.tap(ViewportPoint(x: Points(100), y: Points(25))))
        #expect(tap.editing == nil && tap.selected == [p(0, 0)])
        let began = try s.apply(.panBegan(ViewportPoint(x: Points(100), y: Points(175)), fingers: 2))
        #expect(s.editing)
        #expect(began.editing == true)
        #expect(began.deselected == [p(0, 0)] && began.selected == [p(0, 3)], "editing on clears the selection, as setEditing")
        let cancelled = try s.apply(.panCancelled)
        #expect(s.editing && cancelled.editing == nil, "5.10.5: editing stays on")
        #expect(try s.apply(.setEditing(false)).editing == false)
        #expect(try s.apply(.setEditing(false)).editing == nil)
        #expect(try s.apply(.setEditing(true)).editing == true)
        #expect(try s.apply(.tap(ViewportPoint(x: Points(100), y: Points(25)))).editing == nil)
    }
}
