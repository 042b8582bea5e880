import Testing
@testable import SelectLog

@Suite("3. Selection modes")
struct ModeTests {
    @Test("defaults: selection allowed, single, nothing during editing")
    func defaults() {
        let c = Configuration()
        #expect(c.selectable(editing: false) && !c.multiple(editing: false))
        #expect(!c.selectable(editing: true) && !c.multiple(editing: true))
    }

    @Test("multiple makes a mode selectable even when its selection flag is off")
    func multipleImpliesSelectable() throws {
        let s = try play(#"{"type": "configure", "allowsSelection": false, "allowsMultipleSelection": true}"#)
        #expect(s.isSelectable && s.isMultiple)
    }

    @Test("editing uses the during-editing flags")
    func editingUsesItsFlags() throws {
        var s = try play(#"{"type": "configure", "allowsMultipleSelection": true, "allowsSelectionDuringEditing": true}"#)
        try apply(&s, #"{"type": "setEditing", "editing": true}"#)
        #expect(s.isSelectable && !s.isMultiple)
    }
}

@Suite("5.1 Set-up")
struct SetUpTests {
    @Test("configure is a partial update")
    func configureIsPartial() throws {
        var s = try play(#"{"type": "configure", "allowsMultipleSelection": true, "optionWidth": 80}"#)
        try apply(&s, #"{"type": "configure", "undoLimit": 5}"#)
        #expect(s.configuration.allowsMultipleSelection)
        #expect(s.configuration.optionWidth == Points(80))
        #expect(s.configuration.undoLimit == 5)
        #expect(s.configuration.allowsSelection)
    }

    @Test("scrollAndSelect fields merge into the current settings")
    func stripSettingsMerge() throws {
        var s = try play(#"{"type": "configure", "scrollAndSelect": {"enabled": true, "stripWidth": 60}}"#)
        try apply(&s, #"{"type": "configure", "scrollAndSelect": {"edge": "trailing"}}"#)
        #expect(s.configuration.strip.enabled)
        #expect(s.configuration.strip.stripWidth == Points(60))
        #expect(s.configuration.strip.edge == .trailing)
        #expect(s.configuration.strip.rowsPerSecond == Points(20))
    }

    @Test("a mode that becomes not selectable clears the selection")
    func notSelectableClears() throws {
        var s = try play(singleTable + "\n" + #"{"type": "tap", "x": 5, "y": 5}"#)
        #expect(s.selected == [p(0, 0)])
        try apply(&s, #"{"type": "configure", "allowsSelection": false}"#)
        #expect(s.selected.isEmpty)
    }

    @Test("single with more than one row selected clears the selection; with one it stays")
    func singleWithManyClears() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "select", "rows": [[0, 1], [0, 2]]}"#)
        try apply(&s, #"{"type": "configure", "allowsMultipleSelection": false}"#)
        #expect(s.selected.isEmpty)
        var t = try play(multipleTable + "\n" + #"{"type": "select", "rows": [[0, 1]]}"#)
        try apply(&t, #"{"type": "configure", "allowsMultipleSelection": false}"#)
        #expect(t.selected == [p(0, 1)])
    }

    @Test("viewport resizes and re-clamps the offset")
    func viewportReclamps() throws {
        var s = try play(singleTable + "\n" + #"{"type": "scroll", "y": 4400}"#)
        try apply(&s, #"{"type": "viewport", "width": 390, "height": 1000}"#)
        #expect(s.offset == 4000)
        #expect(s.viewport.height == Points(1000))
    }

    @Test("reload clears selection, option view, editor, undo and redo, and re-clamps")
    func reloadClearsEverything() throws {
        var s = try play(multipleTable + """

            {"type": "configure", "optionWidth": 80}
            {"type": "tap", "x": 5, "y": 5}
            {"type": "tap", "x": 5, "y": 55}
            {"type": "undo"}
            {"type": "setOptionVisible", "row": [0, 9], "visible": true}
            {"type": "toggleEditor", "row": [0, 3], "options": ["a"]}
            {"type": "scroll", "y": 4000}
            """)
        #expect(s.undoStack.count == 1 && s.redoStack.count == 1)
        try apply(&s, #"{"type": "reload", "sections": [{"rows": 20, "rowHeight": 50}]}"#)
        #expect(s.selected.isEmpty)
        #expect(s.options.open == nil)
        #expect(s.editor == nil && s.layout.editorRow == nil)
        #expect(s.undoStack.isEmpty && s.redoStack.isEmpty)
        #expect(s.offset == 400)
    }

    @Test("setEditing that changes clears selection, option view, undo and redo")
    func setEditingClears() throws {
        var s = try play(multipleTable + """

            {"type": "configure", "optionWidth": 80, "allowsMultipleSelectionDuringEditing": true}
            {"type": "tap", "x": 5, "y": 5}
            {"type": "setOptionVisible", "row": [0, 9], "visible": true}
            """)
        try apply(&s, #"{"type": "setEditing", "editing": true}"#)
        #expect(s.editing)
        #expect(s.selected.isEmpty && s.options.open == nil && s.undoStack.isEmpty)
    }

    @Test("setEditing to the current value changes nothing")
    func setEditingSameValue() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "tap", "x": 5, "y": 5}"#)
        let before = s.hashHex
        try apply(&s, #"{"type": "setEditing", "editing": false}"#)
        #expect(s.hashHex == before)
    }
}

@Suite("5.2 Taps")
struct TapTests {
    @Test("multiple: a tap toggles the row")
    func multipleToggles() throws {
        var s = try play(multipleTable)
        try apply(&s, #"{"type": "tap", "x": 5, "y": 75}"#)
        try apply(&s, #"{"type": "tap", "x": 5, "y": 175}"#)
        #expect(s.selected == [p(0, 1), p(0, 3)])
        try apply(&s, #"{"type": "tap", "x": 5, "y": 75}"#)
        #expect(s.selected == [p(0, 3)])
    }

    @Test("single: the selection becomes the tapped row")
    func singleReplaces() throws {
        var s = try play(singleTable)
        try apply(&s, #"{"type": "tap", "x": 5, "y": 75}"#)
        try apply(&s, #"{"type": "tap", "x": 5, "y": 175}"#)
        #expect(s.selected == [p(0, 3)])
    }

    @Test("single mode: tapping the selected row keeps it, and is no undo step")
    func singleTapSelectedKeeps() throws {
        var s = try play(singleTable + "\n" + #"{"type": "tap", "x": 5, "y": 75}"#)
        try apply(&s, #"{"type": "tap", "x": 5, "y": 80}"#)
        #expect(s.selected == [p(0, 1)])
        #expect(s.undoStack.count == 1)
    }

    @Test("not selectable: a tap does nothing")
    func notSelectable() throws {
        var s = try play(singleTable + "\n" + #"{"type": "configure", "allowsSelection": false}"#)
        let before = s.hashHex
        try apply(&s, #"{"type": "tap", "x": 5, "y": 75}"#)
        #expect(s.hashHex == before)
    }

    @Test("a tap on a row whose option view is open closes it and does nothing else")
    func tapClosesOptionView() throws {
        var s = try play(multipleTable + """

            {"type": "configure", "optionWidth": 80}
            {"type": "setOptionVisible", "row": [0, 1], "visible": true}
            """)
        try apply(&s, #"{"type": "tap", "x": 5, "y": 75}"#)
        #expect(s.options.open == nil)
        #expect(s.selected.isEmpty)
        #expect(s.undoStack.isEmpty)
    }

    @Test("a tap on a header, a footer, the editor row or nothing does nothing")
    func tapOnNonRows() throws {
        var s = try play("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 2, "rowHeight": 50, "header": 30, "footer": 20}]}
            {"type": "toggleEditor", "row": [0, 0], "options": ["a", "b"]}
            """)
        let before = s.hashHex
        // header [0, 30), row 0 [30, 80), editor [80, 124), row 1 [124, 174), footer [174, 194), nothing.
        for y in [10, 29, 80, 123, 174, 193, 194, 500] {
            try apply(&s, #"{"type": "tap", "x": 5, "y": \#(y)}"#)
        }
        #expect(s.hashHex == before)
        #expect(s.selected.isEmpty)
    }
}

@Suite("5.9 Programmatic selection and undo")
struct ProgrammaticTests {
    @Test("select adds rows in multiple mode; duplicates are merged; it is one undo step")
    func selectMultiple() throws {
        var s = try play(multipleTable)
        try apply(&s, #"{"type": "select", "rows": [[0, 5], [0, 2], [0, 5]]}"#)
        #expect(s.selected == [p(0, 2), p(0, 5)])
        #expect(s.undoStack.count == 1)
    }

    @Test("single mode: select of one row replaces the selection")
    func selectSingleReplaces() throws {
        var s = try play(singleTable + "\n" + #"{"type": "select", "rows": [[0, 1]]}"#)
        try apply(&s, #"{"type": "select", "rows": [[0, 7]]}"#)
        #expect(s.selected == [p(0, 7)])
    }

    @Test("single mode: select of more than one row is invalid")
    func selectManyInSingleIsInvalid() throws {
        var s = try play(singleTable)
        let reason = reject(&s, #"{"type": "select", "rows": [[0, 1], [0, 2]]}"#)
        #expect(reason.contains("single"))
    }

    @Test("single mode: selectAll is invalid")
    func selectAllInSingleIsInvalid() throws {
        var s = try play(singleTable)
        reject(&s, #"{"type": "selectAll"}"#)
    }

    @Test("select ignores the mode's selection flag (no mode checks)")
    func selectIgnoresSelectable() throws {
        var s = try play(singleTable + "\n" + #"{"type": "configure", "allowsSelection": false}"#)
        try apply(&s, #"{"type": "select", "rows": [[0, 3]]}"#)
        #expect(s.selected == [p(0, 3)])
    }

    @Test("selecting a row out of range is invalid")
    func selectOutOfRange() throws {
        var s = try play(multipleTable)
        let reason = reject(&s, #"{"type": "select", "rows": [[0, 100]]}"#)
        #expect(reason.contains("[0, 100]"))
        reject(&s, #"{"type": "deselect", "rows": [[1, 0]]}"#)
    }

    @Test("selectAll selects every row of every section as one range each")
    func selectAll() throws {
        var s = try play(#"{"type": "configure", "allowsMultipleSelection": true}"# + "\n" +
            #"{"type": "reload", "sections": [{"rows": 1000000}, {"rows": 3}]}"#)
        try apply(&s, #"{"type": "selectAll"}"#)
        #expect(s.selection.count == 1_000_003)
        #expect(s.selection.sections.map { $0.rows.ranges } == [[0..<1_000_000], [0..<3]])
        try apply(&s, #"{"type": "deselect", "rows": [[0, 500000]]}"#)
        #expect(s.selection.count == 1_000_002)
        try apply(&s, #"{"type": "deselectAll"}"#)
        #expect(s.selection.isEmpty)
        #expect(s.undoStack.count == 3)
    }

    @Test("an event that changes nothing is no undo step")
    func noChangeNoStep() throws {
        var s = try play(multipleTable)
        try apply(&s, #"{"type": "deselectAll"}"#)
        try apply(&s, #"{"type": "deselect", "rows": [[0, 4]]}"#)
        #expect(s.undoStack.isEmpty)
    }

    @Test("undo sets each changed row back to its before value; redo to its after value")
    func undoRedo() throws {
        var s = try play(multipleTable + """

            {"type": "select", "rows": [[0, 1], [0, 2]]}
            {"type": "tap", "x": 5, "y": 75}
            {"type": "tap", "x": 5, "y": 175}
            """)
        #expect(s.selected == [p(0, 2), p(0, 3)])
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.selected == [p(0, 2)])
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.selected == [p(0, 1), p(0, 2)])
        try apply(&s, #"{"type": "redo"}"#)
        #expect(s.selected == [p(0, 2)])
        #expect(s.undoStack.count == 2 && s.redoStack.count == 1)
    }

    @Test("undo touches only the step's rows")
    func undoTouchesOnlyItsRows() throws {
        var s = try play(multipleTable + """

            {"type": "select", "rows": [[0, 1]]}
            {"type": "configure", "allowsMultipleSelection": false}
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "select", "rows": [[0, 5]]}
            """)
        // The first select survives: a single row passes the clear rule.
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.selected == [p(0, 1)])
    }

    @Test("a new step clears redo")
    func newStepClearsRedo() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "tap", "x": 5, "y": 5}"# + "\n" + #"{"type": "undo"}"#)
        #expect(s.redoStack.count == 1)
        try apply(&s, #"{"type": "tap", "x": 5, "y": 55}"#)
        #expect(s.redoStack.isEmpty)
    }

    @Test("undo with nothing to undo changes nothing")
    func undoNothing() throws {
        var s = try play(multipleTable)
        let before = s.hashHex
        try apply(&s, #"{"type": "undo"}"#)
        try apply(&s, #"{"type": "redo"}"#)
        #expect(s.hashHex == before)
    }

    @Test("undo or redo during a pan is invalid")
    func undoDuringPan() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "tap", "x": 5, "y": 5}"# + "\n" + #"{"type": "panBegan", "x": 200, "y": 300}"#)
        reject(&s, #"{"type": "undo"}"#)
        reject(&s, #"{"type": "redo"}"#)
    }

    @Test("at most undoLimit steps are kept; lowering it drops the oldest at once")
    func undoLimit() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "configure", "undoLimit": 3}"#)
        for row in 0..<5 { try apply(&s, #"{"type": "tap", "x": 5, "y": \#(row * 50 + 5)}"#) }
        #expect(s.undoStack.count == 3)
        for _ in 0..<5 { try apply(&s, #"{"type": "undo"}"#) }
        // Only rows 2, 3, 4 could be undone.
        #expect(s.selected == [p(0, 0), p(0, 1)])
        try apply(&s, #"{"type": "configure", "undoLimit": 1}"#)
        #expect(s.redoStack.count == 1)
        try apply(&s, #"{"type": "redo"}"#)
        #expect(s.selected == [p(0, 0), p(0, 1), p(0, 2)])
    }

    @Test("steps pushed at undoLimit drop the oldest, however many have been dropped before")
    func undoLimitOverManySteps() throws {
        // The history drops trimmed steps from its storage in bulk (after 64, or once they
        // outnumber the kept ones): before and after each such moment the stack is the newest
        // `undoLimit` steps, equal to the same state read back from its snapshot (which holds
        // no trimmed steps), and rows in it follow edits.
        var s = try play(multipleTable + "\n" + #"{"type": "configure", "undoLimit": 3}"#)
        for tap in 0..<200 {
            // Row `tap % 10` toggles: a step that adds or removes that one row.
            try apply(&s, #"{"type": "tap", "x": 5, "y": \#(tap % 10 * 50 + 5)}"#)
            #expect(s.undoStack.count == min(tap + 1, 3))
            #expect(s.undoStack.last == Self.toggleStep(tap))
            if [2, 3, 63, 64, 65, 66, 67, 130, 199].contains(tap) {
                let restored = try TableState(snapshot: s.snapshot())
                #expect(restored.history == s.history)
                #expect(restored.history.hashValue == s.history.hashValue)
                #expect(restored.hashValue64 == s.hashValue64)
                #expect(s.undoStack == (tap - 2...tap).map { Self.toggleStep($0) })
            }
        }
        // Two rows inserted at the top: the kept steps' rows move down by two.
        try apply(&s, #"{"type": "insertRows", "at": [[0, 0], [0, 1]]}"#)
        #expect(s.undoStack == (197...199).map { Self.toggleStep($0, shift: 2) })
        let selected = s.selected
        for _ in 0..<5 { try apply(&s, #"{"type": "undo"}"#) }
        #expect(s.undoStack.isEmpty && s.redoStack.count == 3)
        // Taps 197, 198 and 199 toggled rows 7, 8 and 9 (now 9, 10 and 11); nothing older is undone.
        #expect(Set(s.selected).symmetricDifference(Set(selected)) == [p(0, 9), p(0, 10), p(0, 11)])
    }

    /// The step of the `tap`-th tap of `undoLimitOverManySteps`: row `tap % 10` is selected
    /// by taps in even rounds of ten and deselected in odd ones.
    private static func toggleStep(_ tap: Int, shift: Int = 0) -> UndoStep {
        let row = RowSet([p(0, tap % 10 + shift)])
        return tap / 10 % 2 == 0 ? .selection(added: row, removed: RowSet()) : .selection(added: RowSet(), removed: row)
    }

    @Test("single mode stays single through undo and redo")
    func singleModeSurvivesRedo() throws {
        // Row 1 is deselected by a reload of the row (not an undo step), so step B was recorded
        // from an empty selection; redoing A then B would select two rows.
        let s = try play(singleTable + """

            {"type": "tap", "x": 5, "y": 55}
            {"type": "reloadRows", "at": [[0, 1]]}
            {"type": "tap", "x": 5, "y": 105}
            {"type": "undo"}
            {"type": "undo"}
            {"type": "redo"}
            {"type": "redo"}
            """)
        #expect(s.selected == [p(0, 2)])
    }
}
