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
    /// The most row heights a section's `rowHeights` lists when it lists more than twice
    /// the rows whose height differs from `rowHeight`.
    static let listedHeights = 4096

    /// The most rows one set-up event lists (`select`, `deselect`, `insertRows`,
    /// `reloadRows`): longer lists are cut into events of this many, so that no line
    /// of the script passes the 64 MiB line limit (a `select` of 40,000,000 rows did).
    static let eventRows = 100_000

    /// `items` in consecutive parts of at most `eventRows`.
    static func parts<T>(_ items: [T]) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: eventRows).map { items[$0..<Swift.min($0 + eventRows, items.count)] }
    }

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
            // Heights other than a section's `rowHeight`: listed in `rowHeights` up to the
            // last of them when that list stays short next to them; otherwise set by one
            // `reloadRows` after the reload, so that a few odd rows among millions (a
            // reloaded row at the end of 50,000,000) cost a few bytes, not a line past
            // the script line limit.
            var odd: [(row: RowPath, height: Points)] = []
            // Rows past `EventLimits.sectionRows` (a section grown by row edits), which a
            // reload cannot give: inserted after it.
            var grown: [RowPath] = []
            add(.reload(sections: state.layout.sections.enumerated().map { k, s in
                let reloaded = Swift.min(s.rows.count, EventLimits.sectionRows)
                for r in reloaded..<s.rows.count { grown.append(RowPath(k, r)) }
                var runs: [(height: Points, count: Int)] = []
                s.rows.forEachRun { h, n in runs.append((h, n)) }
                if runs.last?.height == s.rowHeight { runs.removeLast() }
                let listed = runs.reduce(0) { $0 + $1.count }
                let differing = runs.reduce(0) { $0 + ($1.height == s.rowHeight ? 0 : $1.count) }
                var heights: [Points]?
                if listed > 0, listed <= reloaded, listed <= Swift.max(SetUpScript.listedHeights, 2 * differing) {
                    heights = []
                    for run in runs { heights?.append(contentsOf: repeatElement(run.height, count: run.count)) }
                } else {
                    var row = 0
                    for run in runs {
                        if run.height != s.rowHeight {
                            for r in row..<row + run.count { odd.append((RowPath(k, r), run.height)) }
                        }
                        row += run.count
                    }
                }
                return SectionSpec(rows: reloaded, rowHeight: s.rowHeight, rowHeights: heights,
                                   header: s.header, footer: s.footer, title: s.title)
            }))
            for part in SetUpScript.parts(grown) { add(.insertRows(at: Array(part), heights: nil)) }
            for part in SetUpScript.parts(odd) { add(.reloadRows(at: part.map(\.row), heights: part.map(\.height))) }
        }
        if state.editing { add(.setEditing(true)) }
        if !state.selection.isEmpty {
            // The shorter list: the selected rows, or (in a multiple mode) `selectAll` and
            // the rows it should not have selected; a selection of every row of a huge
            // table is one event.
            let unselected = state.allRows.subtracting(state.selection)
            if state.selection.count > 1, unselected.count < state.selection.count {
                add(.selectAll)
                for part in SetUpScript.parts(unselected.paths) { add(.deselect(rows: Array(part))) }
            } else {
                for part in SetUpScript.parts(state.selection.paths) { add(.select(rows: Array(part))) }
            }
        }
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
