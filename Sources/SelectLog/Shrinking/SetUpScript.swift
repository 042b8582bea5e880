/// Events that rebuild a state from an empty table: the set-up prefix of a slice of a
/// session (`selectlog export --from A --to B`).
///
/// The prefix carries the configuration, the viewport, the table (every row height,
/// header, footer and title), editing, the selection, the content offset (and a running
/// deceleration), the open option view, the editor with its choices and how often it
/// opened, and the undo and redo history when each step is one event's. It cannot carry
/// a history with other steps, nor a gesture in progress: `notCarried` says what was
/// left out, for a message. With nothing left out, the rebuilt state has `state`'s hash.
///
/// ```swift
/// let setUp = SetUpScript(reproducing: stateBeforeSlice)
/// var table = TableState()
/// try setUp.forEachEvent { try table.apply($0) }   // table now matches (its hash too, when notCarried is empty)
/// ```
///
/// Lists of rows (the selection, or the rows `selectAll` should not have selected, and
/// rows past a section's `reload` limit) are kept as ranges and listed event by event
/// as `forEachEvent` hands them out: a selection of tens of millions of rows costs
/// the output's lines, one at a time, not a list of every row.
public struct SetUpScript: Sendable {
    /// The most row heights a section's `rowHeights` lists when it lists more than twice
    /// the rows whose height differs from `rowHeight`.
    static let listedHeights = 4096

    /// The most rows one set-up event lists (`select`, `deselect`, `insertRows`,
    /// `reloadRows`), and the most heights a section's `rowHeights` lists: longer lists
    /// are cut into events of this many, so that every event is within
    /// `EventLimits.eventBytes` (a row's index path and height take at most 13 bytes:
    /// 650 KB) and every line within the script line limit (a `select` of 40,000,000
    /// rows passed it).
    static let eventRows = 50_000


    /// `items` in consecutive parts of at most `eventRows`.
    static func parts<T>(_ items: [T]) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: eventRows).map { items[$0..<Swift.min($0 + eventRows, items.count)] }
    }

    /// A step of the set-up: an event, or rows listed by events of at most `eventRows`.
    enum Step: Sendable {
        case event(Event)
        case select(RowSet)
        case deselect(RowSet)
        /// Rows past sections' `reload` limit, in the script's section numbers.
        case insertRows([(section: Int, rows: Range<Int>)])
    }
    private var steps: [Step] = []
    /// The state's time, every event's.
    private var t = Micros.zero
    /// What the events cannot reproduce, in words (e.g. "3 undo steps").
    public var notCarried: [String] = []

    /// The events, all at the state's time `t`, as an array: a list of every row of a
    /// large selection (`forEachEvent` hands them out one at a time).
    public var events: [TimedEvent] {
        var out: [TimedEvent] = []
        forEachEvent { out.append($0) }
        return out
    }

    /// How many events `forEachEvent` hands out.
    public var eventCount: Int {
        func lists(_ rows: Int) -> Int { (rows + SetUpScript.eventRows - 1) / SetUpScript.eventRows }
        return steps.reduce(0) { n, step in
            switch step {
            case .event: n + 1
            case .select(let set), .deselect(let set): n + lists(set.count)
            case .insertRows(let runs): n + lists(runs.reduce(0) { $0 + $1.rows.count })
            }
        }
    }

    /// Hands `body` the events in order, each list of rows made when its turn comes.
    public func forEachEvent<E: Error>(_ body: (TimedEvent) throws(E) -> Void) throws(E) {
        for step in steps {
            switch step {
            case .event(let e):
                try body(TimedEvent(e, t: t))
            case .select(let set):
                try SetUpScript.forEachList(SetUpScript.runs(of: set)) { rows throws(E) in try body(TimedEvent(.select(rows: rows), t: t)) }
            case .deselect(let set):
                try SetUpScript.forEachList(SetUpScript.runs(of: set)) { rows throws(E) in try body(TimedEvent(.deselect(rows: rows), t: t)) }
            case .insertRows(let runs):
                try SetUpScript.forEachList(runs) { rows throws(E) in try body(TimedEvent(.insertRows(at: rows, heights: nil), t: t)) }
            }
        }
    }

    /// The rows of `set` as runs, in order.
    static func runs(of set: RowSet) -> [(section: Int, rows: Range<Int>)] {
        set.sections.flatMap { s in s.rows.ranges.map { (s.section, $0) } }
    }

    /// The rows of `runs`, in order, in lists of at most `eventRows` (a list may span runs).
    static func forEachList<E: Error>(_ runs: [(section: Int, rows: Range<Int>)], _ body: ([RowPath]) throws(E) -> Void) throws(E) {
        var list: [RowPath] = []
        for run in runs {
            var row = run.rows.lowerBound
            while row < run.rows.upperBound {
                let n = Swift.min(eventRows - list.count, run.rows.upperBound - row)
                list.append(contentsOf: (row..<row + n).lazy.map { RowPath(run.section, $0) })
                row += n
                if list.count == eventRows {
                    try body(list)
                    list.removeAll(keepingCapacity: true)
                }
            }
        }
        if !list.isEmpty { try body(list) }
    }

    /// The events that rebuild `state` from an empty table, as far as events can.
    ///
    /// The undo and redo history is carried when events can make each of its steps
    /// (`history(of:)`): the set-up then selects the rows selected before the oldest
    /// undo step, and makes the steps again after clearing those its own events
    /// recorded (a redo step made, then undone). The count of the editor's openings,
    /// which `choose` steps and the hash name, is carried too. Each is checked by
    /// replaying the set-up, and left out (named in `notCarried`) when the replay's
    /// differs: the history first, then the openings.
    public init(reproducing state: TableState) {
        for (history, openings) in [(true, true), (false, true)] {
            self.init(state, carryingHistory: history, carryingOpenings: openings)
            guard carriesHistory || carriesOpenings else { return }
            var rebuilt = TableState()
            do throws(InvalidEvent) {
                try forEachEvent { e throws(InvalidEvent) in try rebuilt.applyDiscardingChanges(e) }
            } catch {
                continue
            }
            let historyHolds = !carriesHistory
                || (rebuilt.history.undoStack == state.history.undoStack && rebuilt.history.redoStack == state.history.redoStack
                    && rebuilt.editor == state.editor)
            if historyHolds, rebuilt.selection == state.selection, rebuilt.editorOpenings == state.editorOpenings || !carriesOpenings {
                return
            }
        }
        self.init(state, carryingHistory: false, carryingOpenings: false)
    }

    /// Whether the steps make the history, and the editor's openings (to be checked).
    private var carriesHistory = false
    private var carriesOpenings = false

    /// The most editor openings a set-up makes again (an open and a close each).
    static let openingsCarried = 10_000

    private init(_ state: TableState, carryingHistory: Bool, carryingOpenings: Bool) {
        t = state.t
        func add(_ e: Event) { steps.append(.event(e)) }
        /// Sections `indices` of the state through `event` (a `reload` or `insertSections`),
        /// numbered from 0 (`renumbered`) or as in the state; then the rows past a section's
        /// `reload` limit, inserted, and the rows of odd heights, reloaded.
        ///
        /// The sections go in events of at most `sectionBytes`: a `reload` (or
        /// `insertSections`) of the first ones, then `insertSections` of the rest in
        /// order, each at its final index. A section too large for an event of its own
        /// (a title near the limit, with rows added since) goes without rows, which are
        /// inserted after it, and without listed heights, which are reloaded.
        func addSections(_ indices: [Int], renumbered: Bool) {
            var grown: [(section: Int, rows: Range<Int>)] = [], odd: [(row: RowPath, height: Points)] = []
            var specs: [SectionSpec] = [], numbers: [Int] = [], bytes = 0, first = true
            /// Whether sections of `more` bytes (their specs and indexes) join the event's
            /// within `EventLimits.eventBytes`, with the counts of its two lists.
            func fits(_ more: Int, count: Int) -> Bool {
                2 * FieldSize.varintBytes(count) + bytes + more <= EventLimits.eventBytes
            }
            func flush() {
                if renumbered && first {
                    add(.reload(sections: specs))
                } else if !specs.isEmpty {
                    add(.insertSections(at: numbers, sections: specs))
                }
                specs = []
                numbers = []
                bytes = 0
                first = false
            }
            for (i, k) in indices.enumerated() {
                let section = state.layout.sections[k]
                let number = renumbered ? i : k
                var (spec, extra, heights) = SetUpScript.section(section)
                var size = SetUpScript.bytes(of: spec) + FieldSize.varintBytes(number)
                if size + 2 > EventLimits.eventBytes {
                    (spec, extra, heights) = SetUpScript.section(section, listing: false)
                    size = SetUpScript.bytes(of: spec) + FieldSize.varintBytes(number)
                    if size + 2 > EventLimits.eventBytes {
                        notCarried.append("section \(k) (its title takes more than an event may)")
                        spec.title = nil
                        size = SetUpScript.bytes(of: spec) + FieldSize.varintBytes(number)
                    }
                }
                if !specs.isEmpty && !fits(size, count: specs.count + 1) { flush() }
                specs.append(spec)
                numbers.append(number)
                bytes += size
                if !extra.isEmpty { grown.append((number, extra)) }
                odd += heights.map { (RowPath(number, $0.row), $0.height) }
            }
            flush()
            if !grown.isEmpty { steps.append(.insertRows(grown)) }
            for part in SetUpScript.parts(odd) { add(.reloadRows(at: part.map(\.row), heights: part.map(\.height))) }
        }
        add(.configure(ConfigurationPatch(setting: state.configuration, editorHeight: state.layout.editorHeight)))
        add(.viewport(width: state.viewport.width, height: state.viewport.height))
        // The selection as the shorter list: the selected rows, or (in a multiple mode)
        // `selectAll` and the rows it should not have selected. With `selectAll`, the
        // sections of which no row is selected are inserted after it rather than listed:
        // a selection of whole sections of millions of rows is a few events.
        // With the history, the rows selected before its oldest step; its steps after.
        let history = carryingHistory && (state.undoCount > 0 || state.redoCount > 0) ? Self.history(of: state) : nil
        let selected = history?.start ?? state.selection
        let sections = state.layout.sections
        let selectedSections = Set(selected.sections.map(\.section))
        let unselected = state.allRows.subtracting(selected)
        var later: [Int] = []
        var rest = unselected
        if selected.count > 1 {
            later = sections.indices.filter { sections[$0].rows.count > 0 && !selectedSections.contains($0) }
            for k in later { rest = rest.subtracting(RowSet(section: k, rows: 0..<sections[k].rows.count)) }
            if rest.count >= selected.count {
                later = []
                rest = unselected
            }
        }
        let selectsAll = selected.count > 1 && rest.count < selected.count
        let inserted = Set(later)
        let kept = sections.indices.filter { !inserted.contains($0) }
        if !sections.isEmpty {
            // The kept sections are numbered among themselves until the others are inserted.
            addSections(kept, renumbered: true)
        }
        if state.editing { add(.setEditing(true)) }
        if selectsAll {
            add(.selectAll)
            if !later.isEmpty { addSections(later, renumbered: false) }
            if !rest.isEmpty { steps.append(.deselect(rest)) }
        } else if !selected.isEmpty {
            steps.append(.select(selected))
        }
        // The editor's earlier openings, each an open and a close (on its own row, or the
        // first row), so that the open one, if any, is the last; then the open one, with
        // its choices before the history's (`chosen`).
        let earlier = state.editorOpenings - (state.editor == nil ? 0 : 1)
        let openingsLeft = "\(earlier) earlier opening\(earlier == 1 ? "" : "s") of the editor"
        func addOpenings(chosen: [Int]?) {
            if carryingOpenings, earlier > 0 {
                let firstRow = sections.indices.first { sections[$0].rows.count > 0 }.map { RowPath($0, 0) }
                if earlier <= Self.openingsCarried, let row = state.layout.editorRow ?? firstRow {
                    for _ in 0..<earlier {
                        add(.toggleEditor(row: row, options: [], multiple: false, chosen: []))
                        add(.toggleEditor(row: row, options: [], multiple: false, chosen: []))
                    }
                    carriesOpenings = true
                } else {
                    notCarried.append(openingsLeft)
                }
            }
            // The editor before the offset: its row can make the content tall enough for it.
            if var editor = state.editor, let row = state.layout.editorRow {
                if let chosen { editor.chosen = chosen }
                addEditor(editor, below: row)
            }
        }
        // A history that chooses in the open editor needs it open first (`choose` steps
        // name their opening): the openings go before the history's steps, and before the
        // clearing of the set-up's own steps (an editor of many choices adds `choose`s).
        let choosesFrom = history?.chosen
        if let choosesFrom { addOpenings(chosen: choosesFrom) }
        // The steps the set-up's own selecting recorded go (a limit of 0 trims both
        // stacks): the state has none of them, whatever history it has. Then the
        // history's steps, under a limit that keeps them all (undo and redo steps
        // together may pass a limit lowered since), and the state's limit again.
        func setUndoLimit(_ n: Int) {
            var patch = ConfigurationPatch()
            patch.undoLimit = n
            add(.configure(patch))
        }
        let limit = state.configuration.undoLimit
        let room = history == nil ? limit : Swift.max(limit, state.undoCount + state.redoCount)
        if !selected.isEmpty || choosesFrom != nil, limit > 0 {
            setUndoLimit(0)
            setUndoLimit(room)
        } else if room != limit {
            setUndoLimit(room)
        }
        if let history {
            steps += history.steps
            if room != limit { setUndoLimit(limit) }
            carriesHistory = true
        }
        if choosesFrom == nil { addOpenings(chosen: nil) }
        if state.contentOffset != .zero || state.decelerating {
            // One `scroll {y}` reaches any offset: a content offset's limit is the tallest
            // content's (`EventLimits.offset`), which the state's offset never passes.
            add(.scroll(.to(state.contentOffset), phase: state.decelerating ? .decelerate : nil,
                        target: state.decelerating ? state.target : nil))
        }
        if let open = state.options.open { add(.setOptionVisible(row: open, visible: true)) }
        if history == nil {
            if state.undoCount > 0 { notCarried.append("\(state.undoCount) undo step\(state.undoCount == 1 ? "" : "s")") }
            if state.redoCount > 0 { notCarried.append("\(state.redoCount) redo step\(state.redoCount == 1 ? "" : "s")") }
        }
        if !carryingOpenings, earlier > 0 { notCarried.append(openingsLeft) }
        if state.pan != nil { notCarried.append("the pan in progress") }
        if state.options.swipe != nil { notCarried.append("the swipe in progress") }
    }

    /// The editor as one `toggleEditor`; when its options and choices take more than an
    /// event may (choices added one `choose` at a time since it opened), as many choices
    /// as fit, then a `choose` for each of the others. (Each is an undo step, so a
    /// history carried is then not the state's: the check leaves it out.)
    private mutating func addEditor(_ editor: EditorRow, below row: RowPath) {
        let whole = Event.toggleEditor(row: row, options: editor.options, multiple: editor.multiple, chosen: editor.chosen)
        if (whole.fieldBytes ?? 0) <= EventLimits.eventBytes {
            steps.append(.event(whole))
            return
        }
        let bare = Event.toggleEditor(row: row, options: editor.options, multiple: editor.multiple, chosen: [])
        // Room for the options, and for the count of the choices listed.
        var room = EventLimits.eventBytes - (bare.fieldBytes ?? 0) - 4
        guard room >= 0 else {
            notCarried.append("the editor (its options take more than an event may)")
            return
        }
        var listed = 0
        while listed < editor.chosen.count, FieldSize.varintBytes(editor.chosen[listed]) <= room {
            room -= FieldSize.varintBytes(editor.chosen[listed])
            listed += 1
        }
        steps.append(.event(.toggleEditor(row: row, options: editor.options, multiple: editor.multiple,
                                          chosen: Array(editor.chosen[..<listed]))))
        for option in editor.chosen[listed...] { steps.append(.event(.choose(option: option))) }
    }

    /// The bytes `spec` takes in a `reload` or `insertSections` (its index in `at` apart).
    static func bytes(of spec: SectionSpec) -> Int {
        (Event.reload(sections: [spec]).fieldBytes ?? 0) - 1
    }

    /// A section as a `reload` or `insertSections` gives it, with the rows it cannot give
    /// (past `EventLimits.sectionRows`, inserted after it) and the rows whose heights a
    /// `reloadRows` sets after it. Heights other than the section's `rowHeight` are listed
    /// in `rowHeights` up to the last of them while that list stays short next to them;
    /// otherwise reloaded, so that a few odd rows among millions (a reloaded row at the
    /// end of 50,000,000) cost a few bytes, not a line past the script line limit.
    ///
    /// Without `listing`, the smallest spec: no rows (all inserted after it), no listed
    /// heights (all reloaded), defaults left out, for a section whose title leaves room
    /// for little else.
    static func section(_ s: LayoutSection, listing: Bool = true) -> (spec: SectionSpec, grown: Range<Int>, odd: [(row: Int, height: Points)]) {
        let given = listing ? Swift.min(s.rows.count, EventLimits.sectionRows) : 0
        var runs: [(height: Points, count: Int)] = []
        s.rows.forEachRun { h, n in runs.append((h, n)) }
        if runs.last?.height == s.rowHeight { runs.removeLast() }
        let listed = runs.reduce(0) { $0 + $1.count }
        let differing = runs.reduce(0) { $0 + ($1.height == s.rowHeight ? 0 : $1.count) }
        var heights: [Points]?
        var odd: [(row: Int, height: Points)] = []
        if listing, listed > 0, listed <= given, listed <= Swift.max(listedHeights, Swift.min(2 * differing, eventRows)) {
            heights = []
            for run in runs { heights?.append(contentsOf: repeatElement(run.height, count: run.count)) }
        } else {
            var row = 0
            for run in runs {
                if run.height != s.rowHeight { odd += (row..<row + run.count).map { ($0, run.height) } }
                row += run.count
            }
        }
        let spec = listing
            ? SectionSpec(rows: given, rowHeight: s.rowHeight, rowHeights: heights, header: s.header, footer: s.footer, title: s.title)
            : SectionSpec(rows: 0, rowHeight: s.rowHeight == Points(44) ? nil : s.rowHeight, header: s.header == .zero ? nil : s.header,
                          footer: s.footer == .zero ? nil : s.footer, title: s.title)
        return (spec, given..<s.rows.count, odd)
    }
}
