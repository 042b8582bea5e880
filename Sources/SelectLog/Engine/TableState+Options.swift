extension TableState {
    mutating func swipeBegan(_ row: RowPath) throws(InvalidEvent) {
        try checkRow(row, "swipeBegan")
        let width = configuration.optionWidth
        if width == .zero || selection.contains(row) {
            options.swipe = .ignored
            return
        }
        // At most one option view is open: another open row closes at once.
        if let open = options.open, open != row { options.open = nil }
        options.swipe = .active(row: row, offset: options.open == row ? width : .zero)
    }

    mutating func swipeMoved(_ offset: Points) {
        guard case .active(let row, _) = options.swipe else { return }
        options.swipe = .active(row: row, offset: offset.clamped(.zero, configuration.optionWidth))
    }

    mutating func swipeEnded(velocity: Points?) {
        guard let swipe = options.swipe else { return }
        options.swipe = nil
        guard case .active(let row, let offset) = swipe else { return }
        let opens: Bool
        if let v = velocity, v.raw.magnitude >= 200 * UInt64(Points.scale) {
            opens = v > .zero
        } else {
            opens = offset.raw * 2 >= configuration.optionWidth.raw
        }
        if opens {
            options.open = row
        } else if options.open == row {
            options.open = nil
        }
    }

    mutating func setOptionVisible(_ row: RowPath, _ visible: Bool) throws(InvalidEvent) {
        try checkRow(row, "setOptionVisible")
        guard configuration.optionWidth != .zero else { return }
        if visible {
            options.open = row
        } else if options.open == row {
            options.open = nil
        }
    }
}
