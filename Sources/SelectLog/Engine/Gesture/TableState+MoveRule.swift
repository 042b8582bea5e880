/// The rules a selection pan follows inside its phases (spec 5.3): jitter and
/// direction, the start row, the move rule, and auto-scroll. The phases themselves
/// change only in `TableState+Gestures.swift`.
extension TableState {
    /// Whether `x` is inside the half-open strip band (spec 5.10.11).
    func isInStrip(_ x: Points) -> Bool {
        let s = configuration.strip
        switch s.edge {
        case .leading: return x >= .zero && x < s.stripWidth
        case .trailing: return x >= viewport.width - s.stripWidth && x < viewport.width
        }
    }

    /// A finger move during a selection pan: jitter, direction, the move rule, auto-scroll.
    /// Reads the current `scrollAndSelect` settings (spec 5.10.13).
    mutating func countMove(_ pan: inout PanCore, _ auto: inout AutoScroll?, to p: ViewportPoint, now: Micros,
                            _ changed: inout SelectionDelta) {
        let dy = p.y - pan.finger.y
        if (dy < .zero ? -dy : dy) < configuration.strip.jitter { return }
        var reversal = false
        if dy != .zero {
            let direction: Direction = dy > .zero ? .down : .up
            if let previous = pan.direction, previous != direction { reversal = true }
            pan.direction = direction
        }
        pan.finger = p
        applyMoveRule(&pan, reversal: reversal, &changed)
        auto = updatedAutoscroll(&pan, auto, now: now)
    }

    /// The move rule of spec 5.3 for the row now under the finger.
    mutating func applyMoveRule(_ pan: inout PanCore, reversal: Bool, _ changed: inout SelectionDelta) {
        let r = rowUnderFinger(pan.finger)
        guard var rows = pan.rows else {
            // Reversals before the start row exist flip nothing (spec 5.10.4).
            guard let r else { return }
            let start = startRow(reaching: r, from: pan.yAtBegan + pan.offsetAtBegan)
            let mode: PanMode = selection.contains(start) ? .deselect : .select
            pan.rows = PanRows(start: start, mode: mode, anchor: r, end: r)
            setSelectedRows(between: start, and: r, to: mode == .select, recording: &changed)
            return
        }
        switch pan.reversal {
        case .flip:
            if reversal { rows.mode = rows.mode.flipped }
            if let r {
                setSelectedRows(between: rows.anchor, and: r, to: rows.mode == .select, recording: &changed)
                rows.anchor = r
                rows.end = r
            }
        case .restore:
            if let r, r != rows.end { moveRestoredRange(&rows, to: r, &changed) }
        }
        pan.rows = rows
    }

    /// A restore pan's far end R moves to `r`. The selection is the one at `panBegan`
    /// with S..R set to the mode: the rows S..R leaves go back, and the rows it gains
    /// take the mode, so the work is those rows', not the selection's. Out of line: a
    /// flip pan's samples (most of them) do not carry its code.
    @inline(never)
    private mutating func moveRestoredRange(_ rows: inout PanRows, to r: RowPath, _ changed: inout SelectionDelta) {
        for (a, b) in rowsLeft(from: rows.start, through: rows.end, toward: r) { restorePanRows(between: a, and: b, &changed) }
        for (a, b) in rowsLeft(from: rows.start, through: r, toward: rows.end) {
            setSelectedRows(between: a, and: b, to: rows.mode == .select, recording: &changed)
        }
        rows.end = r
    }

    /// The rows from `start` through `end` (either order, in content order) that are not
    /// from `start` through `other`: none, or one run of rows on the far side of `other`
    /// or of `start`, as first and last row.
    private func rowsLeft(from start: RowPath, through end: RowPath, toward other: RowPath) -> [(RowPath, RowPath)] {
        var runs: [(RowPath, RowPath)] = []
        // Past the far end above `start`, or below it.
        if max(start, end) > max(start, other), let first = layout.row(after: max(start, other)) {
            runs.append((first, max(start, end)))
        }
        if min(start, end) < min(start, other), let last = layout.row(before: min(start, other)) {
            runs.append((min(start, end), last))
        }
        return runs
    }

    /// Puts the rows from `a` to `b` back as they were at `panBegan`: the pan's changed
    /// rows among them flip back and leave `gesture.changedRows`.
    private mutating func restorePanRows(between a: RowPath, and b: RowPath, _ changed: inout SelectionDelta) {
        gesture.settleChanges()
        let (lo, hi) = a <= b ? (a, b) : (b, a)
        for s in lo.section...hi.section {
            let first = s == lo.section ? lo.row : 0
            let end = s == hi.section ? hi.row + 1 : layout.rowCount(in: s)
            var runs: [Range<Int>] = []
            gesture.settledChanges.forEachRun(in: first..<end, section: s, members: true) { runs.append($0) }
            for run in runs {
                if changed.isRecording {
                    history.selection.forEachRun(in: run, section: s, members: true) { changed.record(section: s, rows: $0, selected: false) }
                    history.selection.forEachRun(in: run, section: s, members: false) { changed.record(section: s, rows: $0, selected: true) }
                }
                history.selection.toggle(run, in: s)
                gesture.removeChanges(run, in: s)
            }
        }
    }

    /// The start row S of a pan that began at content y `origin` over no data row and
    /// now has data row `r` under the finger (spec 5.3): `r` itself if it contains the
    /// starting point; else the first data row whose top is at or below it when `r`
    /// lies below it, the last data row whose bottom is at or above it when `r` lies
    /// above it, in the layout of this moment.
    ///
    /// Tops and bottoms never decrease in content order, so each is a search, not a walk:
    /// O(log² rows) however many rows lie between (a pan from a footer across 50,000,000
    /// rows of height 0 walked them one by one, 3.6 s).
    func startRow(reaching r: RowPath, from origin: Points) -> RowPath {
        let top = layout.top(of: r)
        if top > origin {
            return earliestRow(from: r) { layout.top(of: $0) >= origin }
        }
        if top + layout.height(of: r) <= origin {
            return latestRow(from: r) { layout.top(of: $0) + layout.height(of: $0) <= origin }
        }
        return r
    }

    /// The first data row at or before `r` in content order from which `holds` is true up
    /// to `r`, for a `holds` that is true at `r` and, along content order, false and then
    /// true: galloping back from `r`, then halving, in each section it reaches.
    private func earliestRow(from r: RowPath, _ holds: (RowPath) -> Bool) -> RowPath {
        var section = r.section, good = r.row
        while true {
            var bad = -1, step = 1
            while good - step >= 0 {
                if holds(RowPath(section, good - step)) {
                    good -= step
                    step *= 2
                } else {
                    bad = good - step
                    break
                }
            }
            while bad + 1 < good {
                let mid = bad + (good - bad) / 2
                if holds(RowPath(section, mid)) { good = mid } else { bad = mid }
            }
            guard good == 0 else { return RowPath(section, good) }
            // All of this section holds: on to the last row of the previous non-empty one.
            var previous = section - 1
            while previous >= 0 && layout.rowCount(in: previous) == 0 { previous -= 1 }
            guard previous >= 0, holds(RowPath(previous, layout.rowCount(in: previous) - 1)) else { return RowPath(section, 0) }
            section = previous
            good = layout.rowCount(in: previous) - 1
        }
    }

    /// The last data row at or after `r` in content order up to which `holds` is true from
    /// `r`, for a `holds` that is true at `r` and, along content order, true and then false.
    private func latestRow(from r: RowPath, _ holds: (RowPath) -> Bool) -> RowPath {
        var section = r.section, good = r.row
        while true {
            let count = layout.rowCount(in: section)
            var bad = count, step = 1
            while good + step < count {
                if holds(RowPath(section, good + step)) {
                    good += step
                    step *= 2
                } else {
                    bad = good + step
                    break
                }
            }
            while good + 1 < bad {
                let mid = good + (bad - good) / 2
                if holds(RowPath(section, mid)) { good = mid } else { bad = mid }
            }
            guard good == count - 1 else { return RowPath(section, good) }
            // All of the rest of this section holds: on to the first row of the next non-empty one.
            var next = section + 1
            while next < layout.sectionCount && layout.rowCount(in: next) == 0 { next += 1 }
            guard next < layout.sectionCount, holds(RowPath(next, 0)) else { return RowPath(section, good) }
            section = next
            good = 0
        }
    }

    /// Whether auto-scroll in `direction` can run with the finger at viewport y `y` (spec
    /// 5.3): the finger in that direction's zone, as the anchors and the viewport now
    /// place it, and the offset able to move that way. What starts it after a counted
    /// move, and what keeps it running after any event.
    @inline(__always)  // a call would copy the whole state to pass `self`
    func autoscrollCanRun(_ direction: Direction, fingerAt y: Points) -> Bool {
        let s = configuration.strip
        return direction == .up
            ? y < s.topAnchor && contentOffset > .zero
            : y > viewport.height + s.bottomAnchor && contentOffset < maxOffset
    }

    /// Auto-scroll after a counted move (spec 5.3): starts, keeps or stops it.
    @inline(__always)  // a call would copy the whole state to pass `self`
    private func updatedAutoscroll(_ pan: inout PanCore, _ auto: AutoScroll?, now: Micros) -> AutoScroll? {
        var wanted: Direction?
        if let direction = pan.direction, autoscrollCanRun(direction, fingerAt: pan.finger.y) { wanted = direction }
        if wanted == auto?.direction { return auto }
        pan.lastAutoscrollChange = now
        return wanted.map { AutoScroll(direction: $0, since: now) }
    }

    /// `rowsPerSecond × (total data-row height / data-row count) × elapsed / 1000`, rounded
    /// once, half to even, onto the 1/64 pt grid (spec 5.10.1). Saturates instead of overflowing.
    @inline(__always)  // a call would copy the whole state to pass `self`
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
        // The same quotient and remainder; one machine division when the product fits 64 bits.
        let (q, r) = middle == 0 ? lowPart.low.quotientAndRemainder(dividingBy: divisor)
                                 : divisor.dividingFullWidth((middle, lowPart.low))
        var result = q
        if r > divisor - r || (r == divisor - r && q % 2 == 1) { result += 1 }
        return result > UInt64(saturated.raw) ? saturated : Points(raw: Int64(result))
    }
}
