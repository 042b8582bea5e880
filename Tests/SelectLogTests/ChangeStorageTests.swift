import Testing
@testable import SelectLog

/// How `apply` builds a `TableChanges` without allocating: the runs of rows a pan
/// sample changes, recorded inline, and the lists' storage reused from one event to
/// the next. Whatever the storage, the changes must be exactly what the contract says.
@Suite("TableChanges storage: runs, netting and reused buffers")
struct ChangeStorageTests {
    @Test("forEachRun yields the maximal runs of members or non-members, ascending, as a plain [Bool] says", arguments: [21, 22])
    func runsAgreeWithBools(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var reference = [Bool](repeating: false, count: 80)
        var list = RangeList()
        for step in 0..<400 {
            let a = Int.random(in: 0..<reference.count, using: &rng)
            let b = min(reference.count, a + Int.random(in: 1...7, using: &rng))
            let member = Bool.random(using: &rng)
            if member { list.insert(a..<b) } else { list.remove(a..<b) }
            for i in a..<b { reference[i] = member }
            for _ in 0..<4 {
                let lower = Int.random(in: 0..<reference.count, using: &rng)
                let q = lower..<min(reference.count, lower + Int.random(in: 0...20, using: &rng))
                for members in [true, false] {
                    var runs: [Range<Int>] = []
                    list.forEachRun(in: q, members: members) { runs.append($0) }
                    #expect(runs == ChangeStorageTests.runs(of: reference, in: q, equalTo: members),
                            "seed \(seed) step \(step) \(q) members \(members)")
                    var set = RowSet()
                    for r in list.ranges { set.insert(r, in: 2) }
                    var inSet: [Range<Int>] = []
                    set.forEachRun(in: q, section: 2, members: members) { inSet.append($0) }
                    #expect(inSet == runs, "seed \(seed) step \(step) \(q) members \(members)")
                    var absent: [Range<Int>] = []
                    set.forEachRun(in: q, section: 5, members: members) { absent.append($0) }
                    #expect(absent == (members || q.isEmpty ? [] : [q]), "a section with no members is one run of non-members")
                }
            }
        }
    }

    @Test("the rows of one set not in another, walked without building the set, are subtracting's rows", arguments: [31, 32])
    func differenceWithoutBuilding(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for step in 0..<300 {
            var a = RowSet(), b = RowSet()
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                let section = Int.random(in: 0..<4, using: &rng), lower = Int.random(in: 0..<30, using: &rng)
                let rows = lower..<lower + Int.random(in: 1...5, using: &rng)
                if Bool.random(using: &rng) { a.insert(rows, in: section) } else { b.insert(rows, in: section) }
                if Int.random(in: 0..<3, using: &rng) == 0 { a.insert(rows, in: section); b.insert(rows, in: section) }
            }
            for (x, y) in [(a, b), (b, a)] {
                var runs = [RowRun(section: 9, rows: 9..<10)]
                x.appendRuns(subtracting: y, to: &runs)
                #expect(RowRun.paths(runs) == [p(9, 9)] + x.subtracting(y).paths, "seed \(seed) step \(step)")
                let joined = zip(runs, runs.dropFirst()).contains { $0.section == $1.section && $0.rows.upperBound >= $1.rows.lowerBound }
                #expect(!joined, "runs are maximal and ascending: seed \(seed) step \(step)")
                #expect(x.isSubset(of: y) == x.subtracting(y).isEmpty, "seed \(seed) step \(step)")
            }
        }
    }

    /// The maximal runs of `q` whose flags equal `value`, by walking the flags.
    static func runs(of flags: [Bool], in q: Range<Int>, equalTo value: Bool) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start: Int?
        for i in q {
            if flags[i] == value {
                if start == nil { start = i }
            } else if let s = start {
                out.append(s..<i)
                start = nil
            }
        }
        if let s = start { out.append(s..<q.upperBound) }
        return out
    }

    @Test("a move over rows that are partly selected reports only the rows it selects, ascending (two runs)")
    func twoRuns() throws {
        var s = try play(stripTable + "\n" + #"{"type": "select", "rows": [[0, 3]]}"#)
        let began = try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        #expect(began.selected == [p(0, 1)])
        let moved = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 275}"#)
        #expect(moved.selected == [p(0, 2), p(0, 4), p(0, 5)])
        #expect(moved.deselected.isEmpty)
        #expect(s.selected == rows(1...5))
    }

    @Test("a move over many gaps reports every row it selects once, ascending (more runs than are held inline)")
    func manyRuns() throws {
        var s = try play(stripTable + "\n" + #"{"type": "select", "rows": [[0, 3], [0, 5], [0, 8]]}"#)
        try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        let moved = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 475}"#)
        #expect(moved.selected == [p(0, 2), p(0, 4), p(0, 6), p(0, 7), p(0, 9)])
        #expect(moved.deselected.isEmpty)
        let back = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 125}"#)
        #expect(back.deselected == rows(2...9), "a reversal deselects every row back to the finger")
        #expect(back.selected.isEmpty)
    }

    @Test("a deselecting pan across two sections reports the selected rows of both, in index-path order")
    func deselectAcrossSections() throws {
        var s = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 4, "rowHeight": 50}, {"rows": 4, "rowHeight": 50}]}
            {"type": "select", "rows": [[0, 1], [0, 3], [1, 0], [1, 2]]}
            """)
        let began = try apply(&s, #"{"type": "panBegan", "x": 10, "y": 75}"#)
        #expect(began.deselected == [p(0, 1)], "the pan starts on a selected row, so it deselects")
        let moved = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 375}"#)
        #expect(moved.deselected == [p(0, 3), p(1, 0), p(1, 2)])
        #expect(moved.selected.isEmpty)
        #expect(s.selected.isEmpty)
    }

    @Test("a pan over thousands of one-row sections reports each row it selects once, ascending, and a reversal each row it deselects")
    func panOverManySections() throws {
        // A 50-pt row, 2,998 sections of one row of height 0, and a last 50-pt row: one
        // sample takes the finger from the first row to the last. Each section is a run
        // of its own (this took time quadratic in the sections: 5 s at 20,000).
        let count = 3_000
        let sections = [#"{"rows": 1, "rowHeight": 50}"#] + Array(repeating: #"{"rows": 1, "rowHeight": 0}"#, count: count - 2)
            + [#"{"rows": 1, "rowHeight": 50}"#]
        var s = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [\(sections.joined(separator: ", "))]}
            {"type": "select", "rows": [[5, 0], [7, 0]]}
            """)
        let began = try apply(&s, #"{"type": "panBegan", "x": 10, "y": 25}"#)
        #expect(began.selected == [p(0, 0)])
        let moved = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 75}"#)
        let all = (0..<count).map { p($0, 0) }
        let others = all.filter { $0 != p(0, 0) && $0 != p(5, 0) && $0 != p(7, 0) }
        #expect(moved.selected == others)
        #expect(moved.deselected.isEmpty)
        #expect(s.selected == all)
        // Back onto the start row: the pan turns to deselecting (as before this change), and
        // reports every row it deselects once.
        let back = try apply(&s, #"{"type": "panMoved", "x": 10, "y": 25}"#)
        #expect(back.deselected == all)
        #expect(back.selected.isEmpty)
        #expect(s.selected.isEmpty)
    }

    @Test("a long list is returned whole but its storage is not kept by the state")
    func longListsAreNotKept() throws {
        var s = try play("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 1000, "rowHeight": 50}]}
            """)
        let all = try apply(&s, #"{"type": "selectAll"}"#)
        #expect(all.selected == rows(0...999))
        #expect(all.selectedRuns == [RowRun(section: 0, rows: 0..<1000)], "a thousand rows, one run")
        #expect(s.changeBuffers.selected.capacity <= ChangeBuffers.keptCapacity)
        let none = try apply(&s, #"{"type": "deselectAll"}"#)
        #expect(none.deselected == rows(0...999))
        #expect(s.changeBuffers.deselected.capacity <= ChangeBuffers.keptCapacity)
        let scattered = (0..<300).map { "[0, \($0 * 3)]" }.joined(separator: ", ")
        let many = try apply(&s, #"{"type": "select", "rows": [\#(scattered)]}"#)
        #expect(many.selectedRuns.count == 300)
        #expect(s.changeBuffers.selected.capacity <= ChangeBuffers.keptCapacity, "300 runs are not kept")
        let one = try apply(&s, #"{"type": "select", "rows": [[0, 7]]}"#)
        #expect(one.selected == [p(0, 7)])
        #expect(!s.changeBuffers.selected.isEmpty, "a short list's storage is kept for the next event")
    }

    @Test("changes a caller keeps are never overwritten by the next event's, whose lists reuse storage")
    func keptChangesStayIntact() throws {
        let script = [
            #"{"type": "panBegan", "x": 10, "y": 75}"#,
            #"{"type": "panMoved", "x": 10, "y": 125}"#,
            #"{"type": "panMoved", "x": 10, "y": 175}"#,
            #"{"type": "panMoved", "x": 10, "y": 75}"#,
            #"{"type": "panMoved", "x": 10, "y": 225}"#,
            #"{"type": "panEnded"}"#,
            #"{"type": "tap", "x": 100, "y": 325}"#,
            #"{"type": "panBegan", "x": 10, "y": 325}"#,
            #"{"type": "panCancelled"}"#,
        ]
        // Once keeping every TableChanges, once dropping each after copying its lists element by element.
        var kept: [TableChanges] = []
        var keeping = try play(stripTable)
        for line in script { kept.append(try apply(&keeping, line)) }
        var copies: [([RowPath], [RowPath], [GestureTransition])] = []
        var dropping = try play(stripTable)
        for line in script {
            let c = try apply(&dropping, line)
            copies.append((c.selected.map { $0 }, c.deselected.map { $0 }, c.gestures.map { $0 }))
        }
        #expect(keeping == dropping)
        for (k, (c, copy)) in zip(kept, copies).enumerated() {
            #expect(c.selected == copy.0 && c.deselected == copy.1 && c.gestures == copy.2, "event \(k)")
        }
        #expect(kept[1].selected == [p(0, 2)] && kept[2].selected == [p(0, 3)] && kept[4].selected == rows(1...4))
        #expect(kept[3].deselected == rows(1...3), "a reversal flips the mode back over the rows, the finger's row included")
    }

    @Test("an option view or editor change held in reused lists is not reported again by a later event")
    func rareChangesDoNotCarryOver() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "configure", "optionWidth": 80}"#)
        // Each result is dropped at once, so the next event reuses the lists that held
        // the option view or the editor; every later event must report neither.
        try apply(&s, #"{"type": "swipeBegan", "row": [0, 4]}"#)
        try apply(&s, #"{"type": "swipeMoved", "offset": 60}"#)
        #expect(try apply(&s, #"{"type": "swipeEnded"}"#).optionView == RowChange(from: nil, to: p(0, 4)))
        let below = try apply(&s, #"{"type": "insertRows", "at": [[0, 9]]}"#)
        #expect(below.rowOperations.count == 1, "the lists are in use, and hold no option view")
        #expect(below.optionView == nil && below.editor == nil)
        #expect(try apply(&s, #"{"type": "toggleEditor", "row": [0, 2], "options": ["a"]}"#).editor == .opened(below: p(0, 2)))
        let inserted = try apply(&s, #"{"type": "insertRows", "at": [[0, 9]]}"#)
        #expect(inserted.rowOperations.count == 1)
        #expect(inserted.editor == nil && inserted.optionView == nil)
        // Set through the public setters, on a copy: the original keeps its own.
        var copy = inserted
        copy.editor = .closed(below: p(0, 1))
        copy.optionView = RowChange(from: p(0, 1), to: nil)
        #expect(inserted.editor == nil && inserted.optionView == nil)
        copy.editor = nil
        copy.optionView = nil
        #expect(copy == inserted)
        var offset = TableChanges()
        offset.offsetChange = OffsetChange(from: Points(1), to: Points(2))
        #expect(offset.contentOffset?.to == Points(2) && !offset.isEmpty)
        offset.offsetChange = nil
        #expect(offset.isEmpty && offset.contentOffset == nil)
    }
}
