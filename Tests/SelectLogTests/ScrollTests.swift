import Testing
@testable import SelectLog

@Suite("5.4 Scrolling")
struct ScrollTests {
    @Test("a drag scroll moves the offset with the finger and sets dragging until it ends")
    func dragScroll() throws {
        var s = try play(singleTable + """

            {"type": "scroll", "y": 1000}
            {"type": "panBegan", "x": 200, "y": 300}
            {"type": "panMoved", "x": 200, "y": 200}
            """)
        #expect(s.dragging)
        #expect(s.offset == 1100)
        #expect(s.json.contains(#""pan": {"kind": "scroll", "mode": null, "anchor": null, "autoscroll": null}"#))
        try apply(&s, #"{"type": "panMoved", "x": 200, "y": 900}"#)
        #expect(s.offset == 400)
        try apply(&s, #"{"type": "panMoved", "x": 200, "y": 5000}"#)
        #expect(s.offset == 0)
    }

    @Test("panEnded with a different targetOffset starts deceleration; rowsToLoad are the rows at the target")
    func deceleration() throws {
        let s = try play(singleTable + """

            {"type": "scroll", "y": 1000}
            {"type": "panBegan", "x": 200, "y": 300}
            {"type": "panEnded", "x": 200, "y": 150, "targetOffset": 1500}
            """)
        #expect(s.offset == 1150)
        #expect(!s.dragging && s.decelerating)
        #expect(s.target == Points(1500))
        #expect(s.visibleRows == p(0, 23)...p(0, 34))
        #expect(s.rowsToLoad == p(0, 30)...p(0, 41))
        #expect(s.json.contains(#""rowsToLoad": [[0, 30], [0, 41]]"#))
    }

    @Test("the deceleration target is clamped; a target equal to the offset starts nothing")
    func targetClamped() throws {
        let s = try play(singleTable + """

            {"type": "panBegan", "x": 200, "y": 300}
            {"type": "panEnded", "targetOffset": 99999}
            """)
        #expect(s.target == Points(4400))
        var t = try play(singleTable + """

            {"type": "scroll", "y": 300}
            {"type": "panBegan", "x": 200, "y": 300}
            {"type": "panEnded", "targetOffset": 300}
            """)
        #expect(!t.decelerating && t.target == nil)
        try apply(&t, #"{"type": "panBegan", "x": 200, "y": 300}"#)
        #expect(t.rowsToLoad == t.visibleRows)
    }

    @Test("panBegan of any kind ends a deceleration")
    func panBeganEndsDeceleration() throws {
        let s = try play(stripTable + """

            {"type": "panBegan", "x": 200, "y": 300}
            {"type": "panEnded", "targetOffset": 2000}
            {"type": "panBegan", "x": 10, "y": 300}
            """)
        #expect(!s.decelerating && s.target == nil)
    }

    @Test("scroll {y} sets and {dy} moves the offset, clamped")
    func scrollEvents() throws {
        var s = try play(singleTable + "\n" + #"{"type": "scroll", "y": 300}"#)
        try apply(&s, #"{"type": "scroll", "dy": 25.5}"#)
        #expect(s.offset == 325.5)
        try apply(&s, #"{"type": "scroll", "dy": -1000}"#)
        #expect(s.offset == 0)
    }

    @Test("phase decelerate sets decelerating and the target; idle clears both; no y or dy only sets the phase")
    func scrollPhases() throws {
        var s = try play(singleTable + "\n" + #"{"type": "scroll", "y": 100}"#)
        try apply(&s, #"{"type": "scroll", "phase": "decelerate", "target": 2000}"#)
        #expect(s.offset == 100 && s.decelerating && s.target == Points(2000))
        #expect(s.rowsToLoad == p(0, 40)...p(0, 51))
        try apply(&s, #"{"type": "scroll", "dy": 50, "phase": "idle"}"#)
        #expect(s.offset == 150 && !s.decelerating && s.target == nil)
        #expect(s.rowsToLoad == s.visibleRows)
    }

    @Test("while decelerating without a target there are no rows to load")
    func noTargetNoRows() throws {
        let s = try play(singleTable + "\n" + #"{"type": "scroll", "phase": "decelerate"}"#)
        #expect(s.rowsToLoad == nil)
        #expect(s.json.contains(#""rowsToLoad": null"#))
    }

    @Test("while dragging the visible rows load")
    func draggingLoadsVisible() throws {
        let s = try play(singleTable + """

            {"type": "scroll", "phase": "decelerate", "target": 3000}
            {"type": "scroll", "y": 0}
            {"type": "panBegan", "x": 200, "y": 300}
            """)
        #expect(s.rowsToLoad == s.visibleRows)
    }

    @Test("during a selection pan a scroll applies the move rule for the row under the finger")
    func scrollDuringSelectionPan() throws {
        var s = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 10, "y": 275}"#)
        try apply(&s, #"{"type": "scroll", "dy": 100}"#)
        #expect(s.selected == rows(5...7))
    }

    @Test("jumpToSection puts the section's header at the top, clamped; by index or by title")
    func jumpToSection() throws {
        var s = try play("""
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 10, "rowHeight": 50, "title": "A"}, {"rows": 10, "rowHeight": 50, "header": 30, "title": "B"}, {"rows": 4, "rowHeight": 50, "header": 30, "title": "B"}]}
            """)
        try apply(&s, #"{"type": "jumpToSection", "section": 1}"#)
        #expect(s.offset == 500)
        try apply(&s, #"{"type": "jumpToSection", "title": "A"}"#)
        #expect(s.offset == 0)
        try apply(&s, #"{"type": "jumpToSection", "title": "B"}"#)
        #expect(s.offset == 500)
        try apply(&s, #"{"type": "jumpToSection", "section": 2}"#)
        // Section 2 starts at 1030; content 1260 - 600 = 660 max.
        #expect(s.offset == 660)
    }

    @Test("jumpToSection by title finds the first section with it after sections are inserted, deleted or reloaded")
    func jumpByTitleAfterSectionEdits() throws {
        // Sections of 20 rows of 50 pt: section k starts at 1000 k, well inside the range.
        var s = try play("""
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 20, "rowHeight": 50, "title": "A"}, {"rows": 20, "rowHeight": 50, "title": "B"}, {"rows": 20, "rowHeight": 50, "title": "C"}, {"rows": 20, "rowHeight": 50}]}
            """)
        try apply(&s, #"{"type": "jumpToSection", "title": "C"}"#)
        #expect(s.offset == 2000)
        // A new first "C" before the old one, and a row edit (which keeps titles).
        try apply(&s, #"{"type": "insertSections", "at": [1], "sections": [{"rows": 20, "rowHeight": 50, "title": "C"}]}"#)
        try apply(&s, #"{"type": "deleteRows", "at": [[0, 0]]}"#)
        try apply(&s, #"{"type": "jumpToSection", "title": "C"}"#)
        #expect(s.offset == 950)
        // Deleted again: the old "C", now section 3, after A (19 rows), B.
        try apply(&s, #"{"type": "deleteSections", "at": [1]}"#)
        try apply(&s, #"{"type": "jumpToSection", "title": "C"}"#)
        #expect(s.offset == 1950)
        try apply(&s, #"{"type": "jumpToSection", "title": "B"}"#)
        #expect(s.offset == 950)
        try apply(&s, #"{"type": "reload", "sections": [{"rows": 20, "rowHeight": 50, "title": "B"}, {"rows": 20, "rowHeight": 50, "title": "A"}]}"#)
        #expect(reject(&s, #"{"type": "jumpToSection", "title": "C"}"#).contains("title"))
        try apply(&s, #"{"type": "jumpToSection", "title": "A"}"#)
        #expect(s.offset == 1000)
    }

    @Test("titles are the same only when their Unicode scalars are: a precomposed é is not e with a combining acute")
    func titlesCompareExactly() throws {
        // Sections of 10 rows of 50 pt and a 20-pt header: section k starts at 520 k.
        var s = try play(#"""
            {"type": "viewport", "width": 390, "height": 300}
            {"type": "reload", "sections": [{"rows": 10, "rowHeight": 50, "header": 20, "title": "e\u0301"}, {"rows": 10, "rowHeight": 50, "header": 20, "title": "\u00e9"}, {"rows": 30, "rowHeight": 50}]}
            """#)
        try apply(&s, #"{"type": "jumpToSection", "title": "\u00e9"}"#)
        #expect(s.offset == 520, "Swift's String == would take the canonically equal first section")
        try apply(&s, #"{"type": "jumpToSection", "title": "e\u0301"}"#)
        #expect(s.offset == 0)
        #expect(reject(&s, #"{"type": "jumpToSection", "title": "E\u0301"}"#).contains("title"))
    }

    @Test("sections whose titles are only canonically equal are not equal, as a jump tells them apart")
    func sectionEqualityMatchesJumps() {
        let precomposed = LayoutSection(count: 3, title: "\u{e9}"), combining = LayoutSection(count: 3, title: "e\u{301}")
        #expect("\u{e9}" == "e\u{301}", "Swift's String calls them equal")
        #expect(precomposed != combining)
        #expect(precomposed == LayoutSection(count: 3, title: "\u{e9}"))
        #expect(LayoutSection(count: 3) != LayoutSection(count: 3, title: ""))
        #expect(LayoutSection(count: 3, title: "a") != LayoutSection(count: 4, title: "a"))
        #expect(LayoutSection(count: 3, header: Points(1)) != LayoutSection(count: 3))
    }

    @Test("events whose titles are only canonically equal are not equal: they jump, or lay out sections, differently")
    func eventEqualityMatchesJumps() {
        let precomposed = Event.jumpToSection(.title("\u{e9}")), combining = Event.jumpToSection(.title("e\u{301}"))
        #expect(precomposed != combining)
        #expect(precomposed == .jumpToSection(.title("\u{e9}")))
        #expect(Set([precomposed, combining]).count == 2)
        #expect(Event.jumpToSection(.index(0)) != .jumpToSection(.title("0")))
        #expect(SectionSpec(rows: 2, title: "\u{e9}") != SectionSpec(rows: 2, title: "e\u{301}"))
        #expect(SectionSpec(rows: 2, title: "\u{e9}") == SectionSpec(rows: 2, title: "\u{e9}"))
        #expect(SectionSpec(rows: 2) != SectionSpec(rows: 2, title: ""))
        #expect(SectionSpec(rows: 2, rowHeights: [Points(3)]) != SectionSpec(rows: 2))
        #expect(Event.reload(sections: [SectionSpec(rows: 2, title: "\u{e9}")]) != .reload(sections: [SectionSpec(rows: 2, title: "e\u{301}")]))
    }

    @Test("jumpToSection to an unknown section or title is invalid")
    func jumpUnknown() throws {
        var s = try play(singleTable)
        #expect(reject(&s, #"{"type": "jumpToSection", "section": 1}"#).contains("out of range"))
        #expect(reject(&s, #"{"type": "jumpToSection", "title": "Q"}"#).contains("title"))
    }

    @Test("jumpToSection during a selection pan applies the move rule")
    func jumpDuringPan() throws {
        let s = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 20, "rowHeight": 50}, {"rows": 20, "rowHeight": 50}]}
            {"type": "panBegan", "x": 10, "y": 25}
            {"type": "jumpToSection", "section": 1}
            """)
        #expect(s.selected == rows(0...19) + [p(1, 0)])
    }
}

@Suite("5.5 Option views")
struct OptionViewTests {
    let table = multipleTable + "\n" + #"{"type": "configure", "optionWidth": 80}"#

    @Test("at swipeEnded the row opens iff offset ≥ optionWidth / 2 when |velocity| < 200", arguments: [
        (40.0, true), (39.984375, false), (80, true), (0, false),
    ])
    func openByOffset(offset: Double, opens: Bool) throws {
        var s = try play(table + "\n" + #"{"type": "swipeBegan", "row": [0, 2]}"#)
        try apply(&s, #"{"type": "swipeMoved", "offset": \#(offset)}"#)
        try apply(&s, #"{"type": "swipeEnded", "velocity": 199}"#)
        #expect((s.options.open == p(0, 2)) == opens)
    }

    @Test("with |velocity| ≥ 200 the direction decides", arguments: [
        (10.0, 200.0, true), (70, -200, false), (70, -199.984375, true), (0, 500, true),
    ])
    func openByVelocity(offset: Double, velocity: Double, opens: Bool) throws {
        var s = try play(table + "\n" + #"{"type": "swipeBegan", "row": [0, 2]}"#)
        try apply(&s, #"{"type": "swipeMoved", "offset": \#(offset)}"#)
        try apply(&s, #"{"type": "swipeEnded", "velocity": \#(velocity)}"#)
        #expect((s.options.open == p(0, 2)) == opens)
    }

    @Test("swipeMoved clamps the offset to [0, optionWidth]")
    func offsetClamped() throws {
        var s = try play(table + "\n" + #"{"type": "swipeBegan", "row": [0, 2]}"#)
        try apply(&s, #"{"type": "swipeMoved", "offset": 500}"#)
        #expect(s.options.swipe == .active(row: p(0, 2), offset: Points(80)))
        try apply(&s, #"{"type": "swipeMoved", "offset": -5}"#)
        #expect(s.options.swipe == .active(row: p(0, 2), offset: .zero))
    }

    @Test("starting to swipe another row closes the open one at once")
    func oneOpenAtATime() throws {
        var s = try play(table + "\n" + #"{"type": "setOptionVisible", "row": [0, 1], "visible": true}"#)
        try apply(&s, #"{"type": "swipeBegan", "row": [0, 4]}"#)
        #expect(s.options.open == nil)
        try apply(&s, #"{"type": "swipeMoved", "offset": 60}"#)
        try apply(&s, #"{"type": "swipeEnded"}"#)
        #expect(s.options.open == p(0, 4))
    }

    @Test("a swipe on the open row starts at optionWidth")
    func swipeOnOpenRow() throws {
        var s = try play(table + "\n" + #"{"type": "setOptionVisible", "row": [0, 1], "visible": true}"#)
        try apply(&s, #"{"type": "swipeBegan", "row": [0, 1]}"#)
        #expect(s.options.swipe == .active(row: p(0, 1), offset: Points(80)))
        try apply(&s, #"{"type": "swipeEnded"}"#)
        #expect(s.options.open == p(0, 1))
        try apply(&s, #"{"type": "swipeBegan", "row": [0, 1]}"#)
        try apply(&s, #"{"type": "swipeMoved", "offset": 20}"#)
        try apply(&s, #"{"type": "swipeEnded"}"#)
        #expect(s.options.open == nil)
    }

    @Test("on a selected row, or with optionWidth 0, swipeBegan does nothing and the swipe's events are ignored")
    func ignoredSwipes() throws {
        var s = try play(table + "\n" + #"{"type": "tap", "x": 5, "y": 75}"#)
        try apply(&s, #"{"type": "swipeBegan", "row": [0, 1]}"#)
        try apply(&s, #"{"type": "swipeMoved", "offset": 80}"#)
        try apply(&s, #"{"type": "swipeEnded", "velocity": 900}"#)
        #expect(s.options.open == nil)
        var t = try play(multipleTable)
        try apply(&t, #"{"type": "swipeBegan", "row": [0, 1]}"#)
        try apply(&t, #"{"type": "swipeMoved", "offset": 80}"#)
        try apply(&t, #"{"type": "swipeEnded", "velocity": 900}"#)
        #expect(t.options.open == nil)
    }

    @Test("swipe events with no swipe in progress are ignored")
    func strayEvents() throws {
        var s = try play(table)
        let before = s.hashHex
        try apply(&s, #"{"type": "swipeMoved", "offset": 80}"#)
        try apply(&s, #"{"type": "swipeEnded", "velocity": 900}"#)
        #expect(s.hashHex == before)
    }

    @Test("scrolling and taps on other rows do not close the option view; reload and setEditing do")
    func whatCloses() throws {
        var s = try play(table + "\n" + #"{"type": "setOptionVisible", "row": [0, 1], "visible": true}"#)
        try apply(&s, #"{"type": "scroll", "dy": 10}"#)
        try apply(&s, #"{"type": "tap", "x": 5, "y": 200}"#)
        #expect(s.options.open == p(0, 1))
        #expect(s.selected == [p(0, 4)])
        var t = s
        try apply(&s, #"{"type": "setEditing", "editing": true}"#)
        #expect(s.options.open == nil)
        try apply(&t, #"{"type": "reload", "sections": [{"rows": 5}]}"#)
        #expect(t.options.open == nil)
    }

    @Test("setOptionVisible does nothing when optionWidth is 0 and may open a selected row")
    func setOptionVisible() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "tap", "x": 5, "y": 75}"#)
        try apply(&s, #"{"type": "setOptionVisible", "row": [0, 1], "visible": true}"#)
        #expect(s.options.open == nil)
        try apply(&s, #"{"type": "configure", "optionWidth": 80}"#)
        try apply(&s, #"{"type": "setOptionVisible", "row": [0, 1], "visible": true}"#)
        #expect(s.options.open == p(0, 1))
        try apply(&s, #"{"type": "setOptionVisible", "row": [0, 2], "visible": false}"#)
        #expect(s.options.open == p(0, 1))
        try apply(&s, #"{"type": "setOptionVisible", "row": [0, 1], "visible": false}"#)
        #expect(s.options.open == nil)
    }

    @Test("setting optionWidth to 0 closes an open option view")
    func zeroWidthCloses() throws {
        var s = try play(table + "\n" + #"{"type": "setOptionVisible", "row": [0, 1], "visible": true}"#)
        try apply(&s, #"{"type": "configure", "optionWidth": 0}"#)
        #expect(s.options.open == nil)
    }

    @Test("a configure during a swipe: a smaller optionWidth clamps what is revealed and the swipe goes on; 0 ends it")
    func optionWidthDuringSwipe() throws {
        let swiping = table + "\n" + #"{"type": "swipeBegan", "row": [0, 1]}"# + "\n" + #"{"type": "swipeMoved", "offset": 70}"#
        var s = try play(swiping)
        try apply(&s, #"{"type": "configure", "optionWidth": 40}"#)
        #expect(s.options.swipe == .active(row: p(0, 1), offset: Points(40)))
        // 40 of 40 revealed: past half, so the row opens.
        try apply(&s, #"{"type": "swipeEnded", "velocity": 0}"#)
        #expect(s.options.open == p(0, 1))
        var t = try play(swiping)
        try apply(&t, #"{"type": "configure", "optionWidth": 0}"#)
        #expect(t.options.swipe == .ignored)
        try apply(&t, #"{"type": "swipeMoved", "offset": 70}"#)
        try apply(&t, #"{"type": "swipeEnded", "velocity": 0}"#)
        #expect(t.options.open == nil && t.options.swipe == nil)
    }

    @Test("a row out of range is invalid")
    func outOfRange() throws {
        var s = try play(table)
        reject(&s, #"{"type": "swipeBegan", "row": [0, 100]}"#)
        reject(&s, #"{"type": "setOptionVisible", "row": [1, 0], "visible": true}"#)
    }

    @Test("a swipe in progress follows its row through row and section edits; deleting the row ends it")
    func swipeFollowsRow() throws {
        var s = try play(#"{"type": "configure", "optionWidth": 80}"# + "\n" +
            #"{"type": "reload", "sections": [{"rows": 5}, {"rows": 5}]}"# + "\n" +
            #"{"type": "swipeBegan", "row": [1, 2]}"# + "\n" + #"{"type": "swipeMoved", "offset": 30}"#)
        try apply(&s, #"{"type": "insertSections", "at": [0], "sections": [{"rows": 3}]}"#)
        #expect(s.options.swipe == .active(row: p(2, 2), offset: Points(30)))
        try apply(&s, #"{"type": "insertRows", "at": [[2, 0]]}"#)
        #expect(s.options.swipe == .active(row: p(2, 3), offset: Points(30)))
        try apply(&s, #"{"type": "deleteSections", "at": [0]}"#)
        #expect(s.options.swipe == .active(row: p(1, 3), offset: Points(30)))
        try apply(&s, #"{"type": "moveRow", "from": [1, 3], "to": [0, 0]}"#)
        #expect(s.options.swipe == .active(row: p(0, 0), offset: Points(30)))
        try apply(&s, #"{"type": "swipeEnded", "velocity": 0}"#)
        #expect(s.options.open == nil)
        try apply(&s, #"{"type": "swipeBegan", "row": [0, 0]}"#)
        try apply(&s, #"{"type": "deleteRows", "at": [[0, 0]]}"#)
        #expect(s.options.swipe == .ignored)
        try apply(&s, #"{"type": "swipeMoved", "offset": 80}"#)
        try apply(&s, #"{"type": "swipeEnded", "velocity": 900}"#)
        #expect(s.options.open == nil && s.options.swipe == nil)
    }

    @Test("option views are not undo steps")
    func notUndoSteps() throws {
        let s = try play(table + """

            {"type": "setOptionVisible", "row": [0, 1], "visible": true}
            {"type": "swipeBegan", "row": [0, 3]}
            {"type": "swipeEnded", "velocity": 300}
            """)
        #expect(s.undoStack.isEmpty)
        #expect(s.options.open == p(0, 3))
    }
}

@Suite("5.6 The editor row")
struct EditorRowTests {
    @Test("toggleEditor opens an editor row directly below its row, with editorHeight in the layout")
    func opens() throws {
        let s = try play(multipleTable + "\n" + #"{"type": "toggleEditor", "row": [0, 1], "options": ["Spring", "Summer"], "multiple": true, "chosen": [0]}"#)
        #expect(s.layout.contentHeight == Points(5044))
        #expect(s.layout.element(at: Points(100)) == .editor)
        #expect(s.layout.element(at: Points(143)) == .editor)
        #expect(s.layout.element(at: Points(144)) == .row(p(0, 2)))
        #expect(s.layout.top(of: p(0, 3)) == Points(194))
        #expect(s.json.contains(#""editor": {"row": [0, 1], "options": ["Spring", "Summer"], "multiple": true, "chosen": [0]}"#))
    }

    @Test("toggling the same row closes it; toggling another row moves it with the new options")
    func closesAndMoves() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "toggleEditor", "row": [0, 1], "options": ["a"]}"#)
        try apply(&s, #"{"type": "toggleEditor", "row": [0, 5], "options": ["x", "y"], "chosen": [1]}"#)
        #expect(s.layout.editorRow == p(0, 5))
        #expect(s.editor?.options == ["x", "y"] && s.editor?.chosen == [1])
        #expect(s.layout.contentHeight == Points(5044))
        try apply(&s, #"{"type": "toggleEditor", "row": [0, 5]}"#)
        #expect(s.editor == nil && s.layout.editorRow == nil)
        #expect(s.layout.contentHeight == Points(5000))
    }

    @Test("single choice: chosen becomes [option]; choosing the chosen one changes nothing")
    func singleChoice() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "toggleEditor", "row": [0, 1], "options": ["a", "b", "c"], "chosen": [0]}"#)
        try apply(&s, #"{"type": "choose", "option": 2}"#)
        #expect(s.editor?.chosen == [2])
        try apply(&s, #"{"type": "choose", "option": 2}"#)
        #expect(s.undoStack.count == 1)
    }

    @Test("multiple choice: the option toggles")
    func multipleChoice() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "toggleEditor", "row": [0, 1], "options": ["a", "b", "c"], "multiple": true, "chosen": [2]}"#)
        try apply(&s, #"{"type": "choose", "option": 0}"#)
        #expect(s.editor?.chosen == [0, 2])
        try apply(&s, #"{"type": "choose", "option": 2}"#)
        #expect(s.editor?.chosen == [0])
    }

    @Test("choose with no editor open, or out of range, is invalid; so is a chosen index out of range")
    func invalidChoose() throws {
        var s = try play(multipleTable)
        reject(&s, #"{"type": "choose", "option": 0}"#)
        try apply(&s, #"{"type": "toggleEditor", "row": [0, 1], "options": ["a"]}"#)
        reject(&s, #"{"type": "choose", "option": 1}"#)
        var t = try play(multipleTable)
        reject(&t, #"{"type": "toggleEditor", "row": [0, 1], "options": ["a"], "chosen": [1]}"#)
        reject(&t, #"{"type": "toggleEditor", "row": [0, 100], "options": ["a"]}"#)
    }

    @Test("a choose that changes chosen is an undo step; undo and redo restore chosen")
    func chooseIsUndoStep() throws {
        var s = try play(multipleTable + """

            {"type": "toggleEditor", "row": [0, 1], "options": ["a", "b"], "multiple": true}
            {"type": "choose", "option": 1}
            {"type": "choose", "option": 0}
            """)
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.editor?.chosen == [1])
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.editor?.chosen == [])
        try apply(&s, #"{"type": "redo"}"#)
        #expect(s.editor?.chosen == [1])
    }

    @Test("a choose step holds the options it flips: undo and redo restore a single choice; steps take the same room however many options are chosen")
    func chooseStepFlips() throws {
        var s = try play(multipleTable + """

            {"type": "toggleEditor", "row": [0, 1], "options": ["a", "b", "c", "d"], "chosen": [3]}
            {"type": "choose", "option": 0}
            {"type": "choose", "option": 2}
            """)
        #expect(s.editor?.chosen == [2])
        #expect(s.undoStack.suffix(2) == [.choose(opening: 0, toggled: [0, 3]), .choose(opening: 0, toggled: [0, 2])])
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.editor?.chosen == [0])
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.editor?.chosen == [3])
        try apply(&s, #"{"type": "redo"}"#)
        #expect(s.editor?.chosen == [0])
        try apply(&s, #"{"type": "choose", "option": 1}"#)
        #expect(s.editor?.chosen == [1] && s.redoStack.isEmpty)
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.editor?.chosen == [0])

        // 20,000 options chosen and 300 chooses: each step kept the whole list before and
        // after it (about 36 MB of snapshot); it keeps one option now.
        var big = try play(multipleTable)
        try big.apply(.configure({ var c = ConfigurationPatch(); c.undoLimit = 1_000; return c }()))
        try big.apply(.toggleEditor(row: RowPath(0, 1), options: Array(repeating: "", count: 40_000), multiple: true,
                                    chosen: Array(0..<20_000)))
        for k in 0..<300 { try big.apply(.choose(option: k * 131)) }
        #expect(big.undoCount >= 300)
        #expect(big.snapshot().count < 200_000, "\(big.snapshot().count) bytes")
        for _ in 0..<300 { try big.apply(.undo) }
        #expect(big.editor?.chosen == Array(0..<20_000))
    }

    @Test("a snapshot of version 3, whose choose steps list the chosen options before and after, reads to the same state; a newer version is refused as such")
    func chooseStepOfSnapshotVersion3() throws {
        for (chosen, option) in [([1], 2), ([0], 3)] {
            let multiple = option == 2
            var s = try play(multipleTable)
            try s.apply(.toggleEditor(row: RowPath(0, 1), options: ["a", "b", "c", "d"], multiple: multiple, chosen: chosen))
            try s.apply(.choose(option: option))
            let before = chosen, after = multiple ? (chosen + [option]).sorted() : [option]
            #expect(s.editor?.chosen == after)
            // Version 4 ends with the undo stack (one step: kind 1, opening 0, the flipped
            // options) and an empty redo stack; version 3 wrote the two lists instead.
            let v4 = s.snapshot()
            guard case .choose(let opening, let toggled)? = s.undoStack.last else {
                Issue.record("no choose step")
                continue
            }
            let v4Tail: [UInt8] = [1, 1, UInt8(opening), UInt8(toggled.count)] + toggled.map(UInt8.init) + [0]
            try #require(Array(v4.suffix(v4Tail.count)) == v4Tail)
            let v3Tail: [UInt8] = [1, 1, UInt8(opening)] + [UInt8(before.count)] + before.map(UInt8.init)
                + [UInt8(after.count)] + after.map(UInt8.init) + [0]
            let v3 = [3] + Array(v4.dropFirst().dropLast(v4Tail.count)) + v3Tail
            var read = try TableState(snapshot: v3)
            #expect(read == s)
            try read.apply(.undo)
            #expect(read.editor?.chosen == before)
        }
        // A step of an editor opening not yet made would flip the next editor's options.
        var early = try play(multipleTable)
        early.history.undoStack = [.choose(opening: 0, toggled: [5])]
        #expect(early.invariantViolations().contains { $0.contains("not yet made") }, "\(early.invariantViolations())")
        #expect(throws: SnapshotError.self) { try TableState(snapshot: early.snapshot()) }

        var newer = try play(multipleTable).snapshot()
        newer[0] = TableState.snapshotVersion + 1
        #expect(throws: SnapshotError.self) { try TableState(snapshot: newer) }
        do {
            _ = try TableState(snapshot: newer)
        } catch {
            #expect(error.reason.contains("written by a newer selectlog"), "\(error)")
        }
    }

    @Test("a choose step belongs to one opening of the editor")
    func chooseStepBelongsToOpening() throws {
        let s = try play(multipleTable + """

            {"type": "toggleEditor", "row": [0, 1], "options": ["a", "b"]}
            {"type": "choose", "option": 1}
            {"type": "toggleEditor", "row": [0, 1]}
            {"type": "toggleEditor", "row": [0, 1], "options": ["a", "b"], "chosen": [1]}
            {"type": "undo"}
            """)
        #expect(s.editor?.chosen == [1])
        #expect(s.undoStack.isEmpty && s.redoStack.count == 1)
    }

    @Test("the editor row is never selected and selection pans pass over it")
    func neverSelected() throws {
        var s = try play(stripTable + """

            {"type": "toggleEditor", "row": [0, 1], "options": ["a"]}
            {"type": "panBegan", "x": 10, "y": 25}
            {"type": "panMoved", "x": 10, "y": 120}
            """)
        // Finger over the editor row [100, 144): no row there, nothing changes.
        #expect(s.selected == [p(0, 0)])
        try apply(&s, #"{"type": "panMoved", "x": 10, "y": 200}"#)
        #expect(s.selected == rows(0...3))
    }

    @Test("changing editorHeight re-lays out the open editor")
    func editorHeight() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "toggleEditor", "row": [0, 1], "options": ["a"]}"#)
        try apply(&s, #"{"type": "configure", "editorHeight": 100}"#)
        #expect(s.layout.contentHeight == Points(5100))
        #expect(s.layout.element(at: Points(199)) == .editor)
    }
}
