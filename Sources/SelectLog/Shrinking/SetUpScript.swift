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
        let c = state.configuration
        var patch = ConfigurationPatch()
        patch.allowsSelection = c.allowsSelection
        patch.allowsMultipleSelection = c.allowsMultipleSelection
        patch.allowsSelectionDuringEditing = c.allowsSelectionDuringEditing
        patch.allowsMultipleSelectionDuringEditing = c.allowsMultipleSelectionDuringEditing
        patch.multiSelectInteraction = c.multiSelectInteraction
        patch.optionWidth = c.optionWidth
        patch.editorHeight = state.layout.editorHeight
        patch.undoLimit = c.undoLimit
        var strip = StripPatch()
        strip.enabled = c.strip.enabled
        strip.edge = c.strip.edge
        strip.stripWidth = c.strip.stripWidth
        strip.topAnchor = c.strip.topAnchor
        strip.bottomAnchor = c.strip.bottomAnchor
        strip.rowsPerSecond = c.strip.rowsPerSecond
        strip.reversal = c.strip.reversal
        strip.jitter = c.strip.jitter
        patch.scrollAndSelect = strip
        add(.configure(patch))
        add(.viewport(width: state.viewport.width, height: state.viewport.height))
        if state.layout.sectionCount > 0 {
            add(.reload(sections: state.layout.sections.map { s in
                let heights = s.rows.heights
                let uniform = heights.allSatisfy { $0 == s.rowHeight }
                return SectionSpec(rows: heights.count, rowHeight: s.rowHeight, rowHeights: uniform ? nil : heights,
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
