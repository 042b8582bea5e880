// The shrink's "simplify" stage: events made simpler, none removed. A session recorded
// from an app reloads its whole table (twenty sections of a hundred rows, each row's
// height, titles) and configures every setting; a bug seldom needs more than a few rows
// of the first sections.
//
// A simpler event must not change the story the script tells, only its set-up: a table
// cut short clamps a scroll to another offset, a section inserted later moves up, a
// setting left out changes how tall the editor row is, and a tap then selects another
// row, which can pass the expectation for another reason than the one recorded. So a
// candidate is kept only when every later event lands as it did (`Landing`). And since a
// shorter table can make an event removable by another route (a scroll that a clamp now
// does the work of), the simplified script is kept only if it is still 1-minimal: else
// the shrink returns the script as it was before this stage.

extension ShrinkRun {
    /// What an event met and left, which a simplification must keep: the element under
    /// its touch (a tap's, a pan sample's; nil for an event without one), and after it
    /// the content offset, whether it is dragged or decelerating and towards where (the
    /// target as the table clamps it), the selected rows (a copy on write: a script of
    /// at most `simplifiedEvents` events holds that many), the pan, the option views
    /// (the open one and the swipe in progress with the width it reveals: an
    /// `optionWidth` left out reveals a swipe to another width, which no other field
    /// shows unless the swipe's end then opens or closes another way, nor ever when the
    /// script ends first), the editor row's place and content (options, chosen values
    /// and the opening a `choose` step's undo checks; the options are the event's own
    /// list in both replays, so comparing them is a pointer's work), and the undo and
    /// redo stacks by their counts and top steps.
    ///
    /// The top steps stand for the whole stacks, as the two replays start from one
    /// state: a stack changes at its top (a step pushed, or moved by `undo` and `redo`),
    /// loses its oldest steps to the undo limit (which the counts show), or changes as a
    /// whole (cleared; a row edit, the same in both, moves every step's rows alike). So
    /// equal counts and tops after every event mean equal steps, and an `undo` later
    /// restores the same rows, at the cost of two steps compared an event, not the stacks.
    struct Landing: Equatable {
        var touched: TableElement?
        var offset: Points
        var dragging: Bool
        var decelerating: Bool
        var target: Points?
        var selected: RowSet
        var pan: Pan?
        var options: OptionViews
        var editorRow: RowPath?
        var editor: EditorRow?
        var undo: Int
        var redo: Int
        var lastUndo: UndoStep?
        var lastRedo: UndoStep?
    }

    /// Applies `event` to `state` and says how it landed; nil when it is rejected.
    static func land(_ event: TimedEvent, on state: inout TableState) -> Landing? {
        let touched = ShrinkRun.touch(of: event.event).map { state.element(at: $0) }
        do { try state.applyDiscardingChanges(event) } catch { return nil }
        return Landing(touched: touched, offset: state.contentOffset, dragging: state.dragging, decelerating: state.decelerating,
                       target: state.target.map { state.clampedOffset($0) }, selected: state.selection, pan: state.pan, options: state.options,
                       editorRow: state.layout.editorRow, editor: state.editor, undo: state.undoCount, redo: state.redoCount,
                       lastUndo: state.history.lastUndo, lastRedo: state.history.lastRedo)
    }

    /// Where `event` touches the table, if it does.
    static func touch(of event: Event) -> ViewportPoint? {
        switch event {
        case .tap(let p), .panBegan(let p, _), .panMoved(let p): p
        case .panEnded(let p, _): p
        default: nil
        }
    }

    /// Tries simpler forms of each `reload` and `configure`, keeping each one that
    /// changes no landing and still passes: a `reload` cut to its first sections and its
    /// last section to fewer rows (their heights with them; each the fewest found by
    /// doubling, then halving the gap), heights that say what the defaults say left out,
    /// and its titles (all of them, else those no later jump names); a `configure`
    /// without all its settings, else without halves of them. Times are kept and no
    /// event removed. Scripts of more than `simplifiedEvents` events are left as they
    /// are: a script that long is read by no one, and checking it costs a replay of it
    /// for each of its events.
    mutating func simplify(_ events: inout [TimedEvent]) {
        guard events.count <= ShrinkRun.simplifiedEvents else { return }
        var landings: [Landing] = []
        var probe = TableState()
        for e in events {
            guard let landing = ShrinkRun.land(e, on: &probe) else { return }
            landings.append(landing)
        }
        var prefix = TableState()
        for i in events.indices {
            switch events[i].event {
            case .reload(let sections): simplifyReload(&events, at: i, sections, after: prefix, landings)
            case .configure(let patch): simplifyConfigure(&events, at: i, patch, after: prefix, landings)
            default: break
            }
            do { try prefix.applyDiscardingChanges(events[i]) } catch { return }
        }
    }

    /// The longest script the stage simplifies.
    static let simplifiedEvents = 1_000

    /// Whether deleting any one of `events` makes the expectation false or an event
    /// invalid (false too when the budget ran out before all were tried).
    mutating func isOneMinimal(_ events: [TimedEvent]) -> Bool {
        var prefix = TableState()
        for i in events.indices {
            if budgetSpent() { return false }
            if passes(prefix, events[(i + 1)...]) { return false }
            do { try prefix.applyDiscardingChanges(events[i]) } catch { return false }
        }
        return true
    }

    /// Puts `simpler` (at the same time) in place of event `i`, whose state before is
    /// `prefix`, when it and every event after it land as `landings` says and the
    /// expectation still holds; else leaves the events as they were.
    private mutating func replaces(_ events: inout [TimedEvent], at i: Int, with simpler: Event, after prefix: TableState,
                                   _ landings: [Landing]) -> Bool {
        if budgetSpent() { return false }
        tests += 1
        let candidate = TimedEvent(simpler, t: events[i].t)
        var state = prefix
        guard ShrinkRun.land(candidate, on: &state) == landings[i] else { return false }
        for k in (i + 1)..<events.count where ShrinkRun.land(events[k], on: &state) != landings[k] { return false }
        guard expectation.holds(in: state) else { return false }
        events[i] = candidate
        report("simplify", events.count)
        return true
    }

    private mutating func simplifyReload(_ events: inout [TimedEvent], at i: Int, _ original: [SectionSpec], after prefix: TableState,
                                         _ landings: [Landing]) {
        var sections = original
        func attempt(_ simpler: [SectionSpec], _ run: inout ShrinkRun) -> Bool {
            guard simpler != sections, run.replaces(&events, at: i, with: .reload(sections: simpler), after: prefix, landings) else { return false }
            sections = simpler
            return true
        }
        // The first sections only: rows after them are seldom what a bug needs.
        _ = ShrinkRun.fewest(below: sections.count, &self) { n, run in attempt(Array(sections.prefix(n)), &run) }
        // Fewer rows in the last section (heights past the count are dropped with them).
        if let s = sections.indices.last {
            _ = ShrinkRun.fewest(below: sections[s].rows, from: 0, &self) { n, run in
                var simpler = sections
                simpler[s].rows = n
                if let heights = simpler[s].rowHeights, heights.count > n { simpler[s].rowHeights = n == 0 ? nil : Array(heights.prefix(n)) }
                return attempt(simpler, &run)
            }
        }
        // Heights that say what the defaults say: per-row heights all the section's row
        // height, a row height of 44.
        var plain = sections
        for s in plain.indices {
            if plain[s].rowHeights?.allSatisfy({ $0 == plain[s].rowHeight ?? Points(44) }) == true { plain[s].rowHeights = nil }
            if plain[s].rowHeight == Points(44) { plain[s].rowHeight = nil }
        }
        if !budgetSpent() { _ = attempt(plain, &self) }
        // Titles, which only a jump by title reads: all of them, else those that no later
        // jump names (two candidates, however many titles).
        guard sections.contains(where: { $0.title != nil }), !budgetSpent() else { return }
        var untitled = sections
        for s in untitled.indices { untitled[s].title = nil }
        guard !attempt(untitled, &self), !budgetSpent() else { return }
        var named: [String] = []
        for e in events[(i + 1)...] {
            if case .jumpToSection(.title(let title)) = e.event { named.append(title) }
        }
        var unnamed = sections
        for s in unnamed.indices where !named.contains(where: { LayoutSection.sameTitle($0, unnamed[s].title) }) { unnamed[s].title = nil }
        _ = attempt(unnamed, &self)
    }

    private mutating func simplifyConfigure(_ events: inout [TimedEvent], at i: Int, _ original: ConfigurationPatch, after prefix: TableState,
                                            _ landings: [Landing]) {
        var patch = original
        // All the settings at once, else halves of them: a session that configures a
        // thousand times costs a few candidates each, not one a setting.
        ShrinkRun.byHalves(ShrinkRun.patchFieldClears.indices.filter { k in
            var p = patch
            return ShrinkRun.patchFieldClears[k](&p)
        }, &self) { fields, run in
            var simpler = patch
            for k in fields { _ = ShrinkRun.patchFieldClears[k](&simpler) }
            if simpler.scrollAndSelect == StripPatch() { simpler.scrollAndSelect = nil }
            guard simpler != patch, run.replaces(&events, at: i, with: .configure(simpler), after: prefix, landings) else { return false }
            patch = simpler
            return true
        }
    }

    /// The fewest `n` in `from..<limit` for which `keeps(n)` is true (and was kept), found
    /// by doubling from `from` (0, then 1, 2, 4, …), then halving the gap between the
    /// last size that failed and the first kept, or `limit` itself (the size now, which
    /// passes) when no power of two below it was kept; nil when none below `limit` is.
    private static func fewest(below limit: Int, from: Int = 1, _ run: inout ShrinkRun,
                               _ keeps: (Int, inout ShrinkRun) -> Bool) -> Int? {
        var failed = from - 1
        var n = from
        var kept = false
        while n < limit {
            if run.budgetSpent() { return nil }
            if keeps(n, &run) {
                kept = true
                break
            }
            failed = n
            n = n == 0 ? 1 : n * 2
        }
        // Every size in (failed, high) is untried; `high` passes.
        var high = kept ? n : limit
        var found: Int? = kept ? n : nil
        while high - failed > 1, !run.budgetSpent() {
            let middle = failed + (high - failed) / 2
            if keeps(middle, &run) {
                high = middle
                found = middle
            } else {
                failed = middle
            }
        }
        return found
    }

    /// Calls `clears` with all of `items`, and when it says no, with each half in turn,
    /// down to single items: the items that can go, in tens of candidates when few must stay.
    private static func byHalves(_ items: [Int], _ run: inout ShrinkRun, _ clears: (ArraySlice<Int>, inout ShrinkRun) -> Bool) {
        var pending = [items[...]]
        while let part = pending.popLast(), !run.budgetSpent() {
            guard !part.isEmpty, !clears(part, &run), part.count > 1 else { continue }
            let middle = part.startIndex + part.count / 2
            pending += [part[middle...], part[..<middle]]
        }
    }

    /// Each clears one field of a `configure` (the strip's whole patch first, then each
    /// of its fields) and says whether it was set.
    private static let patchFieldClears: [@Sendable (inout ConfigurationPatch) -> Bool] = [
        { p in clear(&p.allowsSelection) }, { p in clear(&p.allowsMultipleSelection) },
        { p in clear(&p.allowsSelectionDuringEditing) }, { p in clear(&p.allowsMultipleSelectionDuringEditing) },
        { p in clear(&p.scrollAndSelect) }, { p in clear(&p.multiSelectInteraction) }, { p in clear(&p.optionWidth) },
        { p in clear(&p.editorHeight) }, { p in clear(&p.undoLimit) },
        { p in clear(&p.scrollAndSelect, \.enabled) }, { p in clear(&p.scrollAndSelect, \.edge) },
        { p in clear(&p.scrollAndSelect, \.stripWidth) }, { p in clear(&p.scrollAndSelect, \.topAnchor) },
        { p in clear(&p.scrollAndSelect, \.bottomAnchor) }, { p in clear(&p.scrollAndSelect, \.rowsPerSecond) },
        { p in clear(&p.scrollAndSelect, \.reversal) }, { p in clear(&p.scrollAndSelect, \.jitter) },
    ]

    /// Sets `value` to nil; whether it was set.
    private static func clear<V>(_ value: inout V?) -> Bool {
        defer { value = nil }
        return value != nil
    }

    /// Sets the strip field at `path` of `strip` to nil; whether it was set.
    private static func clear<V>(_ strip: inout StripPatch?, _ path: WritableKeyPath<StripPatch, V?>) -> Bool {
        guard var s = strip, s[keyPath: path] != nil else { return false }
        s[keyPath: path] = nil
        strip = s
        return true
    }
}
