/// Events that rebuild a state from an empty table: the set-up prefix of a slice of a
/// session (`selectlog export --from A --to B`).
///
/// The prefix carries the configuration, the viewport, the table (every row height,
/// header, footer and title), editing, the selection, the content offset (and a running
/// deceleration), the open option view and the editor with its choices. It cannot carry
/// the undo and redo history, nor a gesture in progress: `notCarried` says what was left
/// out, for a message.
///
/// ```swift
/// let setUp = SetUpScript(reproducing: stateBeforeSlice)
/// var table = TableState()
/// for e in setUp.events { try table.apply(e) }   // table now matches, undo history aside
/// ```
public struct SetUpScript: Sendable {
    /// The events, all at the state's time `t`.
    public var events: [TimedEvent] = []
    /// What the events cannot reproduce, in words (e.g. "3 undo steps").
    public var notCarried: [String] = []

    /// The events that rebuild `state` from an empty table, as far as events can.
    public init(reproducing state: TableState) {
        let t = state.t
        func add(_ e: Event) { events.append(TimedEvent(e, t: t)) }
        add(.configure(ConfigurationPatch(setting: state.configuration, editorHeight: state.layout.editorHeight)))
        add(.viewport(width: state.viewport.width, height: state.viewport.height))
        if state.layout.sectionCount > 0 {
            add(.reload(sections: state.layout.sections.map { s in
                // `rowHeights` up to the last row that is not `rowHeight`: the rows after
                // it take `rowHeight` (a uniform section, however long, gives none).
                var runs: [(height: Points, count: Int)] = []
                s.rows.forEachRun { h, n in runs.append((h, n)) }
                if runs.last?.height == s.rowHeight { runs.removeLast() }
                var heights: [Points]?
                if !runs.isEmpty {
                    heights = []
                    for run in runs { heights?.append(contentsOf: repeatElement(run.height, count: run.count)) }
                }
                return SectionSpec(rows: s.rows.count, rowHeight: s.rowHeight, rowHeights: heights,
                                   header: s.header, footer: s.footer, title: s.title)
            }))
        }
        if state.editing { add(.setEditing(true)) }
        if !state.selection.isEmpty { add(.select(rows: state.selection.paths)) }
        // The editor before the offset: its row can make the content tall enough for it.
        if let editor = state.editor, let row = state.layout.editorRow {
            add(.toggleEditor(row: row, options: editor.options, multiple: editor.multiple, chosen: editor.chosen))
        }
        if state.contentOffset != .zero || state.decelerating {
            add(.scroll(.to(state.contentOffset), phase: state.decelerating ? .decelerate : nil, target: state.decelerating ? state.target : nil))
        }
        if let open = state.options.open { add(.setOptionVisible(row: open, visible: true)) }
        if !state.undoStack.isEmpty { notCarried.append("\(state.undoStack.count) undo step\(state.undoStack.count == 1 ? "" : "s")") }
        if !state.redoStack.isEmpty { notCarried.append("\(state.redoStack.count) redo step\(state.redoStack.count == 1 ? "" : "s")") }
        if state.pan != nil { notCarried.append("the pan in progress") }
        if state.options.swipe != nil { notCarried.append("the swipe in progress") }
    }
}
