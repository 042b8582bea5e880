/// What a content position hits (spec 2).
public enum TableElement: Hashable, Sendable {
    /// The header of section `index`.
    case header(Int)
    /// A data row.
    case row(RowPath)
    /// The open editor row.
    case editor
    /// The footer of section `index`.
    case footer(Int)
    /// Nothing: past the end of the content, or before its start.
    case nothing
}

/// The vertical stack of all sections, with the editor row (when open) laid out
/// directly below its data row.
///
/// A Fenwick tree over section heights finds the section at a content offset in
/// O(log sections); each section's `HeightTree` finds the row in O(log rows).
public struct TableLayout: Equatable, Sendable {
    /// The sections, top to bottom: each one's header, rows and footer.
    public private(set) var sections: [LayoutSection] { didSet { lastRow = RowMemo() } }
    /// The data row the editor row sits below, if open.
    public private(set) var editorRow: RowPath? { didSet { lastRow = RowMemo() } }
    /// The editor row's height (`configure`'s `editorHeight`), laid out while it is open.
    public private(set) var editorHeight: Points { didSet { lastRow = RowMemo() } }
    /// Fenwick tree over each section's laid-out height (1-based).
    private var tree: [Int64]
    /// The sum of the tree: the content height.
    private var total: Int64 = 0
    /// Data rows over all sections, for the mean row height.
    public private(set) var rowCount: Int
    /// The data rows' total height over all sections (headers, footers and the editor row
    /// left out), for the mean row height.
    public private(set) var rowTotal: Points
    /// The data row `row(at:)` found last and its span: most pan samples at 120 Hz stay
    /// in one row, and then the hit test is a comparison. Every change to the layout
    /// forgets it; it is no part of the layout's value.
    private var lastRow = RowMemo()

    /// A data row and its span `lower..<upper` of content y, or nothing (an empty span).
    struct RowMemo: Equatable, Sendable {
        var lower: Int64 = 0
        var upper: Int64 = 0
        var row = RowPath(0, 0)
        /// A memo is no part of a layout's value: equal layouts may remember different rows.
        static func == (_: RowMemo, _: RowMemo) -> Bool { true }
    }

    /// The first section with each title, built at the first `jumpToSection` by title
    /// after the sections last changed: a jump looked through every title (9 ms at
    /// 1,000,000 sections, and a log can jump as often as it likes). Row edits keep it.
    struct TitleMemo: Equatable, Sendable {
        var first: [[UInt8]: Int]?
        /// A memo is no part of a layout's value.
        static func == (_: TitleMemo, _: TitleMemo) -> Bool { true }
    }
    private var titles = TitleMemo()

    /// The first section titled `title`, if any. Titles are the same when their Unicode
    /// scalars are (compared as UTF-8), not by the canonical equivalence of Swift's
    /// `String`: "é" and "e" followed by a combining acute are two titles, as NSString's
    /// `isEqual(_:)` and an implementation comparing code points see them, and the answer
    /// depends on no Unicode version's normalization data.
    mutating func section(titled title: String) -> Int? {
        let key = Array(title.utf8)
        if let first = titles.first { return first[key] }
        var first: [[UInt8]: Int] = [:]
        for (i, section) in sections.enumerated().reversed() {
            if let t = section.title { first[Array(t.utf8)] = i }
        }
        titles.first = first
        return first[key]
    }

    /// A layout of `sections`, with the editor row closed; `editorHeight` is the editor row's height when it opens.
    ///
    /// A layout holds what a table may (`EventLimits`): the sections past
    /// `EventLimits.tableSections`, or past `EventLimits.tableRows` rows in all, are left
    /// out, and headers, footers and `editorHeight` are taken within
    /// 0...`EventLimits.length`. So no sum of heights overflows, whatever the arguments.
    public init(sections: [LayoutSection] = [], editorHeight: Points = Points(44)) {
        self.sections = LayoutSection.withinTableLimits(sections)
        self.editorRow = nil
        self.editorHeight = LayoutSection.length(editorHeight)
        self.tree = []
        self.rowCount = 0
        self.rowTotal = .zero
        self.lastRow = RowMemo()
        rebuild()
    }

    /// The number of sections.
    public var sectionCount: Int { sections.count }
    /// The height of all sections, and the editor row when open.
    public var contentHeight: Points { Points(raw: total) }

    /// The number of data rows in `section`; 0 for a section that does not exist.
    public func rowCount(in section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].rows.count : 0
    }

    /// Whether `path` names an existing data row.
    public func contains(_ path: RowPath) -> Bool {
        path.section >= 0 && path.section < sections.count && path.row >= 0 && path.row < sections[path.section].rows.count
    }

    // MARK: Fenwick tree

    private func extent(of s: Int) -> Int64 {
        let section = sections[s]
        var h = section.header.raw &+ section.rows.total.raw &+ section.footer.raw
        if editorRow?.section == s { h &+= editorHeight.raw }
        return h
    }

    /// Rebuilds the section tree and the totals from the sections.
    mutating func rebuild() {
        lastRow = RowMemo()
        tree = Array(repeating: 0, count: sections.count + 1)
        rowCount = 0
        var total: Int64 = 0
        for s in sections.indices {
            tree[s + 1] = extent(of: s)
            rowCount += sections[s].rows.count
            total &+= sections[s].rows.total.raw
        }
        rowTotal = Points(raw: total)
        self.total = 0
        for s in sections.indices { self.total &+= tree[s + 1] }
        var i = 1
        while i < tree.count {
            let parent = i + (i & -i)
            if parent < tree.count { tree[parent] &+= tree[i] }
            i += 1
        }
    }

    private mutating func adjust(_ s: Int, by delta: Int64) {
        lastRow = RowMemo()
        total &+= delta
        var i = s + 1
        while i < tree.count {
            tree[i] &+= delta
            i += i & -i
        }
    }

    /// Total laid-out height of sections `0..<k`.
    func prefix(_ k: Int) -> Int64 {
        var i = k
        var acc: Int64 = 0
        while i > 0 {
            acc &+= tree[i]
            i -= i & -i
        }
        return acc
    }

    /// The section whose span contains content offset `y` (0 ≤ y < contentHeight).
    func section(containing y: Int64) -> Int { locate(y).section }

    /// The section whose span contains `y`, and `y`'s offset inside that section, in one descent.
    private func locate(_ y: Int64) -> (section: Int, local: Int64) {
        var pos = 0
        var rest = y
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = pos + step
            if next < tree.count && tree[next] <= rest {
                pos = next
                rest -= tree[next]
            }
            step /= 2
        }
        return (pos, rest)
    }

    // MARK: Positions

    /// Content offset of the top of section `s` (its header).
    package func top(ofSection s: Int) -> Points { Points(raw: prefix(s)) }

    /// Content offset of the top of data row `path`.
    package func top(of path: RowPath) -> Points {
        let section = sections[path.section]
        var y = prefix(path.section) &+ section.header.raw &+ section.rows.offset(of: path.row).raw
        if let e = editorRow, e.section == path.section, e.row < path.row { y &+= editorHeight.raw }
        return Points(raw: y)
    }

    /// The height of the data row at `path`, which must exist.
    package func height(of path: RowPath) -> Points { sections[path.section].rows.height(at: path.row) }

    /// What content offset `y` hits.
    public func element(at y: Points) -> TableElement { hit(y).element }

    /// The data row at content offset `y`, exactly as `element(at:)` finds it, through
    /// the memo of the last row found.
    @inline(__always)  // most calls are the memo's comparison
    package mutating func row(at y: Points) -> RowPath? {
        if y.raw >= lastRow.lower && y.raw < lastRow.upper {
            assert(element(at: y) == .row(lastRow.row), "the layout's row memo is out of date")
            return lastRow.row
        }
        return rowMissingMemo(at: y)
    }

    /// `row(at:)` when `y` is not in the remembered row.
    private mutating func rowMissingMemo(at y: Points) -> RowPath? {
        if let next = neighbourOfLastRow(containing: y.raw) {
            assert(element(at: y) == .row(next.row), "the layout's row memo is out of date")
            lastRow = next
            return next.row
        }
        let (element, span) = hit(y)
        guard case .row(let r) = element else { return nil }
        lastRow = RowMemo(lower: span.lowerBound, upper: span.upperBound, row: r)
        return r
    }

    /// The row just above or below the remembered one, in its section, when it contains
    /// `y` and no editor row sits between them (a finger that moved on by one row).
    /// Mutating only to take the layout by address: the caller, inlined into the move
    /// rule, copied it (14 words) to call a non-mutating method.
    private mutating func neighbourOfLastRow(containing y: Int64) -> RowMemo? {
        guard lastRow.lower < lastRow.upper else { return nil }
        let section = lastRow.row.section
        precondition(sections.indices.contains(section), "the layout's row memo is out of date")
        // The section's rows are read in place, through the array's storage: taken out of
        // the array (`sections[section].rows`), the tree's root was retained and released
        // around the lookup, on every sample that moves the finger on by a row.
        return sections.withUnsafeBufferPointer {
            TableLayout.neighbour(of: lastRow, containing: y, in: $0[section].rows, editorRow: editorRow)
        }
    }

    /// `neighbourOfLastRow(containing:)` in the remembered row's section, `rows`. Inlined,
    /// as `HeightTree.height(at:)` is, so that nothing between the read and the lookup is
    /// a call that would make the caller retain the tree.
    @inline(__always)
    private static func neighbour(of memo: RowMemo, containing y: Int64, in rows: borrowing HeightTree,
                                  editorRow: RowPath?) -> RowMemo? {
        let r = memo.row
        if y >= memo.upper {
            let next = RowPath(r.section, r.row + 1)
            guard next.row < rows.count, editorRow != r else { return nil }
            let h = rows.height(at: next.row).raw
            guard h > 0, y < memo.upper + h else { return nil }
            return RowMemo(lower: memo.upper, upper: memo.upper + h, row: next)
        }
        let previous = RowPath(r.section, r.row - 1)
        guard previous.row >= 0, editorRow != previous else { return nil }
        let h = rows.height(at: previous.row).raw
        guard h > 0, y >= memo.lower - h else { return nil }
        return RowMemo(lower: memo.lower - h, upper: memo.lower, row: previous)
    }

    /// What content offset `y` hits and, for a data row, the row's span of content y.
    private func hit(_ y: Points) -> (element: TableElement, span: Range<Int64>) {
        let none: Range<Int64> = 0..<0
        guard y.raw >= 0, y.raw < total else { return (.nothing, none) }
        var (s, local) = locate(y.raw)
        let header = sections[s].header.raw
        if local < header { return (.header(s), none) }
        local -= header
        if let e = editorRow, e.section == s {
            let editorTop = sections[s].rows.offset(of: e.row + 1).raw
            if local >= editorTop {
                if local < editorTop &+ editorHeight.raw { return (.editor, none) }
                local -= editorHeight.raw
            }
        }
        if local < sections[s].rows.total.raw, let r = sections[s].rows.span(containing: Points(raw: local)) {
            // Content y and `local` differ by a constant within the row.
            let top = y.raw - (local - r.start)
            return (.row(RowPath(s, r.index)), top..<(top + (r.end - r.start)))
        }
        return (.footer(s), none)
    }

    // MARK: Editing

    /// Inserts a data row at `path` (which may be one past the section's last row); the
    /// editor row follows its row.
    package mutating func insertRow(at path: RowPath, height: Points) {
        var carry = RowCarry()
        carry.insertHeights = [height]
        follow(.insert(path, source: .new(0)), carry: &carry)
    }

    /// Removes data row `path`; closes the editor if it sat below that row. Returns the height.
    @discardableResult
    package mutating func removeRow(at path: RowPath) -> Points {
        var carry = RowCarry()
        follow(.remove(path, move: 0), carry: &carry)
        return carry.moved[0]?.height ?? .zero
    }

    /// Row storage only: the editor row is the caller's (`follow`).
    mutating func insertHeight(_ height: Points, at path: RowPath) {
        sections[path.section].rows.insert(height, at: path.row)
        adjust(path.section, by: height.raw)
        rowCount += 1
        rowTotal += height
    }

    /// Row storage only: the editor row is the caller's (`follow`).
    mutating func removeHeight(at path: RowPath) -> Points {
        let h = sections[path.section].rows.remove(at: path.row)
        adjust(path.section, by: -h.raw)
        rowCount -= 1
        rowTotal -= h
        return h
    }

    /// Moves the editor row to `path` in the same section (no extent changes).
    mutating func shiftEditor(to path: RowPath?) {
        editorRow = path
        lastRow = RowMemo()
    }

    /// Sets the height of the data row at `path`, which must exist.
    package mutating func setHeight(_ height: Points, of path: RowPath) {
        let old = sections[path.section].rows.height(at: path.row)
        sections[path.section].rows.setHeight(height, at: path.row)
        adjust(path.section, by: height.raw - old.raw)
        rowTotal += height - old
    }

    /// Section storage only, with the editor row already placed: rebuilds the tree, or
    /// (`rebuilding` false) leaves that to the caller, before anything reads it.
    mutating func replaceSection(at index: Int, inserting section: LayoutSection?, editor: RowPath?, rebuilding: Bool) {
        editorRow = editor
        if let section { sections.insert(section, at: index) } else { sections.remove(at: index) }
        titles = TitleMemo()
        if rebuilding { rebuild() }
    }

    /// Section storage only, all of it, with the editor row already placed; the caller
    /// rebuilds the tree before anything reads it.
    mutating func storeSections(_ sections: [LayoutSection], editor: RowPath?) {
        editorRow = editor
        self.sections = sections
        titles = TitleMemo()
    }

    /// Opens (or moves) the editor row below `path`.
    package mutating func openEditor(below path: RowPath) {
        closeEditor()
        editorRow = path
        adjust(path.section, by: editorHeight.raw)
    }

    /// Closes the editor row, if open.
    package mutating func closeEditor() {
        guard let e = editorRow else { return }
        adjust(e.section, by: -editorHeight.raw)
        editorRow = nil
    }

    /// Sets the editor row's height.
    package mutating func setEditorHeight(_ height: Points) {
        let open = editorRow
        closeEditor()
        editorHeight = height
        if let open { openEditor(below: open) }
    }

    /// Replaces every section.
    package mutating func replaceSections(_ sections: [LayoutSection]) {
        self.sections = sections
        titles = TitleMemo()
        editorRow = nil
        rebuild()
    }
}
