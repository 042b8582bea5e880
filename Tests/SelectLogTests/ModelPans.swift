import SelectLog

// Pans in the model (contract 5.3, 5.10.1, 5.10.3-5, 5.10.13), written from the text.

extension ModelTable {
    func inStrip(_ x: Int64) -> Bool {
        stripTrailing ? (x >= width - stripWidth && x < width) : (x >= 0 && x < stripWidth)
    }

    mutating func panBegan(x: Int64, y: Int64, fingers: Int, now: Int64) throws(ModelRejection) {
        if pan != nil { throw ModelRejection("panBegan during a pan") }
        decelerating = false
        target = nil
        if fingers == 2 && multiSelectInteraction && allowsMultipleSelectionDuringEditing && rowAt(x: x, y: y) != nil {
            if !editing { setEditing(true) }
            beginSelectionPan(.multiSelect, restore: true, x: x, y: y)
        } else if fingers == 1 && stripEnabled && inStrip(x) && multiple {
            beginSelectionPan(.strip, restore: stripRestore, x: x, y: y)
        } else {
            pan = ModelPan(kind: .scroll, offsetAtBegan: offset, yAtBegan: y)
            dragging = true
        }
    }

    private mutating func beginSelectionPan(_ kind: ModelPan.Kind, restore: Bool, x: Int64, y: Int64) {
        pan = ModelPan(kind: kind, restore: restore, fingerX: x, fingerY: y, startContentY: y + offset, before: selectedIDs)
        moveRule(reversal: false)
    }

    /// A finger sample during a selection pan: jitter, direction, the move rule, auto-scroll.
    mutating func countMove(x: Int64, y: Int64, now: Int64) {
        guard let current = pan, current.isSelectionPan else { return }
        let dy = y - current.fingerY
        if dy.magnitude < jitter.magnitude { return }
        var reversal = false
        if dy != 0 {
            let direction = dy > 0 ? 1 : -1
            if let previous = current.direction, previous != direction { reversal = true }
            pan?.direction = direction
        }
        pan?.fingerX = x
        pan?.fingerY = y
        moveRule(reversal: reversal)
        // Auto-scroll zones, against the direction of the finger.
        guard let p = pan else { return }
        var wanted: Int?
        if p.fingerY < topAnchor && p.direction == -1 && offset > 0 {
            wanted = -1
        } else if p.fingerY > height + bottomAnchor && p.direction == 1 && offset < maxOffset {
            wanted = 1
        }
        if wanted != p.autoscroll {
            pan?.autoscroll = wanted
            pan?.autoscrollSince = now
        }
    }

    /// The move rule for the data row now under the finger.
    mutating func moveRule(reversal: Bool) {
        guard var p = pan, p.isSelectionPan else { return }
        let under = rowAt(x: p.fingerX, y: p.fingerY).map { id(at: $0) }
        guard let start = p.startID, let mode = p.mode, let anchor = p.anchorID else {
            guard let r = under else { return }
            let s = startRow(reaching: r, from: p.startContentY)
            let m = !selectedIDs.contains(s)
            p.startID = s
            p.mode = m
            p.anchorID = r
            p.endID = r
            var selected = selectedIDs
            for id in ids(between: s, and: r) { if m { selected.insert(id) } else { selected.remove(id) } }
            setSelected(selected)
            pan = p
            return
        }
        if p.restore {
            if let r = under {
                p.endID = r
                var selected = p.before
                for id in ids(between: start, and: r) { if mode { selected.insert(id) } else { selected.remove(id) } }
                setSelected(selected)
            }
        } else {
            var m = mode
            if reversal {
                m.toggle()
                p.mode = m
            }
            if let r = under {
                var selected = selectedIDs
                for id in ids(between: anchor, and: r) { if m { selected.insert(id) } else { selected.remove(id) } }
                setSelected(selected)
                p.anchorID = r
                p.endID = r
            }
        }
        pan = p
    }

    /// 5.3: the data row nearest the starting content y on the way to `r`.
    func startRow(reaching r: Int, from y0: Int64) -> Int {
        var rows: [(id: Int, top: Int64, height: Int64)] = []
        for e in elements {
            if case .row(let s, let k) = e.kind { rows.append((id(at: (s, k)), e.top, e.height)) }
        }
        guard let hit = rows.first(where: { $0.id == r }) else { return r }
        if hit.top <= y0 && y0 < hit.top + hit.height { return r }
        if hit.top > y0 { return rows.first(where: { $0.top >= y0 })?.id ?? r }
        return rows.last(where: { $0.top + $0.height <= y0 })?.id ?? r
    }

    mutating func tick(now: Int64) {
        guard let p = pan, p.isSelectionPan, let direction = p.autoscroll else { return }
        let all = sections.flatMap(\.rows)
        var distance: Int64 = 0
        if !all.isEmpty && now > p.autoscrollSince {
            // rowsPerSecond × mean height × elapsed / 1000, in 1/64 pt, rounded half to even.
            let total = all.reduce(Int64(0)) { $0 + $1.height }
            let numerator = rowsPerSecond.multipliedReportingOverflow(by: total).partialValue
                .multipliedReportingOverflow(by: now - p.autoscrollSince).partialValue
            let divisor = 64 * Int64(all.count) * 1_000_000
            let (q, r) = numerator.quotientAndRemainder(dividingBy: divisor)
            distance = q + ((2 * r > divisor || (2 * r == divisor && q % 2 == 1)) ? 1 : 0)
        }
        pan?.autoscrollSince = now
        offset = clamp(offset + Int64(direction) * distance)
        moveRule(reversal: false)
    }

    mutating func panEnded(_ point: ViewportPoint?, targetOffset: Int64?, now: Int64) throws(ModelRejection) {
        guard let current = pan else { throw ModelRejection("panEnded with no pan") }
        switch current.kind {
        case .strip, .multiSelect:
            if let point { countMove(x: point.x.raw, y: point.y.raw, now: now) }
            pan = nil
            recordChange(from: current.before)
        case .scroll:
            if let point { offset = clamp(current.offsetAtBegan - (point.y.raw - current.yAtBegan)) }
            pan = nil
            dragging = false
            if let targetOffset, clamp(targetOffset) != offset {
                decelerating = true
                target = clamp(targetOffset)
            }
        case .interrupted:
            pan = nil
        }
    }
}
