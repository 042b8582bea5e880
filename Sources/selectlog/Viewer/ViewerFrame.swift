import SelectLog

/// What the viewer page draws for one state, as named JSON values the engine computed.
///
/// The fields named like the state JSON of spec 6 hold that field's exact text (so the
/// page can print the state JSON as `replay --json` does); the others (`sel`, `band`,
/// `finger`, …) are what the drawing needs. A frame is stored whole every few events
/// (a key frame) and otherwise as the fields that differ from the previous frame.
struct ViewerFrame: Equatable {
    /// The fields, in this order; `spec` ones are the state JSON's own fields.
    static let names = [
        "sections", "editing", "contentOffset", "contentHeight", "visible", "dragging", "decelerating",
        "rowsToLoad", "pan", "optionOpen", "editor", "undo", "redo",
        "sel", "vp", "band", "finger", "strip", "swipe", "ow", "multi", "eh",
    ]
    /// How many leading names are spec 6 fields (stored as JSON strings holding the field's text).
    static let specCount = 13
    /// The state JSON's keys in order: `events`, `t`, `selected` and `hash` come from elsewhere.
    static let jsonOrder = [
        "events", "t", "sections", "editing", "selected", "contentOffset", "contentHeight", "visible",
        "dragging", "decelerating", "rowsToLoad", "pan", "optionOpen", "editor", "undo", "redo", "hash",
    ]

    /// Each field's value as JSON text, in `names` order.
    var values: [String]

    init(_ state: TableState) {
        func path(_ r: RowPath?) -> String { r.map { "[\($0.section), \($0.row)]" } ?? "null" }
        func range(_ r: ClosedRange<RowPath>?) -> String {
            guard let r else { return "null" }
            return "[\(path(r.lowerBound)), \(path(r.upperBound))]"
        }
        var pan = "null"
        if let p = state.pan {
            let mode = p.mode.map { "\"\($0.rawValue)\"" } ?? "null"
            let auto = p.autoscroll.map { "\"\($0.rawValue)\"" } ?? "null"
            pan = "{\"kind\": \"\(p.kind.rawValue)\", \"mode\": \(mode), \"anchor\": \(path(p.anchor)), \"autoscroll\": \(auto)}"
        }
        var editor = "null"
        if let e = state.editor, let row = state.layout.editorRow {
            let options = e.options.map(JSONText.quote).joined(separator: ", ")
            let chosen = e.chosen.map(String.init).joined(separator: ", ")
            editor = "{\"row\": \(path(row)), \"options\": [\(options)], \"multiple\": \(e.multiple), \"chosen\": [\(chosen)]}"
        }
        let spec = [
            "[" + state.layout.sections.map { String($0.rowCount) }.joined(separator: ", ") + "]",
            String(state.editing),
            state.contentOffset.description,
            state.layout.contentHeight.description,
            range(state.visibleRows),
            String(state.dragging),
            String(state.decelerating),
            range(state.rowsToLoad),
            pan,
            path(state.options.open),
            editor,
            String(state.undoStack.count),
            String(state.redoStack.count),
        ]
        var finger = "null"
        if let p = state.pan, p.kind != .scroll {
            let direction = p.direction.map { "\"\($0.rawValue)\"" } ?? "null"
            finger = "[\(p.finger.x),\(p.finger.y),\(direction)]"
        }
        let s = state.configuration.strip
        let strip = s.enabled
            ? "[\"\(s.edge.rawValue)\",\(s.stripWidth),\(s.topAnchor),\(s.bottomAnchor)]"
            : "null"
        var swipe = "null"
        if case .active(let row, let offset) = state.options.swipe { swipe = "[\(row.section),\(row.row),\(offset)]" }
        values = spec.map(JSONText.quote) + [
            ViewerFrame.ranges(state.selection),
            "[\(state.viewport.width),\(state.viewport.height)]",
            ViewerBand(state).json,
            finger,
            strip,
            swipe,
            state.configuration.optionWidth.description,
            String(state.isMultiple),
            state.layout.editorHeight.description,
        ]
    }

    /// Rows as compact JSON ranges: `[[section,first,last],…]`, sorted.
    static func ranges(_ set: RowSet) -> String {
        var parts: [String] = []
        for (s, list) in set.sections {
            for r in list.ranges { parts.append("[\(s),\(r.lowerBound),\(r.upperBound - 1)]") }
        }
        return "[" + parts.joined(separator: ",") + "]"
    }

    /// The whole frame as a JSON object.
    var json: String {
        "{" + zip(ViewerFrame.names, values).map { "\"\($0)\":\($1)" }.joined(separator: ",") + "}"
    }

    /// The fields that differ from `earlier`, as a JSON object, or nil when none do.
    func delta(from earlier: ViewerFrame) -> String? {
        var parts: [String] = []
        for i in values.indices where values[i] != earlier.values[i] {
            parts.append("\"\(ViewerFrame.names[i])\":\(values[i])")
        }
        return parts.isEmpty ? nil : "{" + parts.joined(separator: ",") + "}"
    }
}
