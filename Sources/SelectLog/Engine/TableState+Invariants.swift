extension TableState {
    /// Whether `apply` checks the state's invariants after every event. True in debug
    /// builds (the package defines `SELECTLOG_INTERNAL_CHECKS` there) and in any build
    /// made with `SELECTLOG_INTERNAL_CHECKS=1` in the environment (`make test`'s), as
    /// swift-collections does under its internal-checks flag; other release builds
    /// keep their performance promises.
    public static var isConsistencyCheckingEnabled: Bool {
        #if SELECTLOG_INTERNAL_CHECKS
        return true
        #else
        return false
        #endif
    }

    #if SELECTLOG_INTERNAL_CHECKS
    /// Stops on a broken invariant: an engine bug, never an input error (valid or
    /// invalid events both leave a sound state). Checks what any one event can break;
    /// `invariantViolations()` checks everything.
    @inline(never)
    func checkInvariants() {
        var problems: [String] = []
        collectInvariantViolations(into: &problems, wholeHistory: false)
        precondition(problems.isEmpty, "TableState invariant broken after event \(events) (an engine bug): \(problems)")
    }
    #else
    @inline(__always)
    func checkInvariants() {}
    #endif

    /// Every broken invariant of the selection, the layout, the scroll view, the pan,
    /// the option views, the editor and the history, in words; empty when the state is
    /// sound. Property tests and snapshot reading call it.
    public func invariantViolations() -> [String] {
        var problems: [String] = []
        collectInvariantViolations(into: &problems, wholeHistory: true)
        return problems
    }

    /// Adds a problem for each section of `set` that is not in the table, or that names
    /// rows past its last; `what` says whose rows they are.
    private func collectMissingRows(_ set: RowSet, _ what: String, into problems: inout [String]) {
        for (s, list) in set.sections {
            guard s >= 0 && s < layout.sectionCount else {
                problems.append("\(what): section \(s) does not exist")
                continue
            }
            if let last = list.last, last >= layout.rowCount(in: s) || (list.first ?? 0) < 0 {
                problems.append("\(what): row [\(s), \(last)] does not exist")
            }
        }
    }

    private func collectInvariantViolations(into problems: inout [String], wholeHistory: Bool) {
        func rowsExist(_ set: RowSet, _ what: String) { collectMissingRows(set, what, into: &problems) }
        // Selection.
        rowsExist(selection, "selection")
        if wholeHistory, let (s, _) = selection.sections.first(where: { !$0.rows.isSound }) {
            problems.append("selection: the ranges of section \(s) are out of order, empty or touching")
        }
        if !isMultiple && selection.count > 1 { problems.append("single mode holds \(selection.count) rows") }
        // Scroll view.
        if contentOffset < .zero || contentOffset > maxOffset {
            problems.append("contentOffset \(contentOffset) outside [0, \(maxOffset)]")
        }
        if let target {
            if target < .zero || target > maxOffset { problems.append("target \(target) outside [0, \(maxOffset)]") }
            if !decelerating { problems.append("a deceleration target without decelerating") }
        }
        // Option views.
        if let open = options.open {
            if !layout.contains(open) { problems.append("option view open on missing row \(open)") }
            if configuration.optionWidth == .zero { problems.append("option view open with optionWidth 0") }
        }
        if case .active(let row, let offset)? = options.swipe {
            if !layout.contains(row) { problems.append("swipe on missing row \(row)") }
            if offset < .zero || offset > configuration.optionWidth { problems.append("swipe offset \(offset) outside [0, optionWidth]") }
        }
        // Editor.
        if (editor == nil) != (layout.editorRow == nil) { problems.append("editor content and editor row disagree") }
        if let row = layout.editorRow, !layout.contains(row) { problems.append("editor below missing row \(row)") }
        if let editor {
            if editor.chosen.contains(where: { $0 < 0 || $0 >= editor.options.count }) { problems.append("editor chosen out of range") }
            if zip(editor.chosen, editor.chosen.dropFirst()).contains(where: { $0 >= $1 }) { problems.append("editor chosen not ascending and unique") }
            if !editor.multiple && editor.chosen.count > 1 { problems.append("single-choice editor with \(editor.chosen.count) chosen") }
            if editor.opening >= editorOpenings || editor.opening < 0 { problems.append("editor opening \(editor.opening) not yet made") }
        }
        collectPanViolations(into: &problems)
        // History.
        if undoCount > configuration.undoLimit || redoCount > configuration.undoLimit {
            problems.append("history longer than undoLimit")
        }
        let steps = wholeHistory ? undoStack + redoStack : [history.lastUndo, history.lastRedo].compactMap { $0 }
        for step in steps {
            switch step {
            case let .selection(added, removed):
                rowsExist(added, "undo step")
                rowsExist(removed, "undo step")
                if !added.intersection(removed).isEmpty { problems.append("undo step both adds and removes a row") }
            case let .choose(opening, toggled):
                // One option (multiple choice), or the old and the new choice (single), of
                // an editor opened before: a later opening would take the step as its own.
                if toggled.isEmpty || toggled.count > 2 || toggled[0] < 0 || (toggled.count == 2 && toggled[0] >= toggled[1]) {
                    problems.append("choose step flips \(toggled), not one or two ascending options")
                }
                if opening < 0 || opening >= editorOpenings { problems.append("choose step of editor opening \(opening), not yet made") }
            }
        }
        if wholeHistory, let editor { collectChooseChainViolations(editor, into: &problems) }
        // Layout.
        if wholeHistory {
            var total: Int64 = 0
            var count = 0
            for section in layout.sections {
                total += section.rows.total.raw
                count += section.rows.count
            }
            if total != layout.rowTotal.raw || count != layout.rowCount { problems.append("row totals out of date") }
            var content = layout.sections.reduce(Int64(0)) { $0 + $1.header.raw + $1.rows.total.raw + $1.footer.raw }
            if layout.editorRow != nil { content += layout.editorHeight.raw }
            if content != layout.contentHeight.raw { problems.append("content height \(layout.contentHeight) is not the sum of the sections") }
        }
    }

    /// Undo and redo take the open editor's `chosen` through valid lists: each `choose`
    /// step of its opening, flipped in turn from the present (undo steps newest first,
    /// redo steps nearest first), leaves options in range and, single-choice, one at most.
    /// Only the options the steps flip are followed (each looked up once in `chosen`), so
    /// the walk costs O(steps), not O(steps × chosen).
    private func collectChooseChainViolations(_ editor: EditorRow, into problems: inout [String]) {
        func isChosen(_ option: Int) -> Bool {
            var lo = 0, hi = editor.chosen.count
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if editor.chosen[mid] < option { lo = mid + 1 } else { hi = mid }
            }
            return lo < editor.chosen.count && editor.chosen[lo] == option
        }
        for redo in [false, true] {
            var flipped: [Int: Bool] = [:]
            var count = editor.chosen.count
            for case let .choose(opening, toggled) in history.steps(redo: redo).reversed() where opening == editor.opening {
                for option in toggled {
                    guard option >= 0 && option < editor.options.count else {
                        problems.append("choose step flips \(toggled), out of the editor's \(editor.options.count) options")
                        return
                    }
                    let now = !(flipped[option] ?? isChosen(option))
                    flipped[option] = now
                    count += now ? 1 : -1
                }
                if !editor.multiple && count > 1 {
                    problems.append("choose steps take a single-choice editor to \(count) chosen")
                    return
                }
            }
        }
    }

    /// The pan and the selection agree (spec 5.3).
    private func collectPanViolations(into problems: inout [String]) {
        if gesture.kind != gesture.kindOfState { problems.append("the pan's stored kind is not its state's") }
        let pan: SelectionPan
        switch gesture.state {
        case .idle, .dragScroll, .interrupted:
            return
        case .waitingForStartRow(let p):
            if p.rows != nil { problems.append("a pan waiting for its start row has one") }
            pan = p
        case .running(let p):
            if p.rows == nil { problems.append("a running pan without a start row") }
            pan = p
        case .autoScrolling(let p, let auto):
            if auto.direction != p.direction { problems.append("auto-scroll \(auto.direction) against the finger's direction") }
            if (auto.direction == .up && contentOffset <= .zero) || (auto.direction == .down && contentOffset >= maxOffset) {
                problems.append("auto-scroll \(auto.direction) at its bound")
            }
            if auto.since > t { problems.append("auto-scroll since \(auto.since), after the last event") }
            pan = p
        }
        if !isMultiple { problems.append("a selection pan in a single mode") }
        if pan.kind == .multiSelect && (!editing || pan.reversal != .restore) { problems.append("a multi-select pan outside editing or without restore") }
        if pan.kind != .strip && pan.kind != .multiSelect { problems.append("a selection pan of kind \(pan.kind)") }
        // The pan's end records them as an undo step, whose rows must exist.
        collectMissingRows(pan.changedRows, "the pan's changed rows", into: &problems)
        guard let rows = pan.rows else {
            if !pan.changedRows.isEmpty { problems.append("the selection changed before the pan's start row") }
            return
        }
        for (name, r) in [("start", rows.start), ("anchor", rows.anchor), ("end", rows.end)] where !layout.contains(r) {
            problems.append("pan \(name) \(r) does not exist")
        }
        guard layout.contains(rows.start), layout.contains(rows.end) else { return }
        switch pan.reversal {
        case .flip:
            if rows.anchor != rows.end { problems.append("a flip pan's anchor \(rows.anchor) is not its far end \(rows.end)") }
        case .restore:
            var expected = selection.symmetricDifference(pan.changedRows)
            setRows(between: rows.start, and: rows.end, to: rows.mode == .select, in: &expected)
            if expected != selection { problems.append("a restore pan's selection is not the selection before it with S..R set") }
        }
    }
}
