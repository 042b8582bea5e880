import SelectLog

/// A short text summary of a state (`TableState.description`'s, with the hash) and a
/// picture of its visible rows, plain ASCII so that it reads the same with colour off and
/// fits 80 columns.
struct TablePicture {
    let state: TableState
    var maxRows = 40

    init(_ state: TableState) { self.state = state }

    var text: String {
        // `TableState.description`'s summary, with the hash.
        var lines = state.summaryLines(hash: true)
        lines.append("")
        lines.append(contentsOf: picture)
        return lines.joined(separator: "\n")
    }

    /// One line per visible row, with marks; the editor row below its row. A run of three
    /// or more zero-height rows (hidden rows, a collapsed section's) is one line, so that
    /// the rows after it are shown however many there are.
    var picture: [String] {
        let s = state
        guard let visible = s.visibleRows else { return ["  (no rows visible)"] }
        var lines: [String] = []
        var row: RowPath? = visible.lowerBound
        var shown = 0
        var section = -1
        // A bar on the strip's edge of the table.
        let bar = s.configuration.strip.enabled ? "|" : " "
        let left = s.configuration.strip.edge == .leading ? bar : " "
        let right = s.configuration.strip.edge == .trailing ? bar : " "
        // The rows a line notes something of, which a collapsed run must not hide.
        var noted = Set<RowPath>()
        if let open = s.options.open { noted.insert(open) }
        if let editorRow = s.layout.editorRow { noted.insert(editorRow) }
        if let pan = s.pan {
            if let anchor = pan.anchor { noted.insert(anchor) }
            if let start = pan.start { noted.insert(start) }
            if let under = s.row(at: pan.finger) { noted.insert(under) }
        }
        while let r = row, r <= visible.upperBound {
            if shown == maxRows {
                lines.append("  ... more rows down to \(visible.upperBound)")
                break
            }
            if r.section != section {
                section = r.section
                let title = s.layout.sections[r.section].title.map { " \"\($0.shownInPicture)\"" } ?? ""
                lines.append("  -- section \(r.section)\(title) --")
            }
            if let last = collapsibleRun(from: r, through: visible.upperBound, noted: noted) {
                let rows = r.row..<(last + 1)
                let mark = s.selection.containsAll(rows, in: r.section) ? "[x]" : (s.selection.intersects(rows, in: r.section) ? "[~]" : "[ ]")
                let name = "\(r.section):\(r.row)-\(last)"
                let padded = name + String(repeating: " ", count: max(1, 10 - name.count))
                lines.append("\(left) \(padded)\(mark)\(right) \(rows.count) rows of 0 pt")
                shown += 1
                row = s.layout.row(after: RowPath(r.section, last))
                continue
            }
            var notes: [String] = []
            if s.options.open == r { notes.append("<options open>") }
            if let pan = s.pan {
                if pan.isSelectionPan {
                    if pan.anchor == r { notes.append("anchor") }
                    if pan.start == r && pan.anchor != r { notes.append("start") }
                }
                if s.row(at: pan.finger) == r { notes.append("<- finger") }
            }
            let mark = s.selection.contains(r) ? "[x]" : "[ ]"
            let name = "\(r.section):\(r.row)"
            let padded = name + String(repeating: " ", count: max(1, 10 - name.count))
            lines.append("\(left) \(padded)\(mark)\(right) \(notes.joined(separator: " "))".trimmingTrailingSpaces)
            if s.layout.editorRow == r, let editor = s.editor {
                lines.append("    editor: " + TablePicture.options(of: editor))
            }
            shown += 1
            row = s.layout.row(after: r)
        }
        return lines
    }
}

extension TablePicture {
    /// The last row of a run of at least three zero-height rows from `r`, within the
    /// visible rows and before any noted row; nil when there is none.
    func collapsibleRun(from r: RowPath, through end: RowPath, noted: Set<RowPath>) -> Int? {
        guard var last = state.layout.sections[r.section].rows.lastOfZeroHeightRun(from: r.row) else { return nil }
        if end.section == r.section { last = min(last, end.row) }
        for n in noted where n.section == r.section && n.row >= r.row { last = min(last, n.row - 1) }
        return last - r.row >= 2 ? last : nil
    }
}

extension TablePicture {
    /// The most options the picture shows of an editor.
    static let listedOptions = 32

    /// The editor's first `listedOptions` options with their marks, then how many more
    /// there are and how many of those are chosen. (An editor can hold a million options:
    /// each was shown, and looked up in `chosen` one by one, 10 s for 100,000.)
    static func options(of editor: EditorRow) -> String {
        guard !editor.options.isEmpty else { return "(no options)" }
        var chosen = editor.chosen[...]  // ascending
        var shown: [String] = []
        for (i, o) in editor.options.prefix(listedOptions).enumerated() {
            while let c = chosen.first, c < i { chosen = chosen.dropFirst() }
            let on = chosen.first == i
            shown.append((on ? (editor.multiple ? "[x] " : "(o) ") : (editor.multiple ? "[ ] " : "( ) ")) + o.shownInPicture)
        }
        let more = editor.options.count - shown.count
        if more > 0 {
            let moreChosen = editor.chosen.count - editor.chosen.prefix { $0 < listedOptions }.count
            shown.append("… (\(more) more options, \(moreChosen) of them chosen)")
        }
        return shown.joined(separator: "  ")
    }
}

extension Unicode.Scalar {
    /// The scalar as a Swift escape, `\u{1B}`.
    var swiftEscape: String { "\\u{" + String(value, radix: 16, uppercase: true) + "}" }
}

extension String {
    /// The text with every scalar a terminal could act on (`isUnsafeToShow`) written as
    /// `\u{1B}`, so that text a log chose cannot move the cursor, clear the screen, make a
    /// link, reorder a line or start a new one. Backslashes are left as they are.
    var escapingControls: String {
        guard unicodeScalars.contains(where: \.isUnsafeToShow) else { return self }
        var out = ""
        for u in unicodeScalars {
            if u.isUnsafeToShow { out += u.swiftEscape } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    /// A title or an option as the picture shows it: clipped to `Quoted.limit` characters
    /// (with a count of the rest), then with controls escaped (`escapingControls`).
    var shownInPicture: String { Quoted.clip(self).escapingControls }

    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
