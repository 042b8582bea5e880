extension TableState {
    mutating func toggleEditor(below row: RowPath, options choices: [String], multiple: Bool, chosen: [Int]) throws(InvalidEvent) {
        let type = "toggleEditor"
        try checkRow(row, type)
        for (k, c) in chosen.enumerated() where c >= choices.count {
            throw InvalidEvent(type, "chosen[\(k)] \(c) is out of range (\(choices.count) options)")
        }
        let picked = Array(Set(chosen)).sorted()
        if !multiple && picked.count > 1 {
            throw InvalidEvent(type, "a single-choice editor takes at most one chosen option, not \(picked.count)")
        }
        if layout.editorRow == row {
            layout.closeEditor()
            editorState.close()
        } else {
            layout.openEditor(below: row)
            editorState.open(options: choices, multiple: multiple, chosen: picked)
        }
        reclamp()
    }

    mutating func choose(_ option: Int) throws(InvalidEvent) {
        guard let current = editor else { throw InvalidEvent("choose", "no editor row is open") }
        guard option < current.options.count else {
            throw InvalidEvent("choose", "option \(option) is out of range (\(current.options.count) options)")
        }
        var chosen = current.chosen
        if current.multiple {
            if let i = chosen.firstIndex(of: option) { chosen.remove(at: i) } else { chosen.append(option); chosen.sort() }
        } else {
            chosen = [option]
        }
        guard chosen != current.chosen else { return }
        editorState.current?.chosen = chosen
        pushStep(.choose(opening: current.opening, before: current.chosen, after: chosen))
    }
}
