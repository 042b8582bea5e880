extension TableState {
    mutating func toggleEditor(below row: RowPath, options choices: [String], multiple: Bool, chosen: [Int]) throws(InvalidEvent) {
        let type = "toggleEditor"
        try checkRow(row, type)
        for (k, c) in chosen.enumerated() where c >= choices.count {
            throw InvalidEvent(.malformed, type, field: "chosen[\(k)]", "chosen[\(k)] \(c) is out of range (\(choices.count) option\(choices.count == 1 ? "" : "s"))")
        }
        let picked = Array(Set(chosen)).sorted()
        if !multiple && picked.count > 1 {
            throw InvalidEvent(.malformed, type, field: EventField.chosen.rawValue, "a single-choice editor takes at most one chosen option, not \(picked.count)")
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
        guard let current = editor else { throw InvalidEvent(.notAllowedNow, "choose", "no editor row is open") }
        guard option < current.options.count else {
            throw InvalidEvent(.outOfRange, "choose", field: EventField.option.rawValue, "option \(option) is out of range (\(current.options.count) options)")
        }
        let toggled: [Int]
        if current.multiple {
            toggled = [option]
        } else {
            guard current.chosen != [option] else { return }
            // The old choice (at most one: `chosen` of a single-choice editor) and the new.
            toggled = current.chosen.first.map { $0 < option ? [$0, option] : [option, $0] } ?? [option]
        }
        editorState.current?.chosen = Self.flipping(current.chosen, toggled)
        pushStep(.choose(opening: current.opening, toggled: toggled))
    }

    /// `chosen` with the options of `toggled` flipped: both ascending and unique, and so
    /// the result, built in one pass with room reserved for it.
    static func flipping(_ chosen: [Int], _ toggled: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(chosen.count + toggled.count)
        var i = 0, j = 0
        while i < chosen.count || j < toggled.count {
            if j == toggled.count || (i < chosen.count && chosen[i] < toggled[j]) {
                out.append(chosen[i])
                i += 1
            } else if i == chosen.count || toggled[j] < chosen[i] {
                out.append(toggled[j])
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
        return out
    }
}
