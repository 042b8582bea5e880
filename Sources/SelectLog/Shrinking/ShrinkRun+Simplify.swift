// The shrink's "simplify" stage: events made simpler, none removed. A session recorded
// from an app reloads its whole table (twenty sections of a hundred rows, each row's
// height, titles) and configures every setting; a bug seldom needs more than a few rows
// of the first sections. What is kept passes the oracle, as every other stage's
// candidates do.
//
// No simplification moves a row that stays: a row's place is where the session's taps
// and pans land, and a script whose rows moved can pass the expectation for another
// reason than the one recorded (the debugging example's pan then selects the row its
// `moveRow` was needed for). So sections go from the end, rows from the end of the last
// section, and heights, headers and footers stay.

extension ShrinkRun {
    /// Tries simpler forms of each `reload` and `configure`, keeping each one the script
    /// still passes with: a `reload` cut to its first sections (1, 2, 4, … of them), its
    /// last section cut to fewer rows (0, 1, 2, 4, …; their heights with them), heights
    /// that say what the defaults say and titles left out (titles in all sections at
    /// once, else by halves); a `configure`
    /// without each of its fields in turn (a `scrollAndSelect` field by field). Times are
    /// kept, and no row that stays moves. No event is removed, so the last stage, which
    /// removes single events, still leaves the script 1-minimal.
    mutating func simplify(_ events: inout [TimedEvent]) {
        var prefix = TableState()
        for i in events.indices {
            switch events[i].event {
            case .reload(let sections): simplifyReload(&events, at: i, sections, after: prefix)
            case .configure(let patch): simplifyConfigure(&events, at: i, patch, after: prefix)
            default: break
            }
            do { try prefix.applyDiscardingChanges(events[i]) } catch { return }
        }
    }

    /// Puts `simpler` (at the same time) in place of event `i`, whose state before is
    /// `prefix`, when the script still passes; else leaves the events as they were.
    private mutating func replaces(_ events: inout [TimedEvent], at i: Int, with simpler: Event, after prefix: TableState) -> Bool {
        if budgetSpent() { return false }
        let candidate = TimedEvent(simpler, t: events[i].t)
        var state = prefix
        do { try state.applyDiscardingChanges(candidate) } catch {
            tests += 1
            return false
        }
        guard passes(state, events[(i + 1)...]) else { return false }
        events[i] = candidate
        report("simplify", events.count)
        return true
    }

    private mutating func simplifyReload(_ events: inout [TimedEvent], at i: Int, _ original: [SectionSpec], after prefix: TableState) {
        var sections = original
        func attempt(_ simpler: [SectionSpec], _ run: inout ShrinkRun) {
            if simpler != sections, run.replaces(&events, at: i, with: .reload(sections: simpler), after: prefix) { sections = simpler }
        }
        // The first sections only: rows after them are seldom what a bug needs.
        var kept = 1
        while kept < sections.count, !budgetSpent() {
            let before = sections.count
            attempt(Array(sections.prefix(kept)), &self)
            if sections.count < before { break }
            kept *= 2
        }
        // Fewer rows in the last section (heights past the count are dropped with them):
        // rows before it keep their places.
        if let s = sections.indices.last {
            var rows = 0
            while rows < sections[s].rows, !budgetSpent() {
                var simpler = sections
                simpler[s].rows = rows
                if let heights = simpler[s].rowHeights, heights.count > rows { simpler[s].rowHeights = rows == 0 ? nil : Array(heights.prefix(rows)) }
                let before = sections[s].rows
                attempt(simpler, &self)
                if sections[s].rows < before { break }
                rows = rows == 0 ? 1 : rows * 2
            }
        }
        // Heights that say what the defaults say: per-row heights all the section's row
        // height, a row height of 44.
        var plain = sections
        for s in plain.indices {
            if plain[s].rowHeights?.allSatisfy({ $0 == plain[s].rowHeight ?? Points(44) }) == true { plain[s].rowHeights = nil }
            if plain[s].rowHeight == Points(44) { plain[s].rowHeight = nil }
        }
        if !budgetSpent() { attempt(plain, &self) }
        // Titles, which only a jump by title reads: all at once, else each half in turn,
        // so that the one title a jump needs among a million costs some forty
        // candidates, not a million.
        var halves = [sections.indices.filter { sections[$0].title != nil }[...]]
        while let titled = halves.popLast(), !budgetSpent() {
            guard !titled.isEmpty else { continue }
            var untitled = sections
            for s in titled { untitled[s].title = nil }
            let before = sections
            attempt(untitled, &self)
            guard sections == before, titled.count > 1 else { continue }
            let middle = titled.startIndex + titled.count / 2
            halves += [titled[middle...], titled[..<middle]]
        }
    }

    private mutating func simplifyConfigure(_ events: inout [TimedEvent], at i: Int, _ original: ConfigurationPatch, after prefix: TableState) {
        var patch = original
        for clear in ShrinkRun.patchFieldClears where !budgetSpent() {
            var simpler = patch
            guard clear(&simpler) else { continue }
            if simpler.scrollAndSelect == StripPatch() { simpler.scrollAndSelect = nil }
            if replaces(&events, at: i, with: .configure(simpler), after: prefix) { patch = simpler }
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
