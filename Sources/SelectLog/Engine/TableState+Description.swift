/// A state in a few lines of text: what `selectlog replay` prints above its picture of the
/// rows, and what a failing test (`#expect(expectation.holds(in: state))`) or `print(state)`
/// shows instead of the state's storage (kilobytes of trees and buffers).
///
/// It is bounded whatever the table's size: counts, not the rows (the state JSON,
/// `json`, lists them). It leaves out the state's hash, which `replay` prints after the
/// time: `hashHex` encodes the whole state, undo history too (about 0.1 s for a million
/// sections in a release build, seconds in a debug one), and a description is printed
/// on a whim, in a loop or for every event.
///
/// ```text
/// events  10 | t 816 ms
/// table   1 section | 100 rows | content 5000 pt | viewport 390x600
/// mode    multiple | not editing | 13 selected | undo 1 | redo 0
/// scroll  offset 150 of 4400
/// pan     strip | select | anchor [0, 14] | finger 30,575 | auto-scroll down
/// strip   leading, 70 pt | reversal flip | 10 rows/s
/// option  none
/// editor  none
/// ```
extension TableState: CustomStringConvertible {
    /// The summary above: a line each for the events and time, the table, the selection
    /// mode, the scroll, the pan, the strip (when on), the option view and the editor.
    public var description: String { summaryLines(hash: false).joined(separator: "\n") }

    /// The summary, a line each; with `hash`, the state's hash after the time, as
    /// `selectlog replay` shows it.
    package func summaryLines(hash: Bool) -> [String] {
        var lines: [String] = []
        let rows = layout.rowCount
        let sections = layout.sectionCount
        lines.append("events  \(events) | t \(t) ms" + (hash ? " | hash \(hashHex)" : ""))
        lines.append("table   \(sections) section\(sections == 1 ? "" : "s") | \(rows) row\(rows == 1 ? "" : "s") | content \(layout.contentHeight) pt | viewport \(viewport.width)x\(viewport.height)")
        let mode = !isSelectable ? "not selectable" : (isMultiple ? "multiple" : "single")
        lines.append("mode    \(mode) | \(editing ? "editing" : "not editing") | \(selection.count) selected | undo \(undoCount) | redo \(redoCount)")
        var scroll = "offset \(contentOffset) of \(maxOffset)"
        if dragging { scroll += " | dragging" }
        if decelerating { scroll += " | decelerating" + (target.map { " to \($0)" } ?? "") }
        lines.append("scroll  \(scroll)")
        lines.append("pan     " + (pan?.description ?? "none"))
        let strip = configuration.strip
        if strip.enabled {
            lines.append("strip   \(strip.edge.rawValue), \(strip.stripWidth) pt | reversal \(strip.reversal.rawValue) | \(strip.rowsPerSecond) rows/s")
        }
        lines.append("option  " + (options.open.map { "open on \($0)" } ?? "none"))
        if let editor, let row = layout.editorRow {
            lines.append("editor  below \(row) | \(editor.multiple ? "multiple" : "single") choice")
        } else {
            lines.append("editor  none")
        }
        return lines
    }
}

/// The pan as the state's summary shows it: `strip | select | anchor [0, 14] | finger
/// 30,575 | auto-scroll down` (a drag scroll or an interrupted pan: its kind alone).
extension Pan: CustomStringConvertible {
    /// The kind; for a selection pan also its mode (or that it has no start row yet), its
    /// anchor, the finger's last counted position and the running auto-scroll's direction.
    public var description: String {
        var p = kind.rawValue
        if isSelectionPan {
            p += " | \(mode?.rawValue ?? "no start row yet")"
            if let anchor { p += " | anchor \(anchor)" }
            p += " | finger \(finger.x),\(finger.y)"
            if let autoscroll { p += " | auto-scroll \(autoscroll.rawValue)" }
        }
        return p
    }
}
