extension TableState {
    /// Every broken invariant of the selection, the layout and the gestures, in words;
    /// empty when the state is sound. Property tests call it after every event.
    public func invariantViolations() -> [String] {
        var problems: [String] = []
        func rowsExist(_ set: RowSet, _ what: String) {
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
        rowsExist(selection, "selection")
        if !isMultiple && selection.count > 1 { problems.append("single mode holds \(selection.count) rows") }
        if contentOffset < .zero || contentOffset > maxOffset {
            problems.append("contentOffset \(contentOffset) outside [0, \(maxOffset)]")
        }
        if let target, target < .zero || target > maxOffset { problems.append("target \(target) outside [0, \(maxOffset)]") }
        if let open = options.open, !layout.contains(open) { problems.append("option view open on missing row \(open)") }
        if case .active(let row, let offset)? = options.swipe {
            if !layout.contains(row) { problems.append("swipe on missing row \(row)") }
            if offset < .zero || offset > configuration.optionWidth { problems.append("swipe offset \(offset) outside [0, optionWidth]") }
        }
        if (editor == nil) != (layout.editorRow == nil) { problems.append("editor content and editor row disagree") }
        if let row = layout.editorRow, !layout.contains(row) { problems.append("editor below missing row \(row)") }
        if let editor {
            if editor.chosen.contains(where: { $0 < 0 || $0 >= editor.options.count }) { problems.append("editor chosen out of range") }
            if editor.chosen != editor.chosen.sorted() || Set(editor.chosen).count != editor.chosen.count { problems.append("editor chosen not sorted and unique") }
            if !editor.multiple && editor.chosen.count > 1 { problems.append("single-choice editor with \(editor.chosen.count) chosen") }
        }
        if let pan {
            for (name, r) in [("start", pan.start), ("anchor", pan.anchor), ("end", pan.end)] {
                if let r, !layout.contains(r) { problems.append("pan \(name) \(r) does not exist") }
            }
            if pan.isSelectionPan && (pan.start == nil) != (pan.mode == nil) { problems.append("pan mode without start row") }
            if pan.kind == .multiSelect && !editing { problems.append("multi-select pan while not editing") }
        }
        if undoStack.count > configuration.undoLimit || redoStack.count > configuration.undoLimit {
            problems.append("history longer than undoLimit")
        }
        for step in undoStack + redoStack {
            if case let .selection(added, removed) = step {
                rowsExist(added, "undo step")
                rowsExist(removed, "undo step")
                if !added.intersection(removed).isEmpty { problems.append("undo step both adds and removes a row") }
            }
        }
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
        return problems
    }
}
