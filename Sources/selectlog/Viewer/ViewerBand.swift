import SelectLog

/// The elements laid out near the viewport — headers, data rows, the editor row,
/// footers — with their content positions, as the engine's layout places them.
///
/// The band covers three viewport heights around the viewport, aligned to multiples
/// of the viewport height so that it changes only when the offset crosses one (or
/// the layout changes): scrolling a few points costs the page nothing to store. Only
/// these rows are drawn, however large the table. Runs of equal-height rows are
/// stored as one entry: `["r", section, firstRow, top, height, count]`; headers as
/// `["h", section, top, height, title]`, footers as `["f", section, top, height]`, the
/// editor row as `["e", top, height]`.
///
/// A header's title is kept as `inspect`'s picture shows it, its first 80 characters and
/// how many more there are (`Quoted.clip`): a header draws one line of the table, and a
/// band of 3,000 headers with titles of a megabyte each was gigabytes (a window's opening
/// frame of 40 such headers took a page to 40 MB).
struct ViewerBand {
    /// At most this many elements (data rows, headers and footers) are listed, or three
    /// for each point of a taller viewport: every row of a viewport of rows a point tall
    /// and the margins around it (rows a fraction of a point tall would not be seen
    /// anyway), and a bound on what one band stores and the page draws, however many
    /// sections of tiny headers are in view.
    static let rowLimit = 3_000

    private(set) var entries: [String] = []

    /// All a band is drawn from: the layout, the viewport's height and the offset rounded
    /// down to a multiple of it. States with equal keys have equal bands, so the viewer
    /// draws the band again only when the key changes (comparing layouts is cheap while
    /// they share storage, as they do between events that do not edit the table).
    struct Key: Equatable {
        var layout: TableLayout
        /// The viewport's height in raw units, at least 1.
        var height: Int64
        /// The content offset rounded down to a multiple of `height`.
        var aligned: Int64

        init(_ state: TableState) {
            layout = state.layout
            height = state.viewport.height.raw > 0 ? state.viewport.height.raw : 1
            aligned = (state.contentOffset.raw / height) * height
        }
    }

    init(_ state: TableState) {
        self.init(Key(state))
    }

    init(_ key: Key) {
        let layout = key.layout, height = key.height, aligned = key.aligned
        // Rows a point tall in the band's three viewport heights, for a tall viewport.
        let limit = max(ViewerBand.rowLimit, Int(height / 64) * 3 + 100)
        let low = max(aligned - height / 2, 0)
        let high = min(aligned + height * 5 / 2, layout.contentHeight.raw)
        guard low < high else { return }
        var first: Int
        switch layout.element(at: Points(raw: low)) {
        case .header(let s), .footer(let s): first = s
        case .row(let path): first = path.section
        case .editor: first = layout.editorRow?.section ?? 0
        case .nothing: return
        }
        var rows = 0
        var run: (section: Int, row: Int, top: Int64, height: Int64, count: Int)?
        func flush() {
            if let r = run {
                entries.append("[\"r\",\(r.section),\(r.row),\(Points(raw: r.top)),\(Points(raw: r.height)),\(r.count)]")
            }
            run = nil
        }
        func intersects(_ top: Int64, _ h: Int64) -> Bool { h > 0 && top < high && top + h > low }
        while first < layout.sectionCount, rows < limit {
            let s = first
            first += 1
            let section = layout.sections[s]
            let top = layout.top(ofSection: s).raw
            if top >= high { break }
            if intersects(top, section.header.raw) {
                flush()
                let title = section.title.map { JSONText.quote(Quoted.clip($0)) } ?? "null"
                entries.append("[\"h\",\(s),\(Points(raw: top)),\(section.header),\(title)]")
                rows += 1
            }
            let editor = layout.editorRow?.section == s ? layout.editorRow : nil
            let editorExtent = editor == nil ? Int64(0) : layout.editorHeight.raw
            let rowsTop = top + section.header.raw
            let rowsEnd = rowsTop + section.rows.total.raw + editorExtent
            if section.rowCount > 0, rowsEnd > low, rowsTop < high {
                var r = 0
                if low > rowsTop {
                    // Rows ending at or before `low` are skipped; none of this section's may reach it.
                    let found = layout.firstRow(endingAfter: Points(raw: low))
                    r = found?.section == s ? found?.row ?? section.rowCount : section.rowCount
                    // The editor below the row before may still reach into the band.
                    if let e = editor, e.row < r, e.row >= r - 1 || r == section.rowCount { r = e.row }
                }
                var steps = 0
                while r < section.rowCount, rows < limit, steps < limit * 4 {
                    steps += 1
                    let path = RowPath(s, r)
                    let rowTop = layout.top(of: path).raw
                    if rowTop >= high { break }
                    let h = layout.height(of: path).raw
                    // A run of zero-height rows (hidden rows) is stepped over at once, up to
                    // the editor's row, so that the rows after it are drawn however many it
                    // holds.
                    if h == 0, var last = section.rows.lastOfZeroHeightRun(from: r), last > r {
                        if let e = editor, e.row >= r { last = min(last, e.row) }
                        if last > r {
                            r = last
                            continue
                        }
                    }
                    if intersects(rowTop, h) {
                        rows += 1
                        if let current = run, current.section == s, current.row + current.count == r,
                           current.height == h, current.top + h * Int64(current.count) == rowTop {
                            run?.count += 1
                        } else {
                            flush()
                            run = (s, r, rowTop, h, 1)
                        }
                    }
                    if let e = editor, e.row == r, intersects(rowTop + h, editorExtent) {
                        flush()
                        entries.append("[\"e\",\(Points(raw: rowTop + h)),\(layout.editorHeight)]")
                    }
                    r += 1
                }
            }
            flush()
            if intersects(rowsEnd, section.footer.raw) {
                entries.append("[\"f\",\(s),\(Points(raw: rowsEnd)),\(section.footer)]")
                rows += 1
            }
        }
        flush()
    }

    /// The entries as a JSON array.
    var json: String { "[" + entries.joined(separator: ",") + "]" }
}
