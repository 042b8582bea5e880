import SelectLog

// An independent, deliberately naive model of contract v2 (docs/EVENTS.md): rows in
// flat arrays, a `Bool` per row for the selection, linear hit testing, every length an
// `Int64` in 1/64 pt. It reads nothing of the engine but the public event values it is
// fed; property tests compare it with the engine's state JSON (spec 6).

/// One data row of the model: an identity that follows the row through edits, its
/// height in 1/64 pt, and whether it is selected.
struct ModelRow: Equatable {
    var id: Int
    var height: Int64
    var selected = false
}

/// One section of the model.
struct ModelSection: Equatable {
    var rows: [ModelRow]
    var rowHeight: Int64
    var header: Int64
    var footer: Int64
    var title: String?
}

/// A laid-out element, top to bottom.
struct ModelElement {
    enum Kind: Equatable { case header, row(section: Int, row: Int), editor, footer }
    var kind: Kind
    var top: Int64
    var height: Int64
}

/// One undo step: for each row it changed, the selection before and after; or a `choose`.
enum ModelStep: Equatable {
    case selection([ModelChange])
    case choose(opening: Int, before: [Int], after: [Int])
}

/// A row's selection before and after a step.
struct ModelChange: Equatable {
    var id: Int
    var before: Bool
    var after: Bool
}

/// The active pan, or the touch that is left of an interrupted one.
struct ModelPan {
    enum Kind: String { case strip, multiSelect, scroll, interrupted }
    var kind: Kind
    var restore = false
    // Drag scroll.
    var offsetAtBegan: Int64 = 0
    var yAtBegan: Int64 = 0
    // Selection pans.
    var fingerX: Int64 = 0
    var fingerY: Int64 = 0
    /// The content y of the starting point (starting y plus the offset at `panBegan`).
    var startContentY: Int64 = 0
    /// +1 down, -1 up.
    var direction: Int?
    var startID: Int?
    var anchorID: Int?
    var endID: Int?
    /// true: select, false: deselect.
    var mode: Bool?
    var before: Set<Int> = []
    /// +1 down, -1 up.
    var autoscroll: Int?
    var autoscrollSince: Int64 = 0

    var isSelectionPan: Bool { kind == .strip || kind == .multiSelect }
}

/// The whole model state.
struct ModelTable {
    // Configuration (spec 3, 5.1), lengths in 1/64 pt.
    var allowsSelection = true
    var allowsMultipleSelection = false
    var allowsSelectionDuringEditing = false
    var allowsMultipleSelectionDuringEditing = false
    var multiSelectInteraction = false
    var optionWidth: Int64 = 0
    var editorHeight: Int64 = 44 * 64
    var undoLimit = 1000
    var stripEnabled = false
    var stripTrailing = false
    var stripWidth: Int64 = 70 * 64
    var topAnchor: Int64 = 40 * 64
    var bottomAnchor: Int64 = -40 * 64
    var rowsPerSecond: Int64 = 20 * 64
    var stripRestore = false
    var jitter: Int64 = 5 * 64

    var width: Int64 = 390 * 64
    var height: Int64 = 844 * 64
    var sections: [ModelSection] = []
    var offset: Int64 = 0
    var editing = false
    var dragging = false
    var decelerating = false
    var target: Int64?
    var pan: ModelPan?
    var optionOpenID: Int?
    /// The swipe in progress: its row and revealed width; `swipeIgnored` when it is being ignored.
    var swipeID: Int?
    var swipeOffset: Int64 = 0
    var swipeIgnored = false
    var editorRowID: Int?
    var editorOptions: [String] = []
    var editorMultiple = false
    var editorChosen: [Int] = []
    var editorOpening = 0
    var openings = 0
    var undo: [ModelStep] = []
    var redo: [ModelStep] = []
    var t: Int64 = 0
    var nextID = 0

    var multiple: Bool { editing ? allowsMultipleSelectionDuringEditing : allowsMultipleSelection }
    var selectable: Bool { (editing ? allowsSelectionDuringEditing : allowsSelection) || multiple }

    // MARK: Layout, linearly

    /// Every element top to bottom, zero-height ones included.
    var elements: [ModelElement] {
        var out: [ModelElement] = []
        var y: Int64 = 0
        for (s, section) in sections.enumerated() {
            out.append(ModelElement(kind: .header, top: y, height: section.header))
            y += section.header
            for (r, row) in section.rows.enumerated() {
                out.append(ModelElement(kind: .row(section: s, row: r), top: y, height: row.height))
                y += row.height
                if row.id == editorRowID {
                    out.append(ModelElement(kind: .editor, top: y, height: editorHeight))
                    y += editorHeight
                }
            }
            out.append(ModelElement(kind: .footer, top: y, height: section.footer))
            y += section.footer
        }
        return out
    }

    var contentHeight: Int64 { elements.reduce(0) { $0 + $1.height } }
    var maxOffset: Int64 { max(0, contentHeight - height) }
    func clamp(_ y: Int64) -> Int64 { min(max(y, 0), maxOffset) }

    /// The data row (section, row) that viewport point (x, y) hits, if any.
    func rowAt(x: Int64, y: Int64) -> (Int, Int)? {
        guard x >= 0, x < width, y >= 0, y < height else { return nil }
        let c = y + offset
        for e in elements where e.top <= c && c < e.top + e.height {
            if case .row(let s, let r) = e.kind { return (s, r) }
            return nil
        }
        return nil
    }

    /// Data rows of positive height intersecting `[top, top + height)`, as first and last.
    func rows(from top: Int64, in elements: [ModelElement]) -> ((Int, Int), (Int, Int))? {
        var first: (Int, Int)?
        var last: (Int, Int)?
        for e in elements {
            guard case .row(let s, let r) = e.kind, e.height > 0, e.top < top + height, e.top + e.height > top else { continue }
            if first == nil { first = (s, r) }
            last = (s, r)
        }
        guard let first, let last else { return nil }
        return (first, last)
    }

    // MARK: Rows by identity

    /// Every row's (section, row) in content order.
    var order: [(Int, Int)] {
        sections.enumerated().flatMap { s, section in section.rows.indices.map { (s, $0) } }
    }

    func path(of id: Int?) -> (Int, Int)? {
        guard let id else { return nil }
        for (s, section) in sections.enumerated() {
            if let r = section.rows.firstIndex(where: { $0.id == id }) { return (s, r) }
        }
        return nil
    }

    func id(at p: (Int, Int)) -> Int { sections[p.0].rows[p.1].id }
    func contains(_ p: RowPath) -> Bool {
        p.section >= 0 && p.section < sections.count && p.row >= 0 && p.row < sections[p.section].rows.count
    }

    var selectedIDs: Set<Int> {
        Set(sections.flatMap { $0.rows.filter(\.selected).map(\.id) })
    }

    mutating func setSelected(_ ids: Set<Int>) {
        for s in sections.indices {
            for r in sections[s].rows.indices { sections[s].rows[r].selected = ids.contains(sections[s].rows[r].id) }
        }
    }

    /// The ids of the rows from `a` to `b` (either order), both included, in content order.
    func ids(between a: Int, and b: Int) -> [Int] {
        let all = order.map { id(at: $0) }
        guard let i = all.firstIndex(of: a), let j = all.firstIndex(of: b) else { return [] }
        return Array(all[min(i, j)...max(i, j)])
    }

    mutating func newRow(height: Int64) -> ModelRow {
        nextID += 1
        return ModelRow(id: nextID, height: height)
    }

    mutating func makeSection(_ spec: SectionSpec) -> ModelSection {
        let rowHeight = spec.rowHeight?.raw ?? 44 * 64
        let listed = spec.rowHeights ?? []
        let rows = (0..<spec.rows).map { k in newRow(height: k < listed.count ? listed[k].raw : rowHeight) }
        return ModelSection(rows: rows, rowHeight: rowHeight, header: spec.header?.raw ?? 0,
                            footer: spec.footer?.raw ?? 0, title: spec.title)
    }

    // MARK: Undo history

    mutating func push(_ step: ModelStep) {
        undo.append(step)
        redo.removeAll()
        trimHistory()
    }

    mutating func trimHistory() {
        if undo.count > undoLimit { undo.removeFirst(undo.count - undoLimit) }
        if redo.count > undoLimit { redo.removeFirst(redo.count - undoLimit) }
    }

    /// Records the change from `before` to the current selection as one step, if any.
    mutating func recordChange(from before: Set<Int>) {
        let now = selectedIDs
        let changes = order.map { id(at: $0) }.compactMap { id -> ModelChange? in
            let b = before.contains(id), a = now.contains(id)
            return a == b ? nil : ModelChange(id: id, before: b, after: a)
        }
        if !changes.isEmpty { push(.selection(changes)) }
    }

    /// Replaces the selection, recording a step if it changed.
    mutating func changeSelection(to new: Set<Int>) {
        let before = selectedIDs
        setSelected(new)
        recordChange(from: before)
    }
}

// MARK: The state as the JSON values of spec 6

extension ModelTable {
    static func decimal(_ raw: Int64, scale: Int64) -> String {
        var text = raw < 0 ? "-" : ""
        let m = raw.magnitude
        text += String(m / UInt64(scale))
        var rest = m % UInt64(scale)
        if rest != 0 { text += "." }
        while rest != 0 {
            rest *= 10
            text += String(rest / UInt64(scale))
            rest %= UInt64(scale)
        }
        return text
    }

    static func points(_ raw: Int64) -> String { decimal(raw, scale: 64) }
    static func path(_ p: (Int, Int)?) -> String { p.map { "[\($0.0),\($0.1)]" } ?? "null" }
    static func range(_ r: ((Int, Int), (Int, Int))?) -> String { r.map { "[\(path($0.0)),\(path($0.1))]" } ?? "null" }

    /// The spec-6 values the model predicts, compact (no whitespace), by key.
    var json: [String: String] {
        var out: [String: String] = [:]
        out["sections"] = "[" + sections.map { String($0.rows.count) }.joined(separator: ",") + "]"
        out["editing"] = String(editing)
        out["selected"] = "[" + order.filter { sections[$0.0].rows[$0.1].selected }.map { ModelTable.path($0) }.joined(separator: ",") + "]"
        let laidOut = elements
        let total = laidOut.reduce(0) { $0 + $1.height }
        out["contentOffset"] = ModelTable.points(offset)
        out["contentHeight"] = ModelTable.points(total)
        let visible = rows(from: offset, in: laidOut)
        out["visible"] = ModelTable.range(visible)
        out["dragging"] = String(dragging)
        out["decelerating"] = String(decelerating)
        if decelerating && !dragging {
            out["rowsToLoad"] = target.map { ModelTable.range(rows(from: min(max($0, 0), max(0, total - height)), in: laidOut)) } ?? "null"
        } else {
            out["rowsToLoad"] = ModelTable.range(visible)
        }
        if let pan {
            let selecting = pan.isSelectionPan
            let mode = selecting ? pan.mode.map { $0 ? "\"select\"" : "\"deselect\"" } ?? "null" : "null"
            let anchor = selecting ? ModelTable.path(path(of: pan.anchorID)) : "null"
            let auto = selecting ? pan.autoscroll.map { $0 < 0 ? "\"up\"" : "\"down\"" } ?? "null" : "null"
            out["pan"] = "{\"kind\":\"\(pan.kind.rawValue)\",\"mode\":\(mode),\"anchor\":\(anchor),\"autoscroll\":\(auto)}"
        } else {
            out["pan"] = "null"
        }
        out["optionOpen"] = ModelTable.path(path(of: optionOpenID))
        if let swipeID, !swipeIgnored, let p = path(of: swipeID) {
            out["swipe"] = "{\"row\":\(ModelTable.path(p)),\"offset\":\(ModelTable.points(swipeOffset))}"
        } else {
            out["swipe"] = "null"
        }
        if let row = path(of: editorRowID) {
            let options = editorOptions.map { "\"\($0)\"" }.joined(separator: ",")
            let chosen = editorChosen.map(String.init).joined(separator: ",")
            out["editor"] = "{\"row\":\(ModelTable.path(row)),\"options\":[\(options)],\"multiple\":\(editorMultiple),\"chosen\":[\(chosen)]}"
        } else {
            out["editor"] = "null"
        }
        out["undo"] = String(undo.count)
        out["redo"] = String(redo.count)
        return out
    }
}

/// The top-level values of a JSON object, by key, with whitespace outside strings removed.
func topLevelJSONValues(_ text: String) -> [String: String] {
    var out: [String: String] = [:]
    var depth = 0
    var inString = false
    var escaped = false
    var current = ""
    func flush() {
        guard let colon = current.firstIndex(of: ":") else { return }
        let key = current[..<colon].trimmingQuotes
        out[key] = String(current[current.index(after: colon)...])
        current = ""
    }
    for ch in text {
        if inString {
            current.append(ch)
            if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false }
            continue
        }
        switch ch {
        case "\"": inString = true; current.append(ch)
        case "{", "[":
            depth += 1
            if depth > 1 { current.append(ch) }
        case "}", "]":
            if depth > 1 { current.append(ch) } else { flush() }
            depth -= 1
        case "," where depth == 1: flush()
        case " ", "\n", "\t": continue
        default: current.append(ch)
        }
    }
    return out
}

private extension Substring {
    var trimmingQuotes: String { String(self.filter { $0 != "\"" }) }
}
