/// A row on its way through a batch: what it carries to its new index path.
private struct CarriedRow {
    var height: Points
    var members: [Bool]
    var optionOpen: Bool
    var editorBelow: Bool
    /// The offset of a swipe in progress on this row.
    var swipeOffset: Points?
}

extension TableState {
    /// Applies a row edit with UIKit's `performBatchUpdates` frames (spec 5.8):
    /// deletes, reloads and move sources name pre-update rows, inserts and move
    /// targets post-update rows. Everything that follows rows — the selection, the
    /// undo history, the open option view, the editor row — follows them here.
    mutating func edit(_ u: BatchUpdate, type: String) throws(InvalidEvent) {
        try validate(u, type)
        interruptSelectionPan(cancel: false)

        for (k, r) in u.reloads.enumerated() {
            selection.remove(r)
            if let hs = u.reloadHeights, k < hs.count { layout.setHeight(hs[k], of: r) }
        }

        // Removals last row first, so earlier index paths stay valid; then insertions
        // first row first, each at its post-update index path.
        var carried = [CarriedRow?](repeating: nil, count: u.moves.count)
        for operation in u.operations {
            switch operation {
            case let .remove(p, move):
                let editorBelow = layout.editorRow == p
                let height = layout.removeRow(at: p)
                if editorBelow && move == nil { editor = nil }
                let members = mapTrackedSets { $0.removeRow(at: p) }
                let (optionOpen, swipeOffset) = followSingleRows { r in
                    r == p ? nil : (r.section == p.section && r.row > p.row ? RowPath(r.section, r.row - 1) : r)
                }
                if let move {
                    carried[move] = CarriedRow(height: height, members: members, optionOpen: optionOpen,
                                               editorBelow: editorBelow, swipeOffset: swipeOffset)
                }
            case let .insert(p, source):
                followSingleRows { r in r.section == p.section && r.row >= p.row ? RowPath(r.section, r.row + 1) : r }
                switch source {
                case .new(let k):
                    let given = u.insertHeights.flatMap { k < $0.count ? $0[k] : nil }
                    let height = given ?? layout.sections[p.section].rowHeight
                    layout.insertRow(at: p, height: height)
                    mapTrackedSets { set, _ in set.insertRow(at: p, member: false) }
                case .move(let m):
                    guard let c = carried[m] else { continue }
                    layout.insertRow(at: p, height: c.height)
                    var bits = c.members.makeIterator()
                    mapTrackedSets { set, _ in set.insertRow(at: p, member: bits.next() ?? false) }
                    if c.optionOpen { options.open = p }
                    if c.editorBelow { layout.openEditor(below: p) }
                    if let offset = c.swipeOffset { options.swipe = .active(row: p, offset: offset) }
                }
            case .insertSection, .removeSection:
                continue
            }
        }
        reclamp()
    }

    /// Moves the open option view and the swipe in progress through one edit: `path`
    /// gives a row's new path, or nil when the row goes away. A row that goes away
    /// closes its option view and ends its swipe; what sat on it is returned, so that
    /// a moved row can carry it.
    @discardableResult
    mutating func followSingleRows(_ path: (RowPath) -> RowPath?) -> (optionOpen: Bool, swipeOffset: Points?) {
        var optionOpen = false
        if let o = options.open {
            options.open = path(o)
            optionOpen = options.open == nil
        }
        var swipeOffset: Points?
        if case .active(let row, let offset) = options.swipe {
            if let moved = path(row) {
                options.swipe = .active(row: moved, offset: offset)
            } else {
                options.swipe = .ignored
                swipeOffset = offset
            }
        }
        return (optionOpen, swipeOffset)
    }

    /// Applies `body` to the selection and to every undo and redo step's row sets,
    /// in a fixed order, returning what each call returned.
    @discardableResult
    mutating func mapTrackedSets(_ body: (inout RowSet) -> Bool) -> [Bool] {
        var out = [body(&selection)]
        func visit(_ stack: inout [UndoStep]) {
            for i in stack.indices {
                guard case .selection(var added, var removed) = stack[i] else { continue }
                stack[i] = .choose(opening: -1, before: [], after: [])  // release the old sets before mutating
                out.append(body(&added))
                out.append(body(&removed))
                stack[i] = .selection(added: added, removed: removed)
            }
        }
        visit(&undoStack)
        visit(&redoStack)
        return out
    }

    /// The same as `mapTrackedSets(_:)`, where `body` also receives the set's position.
    mutating func mapTrackedSets(_ body: (inout RowSet, Int) -> Void) {
        var k = 0
        mapTrackedSets { (set: inout RowSet) -> Bool in
            body(&set, k)
            k += 1
            return false
        }
    }

    private func validate(_ u: BatchUpdate, _ type: String) throws(InvalidEvent) {
        try checkRows(u.deletes, type, "deletes")
        var deleted = Set<RowPath>()
        for (k, d) in u.deletes.enumerated() where !deleted.insert(d).inserted {
            throw InvalidEvent(type, "deletes[\(k)] \(d) is a duplicate")
        }
        var moved = Set<RowPath>()
        for (k, m) in u.moves.enumerated() {
            try checkRow(m.from, type, "moves[\(k)] from")
            if deleted.contains(m.from) { throw InvalidEvent(type, "row \(m.from) is both deleted and moved") }
            if !moved.insert(m.from).inserted { throw InvalidEvent(type, "row \(m.from) is moved twice") }
        }
        try checkRows(u.reloads, type, "reloads")
        var reloaded = Set<RowPath>()
        for (k, r) in u.reloads.enumerated() {
            if !reloaded.insert(r).inserted { throw InvalidEvent(type, "reloads[\(k)] \(r) is a duplicate") }
            if deleted.contains(r) { throw InvalidEvent(type, "row \(r) is both reloaded and deleted") }
            if moved.contains(r) { throw InvalidEvent(type, "row \(r) is both reloaded and moved") }
        }
        // Rows per section after the update.
        var delta: [Int: Int] = [:]
        for d in u.deletes { delta[d.section, default: 0] -= 1 }
        for m in u.moves {
            delta[m.from.section, default: 0] -= 1
            if m.to.section >= 0 && m.to.section < layout.sectionCount { delta[m.to.section, default: 0] += 1 }
        }
        for i in u.inserts where i.section >= 0 && i.section < layout.sectionCount { delta[i.section, default: 0] += 1 }
        var targets = Set<RowPath>()
        let named = u.inserts.enumerated().map { ("inserts[\($0)]", $1) } + u.moves.enumerated().map { ("moves[\($0)] to", $1.to) }
        for (field, p) in named {
            guard p.section >= 0 && p.section < layout.sectionCount else {
                throw InvalidEvent(type, "\(field) \(p) is out of range (the table has \(layout.sectionCount) sections)")
            }
            let after = layout.rowCount(in: p.section) + delta[p.section, default: 0]
            if p.row >= after {
                throw InvalidEvent(type, "\(field) \(p) is out of range (section \(p.section) has \(after) rows after the update)")
            }
            if !targets.insert(p).inserted { throw InvalidEvent(type, "\(field) \(p) is a duplicate post-update index path") }
        }
        if !u.inserts.isEmpty {
            let added = u.inserts.count
            if layout.rowCount + added > 100_000_000 { throw InvalidEvent(type, "the table would have more than 100000000 rows") }
        }
    }

    mutating func insertSections(at indices: [Int], sections specs: [SectionSpec]) throws(InvalidEvent) {
        let type = "insertSections"
        if indices.count != specs.count {
            throw InvalidEvent(type, "\"at\" has \(indices.count) entries but \"sections\" has \(specs.count)")
        }
        try checkTableSize(adding: specs, type: type, replacing: false)
        let after = layout.sectionCount + indices.count
        var seen = Set<Int>()
        for (k, i) in indices.enumerated() {
            if i >= after { throw InvalidEvent(type, "at[\(k)] \(i) is out of range (the table has \(after) sections after the update)") }
            if !seen.insert(i).inserted { throw InvalidEvent(type, "at[\(k)] \(i) is a duplicate") }
        }
        interruptSelectionPan(cancel: false)
        for (i, spec) in zip(indices, specs).sorted(by: { $0.0 < $1.0 }) {
            layout.insertSection(spec.section, at: i)
            mapTrackedSets { set, _ in set.insertSection(at: i) }
            followSingleRows { r in r.section >= i ? RowPath(r.section + 1, r.row) : r }
        }
        reclamp()
    }

    mutating func deleteSections(at indices: [Int]) throws(InvalidEvent) {
        let type = "deleteSections"
        var seen = Set<Int>()
        for (k, i) in indices.enumerated() {
            if i >= layout.sectionCount { throw InvalidEvent(type, "at[\(k)] \(i) is out of range (the table has \(layout.sectionCount) sections)") }
            if !seen.insert(i).inserted { throw InvalidEvent(type, "at[\(k)] \(i) is a duplicate") }
        }
        interruptSelectionPan(cancel: false)
        for i in indices.sorted(by: >) {
            if layout.editorRow?.section == i { editor = nil }
            layout.removeSection(at: i)
            mapTrackedSets { set, _ in set.removeSection(at: i) }
            followSingleRows { r in r.section == i ? nil : (r.section > i ? RowPath(r.section - 1, r.row) : r) }
        }
        reclamp()
    }
}
