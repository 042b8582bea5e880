extension TableState {
    mutating func panBegan(at p: Point, fingers: Int, now: Micros) throws(InvalidEvent) {
        if pan != nil { throw InvalidEvent("panBegan", "a pan is already active") }
        decelerating = false
        target = nil
        let c = configuration
        if fingers == 2, c.multiSelectInteraction, c.allowsMultipleSelectionDuringEditing, row(at: p) != nil {
            setEditing(true)
            pan = Pan(selecting: .multiSelect, at: p, reversal: .restore, selection: selection)
            applyMoveRule(reversal: false)
        } else if fingers == 1, c.strip.enabled, isInStrip(p.x), isMultiple {
            pan = Pan(selecting: .strip, at: p, reversal: c.strip.reversal, selection: selection)
            applyMoveRule(reversal: false)
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

    mutating func panMoved(to p: Point, now: Micros) throws(InvalidEvent) {
        guard let pan else { throw InvalidEvent("panMoved", "no pan is active") }
        if pan.isSelectionPan {
            countMove(to: p, now: now)
        } else {
            contentOffset = clampedOffset(pan.offsetAtBegan - (p.y - pan.yAtBegan))
        }
    }

    mutating func panEnded(at p: Point?, targetOffset: Points?, now: Micros) throws(InvalidEvent) {
        if pan == nil { throw InvalidEvent("panEnded", "no pan is active") }
        endPan(at: p, targetOffset: targetOffset, now: now)
    }

    /// Ends the active pan: a last move to `p`, then a drag scroll may start decelerating,
    /// and a selection pan's changes become one undo step.
    mutating func endPan(at p: Point?, targetOffset: Points?, now: Micros) {
        guard let current = pan else { return }
        if current.isSelectionPan {
            if let p { countMove(to: p, now: now) }
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
    mutating func countMove(to p: Point, now: Micros) {
        guard var current = pan else { return }
        let dy = p.y - current.finger.y
        if (dy < .zero ? -dy : dy) < configuration.strip.jitter { return }
        var reversal = false
        if dy != .zero {
            let direction: Direction = dy > .zero ? .down : .up
            if let previous = current.direction, previous != direction { reversal = true }
            current.direction = direction
        }
        current.finger = p
        pan = current
        applyMoveRule(reversal: reversal)
        updateAutoscroll(now: now)
    }

    /// The move rule of spec 5.3 for the row now under the finger.
    mutating func applyMoveRule(reversal: Bool) {
        guard var current = pan, current.isSelectionPan else { return }
        let r = row(at: current.finger)
        guard let start = current.start, let mode = current.mode, let anchor = current.anchor else {
            // The start row: the first data row the finger reaches.
            guard let r else { return }
            let mode: PanMode = selection.contains(r) ? .deselect : .select
            current.start = r
            current.mode = mode
            current.anchor = r
            current.end = r
            pan = current
            selection.set(r, to: mode == .select)
            return
        }
        switch current.reversal {
        case .flip:
            var m = mode
            if reversal {
                m = mode.flipped
                current.mode = m
            }
            if let r {
                let range = rows(between: anchor, and: r)
                selection = m == .select ? selection.union(range) : selection.subtracting(range)
                current.anchor = r
                current.end = r
            }
        case .restore:
            if let r {
                current.end = r
                let range = rows(between: start, and: r)
                selection = mode == .select ? current.selectionBefore.union(range) : current.selectionBefore.subtracting(range)
            }
        }
        pan = current
    }

    /// Starts, keeps or stops auto-scroll after a counted move (spec 5.3).
    private mutating func updateAutoscroll(now: Micros) {
        guard var current = pan else { return }
        let s = configuration.strip
        var wanted: Direction?
        if current.finger.y < s.topAnchor, current.direction == .up, contentOffset > .zero {
            wanted = .up
        } else if current.finger.y > viewport.height + s.bottomAnchor, current.direction == .down, contentOffset < maxOffset {
            wanted = .down
        }
        if wanted != current.autoscroll {
            current.autoscroll = wanted
            current.autoscrollSince = now
            pan = current
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
    mutating func tick(_ now: Micros) {
        guard let current = pan, let direction = current.autoscroll else { return }
        let distance = autoscrollDistance(elapsed: Micros(raw: now.raw - current.autoscrollSince.raw))
        pan?.autoscrollSince = now
        let moved = direction == .up ? contentOffset - distance : contentOffset + distance
        contentOffset = clampedOffset(moved)
        applyMoveRule(reversal: false)
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
