extension TableLayout: RowFollowing {
    /// Row heights and the editor row follow one operation: a moved row carries its
    /// height and the editor below it; a deleted row closes the editor below it.
    mutating func follow(_ operation: RowOperation, carry: inout RowCarry) {
        let editor = editorRow
        let followed = editor.flatMap(operation.follow)
        switch operation {
        case let .remove(p, move):
            if editor != nil && followed == nil { closeEditor() } else { shiftEditor(to: followed) }
            let height = removeHeight(at: p)
            if let move {
                carry.moved[move, default: CarriedRow()].height = height
                carry.moved[move, default: CarriedRow()].editorBelow = editor == p
            }
        case let .insert(p, source):
            shiftEditor(to: followed)
            switch source {
            case .new(let k):
                let given = carry.insertHeights.flatMap { k < $0.count ? $0[k] : nil }
                insertHeight(given ?? sections[p.section].rowHeight, at: p)
            case .move(let m):
                let c = carry.moved[m] ?? CarriedRow()
                insertHeight(c.height, at: p)
                if c.editorBelow { openEditor(below: p) }
            }
        case .insertSection, .removeSection:
            followSection(operation, carry: &carry)
            rebuild()
        }
    }

    /// `follow(_:carry:)` of a section operation without rebuilding the section tree: the
    /// caller rebuilds it once after a run of them (one `insertSections` or
    /// `deleteSections`), before anything reads it. Rebuilt after each, an event of k
    /// sections cost O(k × sections): 80,000 new sections in one event took 30 s.
    mutating func followSection(_ operation: RowOperation, carry: inout RowCarry) {
        let followed = editorRow.flatMap(operation.follow)
        switch operation {
        case .insertSection(let i):
            replaceSection(at: i, inserting: carry.newSections[i] ?? LayoutSection(count: 0), editor: followed, rebuilding: false)
        case .removeSection(let i):
            replaceSection(at: i, inserting: nil, editor: followed, rebuilding: false)
        case .remove, .insert:
            assertionFailure("followSection(_:carry:) of a row operation")
        }
    }
}

extension TableLayout {
    /// `followSection(_:carry:)` of every operation of a run of section removals or
    /// insertions, in one pass over the sections (each one in turn moved every section
    /// after it: O(k × sections)). The caller rebuilds the tree, as after `followSection`.
    mutating func followSections(_ run: OperationRun, carry: RowCarry) {
        let indices = run.rows
        var out: [LayoutSection] = []
        switch run.kind {
        case .sectionRemovals:
            out.reserveCapacity(Swift.max(0, sections.count - indices.count))
            var cursor = OperationRun.Cursor(run)
            for (s, section) in sections.enumerated() where cursor.follow(s) != nil { out.append(section) }
        case .sectionInsertions:
            out.reserveCapacity(sections.count + indices.count)
            var i = 0, old = 0
            while old < sections.count || i < indices.count {
                if i < indices.count && indices[i] == out.count {
                    out.append(carry.newSections[indices[i]] ?? LayoutSection(count: 0))
                    i += 1
                } else if old < sections.count {
                    out.append(sections[old])
                    old += 1
                } else {
                    break  // a position past the end (the event's checks refuse it)
                }
            }
        case .deletions, .insertions:
            assertionFailure("followSections(_:carry:) of a run of rows")
            return
        }
        // The editor row goes with its section, or moves with it.
        var cursor = OperationRun.Cursor(run)
        let editor = editorRow.flatMap { e in cursor.follow(e.section).map { RowPath($0, e.row) } }
        storeSections(out, editor: editor)
    }
}

extension TableLayout {
    /// Inserts a section at `index`; later sections (and the editor row) move down.
    package mutating func insertSection(_ section: LayoutSection, at index: Int) {
        var carry = RowCarry()
        carry.newSections[index] = section
        follow(.insertSection(index), carry: &carry)
    }

    /// Removes section `index` with its rows (and the editor row, if it sat there).
    package mutating func removeSection(at index: Int) {
        var carry = RowCarry()
        follow(.removeSection(index), carry: &carry)
    }
}
