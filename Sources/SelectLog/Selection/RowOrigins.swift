/// Where a row's selection history stands, seen from the end of a window of events.
package enum RowOrigin: Hashable, Sendable {
    /// Event `index` last changed the row's selection.
    case changed(Int)
    /// Event `index` created the row (an insert or a reload), and nothing changed its selection since.
    case inserted(Int)
    /// Untouched since the window began, when the row was at `path`.
    case existing(RowPath)
}

/// Follows every row through a window of events and remembers, per row, the event
/// that last changed its selection — or, for rows untouched in the window, where
/// they were when it began. Rows are kept as runs, so a million untouched rows are
/// one run and `selectAll` is one assignment.
///
/// This is what answers "who selected row 42?": the row's path at the end of the
/// window leads to its origin, and an `.existing` origin leads into the window before.
/// It follows rows through edits as every part of the engine does, through `RowFollowing`.
package struct RowOrigins: Sendable {
    enum Value: Hashable, Sendable {
        case changed(Int)
        case inserted(Int)
        /// Rows untouched since the window began; the run's first row was `firstRow` of `section`.
        case existing(section: Int, firstRow: Int)
    }

    /// Rows `start..<start + count` of a section, all of origin `value`. Stored in 24
    /// bytes rather than 40: a log of large edits makes millions of runs. Rows, counts
    /// and sections fit 32 bits (a table's rows and sections are within
    /// `RangeList.domain`, 2^30); event indices and first rows keep 64.
    struct Run: Hashable, Sendable {
        private var start32: Int32
        private var count32: Int32
        /// The section of an `.existing` run.
        private var section32: Int32
        /// 0 changed, 1 inserted, 2 existing.
        private var kind: UInt8
        /// The event (changed, inserted) or the first row (existing).
        private var payload: Int

        init(start: Int, count: Int, value: Value) {
            start32 = Int32(truncatingIfNeeded: start)
            count32 = Int32(truncatingIfNeeded: count)
            section32 = 0
            kind = 0
            payload = 0
            self.value = value
        }

        var start: Int {
            get { Int(start32) }
            set { start32 = Int32(truncatingIfNeeded: newValue) }
        }

        var count: Int {
            get { Int(count32) }
            set { count32 = Int32(truncatingIfNeeded: newValue) }
        }

        var value: Value {
            get {
                switch kind {
                case 0: .changed(payload)
                case 1: .inserted(payload)
                default: .existing(section: Int(section32), firstRow: payload)
                }
            }
            set {
                switch newValue {
                case .changed(let i): (kind, section32, payload) = (0, 0, i)
                case .inserted(let i): (kind, section32, payload) = (1, 0, i)
                case let .existing(section, first): (kind, section32, payload) = (2, Int32(truncatingIfNeeded: section), first)
                }
            }
        }
    }

    /// Runs per section, sorted by start, covering every row.
    private var sections: [[Run]]
    /// The event being followed: the rows `follow` creates are created by it.
    private var creator = 0

    /// Every row of `layout` as untouched, at its own path.
    package init(layout: TableLayout) {
        sections = (0..<layout.sectionCount).map { s in
            let n = layout.rowCount(in: s)
            return n > 0 ? [Run(start: 0, count: n, value: .existing(section: s, firstRow: 0))] : []
        }
    }

    /// Every row of `layout` as created by event `index` (a reload).
    package init(layout: TableLayout, insertedAt index: Int) {
        sections = (0..<layout.sectionCount).map { s in
            let n = layout.rowCount(in: s)
            return n > 0 ? [Run(start: 0, count: n, value: .inserted(index))] : []
        }
    }

    /// The origin of the row at `path`, which must exist.
    package func origin(of path: RowPath) -> RowOrigin? {
        guard path.section >= 0, path.section < sections.count,
              let k = Self.runIndex(sections[path.section], containing: path.row) else { return nil }
        let run = sections[path.section][k]
        switch run.value {
        case .changed(let i): return .changed(i)
        case .inserted(let i): return .inserted(i)
        case let .existing(s, first): return .existing(RowPath(s, first + path.row - run.start))
        }
    }

    private static func runIndex(_ runs: [Run], containing row: Int) -> Int? {
        let k = firstRun(runs, endingAfter: row)
        return k < runs.count && runs[k].start <= row ? k : nil
    }

    /// Makes `row` the start of a run (if it is inside one); returns the index of the run starting at `row`.
    private mutating func split(_ s: Int, at row: Int) -> Int {
        // Taken out of `sections` rather than copied: a copy made every split cost the
        // section's runs (and every row edit and selection change makes two).
        var runs: [Run] = []
        swap(&runs, &sections[s])
        defer { sections[s] = runs }
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].start + runs[mid].count <= row { lo = mid + 1 } else { hi = mid }
        }
        guard lo < runs.count, runs[lo].start < row else { return lo }
        let run = runs[lo]
        let left = row - run.start
        var right = Run(start: row, count: run.count - left, value: run.value)
        if case let .existing(section, first) = run.value { right.value = .existing(section: section, firstRow: first + left) }
        runs[lo].count = left
        runs.insert(right, at: lo + 1)
        return lo + 1
    }

    private mutating func shift(_ s: Int, from k: Int, by delta: Int) {
        for i in k..<sections[s].count { sections[s][i].start += delta }
    }

    /// Sets the rows of `rows` in section `s` to `value`.
    private mutating func assign(_ s: Int, _ rows: Range<Int>, _ value: Value) {
        guard !rows.isEmpty, s < sections.count else { return }
        let first = split(s, at: rows.lowerBound)
        let end = split(s, at: rows.upperBound)
        sections[s].replaceSubrange(first..<end, with: [Run(start: rows.lowerBound, count: rows.count, value: value)])
    }

    /// Sets the rows of `ranges` (ascending, disjoint) in section `s` to `value`: one pass
    /// over the runs they touch, where one range at a time shifts the runs after each.
    private mutating func assign(_ s: Int, _ ranges: [Range<Int>], _ value: Value) {
        guard s < sections.count, let firstRow = ranges.first?.lowerBound, let lastRow = ranges.last?.upperBound else { return }
        guard ranges.count > 1 else { return assign(s, ranges[0], value) }
        // The runs from the one holding the first row to the one holding the last.
        let first = Self.runIndex(sections[s], containing: firstRow) ?? sections[s].count
        let end = Swift.max(first, Self.runIndex(sections[s], containing: lastRow - 1).map { $0 + 1 } ?? sections[s].count)
        rebuild(s, first..<end, shiftingTheRestBy: 0) { span, out in
            var j = 0
            for run in span {
                let end = run.start + run.count
                var lower = run.start
                while lower < end {
                    while j < ranges.count && ranges[j].upperBound <= lower { j += 1 }
                    if j < ranges.count && ranges[j].lowerBound <= lower {
                        let upper = Swift.min(ranges[j].upperBound, end)
                        Self.append(Run(start: lower, count: upper - lower, value: value), to: &out)
                        lower = upper
                    } else {
                        let upper = j < ranges.count ? Swift.min(ranges[j].lowerBound, end) : end
                        Self.append(run.piece(lower..<upper, at: lower), to: &out)
                        lower = upper
                    }
                }
            }
        }
    }

    /// Replaces the runs `span` of section `s` with those `build` makes of them, and moves
    /// the runs after it by `delta` rows, in place: a section's other runs are neither
    /// copied nor rebuilt (a second array of a million runs, at every edit, doubled what
    /// `inspect --why` held).
    private mutating func rebuild(_ s: Int, _ span: Range<Int>, shiftingTheRestBy delta: Int,
                                  _ build: (ArraySlice<Run>, inout [Run]) -> Void) {
        var runs: [Run] = []
        swap(&runs, &sections[s])
        defer { swap(&runs, &sections[s]) }
        var out: [Run] = []
        out.reserveCapacity(span.count + 8)
        build(runs[span], &out)
        if delta != 0 {
            for k in span.upperBound..<runs.count { runs[k].start += delta }
        }
        // Grown by half at least: a section that grows by a few runs at every event was
        // otherwise copied whole into a new array each time.
        let count = runs.count - span.count + out.count
        if count > runs.capacity { runs.reserveCapacity(Swift.max(count, runs.capacity + runs.capacity / 2)) }
        runs.replaceSubrange(span, with: out)
    }

    /// The index of the first run of `runs` that ends after `row` (`runs.count` when none does).
    private static func firstRun(_ runs: [Run], endingAfter row: Int) -> Int {
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].start + runs[mid].count <= row { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The runs of `runs` from the first that ends after `first` to the last that starts at
    /// or before `last`: those an edit of rows `first...last` rebuilds.
    private static func span(_ runs: [Run], from first: Int, through last: Int) -> Range<Int> {
        let lower = firstRun(runs, endingAfter: first)
        return lower..<Swift.max(lower, firstRun(runs, startingAfter: last))
    }

    /// The index of the first run of `runs` that starts after `row` (`runs.count` when none does).
    private static func firstRun(_ runs: [Run], startingAfter row: Int) -> Int {
        var lo = 0, hi = runs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if runs[mid].start <= row { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Whether following `event` needs the selection from before it and after it
    /// (`follow(_:at:to:selection:)`): a reload or a row or section edit, which moves rows.
    /// Any other event is followed from what it reported (`markChanged(reported:at:)`),
    /// with no copy of the selection kept to compare.
    package static func movesRows(_ event: Event) -> Bool {
        if case .reload = event { return true }
        return event.rowOperations != nil
    }

    /// Marks the rows event `index`, one that moves no rows, selected or deselected (its
    /// `TableChanges.selectedRuns` and `deselectedRuns`) as changed by it.
    package mutating func markChanged(reported changes: TableChanges, at index: Int) {
        let selected = changes.selectedRuns, deselected = changes.deselectedRuns
        guard selected.count + deselected.count > 1 else {
            for run in selected { assign(run.section, run.rows, .changed(index)) }
            for run in deselected { assign(run.section, run.rows, .changed(index)) }
            return
        }
        // Many runs (a `select` of scattered rows): each section's at once, in one pass.
        var runs = selected + deselected
        runs.sort { ($0.section, $0.rows.lowerBound) < ($1.section, $1.rows.lowerBound) }
        var ranges: [Range<Int>] = []
        for (k, run) in runs.enumerated() {
            if let last = ranges.last, last.upperBound >= run.rows.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<Swift.max(last.upperBound, run.rows.upperBound)
            } else {
                ranges.append(run.rows)
            }
            if k == runs.count - 1 || runs[k + 1].section != run.section {
                assign(run.section, ranges, .changed(index))
                ranges.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Marks every row of `rows` as changed by event `index`.
    package mutating func markChanged(_ rows: RowSet, at index: Int) {
        for (s, list) in rows.sections { assign(s, list.ranges, .changed(index)) }
    }

    /// Follows the rows through event `index`, after which the table is laid out as
    /// `layout`: a `reload` creates every row; a row or section edit removes, moves and
    /// creates rows, replayed through `RowFollowing` as the engine replays it (a new
    /// section's rows are created by the event). With `selection`, the selection before
    /// and after the event, the rows whose selection it changed are marked changed by it;
    /// a selected row that only moved through the event's own edits is not.
    package mutating func follow(_ event: Event, at index: Int, to layout: TableLayout,
                                 selection: (before: RowSet, after: RowSet)? = nil) {
        if case .reload = event {
            self = RowOrigins(layout: layout, insertedAt: index)
            return
        }
        var before = selection?.before
        if let operations = event.rowOperations {
            var carry = RowCarry()
            for case .insertSection(let i) in operations where i < layout.sectionCount { carry.newSections[i] = layout.sections[i] }
            follow(operations, of: index, carry: &carry)
            before = before?.applying(operations)
        }
        if let before, let after = selection?.after, before != after {
            markChanged(before.symmetricDifference(after), at: index)
        }
    }

    /// Follows the rows through `operations` of event `index`: the rows they create are
    /// created by it, a new section has the rows of `carry.newSections`.
    mutating func follow(_ operations: [RowOperation], of index: Int, carry: inout RowCarry) {
        creator = index
        for piece in OperationRun.split(operations) {
            if let run = piece.run {
                follow(run, carry: carry)
            } else {
                for operation in operations[piece.operations] { follow(operation, carry: &carry) }
            }
        }
    }

    /// Follows every operation of `run` at once, with the origins one at a time would give.
    /// One at a time, each operation splits a run and shifts every run after it: a
    /// `deleteRows` of k rows over R runs cost O(k × R), and the runs grow with every
    /// edit (2,000 edits of 500–1,000 rows took `inspect --why` minutes). At once, O(k + R).
    private mutating func follow(_ run: OperationRun, carry: RowCarry) {
        switch run.kind {
        case .deletions:
            guard run.section < sections.count else { return }
            // The runs from the one holding the first removed row to the last one that
            // holds a removed row are rebuilt; every later one moves up.
            guard let first = run.rows.first, let last = run.rows.last else { return }
            let span = Self.span(sections[run.section], from: first, through: last)
            rebuild(run.section, span, shiftingTheRestBy: -run.rows.count) { Self.removing(run.rows, from: $0, into: &$1) }
        case .insertions:
            guard run.section < sections.count else { return }
            // The i-th new row lands before old row rows[i] - i: the runs from the one holding
            // where the first lands to the one holding where the last lands are rebuilt;
            // every later one moves down.
            guard let first = run.rows.first, let last = run.rows.last else { return }
            let landsLast = last - (run.rows.count - 1)
            let span = Self.span(sections[run.section], from: first, through: landsLast)
            let value = Value.inserted(creator)
            rebuild(run.section, span, shiftingTheRestBy: run.rows.count) { Self.inserting(run.rows, into: $0, value: value, to: &$1) }
        case .sectionRemovals:
            var removed = run.rows[...]
            var kept: [[Run]] = []
            kept.reserveCapacity(sections.count)
            for (i, runs) in sections.enumerated() {
                while let first = removed.first, first < i { removed.removeFirst() }
                if removed.first != i { kept.append(runs) }
            }
            sections = kept
        case .sectionInsertions:
            // The i-th new section lands at `rows[i]`, after the sections placed before it.
            var out: [[Run]] = []
            out.reserveCapacity(sections.count + run.rows.count)
            var old = 0
            for i in run.rows {
                while out.count < i, old < sections.count {
                    out.append(sections[old])
                    old += 1
                }
                let n = carry.newSections[i]?.rowCount ?? 0
                out.append(n > 0 ? [Run(start: 0, count: n, value: .inserted(creator))] : [])
            }
            out.append(contentsOf: sections[old...])
            sections = out
        }
    }
}

extension RowOrigins: RowFollowing {
    /// A removed row's origin goes with it when it moves and comes back at its insertion;
    /// a new row, and every row of a new section, is created by the event being followed.
    /// Operations naming a section past the end are ignored.
    mutating func follow(_ operation: RowOperation, carry: inout RowCarry) {
        switch operation {
        case let .remove(p, move):
            guard p.section < sections.count else { return }
            let k = split(p.section, at: p.row)
            _ = split(p.section, at: p.row + 1)
            var value: Value?
            if k < sections[p.section].count, sections[p.section][k].start == p.row { value = sections[p.section].remove(at: k).value }
            shift(p.section, from: k, by: -1)
            if let move { carry.moved[move, default: CarriedRow()].origin = value }
        case let .insert(p, source):
            guard p.section < sections.count else { return }
            let k = split(p.section, at: p.row)
            shift(p.section, from: k, by: 1)
            var value = Value.inserted(creator)
            if case .move(let m) = source, let carried = carry.moved[m]?.origin { value = carried }
            sections[p.section].insert(Run(start: p.row, count: 1, value: value), at: k)
        case .insertSection(let i):
            let n = carry.newSections[i]?.rowCount ?? 0
            sections.insert(n > 0 ? [Run(start: 0, count: n, value: .inserted(creator))] : [], at: Swift.min(i, sections.count))
        case .removeSection(let i):
            if i < sections.count { sections.remove(at: i) }
        }
    }
}
