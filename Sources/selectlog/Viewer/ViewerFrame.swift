import SelectLog

/// What the viewer page draws for one state, as named JSON values the engine computed.
///
/// The fields named like the state JSON of spec 6 hold that field's exact text (so the
/// page can print the state JSON as `replay --json` does); the others (`sel`, `band`,
/// `finger`, …) are what the drawing needs. A frame is stored whole every few events
/// (a key frame) and otherwise as the fields that differ from the previous frame.
///
/// A frame is built from the previous one where it can: a spec field whose text did not
/// change keeps its quoted form; the selection's ranges, the band (`ViewerBand.Key`) and
/// the fields that follow the layout (`LayoutFields`) are written again only when what
/// they are written from changed. So most events cost the fields they changed, and the
/// state's hash (`StateHasher`) its table's part only when the table changed.
struct ViewerFrame {
    /// Which fields a frame holds, read once from the engine's own state JSON so that the
    /// page prints exactly what `replay --json` prints, whatever fields it gains.
    struct Shape: Equatable {
        /// The state JSON's keys in order.
        var jsonOrder: [String]
        /// The keys a frame stores as text (all but `events`, `t`, `selected` and `hash`).
        var specKeys: [String]
        /// Spec keys this file does not compute itself: taken from `state.json` at every
        /// frame (slower, but never wrong).
        var copied: Set<String>
        /// For each spec key, its place in `ViewerFrame.ownKeys`, if this file computes it.
        var own: [Int?]

        /// The frame's field names: the spec keys, then the drawing's own.
        var names: [String] { specKeys + ViewerFrame.drawNames }

        /// The shape for the engine's JSON of `state`.
        init(_ state: TableState) {
            // Without the selection, which no frame takes from the engine's JSON: listed,
            // a state with 100,000,000 selected rows took 16 GB and 260 s here.
            let engine = ViewerFrame.split(state.json(listingSelection: false))
            let own = ViewerFrame.specFields(state)
            jsonOrder = engine.map(\.key)
            let specKeys = jsonOrder.filter { !["events", "t", "selected", "hash"].contains($0) }
            self.specKeys = specKeys
            copied = Set(engine.filter { specKeys.contains($0.key) && own[$0.key] != $0.value }.map(\.key))
            self.own = specKeys.map { ViewerFrame.ownKeys.firstIndex(of: $0) }
        }
    }

    /// The drawing's own fields, after the spec ones.
    static let drawNames = ["sel", "vp", "band", "finger", "strip", "sw", "ow", "multi", "eh", "tg"]

    /// Each field's value as JSON text, in `shape.names` order; spec fields as JSON strings.
    var values: [String]
    /// The spec fields' texts before quoting, in `shape.specKeys` order.
    private var spec: [String]
    /// The spec fields kept while the layout and the editor row do not change.
    private var layoutFields: LayoutFields
    /// The selection, and its ranges (also in `values`).
    private var selection: RowSet
    private var selectionJSON: String
    /// What the band was drawn from, and the band (also in `values`).
    private var band: ViewerBand.Key
    private var bandJSON: String

    /// The spec 6 fields this file computes, in the order of `ownValues`.
    static let ownKeys = ["sections", "editing", "contentOffset", "contentHeight", "visible", "dragging", "decelerating",
                          "rowsToLoad", "pan", "optionOpen", "swipe", "editor", "undo", "redo"]

    /// The spec 6 fields this file computes, by key, as `TableState.json` writes them.
    static func specFields(_ state: TableState) -> [String: String] {
        Dictionary(uniqueKeysWithValues: zip(ownKeys, ownValues(state)))
    }

    /// The spec fields that change only with the layout or the editor row, as text: kept
    /// from the previous frame while those are equal (which compares in O(1) while they
    /// share storage).
    struct LayoutFields {
        var layout: TableLayout
        var openEditor: EditorRow?
        var sections: String
        var contentHeight: String
        var editor: String

        init(_ state: TableState, previous: LayoutFields? = nil) {
            if let previous, previous.layout == state.layout, previous.openEditor == state.editor {
                self = previous
                return
            }
            layout = state.layout
            openEditor = state.editor
            sections = "[" + state.layout.sections.map { String($0.rowCount) }.joined(separator: ", ") + "]"
            contentHeight = state.layout.contentHeight.description
            editor = "null"
            if let e = state.editor, let row = state.layout.editorRow {
                let options = e.options.map(JSONText.quote).joined(separator: ", ")
                let chosen = e.chosen.map(String.init).joined(separator: ", ")
                editor = "{\"row\": \(ViewerFrame.path(row)), \"options\": [\(options)], \"multiple\": \(e.multiple), \"chosen\": [\(chosen)]}"
            }
        }
    }

    /// A row as the state JSON writes it: `[section, row]`, or `null`.
    static func path(_ r: RowPath?) -> String { JSONText.path(r) }

    /// The values of `ownKeys`, as `TableState.json` writes them — without expanding the
    /// selection row by row at every event, which `json` must do.
    static func ownValues(_ state: TableState) -> [String] {
        ownValues(state, LayoutFields(state))
    }

    /// `ownValues(_:)` with the fields of `layoutFields`, which must be `state`'s.
    static func ownValues(_ state: TableState, _ layoutFields: LayoutFields) -> [String] {
        let range = JSONText.range
        var pan = "null"
        if let p = state.pan {
            let mode = p.mode.map { "\"\($0.rawValue)\"" } ?? "null"
            let auto = p.autoscroll.map { "\"\($0.rawValue)\"" } ?? "null"
            pan = "{\"kind\": \"\(p.kind.rawValue)\", \"mode\": \(mode), \"anchor\": \(path(p.anchor)), \"autoscroll\": \(auto)}"
        }
        var swipe = "null"
        if case .active(let row, let offset)? = state.options.swipe {
            swipe = "{\"row\": \(path(row)), \"offset\": \(offset.description)}"
        }
        return [
            layoutFields.sections,
            String(state.editing),
            state.contentOffset.description,
            layoutFields.contentHeight,
            range(state.visibleRows),
            String(state.dragging),
            String(state.decelerating),
            range(state.rowsToLoad),
            pan,
            path(state.options.open),
            swipe,
            layoutFields.editor,
            String(state.undoCount),
            String(state.redoCount),
        ]
    }

    /// A top-level JSON object's keys and value texts, in order (the engine's own output,
    /// so well formed; nested objects, arrays and strings are kept whole).
    static func split(_ json: String) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        let chars = Array(json.unicodeScalars)
        var i = 1, depth = 0, inString = false, escaped = false
        var key = "", valueStart = 0, keyStart = -1
        while i < chars.count {
            let c = chars[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" {
                    inString = false
                    if depth == 0 && keyStart >= 0 && key.isEmpty {
                        key = String(String.UnicodeScalarView(chars[(keyStart + 1)..<i]))
                    }
                }
            } else if c == "\"" {
                inString = true
                if depth == 0 && key.isEmpty { keyStart = i }
            } else if c == "{" || c == "[" {
                depth += 1
            } else if (c == "}" || c == "]") && depth > 0 {
                depth -= 1
            } else if c == ":" && depth == 0 && !key.isEmpty && valueStart == 0 {
                valueStart = i + 1
            } else if (c == "," || c == "}") && depth == 0 && valueStart > 0 {
                let value = String(String.UnicodeScalarView(chars[valueStart..<i])).trimmingSpaces
                out.append((key, value))
                key = ""
                keyStart = -1
                valueStart = 0
            }
            i += 1
        }
        return out
    }

    /// The frame of `state`, reusing what it shares with `previous` (the frame of an
    /// earlier state of the same window, so of the same shape).
    init(_ state: TableState, shape: Shape, previous: ViewerFrame? = nil) {
        let layoutFields = LayoutFields(state, previous: previous?.layoutFields)
        let own = ViewerFrame.ownValues(state, layoutFields)
        let engine = shape.copied.isEmpty ? [:] : Dictionary(ViewerFrame.split(state.json(listingSelection: false)), uniquingKeysWith: { a, _ in a })
        let spec = shape.specKeys.indices.map { i in
            (shape.copied.contains(shape.specKeys[i]) ? engine[shape.specKeys[i]] : shape.own[i].map { own[$0] }) ?? "null"
        }
        let quoted = spec.indices.map { i in
            previous.flatMap { $0.spec[i] == spec[i] ? $0.values[i] : nil } ?? JSONText.quote(spec[i])
        }
        let band = ViewerBand.Key(state)
        let bandJSON = previous.flatMap { $0.band == band ? $0.bandJSON : nil } ?? ViewerBand(band).json
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
        let selectionJSON = previous.flatMap { $0.selection == state.selection ? $0.selectionJSON : nil }
            ?? ViewerFrame.ranges(state.selection)
        self.spec = spec
        self.layoutFields = layoutFields
        self.selection = state.selection
        self.selectionJSON = selectionJSON
        self.band = band
        self.bandJSON = bandJSON
        values = quoted + [
            selectionJSON,
            "[\(state.viewport.width),\(state.viewport.height)]",
            bandJSON,
            finger,
            strip,
            swipe,
            state.configuration.optionWidth.description,
            String(state.isMultiple),
            state.layout.editorHeight.description,
            state.target?.description ?? "null",
        ]
    }

    /// Rows as compact JSON ranges: `[[section,first,last],…]`, sorted.
    /// Written into one string as it goes: a string for each range, then joined, held a
    /// million small strings at once for a selection of a million ranges.
    static func ranges(_ set: RowSet) -> String {
        var out = "["
        var first = true
        for (s, list) in set.sections {
            let section = String(s)
            for r in list.ranges {
                if !first { out += "," }
                first = false
                out += "["
                out += section
                out += ","
                out += String(r.lowerBound)
                out += ","
                out += String(r.upperBound - 1)
                out += "]"
            }
        }
        out += "]"
        return out
    }

    /// The whole frame as a JSON object.
    func json(_ shape: Shape) -> String {
        "{" + zip(shape.names, values).map { "\"\($0)\":\($1)" }.joined(separator: ",") + "}"
    }

    /// The fields that differ from `earlier`, as a JSON object, or nil when none do.
    func delta(from earlier: ViewerFrame, _ shape: Shape) -> String? {
        var parts: [String] = []
        for i in values.indices where values[i] != earlier.values[i] {
            parts.append("\"\(shape.names[i])\":\(values[i])")
        }
        return parts.isEmpty ? nil : "{" + parts.joined(separator: ",") + "}"
    }
}

extension String {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
