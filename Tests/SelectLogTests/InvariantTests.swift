import Testing
@testable import SelectLog

@Suite("Invariants: checked after every apply in debug and checking builds, and each one can fail")
struct InvariantTests {
    @Test("the tests' builds (debug, or SELECTLOG_INTERNAL_CHECKS=1) check invariants after every event")
    func enabledInDebug() {
        #expect(TableState.isConsistencyCheckingEnabled)
    }

    /// A sound state to break, one field at a time.
    func sound() throws -> TableState {
        let s = try play(stripTable + """

            {"type": "configure", "optionWidth": 80}
            {"type": "toggleEditor", "row": [0, 2], "options": ["a", "b"], "multiple": true, "chosen": [1]}
            {"type": "setOptionVisible", "row": [0, 5], "visible": true}
            """)
        #expect(s.invariantViolations().isEmpty)
        return s
    }

    @Test("the offset and the deceleration target stay within bounds")
    func offsetBounds() throws {
        var a = try sound()
        a.scroll.offset = a.maxOffset + Points(raw: 1)
        #expect(a.invariantViolations().contains { $0.contains("contentOffset") })
        var b = try sound()
        b.scroll.offset = Points(raw: -1)
        #expect(!b.invariantViolations().isEmpty)
        var c = try sound()
        c.scroll.target = Points(10)
        #expect(c.invariantViolations().contains { $0.contains("without decelerating") })
    }

    @Test("the open option row exists, and optionWidth 0 opens none")
    func optionRowExists() throws {
        var a = try sound()
        a.options.open = p(0, 100)
        #expect(a.invariantViolations().contains { $0.contains("missing row") })
        var b = try sound()
        b.configuration.optionWidth = .zero
        #expect(b.invariantViolations().contains { $0.contains("optionWidth 0") })
    }

    @Test("the editor's chosen is in range, ascending and unique; single-choice holds one")
    func editorChosen() throws {
        var a = try sound()
        a.editorState.current?.chosen = [2]
        #expect(a.invariantViolations().contains { $0.contains("out of range") })
        var b = try sound()
        b.editorState.current?.chosen = [1, 0]
        #expect(b.invariantViolations().contains { $0.contains("ascending") })
        var c = try sound()
        c.editorState.current?.chosen = [0, 1]
        c.editorState.current?.multiple = false
        #expect(c.invariantViolations().contains { $0.contains("single-choice") })
        var d = try sound()
        d.editorState.close()
        #expect(d.invariantViolations().contains { $0.contains("disagree") })
    }

    @Test("a selection pan and the selection agree")
    func panAndSelection() throws {
        var s = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 10, "y": 75}"# + "\n" + #"{"type": "panMoved", "x": 10, "y": 175}"#)
        #expect(s.invariantViolations().isEmpty)
        var single = s
        single.configuration.allowsMultipleSelection = false
        #expect(single.invariantViolations().contains { $0.contains("single mode") })
        guard case .running(var pan) = s.gesture.state, var rows = pan.rows else {
            Issue.record("expected a running pan")
            return
        }
        rows.anchor = p(0, 1)
        pan.rows = rows
        var flip = s
        flip.gesture.state = .running(pan)
        #expect(flip.invariantViolations().contains { $0.contains("anchor") })
        var noRows = pan
        noRows.rows = nil
        var running = s
        running.gesture.state = .running(noRows)
        #expect(running.invariantViolations().contains { $0.contains("without a start row") })
        s.gesture.state = .waitingForStartRow(noRows)
        #expect(s.invariantViolations().contains { $0.contains("before the pan's start row") })
    }

    @Test("a restore pan's selection is the selection before it with S..R set")
    func restorePanSelection() throws {
        let s = try play(stripTable + """

            {"type": "configure", "scrollAndSelect": {"reversal": "restore"}}
            {"type": "panBegan", "x": 10, "y": 75}
            {"type": "panMoved", "x": 10, "y": 175}
            """)
        #expect(s.invariantViolations().isEmpty)
        // The pan keeps the rows it changed, not a copy of the selection before it: a row
        // outside S..R recorded as changed, and a row inside it not in the pan's mode.
        var changedOutside = s
        changedOutside.gesture.changedRows.insert(p(0, 9))
        #expect(changedOutside.invariantViolations().contains { $0.contains("restore") })
        let start = try #require(s.gesture.selectionPan?.rows?.start)
        var notInMode = s
        notInMode.selection.remove(start)
        #expect(notInMode.invariantViolations().contains { $0.contains("restore") })
    }

    @Test("auto-scroll runs in the finger's direction and not at its bound")
    func autoscrollConsistent() throws {
        var s = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 10, "y": 500}"# + "\n" + #"{"type": "panMoved", "x": 10, "y": 580}"#)
        guard case .autoScrolling(let pan, var auto) = s.gesture.state else {
            Issue.record("expected auto-scroll")
            return
        }
        #expect(s.invariantViolations().isEmpty)
        auto.direction = .up
        s.gesture.state = .autoScrolling(pan, auto)
        let problems = s.invariantViolations()
        #expect(problems.contains { $0.contains("against the finger") })
        #expect(problems.contains { $0.contains("at its bound") })
    }
}
