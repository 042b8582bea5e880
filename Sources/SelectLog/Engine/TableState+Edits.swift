extension TableState {
    /// Applies a row edit with UIKit's `performBatchUpdates` frames (spec 5.8):
    /// deletes, reloads and move sources name pre-update rows, inserts and move
    /// targets post-update rows. A selection pan is interrupted first (spec 5.3).
    mutating func edit(_ u: BatchUpdate, type: String, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        try validate(u, type)
        interruptSelectionPan(cancel: false)
        // A reloaded row leaves the selection; the only change of membership an edit
        // makes (its other rows follow it). Recorded where the row ends up: reloaded
        // rows are neither deleted nor moved (`validate`), so they only shift.
        var deselected: [RowPath] = []
        for (k, r) in u.reloads.enumerated() {
            if changed.isRecording && selection.contains(r) { deselected.append(r) }
            selection.remove(r)
            if let hs = u.reloadHeights, k < hs.count { layout.setHeight(hs[k], of: r) }
        }
        let operations = u.operations
        var carry = RowCarry()
        carry.insertHeights = u.insertHeights
        follow(operations, carry: &carry)
        if !deselected.isEmpty {
            changed.record(added: RowSet(), removed: RowSet(deselected).applying(operations))
        }
    }

    /// The one mechanism that follows rows through edits: every part that holds rows
    /// (the layout with its editor row, the selection and its history, the option
    /// views) follows each operation in turn, or a run of them at once (below). An
    /// editor whose row went away closes.
    mutating func follow(_ operations: [RowOperation], carry: inout RowCarry) {
        // A run of section operations rebuilds the layout's section tree once, after it
        // (`TableLayout.followSection`); nothing between them reads it.
        // A run of deleted or new rows in one section (`OperationRun`) is followed by the
        // selection and its history at once; the layout and the option views, whose cost
        // per row does not grow with the selection, follow it one at a time. A run of
        // removed or new sections is followed at once by the layout too.
        var treeIsStale = false
        for (range, run) in OperationRun.split(operations) {
            if let run, run.kind == .sectionRemovals || run.kind == .sectionInsertions {
                layout.followSections(run, carry: carry)
                treeIsStale = true
                history.follow(run)
                for operation in operations[range] { options.follow(operation, carry: &carry) }
                continue
            }
            for operation in operations[range] {
                switch operation {
                case .insertSection, .removeSection:
                    layout.followSection(operation, carry: &carry)
                    treeIsStale = true
                case .insert, .remove:
                    if treeIsStale {
                        layout.rebuild()
                        treeIsStale = false
                    }
                    layout.follow(operation, carry: &carry)
                }
                if run == nil { history.follow(operation, carry: &carry) }
                options.follow(operation, carry: &carry)
            }
            if let run { history.follow(run) }
        }
        if treeIsStale { layout.rebuild() }
        if layout.editorRow == nil { editorState.close() }
        reclamp()
    }

    private func validate(_ u: BatchUpdate, _ type: String) throws(InvalidEvent) {
        // The fields as the event names them: a single edit's `at`, `from` and `to`, a
        // batch's `deletes`, `inserts`, `reloads` and `moves`.
        let deletes = type == "deleteRows" ? "at" : "deletes", inserts = type == "insertRows" ? "at" : "inserts"
        let reloads = type == "reloadRows" ? "at" : "reloads"
        func move(_ k: Int, _ end: String) -> String { type == "moveRow" ? end : "moves[\(k)] \(end)" }
        // The same as a path into the event (`InvalidEvent.field`): `moves[k][0]`, `moves[k][1]`.
        func movePath(_ k: Int, _ end: String) -> String { type == "moveRow" ? end : "moves[\(k)][\(end == "from" ? 0 : 1)]" }
        try checkRows(u.deletes, type, deletes)
        var deleted = Set<RowPath>()
        for (k, d) in u.deletes.enumerated() where !deleted.insert(d).inserted {
            throw InvalidEvent(.malformed, type, field: "\(deletes)[\(k)]", "\(deletes)[\(k)] \(d) is a duplicate")
        }
        var moved = Set<RowPath>()
        for (k, m) in u.moves.enumerated() {
            try checkRow(m.from, type, move(k, "from"), path: movePath(k, "from"))
            if deleted.contains(m.from) { throw InvalidEvent(.malformed, type, field: movePath(k, "from"), "row \(m.from) is both deleted and moved") }
            if !moved.insert(m.from).inserted { throw InvalidEvent(.malformed, type, field: movePath(k, "from"), "row \(m.from) is moved twice") }
        }
        try checkRows(u.reloads, type, reloads)
        var reloaded = Set<RowPath>()
        for (k, r) in u.reloads.enumerated() {
            let field = "\(reloads)[\(k)]"
            if !reloaded.insert(r).inserted { throw InvalidEvent(.malformed, type, field: field, "\(field) \(r) is a duplicate") }
            if deleted.contains(r) { throw InvalidEvent(.malformed, type, field: field, "row \(r) is both reloaded and deleted") }
            if moved.contains(r) { throw InvalidEvent(.malformed, type, field: field, "row \(r) is both reloaded and moved") }
        }
        // Rows per section after the update.
        var delta: [Int: Int] = [:]
        for d in u.deletes { delta[d.section, default: 0] -= 1 }
        for m in u.moves {
            delta[m.from.section, default: 0] -= 1
            if m.to.section >= 0 && m.to.section < layout.sectionCount { delta[m.to.section, default: 0] += 1 }
        }
        for i in u.inserts where i.section >= 0 && i.section < layout.sectionCount { delta[i.section, default: 0] += 1 }
        // Each post-update path, and the entry that put a row there (named in the reason
        // for a second entry that puts one there too).
        var targets: [RowPath: String] = [:]
        // (the name in the reason, the path into the event)
        let named = u.inserts.enumerated().map { ("\(inserts)[\($0)]", "\(inserts)[\($0)]", $1) }
            + u.moves.enumerated().map { (move($0, "to"), movePath($0, "to"), $1.to) }
        for (field, path, p) in named {
            guard p.section >= 0 && p.section < layout.sectionCount else {
                throw InvalidEvent(.outOfRange, type, field: path, "\(field) \(p) is out of range (the table has \(Self.sections(layout.sectionCount)))")
            }
            let after = layout.rowCount(in: p.section) + delta[p.section, default: 0]
            if p.row >= after {
                throw InvalidEvent(.outOfRange, type, field: path, "\(field) \(p) is out of range (section \(p.section) has \(after) rows after the update)")
            }
            if let earlier = targets.updateValue(field, forKey: p) {
                throw InvalidEvent(.malformed, type, field: path, "\(field) \(p) is a duplicate post-update index path (\(earlier) \(p) too)")
            }
        }
        if !u.inserts.isEmpty {
            let added = u.inserts.count
            if layout.rowCount + added > EventLimits.tableRows {
                throw InvalidEvent(.overLimit, type, "the table would have more than \(EventLimits.tableRows) rows")
            }
        }
    }

    mutating func insertSections(at indices: [Int], sections specs: [SectionSpec]) throws(InvalidEvent) {
        let type = "insertSections"
        if indices.count != specs.count {
            throw InvalidEvent(.malformed, type, field: EventField.sections.rawValue, "\"at\" has \(indices.count) entries but \"sections\" has \(specs.count)")
        }
        try checkTableSize(adding: specs, type: type, replacing: false)
        let after = layout.sectionCount + indices.count
        var seen = Set<Int>()
        for (k, i) in indices.enumerated() {
            if i >= after { throw InvalidEvent(.outOfRange, type, field: "at[\(k)]", "at[\(k)] \(i) is out of range (the table has \(Self.sections(after)) after the update)") }
            if !seen.insert(i).inserted { throw InvalidEvent(.malformed, type, field: "at[\(k)]", "at[\(k)] \(i) is a duplicate") }
        }
        interruptSelectionPan(cancel: false)
        var carry = RowCarry()
        for (i, spec) in zip(indices, specs) { carry.newSections[i] = spec.section }
        follow(indices.sorted().map { .insertSection($0) }, carry: &carry)
    }

    mutating func deleteSections(at indices: [Int]) throws(InvalidEvent) {
        let type = "deleteSections"
        var seen = Set<Int>()
        for (k, i) in indices.enumerated() {
            if i >= layout.sectionCount { throw InvalidEvent(.outOfRange, type, field: "at[\(k)]", "at[\(k)] \(i) is out of range (the table has \(Self.sections(layout.sectionCount)))") }
            if !seen.insert(i).inserted { throw InvalidEvent(.malformed, type, field: "at[\(k)]", "at[\(k)] \(i) is a duplicate") }
        }
        interruptSelectionPan(cancel: false)
        var carry = RowCarry()
        follow(indices.sorted(by: >).map { .removeSection($0) }, carry: &carry)
    }
}
