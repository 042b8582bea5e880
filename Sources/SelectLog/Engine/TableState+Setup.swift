extension TableState {
    mutating func configure(_ patch: ConfigurationPatch, at now: Micros) {
        var c = configuration
        if let v = patch.allowsSelection { c.allowsSelection = v }
        if let v = patch.allowsMultipleSelection { c.allowsMultipleSelection = v }
        if let v = patch.allowsSelectionDuringEditing { c.allowsSelectionDuringEditing = v }
        if let v = patch.allowsMultipleSelectionDuringEditing { c.allowsMultipleSelectionDuringEditing = v }
        if let v = patch.multiSelectInteraction { c.multiSelectInteraction = v }
        if let s = patch.scrollAndSelect {
            if let v = s.enabled { c.strip.enabled = v }
            if let v = s.edge { c.strip.edge = v }
            if let v = s.stripWidth { c.strip.stripWidth = v }
            if let v = s.topAnchor { c.strip.topAnchor = v }
            if let v = s.bottomAnchor { c.strip.bottomAnchor = v }
            if let v = s.rowsPerSecond { c.strip.rowsPerSecond = v }
            if let v = s.reversal { c.strip.reversal = v }
            if let v = s.jitter { c.strip.jitter = v }
        }
        if let v = patch.optionWidth { c.optionWidth = v }
        if let v = patch.undoLimit { c.undoLimit = v }
        configuration = c

        if c.optionWidth == .zero {
            options.open = nil
            if case .active = options.swipe { options.swipe = .ignored }
        } else if case .active(let row, let offset) = options.swipe, c.optionWidth < offset {
            options.swipe = .active(row: row, offset: c.optionWidth)
        }
        if let h = patch.editorHeight { layout.setEditorHeight(h) }
        history.trim(to: c.undoLimit)
        // A selection pan only exists in a multiple mode; leaving it interrupts the pan (spec 5.3).
        if !isMultiple { interruptSelectionPan(cancel: false) }
        // The clear rule (spec 5.1, 5.10.6).
        if !isSelectable || (!isMultiple && selection.count > 1) { selection.removeAll() }
        reclamp()
    }

    mutating func resize(width: Points?, height: Points?) {
        if let width { viewport.width = width }
        if let height { viewport.height = height }
        reclamp()
    }

    mutating func reload(_ specs: [SectionSpec]) throws(InvalidEvent) {
        try checkTableSize(adding: specs, type: "reload", replacing: true)
        interruptSelectionPan(cancel: false)
        scroll.stopDecelerating()
        selection.removeAll()
        options = OptionViews()
        editorState.close()
        history.clearSteps()
        layout.replaceSections(specs.map(\.section))
        reclamp()
    }

    /// Keeps the table within 100,000,000 rows and 1,000,000 sections.
    func checkTableSize(adding specs: [SectionSpec], type: String, replacing: Bool) throws(InvalidEvent) {
        let rows = specs.reduce(0) { $0 + $1.rows } + (replacing ? 0 : layout.rowCount)
        let sections = specs.count + (replacing ? 0 : layout.sectionCount)
        if rows > EventLimits.tableRows { throw InvalidEvent(.overLimit, type, "the table would have \(rows) rows; at most \(EventLimits.tableRows) are supported") }
        if sections > EventLimits.tableSections { throw InvalidEvent(.overLimit, type, "the table would have \(sections) sections; at most \(EventLimits.tableSections) are supported") }
    }

    mutating func setEditing(_ on: Bool) {
        guard on != editing else {
            // UIKit's setEditing hides a swipe menu even when editing does not change (spec 5.1).
            options.open = nil
            return
        }
        interruptSelectionPan(cancel: true)
        editing = on
        selection.removeAll()
        options = OptionViews()
        history.clearSteps()
    }
}
