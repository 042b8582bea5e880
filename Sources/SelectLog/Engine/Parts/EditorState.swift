/// The open drop-down editor row (spec 5.6). Its position is `TableLayout.editorRow`.
public struct EditorRow: Hashable, Sendable {
    /// The choices it offers.
    public var options: [String]
    /// Whether `choose` toggles (true) or replaces (false).
    public var multiple: Bool
    /// Chosen option indices, ascending.
    public var chosen: [Int]
    /// Which opening of the editor this is; `choose` steps belong to one (spec 5.10.9).
    public var opening: Int
}

/// The editor row's content and how many times it opened (spec 5.6, 5.10.9). Where
/// it sits is geometry, owned by the layout, which follows it through edits.
public struct EditorState: Hashable, Sendable {
    /// The open editor's content, or nil.
    public internal(set) var current: EditorRow?
    /// Openings of the editor so far; names the next opening.
    public internal(set) var openings = 0

    init() {}

    /// Opens (or moves) the editor with new content: a new opening.
    mutating func open(options: [String], multiple: Bool, chosen: [Int]) {
        current = EditorRow(options: options, multiple: multiple, chosen: chosen, opening: openings)
        openings += 1
    }

    mutating func close() { current = nil }
}
