/// One step of a row edit, in the order the engine performs it: every removal
/// (deletes and move sources) last row first, then every insertion (inserts and
/// move targets) first row first. Anything that follows rows through edits — the
/// selection, undo steps, a debugger's row tracking — replays these steps.
public enum RowOperation: Hashable, Sendable {
    /// Row `path` (pre-update frame) goes away; a move's row is carried as `move`.
    case remove(RowPath, move: Int?)
    /// A row appears at `path` (post-update frame): new (`insert` index) or a moved row.
    case insert(RowPath, source: Source)
    /// A new, empty section at `index`; later sections move down.
    case insertSection(Int)
    /// Section `index` goes away with its rows.
    case removeSection(Int)

    /// Where a row's content came from: a new row, or a row moved from elsewhere.
    public enum Source: Hashable, Sendable {
        /// A row inserted by the operation, numbered within it.
        case new(Int)
        /// A row that was moved, numbered within the operation.
        case move(Int)
    }
}

extension BatchUpdate {
    /// The removals then insertions of this update, in the engine's order.
    public var operations: [RowOperation] {
        var removals: [(path: RowPath, move: Int?)] = deletes.map { ($0, nil) }
        removals += moves.enumerated().map { ($1.from, $0) }
        removals.sort { $0.path > $1.path }
        var insertions: [(path: RowPath, source: RowOperation.Source)] = inserts.enumerated().map { ($1, .new($0)) }
        insertions += moves.enumerated().map { ($1.to, .move($0)) }
        insertions.sort { $0.path < $1.path }
        return removals.map { .remove($0.path, move: $0.move) } + insertions.map { .insert($0.path, source: $0.source) }
    }
}

extension Event {
    /// The row operations of a structural event (row and section edits), or nil for
    /// events that do not move rows. `reload` replaces every row and is not described here.
    public var rowOperations: [RowOperation]? {
        switch self {
        case .insertRows(let at, _): BatchUpdate(inserts: at).operations
        case .deleteRows(let at): BatchUpdate(deletes: at).operations
        case .moveRow(let from, let to): BatchUpdate(moves: [.init(from: from, to: to)]).operations
        case .reloadRows: []
        case .batch(let u): u.operations
        case .insertSections(let at, _): at.sorted().map { .insertSection($0) }
        case .deleteSections(let at): at.sorted(by: >).map { .removeSection($0) }
        case .configure, .viewport, .reload, .setEditing, .tap, .panBegan, .panMoved, .panEnded, .panCancelled,
             .scroll, .jumpToSection, .swipeBegan, .swipeMoved, .swipeEnded, .setOptionVisible, .toggleEditor,
             .choose, .tick, .select, .deselect, .selectAll, .deselectAll, .undo, .redo: nil
        }
    }

    /// Whether the event is a row or section edit (which ends a pan first).
    public var isRowEdit: Bool { rowOperations != nil }
}
