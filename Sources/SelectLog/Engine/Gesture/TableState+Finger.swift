extension TableState {
    /// Where a host reports a selection pan's finger: `point` moved to the nearest point
    /// inside the viewport while a strip or multi-select pan is active, and `point` itself
    /// otherwise (a drag scroll, no pan, an empty viewport).
    ///
    /// EVENTS.md 2 makes a point outside the viewport hit nothing, so a selection pan
    /// whose finger leaves it (past the bottom edge to auto-scroll, into the home
    /// indicator's inset, off the side) would cross rows without selecting them, and
    /// auto-scroll would scroll with no row under the finger to select; UIKit's selection
    /// goes on with the rows at the edge. Reporting the finger at the edge instead keeps
    /// every event within the contract. `TableViewForwarder` sends its pan samples
    /// (`.changed` and `.ended`) through this; the log records the point it sent.
    ///
    /// ```swift
    /// let finger = recorder.state.selectionPanPoint(point)
    /// try recorder.append(.panMoved(finger))
    /// ```
    public func selectionPanPoint(_ point: ViewportPoint) -> ViewportPoint {
        guard pan?.isSelectionPan == true, viewport.width.raw > 0, viewport.height.raw > 0 else { return point }
        // The last point inside: [0, width) and [0, height) on the engine's 1/64 pt grid.
        return ViewportPoint(x: Points(raw: Swift.min(Swift.max(point.x.raw, 0), viewport.width.raw - 1)),
                             y: Points(raw: Swift.min(Swift.max(point.y.raw, 0), viewport.height.raw - 1)))
    }
}
