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
            if let r, r != rows.end {
                rows.end = r
                var next = gesture.selectionBefore
                setRows(between: rows.start, and: r, to: rows.mode == .select, in: &next)
                if changed.isRecording {
                    changed.record(added: next.subtracting(selection), removed: selection.subtracting(next))
                }
                selection = next
            }
        }
        pan.rows = rows
    }

    /// The start row S of a pan that began at content y `origin` over no data row and
    /// now has data row `r` under the finger (spec 5.3): `r` itself if it contains the
    /// starting point; else the first data row whose top is at or below it when `r`
    /// lies below it, the last data row whose bottom is at or above it when `r` lies
    /// above it, in the layout of this moment. The walk covers only rows the pan selects.
    func startRow(reaching r: RowPath, from origin: Points) -> RowPath {
        let top = layout.top(of: r)
        if top > origin {
            var s = r
            while let previous = layout.row(before: s), layout.top(of: previous) >= origin { s = previous }
            return s
        }
        if top + layout.height(of: r) <= origin {
            var s = r
            while let next = layout.row(after: s), layout.top(of: next) + layout.height(of: next) <= origin { s = next }
            return s
        }
        return r
    }

    /// Auto-scroll after a counted move (spec 5.3): starts, keeps or stops it.
    @inline(__always)  // a call would copy the whole state to pass `self`
    private func updatedAutoscroll(_ pan: inout PanCore, _ auto: AutoScroll?, now: Micros) -> AutoScroll? {
        let s = configuration.strip
        var wanted: Direction?
        if pan.finger.y < s.topAnchor, pan.direction == .up, contentOffset > .zero {
            wanted = .up
        } else if pan.finger.y > viewport.height + s.bottomAnchor, pan.direction == .down, contentOffset < maxOffset {
            wanted = .down
        }
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
