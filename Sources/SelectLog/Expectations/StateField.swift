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
            return StateField.object([
                ("kind", .string(pan.kind.rawValue)),
                ("mode", pan.mode.map { .string($0.rawValue) } ?? .null),
                ("anchor", .row(pan.anchor)),
                ("autoscroll", pan.autoscroll.map { .string($0.rawValue) } ?? .null),
            ], key)
        case .swipe:
            guard case .active(let row, let offset)? = state.options.swipe else { return .null }
            return StateField.object([("row", .row(row)), ("offset", .number(.points(offset)))], key)
        case .editor:
            guard let editor = state.editor, let row = state.layout.editorRow else { return .null }
            return StateField.object([
                ("row", .row(row)),
                ("options", .list(editor.options.map { .string($0) })),
                ("multiple", .bool(editor.multiple)),
                ("chosen", .list(editor.chosen.map { .number(.count($0)) })),
            ], key)
        }
    }

    private static func range(_ r: ClosedRange<RowPath>?) -> ExpectationValue {
        guard let r else { return .null }
        return .list([.row(r.lowerBound), .row(r.upperBound)])
    }

    private static func object(_ fields: [(String, ExpectationValue)], _ key: String?) -> ExpectationValue {
        guard let key else { return .object(fields.map { (key: $0.0, value: $0.1) }) }
        return fields.first { $0.0 == key }?.1 ?? .null
    }
}
