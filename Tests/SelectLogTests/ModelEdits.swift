import SelectLog

// Row and section edits in the model (contract 5.8, README "Row edits"): rows keep their
// identity, so whatever follows rows (selection, option view, swipe, editor, undo steps)
// follows them for free.

extension ModelTable {
    mutating func edit(deletes: [RowPath] = [], inserts: [RowPath] = [], insertHeights: [Points]? = nil,
                       moves: [(RowPath, RowPath)] = [], reloads: [RowPath] = [], reloadHeights: [Points]? = nil) throws(ModelRejection) {
        // Validation, all before any change.
        for d in deletes where !contains(d) { throw ModelRejection("delete out of range") }
        if Set(deletes).count != deletes.count { throw ModelRejection("duplicate delete") }
        for (from, _) in moves where !contains(from) || deletes.contains(from) { throw ModelRejection("bad move source") }
        if Set(moves.map(\.0)).count != moves.count { throw ModelRejection("row moved twice") }
        for r in reloads where !contains(r) || deletes.contains(r) || moves.contains(where: { $0.0 == r }) {
            throw ModelRejection("bad reload")
        }
        if Set(reloads).count != reloads.count { throw ModelRejection("duplicate reload") }
        var after = sections.map(\.rows.count)
        for d in deletes { after[d.section] -= 1 }
        for (from, _) in moves { after[from.section] -= 1 }
        let targets = inserts + moves.map(\.1)
        for p in targets where p.section >= 0 && p.section < sections.count { after[p.section] += 1 }
        for p in targets where !(p.section >= 0 && p.section < sections.count && p.row >= 0 && p.row < after[p.section]) {
            throw ModelRejection("target out of range")
        }
        if Set(targets).count != targets.count { throw ModelRejection("duplicate target") }

        interruptSelectionPan(cancel: false)
        for (k, r) in reloads.enumerated() {
            sections[r.section].rows[r.row].selected = false
            if let hs = reloadHeights, k < hs.count { sections[r.section].rows[r.row].height = hs[k].raw }
        }
        let moved = moves.map { sections[$0.0.section].rows[$0.0.row] }
        let gone = Set(deletes + moves.map(\.0))
        var slots = after.map { [ModelRow?](repeating: nil, count: $0) }
        for (k, p) in inserts.enumerated() {
            let given = insertHeights.flatMap { k < $0.count ? $0[k].raw : nil }
            slots[p.section][p.row] = newRow(height: given ?? sections[p.section].rowHeight)
        }
        for (k, (_, to)) in moves.enumerated() { slots[to.section][to.row] = moved[k] }
        for s in sections.indices {
            var remaining = sections[s].rows.indices.filter { !gone.contains(RowPath(s, $0)) }.map { sections[s].rows[$0] }.makeIterator()
            for k in slots[s].indices where slots[s][k] == nil { slots[s][k] = remaining.next() }
        }
        for s in sections.indices { sections[s].rows = slots[s].compactMap { $0 } }
        dropVanishedRows()
    }

    mutating func insertSections(at indices: [Int], specs: [SectionSpec]) throws(ModelRejection) {
        if indices.count != specs.count { throw ModelRejection("at and sections differ in length") }
        let after = sections.count + indices.count
        for i in indices where i < 0 || i >= after { throw ModelRejection("section index out of range") }
        if Set(indices).count != indices.count { throw ModelRejection("duplicate section index") }
        interruptSelectionPan(cancel: false)
        for (i, spec) in zip(indices, specs).sorted(by: { $0.0 < $1.0 }) { sections.insert(makeSection(spec), at: i) }
        dropVanishedRows()
    }

    mutating func deleteSections(at indices: [Int]) throws(ModelRejection) {
        for i in indices where i < 0 || i >= sections.count { throw ModelRejection("section index out of range") }
        if Set(indices).count != indices.count { throw ModelRejection("duplicate section index") }
        interruptSelectionPan(cancel: false)
        for i in indices.sorted(by: >) { sections.remove(at: i) }
        dropVanishedRows()
    }

    /// After an edit: what sat on a deleted row closes (a swipe on it is ignored from now on).
    private mutating func dropVanishedRows() {
        if path(of: optionOpenID) == nil { optionOpenID = nil }
        if path(of: editorRowID) == nil { editorRowID = nil }
        if swipeID != nil && path(of: swipeID) == nil {
            swipeID = nil
            swipeIgnored = true
        }
        reclamp()
    }
}
