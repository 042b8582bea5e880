import Testing
@testable import SelectLog

/// Rules of docs/EVENTS.md (and of the README's "Semantics" section, where the contract
/// is silent) that no other test asserted: each test here failed under a mutation of the
/// engine that broke just its rule, which every other core test let through.
@Suite("Contract rules no other test asserted")
struct ContractRuleTests {
    // MARK: 5.3 Pans

    /// README, Semantics: "A pan that has its start row applies the move rule only at moves,
    /// ticks, scrolls and jumps, as 5.3 says." A `toggleEditor`, `viewport` or `configure`
    /// that puts another row under the still finger selects nothing.
    @Test("5.3: once a selection pan has its start row, a toggleEditor or configure that moves rows under the still finger applies no move rule")
    func noMoveRuleWithoutAMove() throws {
        var s = try play(stripTable + "\n" + #"{"type": "configure", "editorHeight": 100}"#)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 175}"#)
        #expect(s.selected == [p(0, 3)])
        #expect(s.pan?.anchor == p(0, 3))
        // An editor of 100 pt below row 0: content y 175 is now row 1 ([150, 200)).
        try apply(&s, #"{"type": "toggleEditor", "row": [0, 0]}"#)
        #expect(s.row(at: ViewportPoint(x: Points(10), y: Points(175))) == p(0, 1))
        #expect(s.selected == [p(0, 3)], "rows 1 and 2 were not passed by the finger")
        #expect(s.pan?.anchor == p(0, 3))
        // A taller editor moves row 1 away; the finger is now over the editor row.
        try apply(&s, #"{"type": "configure", "editorHeight": 60}"#)
        #expect(s.row(at: ViewportPoint(x: Points(10), y: Points(175))) == p(0, 2))
        #expect(s.selected == [p(0, 3)])
        #expect(s.pan?.anchor == p(0, 3))
        // The next counted move applies the move rule from the anchor (5.3).
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 185}"#)
        #expect(s.selected == [p(0, 2), p(0, 3)])
    }

    @Test("5.3: a viewport change that re-clamps the offset under a selection pan's still finger selects nothing")
    func noMoveRuleAtViewport() throws {
        var s = try play(stripTable + "\n" + #"{"type": "scroll", "y": 4400}"#)
        // Content y 4400 + 475 = 4875: row 97.
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 475}"#)
        #expect(s.selected == [p(0, 97)])
        // A taller viewport: the maximum offset is 4300, so the finger is over row 95.
        try apply(&s, #"{"type": "viewport", "height": 700}"#)
        #expect(s.offset == 4300)
        #expect(s.row(at: ViewportPoint(x: Points(10), y: Points(475))) == p(0, 95))
        #expect(s.selected == [p(0, 97)])
        #expect(s.pan?.anchor == p(0, 97))
    }

    /// 5.10.13: a selection pan's "kind and reversal are fixed at `panBegan`"; 5.3: only a
    /// `configure` after which the mode is not multiple interrupts it. Turning the strip off
    /// (or moving it away from the finger) mid-pan leaves a strip pan running.
    @Test("5.10.13: a configure that disables or moves the strip mid-pan leaves the strip pan running")
    func stripOffMidPanKeepsThePan() throws {
        var s = try play(stripTable)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        #expect(s.selected == [p(0, 1)])
        try apply(&s, #"{"type": "configure", "scrollAndSelect": {"enabled": false, "edge": "trailing"}}"#)
        #expect(!s.isInStrip(Points(10)))
        #expect(s.pan?.kind == .strip)
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 175}"#)
        #expect(s.selected == [p(0, 1), p(0, 2), p(0, 3)])
        try apply(&s, #"{"type": "panEnded"}"#)
        #expect(s.pan == nil)
        #expect(s.undoCount == 1)
    }

    // MARK: 5.9 and 5.10.6 Undo limit

    /// 5.10.6: "lowering `undoLimit` drops the oldest steps at once (redo is bounded by it
    /// too)"; README: the limit bounds each stack separately, and trimming drops "the redo
    /// steps furthest from the present". Lowering the limit can leave both stacks full; an
    /// `undo` then moves one more step to redo, which must drop the furthest.
    @Test("5.10.6: an undo that would take redo past undoLimit drops the redo step furthest from the present")
    func undoKeepsRedoWithinLimit() throws {
        var s = try play(multipleTable)
        for r in 1...4 { try apply(&s, #"{"type": "select", "rows": [[0, \#(r)]]}"#) }
        try apply(&s, #"{"type": "undo"}"#)
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.selected == [p(0, 1), p(0, 2)])
        try apply(&s, #"{"type": "configure", "undoLimit": 2}"#)
        #expect(s.undoCount == 2 && s.redoCount == 2)
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.selected == [p(0, 1)])
        #expect(s.undoCount == 1)
        #expect(s.redoCount == 2, "redo is bounded by undoLimit")
        for _ in 0..<3 { try apply(&s, #"{"type": "redo"}"#) }
        #expect(s.selected == [p(0, 1), p(0, 2), p(0, 3)], "the step that selected row 4 was the one dropped")
        #expect(s.redoCount == 0)
    }

    // MARK: 5.1 and 5.5 Option views

    /// 5.1: a `setEditing` that does not change editing "still closes an open option view";
    /// README, Semantics: it "leaves a swipe in progress alone" (a changing one ends it).
    @Test("5.1: an unchanged setEditing leaves a swipe in progress alone, which then opens at swipeEnded")
    func unchangedSetEditingKeepsSwipe() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "configure", "optionWidth": 80}"#)
        try apply(&s, #"{"type": "setOptionVisible", "row": [0, 2], "visible": true}"#)
        try apply(&s, #"{"type": "swipeBegan", "row": [0, 4]}"#)
        try apply(&s, #"{"type": "swipeMoved", "offset": 60}"#)
        #expect(s.options.open == nil, "starting to swipe row 4 closed row 2 (5.5)")
        try apply(&s, #"{"type": "setOptionVisible", "row": [0, 2], "visible": true}"#)
        try apply(&s, #"{"type": "setEditing", "editing": false}"#)
        #expect(s.options.open == nil, "the unchanged setEditing closed row 2's option view")
        #expect(s.options.swipe == .active(row: p(0, 4), offset: Points(60)), "and left the swipe alone")
        try apply(&s, #"{"type": "swipeEnded"}"#)
        #expect(s.options.open == p(0, 4), "60 ≥ 80 / 2: the swipe opens its row (5.5)")
        #expect(s.options.swipe == nil)
    }
}
