import Testing
@testable import SelectLog

/// 10 rows of 50 pt in two sections (5 + 5), multiple selection.
private let twoSections = """
{"type": "configure", "allowsMultipleSelection": true, "optionWidth": 80}
{"type": "viewport", "width": 390, "height": 600}
{"type": "reload", "sections": [{"rows": 5, "rowHeight": 50}, {"rows": 5, "rowHeight": 50}]}
"""

@Suite("5.8 Row edits")
struct EditTests {
    @Test("insertRows: a selected row stays selected at its new index path")
    func insertMovesSelection() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 1], [0, 3]]}"#)
        try apply(&s, #"{"type": "insertRows", "at": [[0, 0], [0, 3]], "heights": [20]}"#)
        // Post-update, the old rows fill the free positions in order:
        // 0 new, 1 old 0, 2 old 1, 3 new, 4 old 2, 5 old 3, 6 old 4.
        #expect(s.selected == [p(0, 2), p(0, 5)])
        #expect(s.layout.rowCount(in: 0) == 7)
        #expect(s.layout.height(of: p(0, 0)) == Points(20))
        #expect(s.layout.height(of: p(0, 3)) == Points(50))
        #expect(!s.selection.contains(p(0, 0)))
    }

    @Test("deleteRows: a deleted row leaves the selection; later rows move up")
    func deleteLeavesSelection() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 1], [0, 3], [1, 4]]}"#)
        try apply(&s, #"{"type": "deleteRows", "at": [[0, 1], [0, 2]]}"#)
        #expect(s.selected == [p(0, 1), p(1, 4)])
        #expect(s.layout.rowCount(in: 0) == 3)
    }

    @Test("moveRow: the selection moves with the row, across sections")
    func moveCarriesSelection() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 1]]}"#)
        try apply(&s, #"{"type": "moveRow", "from": [0, 1], "to": [1, 2]}"#)
        #expect(s.selected == [p(1, 2)])
        #expect(s.layout.rowCount(in: 0) == 4 && s.layout.rowCount(in: 1) == 6)
    }

    @Test("reloadRows deselects the rows and may change their heights")
    func reloadRowsDeselects() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 1], [0, 2]]}"#)
        try apply(&s, #"{"type": "reloadRows", "at": [[0, 1]], "heights": [80]}"#)
        #expect(s.selected == [p(0, 2)])
        #expect(s.layout.height(of: p(0, 1)) == Points(80))
        #expect(s.layout.contentHeight == Points(530))
    }

    @Test("batch: deletes in the pre-update frame, inserts in the post-update frame")
    func batchFrames() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 0], [0, 2], [0, 4]]}"#)
        // Pre: a b c d e (a, c, e selected). Delete b (1) and d (3): a c e. Insert at post 1 and 3:
        // a N c N e → selected at 0, 2, 4.
        try apply(&s, #"{"type": "batch", "deletes": [[0, 1], [0, 3]], "inserts": [[0, 1], [0, 3]]}"#)
        #expect(s.selected == [p(0, 0), p(0, 2), p(0, 4)])
        #expect(s.layout.rowCount(in: 0) == 5)
    }

    @Test("batch: moves take a pre-update source and a post-update target")
    func batchMoves() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 0]]}"#)
        // Pre: a b c d e, a selected. Delete c (2); move a (0) to post 3; insert at post 0.
        // Remaining after removals: b d e. Post has 5 rows: 0 new, 3 a; b d e fill 1, 2, 4.
        try apply(&s, #"{"type": "batch", "deletes": [[0, 2]], "moves": [[[0, 0], [0, 3]]], "inserts": [[0, 0]], "insertHeights": [10]}"#)
        #expect(s.selected == [p(0, 3)])
        #expect(s.layout.sections[0].rows.heights == [Points(10), Points(50), Points(50), Points(50), Points(50)])
    }

    @Test("batch: reloads name pre-update rows")
    func batchReloads() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 3], [0, 4]]}"#)
        try apply(&s, #"{"type": "batch", "deletes": [[0, 0]], "reloads": [[0, 3]]}"#)
        // Old 3 is deselected by the reload, old 4 is now 3.
        #expect(s.selected == [p(0, 3)])
    }

    @Test("batch: TableChanges reports a reloaded row's deselection where the row ends up, and nothing for rows that only move")
    func batchReloadChanges() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 2], [0, 3], [1, 0]]}"#)
        // Pre: a b c d e (c, d selected). Delete a and b, reload c (2), move d (3) to
        // section 1 row 0, insert at post 2: c e N in section 0, so c ends at 0; section 1
        // is d then its old rows, so its old row 0 ends at 1.
        let changes = try apply(&s, #"{"type": "batch", "deletes": [[0, 0], [0, 1]], "reloads": [[0, 2]], "moves": [[[0, 3], [1, 0]]], "inserts": [[0, 2]]}"#)
        #expect(changes.deselected == [p(0, 0)])
        #expect(changes.selected == [])
        #expect(s.selected == [p(1, 0), p(1, 1)])
        // A reload of a row that is not selected changes no membership.
        let quiet = try apply(&s, #"{"type": "reloadRows", "at": [[0, 0]]}"#)
        #expect(quiet.deselected.isEmpty && quiet.selected.isEmpty)
    }

    @Test("an index path out of range is invalid", arguments: [
        #"{"type": "deleteRows", "at": [[0, 5]]}"#,
        #"{"type": "deleteRows", "at": [[2, 0]]}"#,
        #"{"type": "insertRows", "at": [[0, 7]]}"#,
        #"{"type": "insertRows", "at": [[3, 0]]}"#,
        #"{"type": "moveRow", "from": [0, 0], "to": [0, 5]}"#,
        #"{"type": "moveRow", "from": [0, 9], "to": [0, 0]}"#,
        #"{"type": "reloadRows", "at": [[1, 5]]}"#,
        #"{"type": "batch", "deletes": [[0, 0]], "inserts": [[0, 5]]}"#,
    ])
    func outOfRange(line: String) throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 1]]}"#)
        let reason = reject(&s, line)
        #expect(reason.contains("out of range"))
        // The reason names the bounds: the section's rows, or the table's sections when
        // the section itself does not exist (sections 0 and 1 exist; 2 and 3 do not).
        if line.contains("[2, 0]") || line.contains("[3, 0]") {
            #expect(reason.contains("(the table has 2 sections)"), "\(reason)")
        } else {
            #expect(reason.contains(#/\(section [01] has \d+ rows( after the update)?\)/#), "\(reason)")
        }
    }

    @Test("a duplicate is invalid", arguments: [
        #"{"type": "deleteRows", "at": [[0, 1], [0, 1]]}"#,
        #"{"type": "insertRows", "at": [[0, 1], [0, 1]]}"#,
        #"{"type": "batch", "inserts": [[0, 1]], "moves": [[[0, 3], [0, 1]]]}"#,
        #"{"type": "batch", "moves": [[[0, 3], [0, 1]], [[0, 3], [0, 2]]]}"#,
        #"{"type": "reloadRows", "at": [[0, 1], [0, 1]]}"#,
    ])
    func duplicate(line: String) throws {
        var s = try play(twoSections)
        let reason = reject(&s, line)
        #expect(reason.contains("duplicate") || reason.contains("twice"))
    }

    @Test("a row both deleted and moved is invalid; so is one reloaded and deleted or moved")
    func deletedAndMoved() throws {
        var s = try play(twoSections)
        #expect(reject(&s, #"{"type": "batch", "deletes": [[0, 1]], "moves": [[[0, 1], [0, 0]]]}"#).contains("deleted and moved"))
        #expect(reject(&s, #"{"type": "batch", "deletes": [[0, 1]], "reloads": [[0, 1]]}"#).contains("reloaded"))
        #expect(reject(&s, #"{"type": "batch", "moves": [[[0, 1], [0, 0]]], "reloads": [[0, 1]]}"#).contains("reloaded"))
    }

    @Test("the open option view follows its row; deleting the row closes it")
    func optionFollowsRow() throws {
        var s = try play(twoSections + "\n" + #"{"type": "setOptionVisible", "row": [0, 2], "visible": true}"#)
        try apply(&s, #"{"type": "insertRows", "at": [[0, 0]]}"#)
        #expect(s.options.open == p(0, 3))
        try apply(&s, #"{"type": "moveRow", "from": [0, 3], "to": [1, 0]}"#)
        #expect(s.options.open == p(1, 0))
        try apply(&s, #"{"type": "deleteRows", "at": [[1, 0]]}"#)
        #expect(s.options.open == nil)
    }

    @Test("the editor row follows its data row; deleting the data row closes it")
    func editorFollowsRow() throws {
        var s = try play(twoSections + "\n" + #"{"type": "toggleEditor", "row": [0, 1], "options": ["a"]}"#)
        try apply(&s, #"{"type": "insertRows", "at": [[0, 0]]}"#)
        #expect(s.layout.editorRow == p(0, 2))
        try apply(&s, #"{"type": "moveRow", "from": [0, 2], "to": [1, 4]}"#)
        #expect(s.layout.editorRow == p(1, 4))
        #expect(s.editor != nil)
        try apply(&s, #"{"type": "deleteRows", "at": [[1, 4]]}"#)
        #expect(s.layout.editorRow == nil && s.editor == nil)
        #expect(s.layout.contentHeight == Points(500))
    }

    @Test("undo history follows rows through edits; rows deleted since are skipped")
    func historyFollowsRows() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 1], [0, 3]]}"#)
        try apply(&s, #"{"type": "batch", "deletes": [[0, 3]], "inserts": [[0, 0]]}"#)
        #expect(s.selected == [p(0, 2)])
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.selected.isEmpty)
        try apply(&s, #"{"type": "redo"}"#)
        #expect(s.selected == [p(0, 2)])
    }

    @Test("a step whose rows are all gone still counts as a step that changes nothing")
    func stepWithNoRowsLeft() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[0, 1]]}"#)
        try apply(&s, #"{"type": "deleteRows", "at": [[0, 1]]}"#)
        #expect(s.undoStack.count == 1)
        let before = s.selected
        try apply(&s, #"{"type": "undo"}"#)
        #expect(s.selected == before)
        #expect(s.undoStack.isEmpty && s.redoStack.count == 1)
    }

    @Test("insertSections takes post-update indices; selection follows")
    func insertSections() throws {
        var s = try play(twoSections + "\n" + #"{"type": "select", "rows": [[1, 2]]}"#)
        try apply(&s, #"{"type": "insertSections", "at": [0, 2], "sections": [{"rows": 2}, {"rows": 3, "title": "X"}]}"#)
        #expect(s.layout.sections.map(\.rowCount) == [2, 5, 3, 5])
        #expect(s.selected == [p(3, 2)])
        #expect(s.layout.sections[2].title == "X")
    }

    @Test("deleteSections removes their rows from the selection and closes what sat in them")
    func deleteSections() throws {
        var s = try play(twoSections + """

            {"type": "select", "rows": [[0, 2], [1, 2]]}
            {"type": "setOptionVisible", "row": [0, 1], "visible": true}
            {"type": "toggleEditor", "row": [0, 4], "options": []}
            """)
        try apply(&s, #"{"type": "deleteSections", "at": [0]}"#)
        #expect(s.selected == [p(0, 2)])
        #expect(s.options.open == nil && s.editor == nil)
        reject(&s, #"{"type": "deleteSections", "at": [1]}"#)
    }

    @Test("insertSections with mismatched lengths, out of range or duplicates is invalid")
    func insertSectionsInvalid() throws {
        var s = try play(twoSections)
        reject(&s, #"{"type": "insertSections", "at": [0, 1], "sections": [{"rows": 1}]}"#)
        reject(&s, #"{"type": "insertSections", "at": [3], "sections": [{"rows": 1}]}"#)
        reject(&s, #"{"type": "insertSections", "at": [1, 1], "sections": [{"rows": 1}, {"rows": 1}]}"#)
    }

    @Test("an edit re-clamps the offset")
    func editReclamps() throws {
        var s = try play(twoSections + "\n" + #"{"type": "viewport", "width": 390, "height": 300}"# + "\n" + #"{"type": "scroll", "y": 200}"#)
        try apply(&s, #"{"type": "deleteSections", "at": [1]}"#)
        #expect(s.offset == 0)
    }
}
