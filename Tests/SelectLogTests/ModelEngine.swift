import SelectLog

/// Why the model rejected an event (it names the rule, for failure messages).
struct ModelRejection: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension ModelTable {
    /// Applies one event; throws, leaving the model unchanged, when the contract calls it invalid.
    mutating func apply(_ timed: TimedEvent) throws(ModelRejection) {
        let now = timed.t?.raw ?? t
        if now < t { throw ModelRejection("t goes backwards") }
        var next = self
        try next.reduce(timed.event, now: now)
        // 5.3: a selection pan that began over no data row finds its start row at the
        // first event after which a data row is under the finger, whatever the event.
        if let p = next.pan, p.isSelectionPan, p.startID == nil { next.moveRule(reversal: false) }
        // 5.3: auto-scroll runs while the finger is in the zone of its direction (the
        // anchors and viewport of this moment, 5.10.13) and the offset can move that way;
        // 5.10.4: it stops after any event that leaves the offset at its bound.
        if let p = next.pan, let a = p.autoscroll {
            let runs = a < 0 ? p.fingerY < next.topAnchor && next.offset > 0
                             : p.fingerY > next.height + next.bottomAnchor && next.offset < next.maxOffset
            if !runs { next.pan?.autoscroll = nil }
        }
        next.t = now
        self = next
    }

    private mutating func reduce(_ event: Event, now: Int64) throws(ModelRejection) {
        switch event {
        case .configure(let patch): configure(patch)
        case .viewport(let w, let h):
            if let w { width = w.raw }
            if let h { height = h.raw }
            reclamp()
        case .reload(let specs):
            interruptSelectionPan(cancel: false)
            decelerating = false
            target = nil
            setSelected([])
            optionOpenID = nil
            swipeID = nil
            swipeIgnored = false
            editorRowID = nil
            undo.removeAll()
            redo.removeAll()
            sections = specs.map { makeSection($0) }
            reclamp()
        case .setEditing(let on): setEditing(on)
        case .tap(let p): tap(x: p.x.raw, y: p.y.raw)
        case .panBegan(let p, let fingers): try panBegan(x: p.x.raw, y: p.y.raw, fingers: fingers, now: now)
        case .panMoved(let p):
            guard let pan else { throw ModelRejection("panMoved with no pan") }
            if pan.isSelectionPan {
                countMove(x: p.x.raw, y: p.y.raw, now: now)
            } else if pan.kind == .scroll {
                offset = clamp(pan.offsetAtBegan - (p.y.raw - pan.yAtBegan))
            }
        case .panEnded(let p, let targetOffset): try panEnded(p, targetOffset: targetOffset?.raw, now: now)
        case .panCancelled:
            guard let current = pan else { throw ModelRejection("panCancelled with no pan") }
            if current.isSelectionPan { setSelected(current.before) }
            if current.kind == .scroll { dragging = false }
            pan = nil
        case .scroll(let motion, let phase, let goal):
            switch motion {
            case .to(let y)?: offset = clamp(y.raw)
            case .by(let dy)?: offset = clamp(offset + dy.raw)
            case nil: break
            }
            switch phase {
            case .decelerate?:
                decelerating = true
                if let goal { target = clamp(goal.raw) }
            case .idle?:
                decelerating = false
                target = nil
            case nil: break
            }
            if motion != nil { moveRule(reversal: false) }
        case .jumpToSection(let reference):
            let index: Int
            switch reference {
            case .index(let i):
                guard i >= 0, i < sections.count else { throw ModelRejection("no section \(i)") }
                index = i
            case .title(let title):
                guard let i = sections.firstIndex(where: { $0.title.map { Array($0.unicodeScalars) } == Array(title.unicodeScalars) }) else { throw ModelRejection("no title \(title)") }
                index = i
            }
            guard let header = elements.filter({ $0.kind == .header })[safe: index] else { throw ModelRejection("no header") }
            offset = clamp(header.top)
            moveRule(reversal: false)
        case .swipeBegan(let row):
            guard contains(row) else { throw ModelRejection("swipeBegan out of range") }
            let id = id(at: (row.section, row.row))
            if optionWidth == 0 || sections[row.section].rows[row.row].selected {
                swipeID = nil
                swipeIgnored = true
                return
            }
            if optionOpenID != id { optionOpenID = nil }
            swipeID = id
            swipeIgnored = false
            swipeOffset = optionOpenID == id ? optionWidth : 0
        case .swipeMoved(let o):
            if swipeID != nil { swipeOffset = min(max(o.raw, 0), optionWidth) }
        case .swipeEnded(let velocity):
            defer { swipeID = nil; swipeIgnored = false }
            guard let id = swipeID else { return }
            let opens: Bool
            if let v = velocity?.raw, v.magnitude >= 200 * 64 { opens = v > 0 } else { opens = 2 * swipeOffset >= optionWidth }
            if opens { optionOpenID = id } else if optionOpenID == id { optionOpenID = nil }
        case .setOptionVisible(let row, let visible):
            guard contains(row) else { throw ModelRejection("setOptionVisible out of range") }
            guard optionWidth != 0 else { return }
            let id = id(at: (row.section, row.row))
            if visible { optionOpenID = id } else if optionOpenID == id { optionOpenID = nil }
        case .toggleEditor(let row, let options, let multiple, let chosen):
            guard contains(row) else { throw ModelRejection("toggleEditor out of range") }
            guard chosen.allSatisfy({ $0 >= 0 && $0 < options.count }) else { throw ModelRejection("chosen out of range") }
            let picked = Array(Set(chosen)).sorted()
            if !multiple && picked.count > 1 { throw ModelRejection("single editor, several chosen") }
            let id = id(at: (row.section, row.row))
            if editorRowID == id {
                editorRowID = nil
            } else {
                editorRowID = id
                editorOptions = options
                editorMultiple = multiple
                editorChosen = picked
                editorOpening = openings
                openings += 1
            }
            reclamp()
        case .choose(let option):
            guard editorRowID != nil else { throw ModelRejection("choose with no editor") }
            guard option >= 0, option < editorOptions.count else { throw ModelRejection("option out of range") }
            var chosen = editorChosen
            if editorMultiple {
                if let i = chosen.firstIndex(of: option) { chosen.remove(at: i) } else { chosen = (chosen + [option]).sorted() }
            } else {
                chosen = [option]
            }
            guard chosen != editorChosen else { return }
            push(.choose(opening: editorOpening, before: editorChosen, after: chosen))
            editorChosen = chosen
        case .tick: tick(now: now)
        case .insertRows(let at, let heights): try edit(inserts: at, insertHeights: heights)
        case .deleteRows(let at): try edit(deletes: at)
        case .moveRow(let from, let to): try edit(moves: [(from, to)])
        case .reloadRows(let at, let heights): try edit(reloads: at, reloadHeights: heights)
        case .batch(let u):
            try edit(deletes: u.deletes, inserts: u.inserts, insertHeights: u.insertHeights,
                     moves: u.moves.map { ($0.from, $0.to) }, reloads: u.reloads, reloadHeights: u.reloadHeights)
        case .insertSections(let at, let specs): try insertSections(at: at, specs: specs)
        case .deleteSections(let at): try deleteSections(at: at)
        case .select(let rows):
            guard rows.allSatisfy(contains) else { throw ModelRejection("select out of range") }
            let ids = Set(rows.map { id(at: ($0.section, $0.row)) })
            if !multiple && ids.count > 1 { throw ModelRejection("select of several rows in single mode") }
            guard pan?.isSelectionPan != true, !ids.isEmpty else { return }
            changeSelection(to: multiple ? selectedIDs.union(ids) : ids)
        case .deselect(let rows):
            guard rows.allSatisfy(contains) else { throw ModelRejection("deselect out of range") }
            guard pan?.isSelectionPan != true else { return }
            changeSelection(to: selectedIDs.subtracting(rows.map { id(at: ($0.section, $0.row)) }))
        case .selectAll:
            if !multiple { throw ModelRejection("selectAll in single mode") }
            guard pan?.isSelectionPan != true else { return }
            changeSelection(to: Set(order.map { id(at: $0) }))
        case .deselectAll:
            guard pan?.isSelectionPan != true else { return }
            changeSelection(to: [])
        case .undo:
            if pan != nil { throw ModelRejection("undo during a pan") }
            guard let step = undo.popLast() else { return }
            restore(step, forward: false)
            redo.append(step)
            trimHistory()
        case .redo:
            if pan != nil { throw ModelRejection("redo during a pan") }
            guard let step = redo.popLast() else { return }
            restore(step, forward: true)
            undo.append(step)
            trimHistory()
        }
    }

    mutating func reclamp() {
        offset = clamp(offset)
        if let target { self.target = clamp(target) }
    }

    private mutating func configure(_ c: ConfigurationPatch) {
        if let v = c.allowsSelection { allowsSelection = v }
        if let v = c.allowsMultipleSelection { allowsMultipleSelection = v }
        if let v = c.allowsSelectionDuringEditing { allowsSelectionDuringEditing = v }
        if let v = c.allowsMultipleSelectionDuringEditing { allowsMultipleSelectionDuringEditing = v }
        if let v = c.multiSelectInteraction { multiSelectInteraction = v }
        if let s = c.scrollAndSelect {
            if let v = s.enabled { stripEnabled = v }
            if let v = s.edge { stripTrailing = v == .trailing }
            if let v = s.stripWidth { stripWidth = v.raw }
            if let v = s.topAnchor { topAnchor = v.raw }
            if let v = s.bottomAnchor { bottomAnchor = v.raw }
            if let v = s.rowsPerSecond { rowsPerSecond = v.raw }
            if let v = s.reversal { stripRestore = v == .restore }
            if let v = s.jitter { jitter = v.raw }
        }
        if let v = c.optionWidth {
            optionWidth = v.raw
            if optionWidth == 0 { optionOpenID = nil }
        }
        if let v = c.editorHeight { editorHeight = v.raw }
        if let v = c.undoLimit { undoLimit = v }
        trimHistory()
        // 5.3: a configure after which the mode is not multiple ends a selection pan first.
        if pan?.isSelectionPan == true && !multiple { interruptSelectionPan(cancel: false) }
        if !selectable || (!multiple && selectedIDs.count > 1) { setSelected([]) }
        reclamp()
    }

    mutating func setEditing(_ on: Bool) {
        guard on != editing else {
            optionOpenID = nil
            return
        }
        interruptSelectionPan(cancel: true)
        editing = on
        setSelected([])
        optionOpenID = nil
        swipeID = nil
        swipeIgnored = false
        undo.removeAll()
        redo.removeAll()
    }

    /// 5.3 interrupted pans: a selection pan ends (as `panEnded`, or as `panCancelled`)
    /// and its touch stays as an interrupted pan. A drag scroll goes on.
    mutating func interruptSelectionPan(cancel: Bool) {
        guard let current = pan, current.isSelectionPan else { return }
        if cancel { setSelected(current.before) } else { recordChange(from: current.before) }
        pan = ModelPan(kind: .interrupted)
    }

    private mutating func tap(x: Int64, y: Int64) {
        guard pan == nil, let p = rowAt(x: x, y: y) else { return }
        let id = id(at: p)
        if optionOpenID == id {
            optionOpenID = nil
            return
        }
        guard selectable else { return }
        if multiple {
            var new = selectedIDs
            if new.contains(id) { new.remove(id) } else { new.insert(id) }
            changeSelection(to: new)
        } else {
            changeSelection(to: [id])
        }
    }

    private mutating func restore(_ step: ModelStep, forward: Bool) {
        switch step {
        case .selection(let changes):
            var new = selectedIDs
            let present = Set(order.map { id(at: $0) })
            var on: Set<Int> = []
            for c in changes where present.contains(c.id) {
                let value = forward ? c.after : c.before
                if value { new.insert(c.id); on.insert(c.id) } else { new.remove(c.id) }
            }
            // README: single mode keeps the step's own selected rows, then the first of them.
            if !multiple && new.count > 1 {
                new = new.intersection(on)
                if new.count > 1, let first = order.map({ id(at: $0) }).first(where: new.contains) { new = [first] }
            }
            setSelected(new)
        case let .choose(opening, before, after):
            if editorRowID != nil && editorOpening == opening { editorChosen = forward ? after : before }
        }
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { i >= 0 && i < count ? self[i] : nil }
}
