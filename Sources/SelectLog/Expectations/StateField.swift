/// The fields of the state JSON (spec 6) an expectation can name, read straight from a
/// `TableState` without writing the JSON, so that evaluating after every event costs
/// about as much as the event itself.
enum StateField: String, CaseIterable, Sendable {
    case events, t, sections, editing, selected, contentOffset, contentHeight, visible
    case dragging, decelerating, rowsToLoad, pan, optionOpen, swipe, editor, undo, redo, hash

    /// The keys of an object-valued field, in the order of spec 6; nil for other fields.
    var keys: [String]? {
        switch self {
        case .pan: ["kind", "mode", "anchor", "autoscroll"]
        case .swipe: ["row", "offset"]
        case .editor: ["row", "options", "multiple", "chosen"]
        default: nil
        }
    }

    /// The field's value in `state`; with `key`, only that key of an object field.
    func value(in state: TableState, key: String? = nil) -> ExpectationValue {
        switch self {
        case .events: return .number(.count(state.events))
        case .t: return .number(.millis(state.t))
        case .sections: return .list(state.layout.sections.map { .number(.count($0.rows.count)) })
        case .editing: return .bool(state.editing)
        case .selected: return .list(state.selection.paths.map { ExpectationValue.row($0) })
        case .contentOffset: return .number(.points(state.contentOffset))
        case .contentHeight: return .number(.points(state.layout.contentHeight))
        case .visible: return StateField.range(state.visibleRows)
        case .dragging: return .bool(state.dragging)
        case .decelerating: return .bool(state.decelerating)
        case .rowsToLoad: return StateField.range(state.rowsToLoad)
        case .optionOpen: return .row(state.options.open)
        case .undo: return .number(.count(state.undoCount))
        case .redo: return .number(.count(state.redoCount))
        case .hash: return .string(state.hashHex)
        case .pan:
            guard let pan = state.pan else { return .null }
            return object(key) { k in
                switch k {
                case "kind": .string(pan.kind.rawValue)
                case "mode": pan.mode.map { .string($0.rawValue) } ?? .null
                case "anchor": .row(pan.anchor)
                case "autoscroll": pan.autoscroll.map { .string($0.rawValue) } ?? .null
                default: nil
                }
            }
        case .swipe:
            guard case .active(let row, let offset)? = state.options.swipe else { return .null }
            return object(key) { k in
                switch k {
                case "row": .row(row)
                case "offset": .number(.points(offset))
                default: nil
                }
            }
        case .editor:
            guard let editor = state.editor, let row = state.layout.editorRow else { return .null }
            return object(key) { k in
                switch k {
                case "row": .row(row)
                case "options": .list(editor.options.map { .string($0) })
                case "multiple": .bool(editor.multiple)
                case "chosen": .list(editor.chosen.map { .number(.count($0)) })
                default: nil
                }
            }
        }
    }

    /// How many items the field's list (or, with `key`, that key's list) holds in
    /// `state`, counted without listing them: `count(editor.options)` after every event
    /// of an editor of 200,000 options listed them all each time. Nil when the value is
    /// no list (`null`, say) or is not counted here; `value(in:key:)` then says.
    func count(in state: TableState, key: String? = nil) -> Int? {
        switch (self, key) {
        case (.sections, nil): state.layout.sectionCount
        case (.selected, nil): state.selection.count
        case (.editor, "options"?): state.layout.editorRow == nil ? nil : state.editor?.options.count
        case (.editor, "chosen"?): state.layout.editorRow == nil ? nil : state.editor?.chosen.count
        default: nil
        }
    }

    private static func range(_ r: ClosedRange<RowPath>?) -> ExpectationValue {
        guard let r else { return .null }
        return .list([.row(r.lowerBound), .row(r.upperBound)])
    }

    /// The object of this field's `keys`, each valued by `value`; with `key`, only that
    /// key's value (`null` for a key the object does not have), the others never made.
    private func object(_ key: String?, _ value: (String) -> ExpectationValue?) -> ExpectationValue {
        if let key { return value(key) ?? .null }
        return .object((keys ?? []).map { (key: $0, value: value($0) ?? .null) })
    }
}
