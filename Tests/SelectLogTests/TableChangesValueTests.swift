import Testing
@testable import SelectLog

/// `TableChanges` keeps its four lists behind one reference that the state reuses:
/// whatever the storage, it must behave as a plain value.
@Suite("TableChanges: a value whatever its storage")
struct TableChangesValueTests {
    @Test("a copy changed through a setter leaves the original as it was, and the other way round")
    func copyOnWrite() {
        var a = TableChanges()
        a.selected = [p(0, 1)]
        var b = a
        b.selected.append(p(0, 2))
        b.gestures = [.began(.strip)]
        #expect(a.selected == [p(0, 1)])
        #expect(a.gestures.isEmpty)
        #expect(b.selected == [p(0, 1), p(0, 2)])
        a.deselected = [p(1, 0)]
        #expect(b.deselected.isEmpty)
        #expect(a != b)
    }

    /// A list set in any order, with repeats, kept the promise of ascending maximal runs
    /// no better than it was given (found by a review as an app developer).
    @Test("rows set out of order or twice are kept ascending, each once, and equal sets compare equal")
    func setterKeepsRowsAscending() {
        var a = TableChanges(), b = TableChanges()
        a.selected = [p(0, 3), p(0, 2), p(0, 2), p(1, 0)]
        b.selected = [p(1, 0), p(0, 2), p(0, 3)]
        #expect(a.selected == [p(0, 2), p(0, 3), p(1, 0)])
        #expect(a.selectedRuns == [RowRun(section: 0, rows: 2..<4), RowRun(section: 1, rows: 0..<1)])
        #expect(a == b && a.hashValue == b.hashValue)
        a.deselected = [p(2, 1), p(2, 0), p(2, 1)]
        #expect(a.deselectedRuns == [RowRun(section: 2, rows: 0..<2)])
    }

    @Test("printed, it shows its rows and fields, not its storage")
    func description() {
        var c = TableChanges()
        c.selected = [p(0, 1)]
        c.deselected = [p(2, 3)]
        c.undoStepRecorded = true
        let text = String(describing: c)
        #expect(text.hasPrefix("TableChanges(selected: ["))
        #expect(text.contains("deselected: ["))
        #expect(text.contains("undoStepRecorded: true"))
        #expect(!text.contains("lists"))
    }

    @Test("lists set empty again compare and hash like no lists at all")
    func emptyListsEqualNone() {
        var c = TableChanges()
        c.rowOperations = []
        c.selected = [p(0, 0)]
        c.selected = []
        #expect(c == TableChanges())
        #expect(c.isEmpty)
        #expect(c.hashValue == TableChanges().hashValue)
        var d = TableChanges()
        d.undoStepRecorded = true
        #expect(!d.isEmpty)
    }

    @Test("changes returned by apply and kept by the caller are not changed by the next apply, which reuses storage only once they are dropped")
    func keptChangesStay() throws {
        var s = try play("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 10, "rowHeight": 50}]}
            """)
        let first = try apply(&s, #"{"type": "select", "rows": [[0, 1]]}"#)
        var copy = first
        let second = try apply(&s, #"{"type": "select", "rows": [[0, 2]]}"#)
        #expect(first.selected == [p(0, 1)])
        #expect(second.selected == [p(0, 2)])
        copy.selected.append(p(0, 9))
        #expect(first.selected == [p(0, 1)], "a copy's setter does not write into the storage it shared")
        _ = try apply(&s, #"{"type": "select", "rows": [[0, 3]]}"#)
        #expect(copy.selected == [p(0, 1), p(0, 9)])
        #expect(RowRun.paths(s.changeBuffers.selected) == [p(0, 3)], "dropped changes leave their lists to the state")
    }
}
