extension TableState {
    mutating func panBegan(at p: ViewportPoint, fingers: Int, now: Micros, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        if pan != nil { throw InvalidEvent("panBegan", "a pan is already active") }
        decelerating = false
        target = nil
        let c = configuration
        if fingers == 2, c.multiSelectInteraction, c.allowsMultipleSelectionDuringEditing, row(at: p) != nil {
            setEditing(true)
            pan = Pan(selecting: .multiSelect, at: p, reversal: .restore, selection: selection)
            applyMoveRule(reversal: false, &changed)
        } else if fingers == 1, c.strip.enabled, isInStrip(p.x), isMultiple {
            pan = Pan(selecting: .strip, at: p, reversal: c.strip.reversal, selection: selection)
            applyMoveRule(reversal: false, &changed)
        } else {
            pan = Pan(scrollFrom: p, offset: contentOffset)
            dragging = true
        }
    }

    /// Whether `x` is inside the half-open strip band (spec 5.10.11).
    func isInStrip(_ x: Points) -> Bool {
        let s = configuration.strip
        switch s.edge {
        case .leading: return x >= .zero && x < s.stripWidth
        case .trailing: return x >= viewport.width - s.stripWidth && x < viewport.width
        }
    }

    mutating func panMoved(to p: ViewportPoint, now: Micros, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        guard let kind = pan?.kind else { throw InvalidEvent("panMoved", "no pan is active") }
        if kind != .scroll {
            countMove(to: p, now: now, &changed)
        } else if let began = pan?.offsetAtBegan, let yAtBegan = pan?.yAtBegan {
            contentOffset = clampedOffset(began - (p.y - yAtBegan))
        }
    }

    mutating func panEnded(at p: ViewportPoint?, targetOffset: Points?, now: Micros, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        if pan == nil { throw InvalidEvent("panEnded", "no pan is active") }
        endPan(at: p, targetOffset: targetOffset, now: now, &changed)
    }

    /// Ends the active pan: a last move to `p`, then a drag scroll may start decelerating,
    /// and a selection pan's changes become one undo step.
    mutating func endPan(at p: ViewportPoint?, targetOffset: Points?, now: Micros, _ changed: inout SelectionDelta) {
        guard let current = pan else { return }
        if current.isSelectionPan {
            if let p { countMove(to: p, now: now, &changed) }
            let before = pan?.selectionBefore ?? current.selectionBefore
            pan = nil
            let added = selection.subtracting(before)
            let removed = before.subtracting(selection)
            if !added.isEmpty || !removed.isEmpty { pushStep(.selection(added: added, removed: removed)) }
        } else {
            if let p { contentOffset = clampedOffset(current.offsetAtBegan - (p.y - current.yAtBegan)) }
            pan = nil
            dragging = false
            if let targetOffset {
                let goal = clampedOffset(targetOffset)
                if goal != contentOffset {
                    decelerating = true
                    target = goal
                }
            }
        }
    }

    mutating func panCancelled() throws(InvalidEvent) {
        guard let current = pan else { throw InvalidEvent("panCancelled", "no pan is active") }
        if current.isSelectionPan { selection = current.selectionBefore } else { dragging = false }
        pan = nil
    }

    /// A finger move during a selection pan: jitter, direction, the move rule, auto-scroll.
    mutating func countMove(to p: ViewportPoint, now: Micros, _ changed: inout SelectionDelta) {
        guard let finger = pan?.finger else { return }
        let previous = pan?.direction
        let dy = p.y - finger.y
        if (dy < .zero ? -dy : dy) < configuration.strip.jitter { return }
        var reversal = false
        if dy != .zero {
            let direction: Direction = dy > .zero ? .down : .up
            if let previous, previous != direction { reversal = true }
            pan?.direction = direction
        }
        pan?.finger = p
        applyMoveRule(reversal: reversal, &changed)
        updateAutoscroll(now: now)
    }

    /// The move rule of spec 5.3 for the row now under the finger.
    mutating func applyMoveRule(reversal: Bool, _ changed: inout SelectionDelta) {
        guard let finger = pan?.finger, pan?.isSelectionPan == true else { return }
        let r = row(at: finger)
        guard let start = pan?.start, let mode = pan?.mode, let anchor = pan?.anchor else {
            // The start row: the first data row the finger reaches.
            guard let r else { return }
            let mode: PanMode = selection.contains(r) ? .deselect : .select
            pan?.start = r
            pan?.mode = mode
            pan?.anchor = r
            pan?.end = r
            selection.set(r, to: mode == .select)
            changed.record(r, selected: mode == .select)
            return
        }
        switch pan?.reversal ?? .flip {
        case .flip:
            var m = mode
            if reversal {
                m = mode.flipped
                pan?.mode = m
            }
            if let r {
                setSelectedRows(between: anchor, and: r, to: m == .select, recording: &changed)
                pan?.anchor = r
                pan?.end = r
            }
        case .restore:
            if let r, r != pan?.end, let before = pan?.selectionBefore {
                pan?.end = r
                var next = before
                setRows(between: start, and: r, to: mode == .select, in: &next)
                changed.record(added: next.subtracting(selection), removed: selection.subtracting(next))
                selection = next
            }
        }
    }

    /// Starts, keeps or stops auto-scroll after a counted move (spec 5.3).
    private mutating func updateAutoscroll(now: Micros) {
        guard let finger = pan?.finger else { return }
        let direction = pan?.direction
        let s = configuration.strip
        var wanted: Direction?
        if finger.y < s.topAnchor, direction == .up, contentOffset > .zero {
            wanted = .up
        } else if finger.y > viewport.height + s.bottomAnchor, direction == .down, contentOffset < maxOffset {
            wanted = .down
        }
        if wanted != pan?.autoscroll {
            pan?.autoscroll = wanted
            pan?.autoscrollSince = now
        }
    }

    /// Stops auto-scroll once the offset sits at its bound in the scroll direction.
    mutating func stopAutoscrollAtBound() {
        guard let direction = pan?.autoscroll else { return }
        if (direction == .up && contentOffset <= .zero) || (direction == .down && contentOffset >= maxOffset) {
            pan?.autoscroll = nil
        }
    }

    /// `tick`: moves an auto-scroll by the exact distance for the time since it last moved.
    mutating func tick(_ now: Micros, _ changed: inout SelectionDelta) {
        guard let direction = pan?.autoscroll, let since = pan?.autoscrollSince else { return }
        let distance = autoscrollDistance(elapsed: Micros(raw: now.raw - since.raw))
        pan?.autoscrollSince = now
        let moved = direction == .up ? contentOffset - distance : contentOffset + distance
        contentOffset = clampedOffset(moved)
        applyMoveRule(reversal: false, &changed)
    }

    /// `rowsPerSecond × (total data-row height / data-row count) × elapsed / 1000`, rounded
    /// once, half to even, onto the 1/64 pt grid (spec 5.10.1). Saturates instead of overflowing.
    func autoscrollDistance(elapsed: Micros) -> Points {
        let count = layout.rowCount
        guard count > 0, elapsed.raw > 0 else { return .zero }
        // In grid units: rps·64 × total·64 × µs / (64 × count × 1_000_000).
        let rate = UInt64(configuration.strip.rowsPerSecond.raw)
        let total = UInt64(layout.rowTotal.raw)
        let micros = UInt64(elapsed.raw)
        let divisor = 64 * UInt64(count) * 1_000_000
        let a = rate.multipliedFullWidth(by: total)
        // (a.high, a.low) × micros, as three 64-bit words.
        let lowPart = a.low.multipliedFullWidth(by: micros)
        let highPart = a.high.multipliedFullWidth(by: micros)
        let (middle, carry) = lowPart.high.addingReportingOverflow(highPart.low)
        let top = highPart.high &+ (carry ? 1 : 0)
        let saturated = Points.limit
        if top != 0 || middle >= divisor { return saturated }
        let (q, r) = divisor.dividingFullWidth((middle, lowPart.low))
        var result = q
        if r > divisor - r || (r == divisor - r && q % 2 == 1) { result += 1 }
        return result > UInt64(saturated.raw) ? saturated : Points(raw: Int64(result))
    }
}
