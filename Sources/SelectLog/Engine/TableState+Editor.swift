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
        let chosen: [Int]
        if current.multiple {
            // The option toggles: found by halving (the list is ascending and unique), and
            // the new list built at its exact size. Every undo step keeps its own list, and
            // a copy grown by `append` had room for twice its options.
            let old = current.chosen
            var lo = 0, hi = old.count
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if old[mid] < option { lo = mid + 1 } else { hi = mid }
            }
            let found = lo < old.count && old[lo] == option
            var toggled: [Int] = []
            toggled.reserveCapacity(found ? old.count - 1 : old.count + 1)
            toggled.append(contentsOf: old[..<lo])
            if !found { toggled.append(option) }
            toggled.append(contentsOf: old[(found ? lo + 1 : lo)...])
            chosen = toggled
        } else {
            guard current.chosen != [option] else { return }
            chosen = [option]
        }
        editorState.current?.chosen = chosen
        pushStep(.choose(opening: current.opening, before: current.chosen, after: chosen))
    }
}
