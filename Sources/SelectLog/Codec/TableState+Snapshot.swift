/// Why a snapshot could not be read.
public struct SnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the snapshot, in words.
    public var reason: String
    public var description: String { "bad state snapshot: \(reason)" }
}

extension TableState {
    /// Snapshot format version; bumped when the layout changes. Version 4 stores a
    /// `choose` undo step as the options it flipped; readers also take version 3, whose
    /// step lists the options chosen before and after it (the flipped ones are the
    /// options in one list and not the other, so both read to the same state).
    public static let snapshotVersion: UInt8 = 4

    /// The whole state as bytes, for checkpoints: `TableState(snapshot:)` gives back an equal state.
    public func snapshot() -> [UInt8] {
        var w = BinaryWriter(capacity: 1024)
        w.u8(TableState.snapshotVersion)
        w.varint(events)
        w.varint(stepsRecorded)
        w.signed(t.raw)
        writeCanonical(into: &w)
        return w.bytes
    }

    /// The gesture; a selection pan's changed rows are those where `selection` and the
    /// stored selection at `panBegan` differ.
    private static func readGesture(_ r: inout BinaryReader, dragging: Bool, selection: RowSet) throws(BinaryError) -> PanState {
        var g = PanState()
        guard try r.bool() else {
            if dragging { throw r.fail("dragging without a drag scroll") }
            return g
        }
        let kind = try r.u8()
        // The offset, as the state's, can pass an event's limit (relative scrolls add up).
        let offsetAtBegan = try r.points(limit: .contentLimit), yAtBegan = try r.points()
        let reversal: Reversal = try r.u8() == 0 ? .flip : .restore
        let finger = ViewportPoint(x: try r.points(), y: try r.points())
        let d = try r.u8()
        let direction: Direction? = d == 0 ? nil : (d == 1 ? .up : .down)
        let start = try readPath(&r)
        let m = try r.u8()
        let anchor = try readPath(&r), end = try readPath(&r)
        let before = try readSet(&r)
        let a = try r.u8()
        let since = Micros(raw: try r.signed())
        // At or after 0 (an event's time): the next tick subtracts it from its own.
        if since.raw < 0 { throw r.fail("auto-scroll since \(since), before 0") }
        if dragging != (kind == 2) { throw r.fail("dragging disagrees with the pan kind") }
        switch kind {
        case 2: g.enter(.dragScroll(DragScroll(began: finger, offsetAtBegan: offsetAtBegan)), kind: .scroll)
        case 3: g.enter(.interrupted(finger: finger), kind: .interrupted)
        case 0, 1:
            var rows: PanRows?
            if let start, let anchor, let end, m == 1 || m == 2 {
                rows = PanRows(start: start, mode: m == 1 ? .select : .deselect, anchor: anchor, end: end)
            } else if start != nil || anchor != nil || end != nil || m != 0 {
                throw r.fail("a pan's start, mode, anchor and end must be all present or all absent")
            }
            let pan = SelectionPan(kind: kind == 0 ? .strip : .multiSelect, reversal: reversal, yAtBegan: yAtBegan,
                                   offsetAtBegan: offsetAtBegan, finger: finger, direction: direction,
                                   changedRows: selection.symmetricDifference(before), rows: rows, lastAutoscrollChange: since)
            if a == 1 || a == 2 {
                g.enter(.autoScrolling(pan, AutoScroll(direction: a == 1 ? .up : .down, since: since)), kind: pan.kind)
            } else {
                g.enter(rows == nil ? .waitingForStartRow(pan) : .running(pan), kind: pan.kind)
            }
        default: throw r.fail("bad pan kind")
        }
        return g
    }

    /// Reads a snapshot written by `snapshot()`.
    public init(snapshot bytes: [UInt8]) throws(SnapshotError) {
        var r = BinaryReader(bytes)
        do throws(BinaryError) {
            self = try TableState.read(&r)
        } catch {
            throw SnapshotError(reason: error.description)
        }
        guard r.isAtEnd else { throw SnapshotError(reason: "\(r.remaining) unexpected bytes after the state") }
        let problems = invariantViolations()
        guard problems.isEmpty else { throw SnapshotError(reason: problems.joined(separator: "; ")) }
    }

    /// A height: at most `EventLimits.length`, and not negative (as every event's).
    private static func length(_ r: inout BinaryReader) throws(BinaryError) -> Points {
        let start = r.offset
        let p = try r.points()
        if p.raw < 0 { throw BinaryError(offset: start, reason: "negative length") }
        return p
    }

    /// Refuses values of a snapshot (`what`) that `event`, which would set them, could not
    /// give: they pass the same validation as every event.
    private static func eventCouldGive(_ event: Event, _ what: String, _ r: inout BinaryReader) throws(BinaryError) {
        do throws(InvalidEvent) {
            try TimedEvent(event).validate()
        } catch {
            throw r.fail("\(what) no event could give: \(error.reason)")
        }
    }

    /// The most a snapshot's counters (events, undo steps recorded, editor openings) may
    /// say: half of `Int.max`, so that counting on from any of them cannot overflow.
    static let counterLimit = Int.max / 2

    private static func read(_ r: inout BinaryReader) throws(BinaryError) -> TableState {
        let version = try r.u8()
        guard version == snapshotVersion || version == 3 else {
            if version > snapshotVersion {
                throw r.fail("snapshot version \(version) is newer than this reader knows (3 and 4): written by a newer selectlog")
            }
            throw r.fail("unknown snapshot version \(version)")
        }
        var s = TableState()
        // Counters stay far from `Int.max`, which the next event would pass.
        s.events = try r.count(limit: counterLimit)
        s.history.stepsRecorded = try r.count(limit: counterLimit)
        s.t = Micros(raw: try r.signed())
        if s.t.raw < 0 || s.t > Micros.limit { throw r.fail("time \(s.t) out of range (0 to 8e12 ms)") }
        var c = Configuration()
        c.allowsSelection = try r.bool()
        c.allowsMultipleSelection = try r.bool()
        c.allowsSelectionDuringEditing = try r.bool()
        c.allowsMultipleSelectionDuringEditing = try r.bool()
        c.strip.enabled = try r.bool()
        c.multiSelectInteraction = try r.bool()
        c.strip.edge = try r.u8() == 0 ? .leading : .trailing
        c.strip.reversal = try r.u8() == 0 ? .flip : .restore
        c.strip.stripWidth = try r.points()
        c.strip.topAnchor = try r.points()
        c.strip.bottomAnchor = try r.points()
        c.strip.rowsPerSecond = try r.points()
        c.strip.jitter = try r.points()
        c.optionWidth = try r.points()
        c.undoLimit = try r.count(limit: Int(Int32.max))
        s.configuration = c
        let editorHeight = try length(&r)
        // Settings as a `configure` event may give them: a negative auto-scroll rate
        // trapped at the next `tick`, a negative option width at the next swipe.
        try eventCouldGive(.configure(ConfigurationPatch(setting: c, editorHeight: editorHeight)), "settings", &r)
        // Every section takes at least a byte, so a count past the bytes left is damage.
        // Storage is reserved by what the bytes left could hold, never by a count's claim
        // alone (a forged count made a reader allocate hundreds of megabytes up front).
        let sectionCount = try r.count(limit: Swift.min(EventLimits.tableSections, r.remaining))
        var sections: [LayoutSection] = []
        sections.reserveCapacity(sectionCount)
        var totalRows = 0
        for _ in 0..<sectionCount {
            let header = try length(&r), footer = try length(&r), rowHeight = try length(&r)
            let title: String? = try r.bool() ? try r.string() : nil
            let rows = try r.count(limit: 100_000_000 - totalRows)
            totalRows += rows
            // Heights are run-length coded, so a short snapshot can hold many rows: the
            // tree keeps long runs as runs, so what it holds grows with the runs read.
            var heights = HeightTree.Builder()
            var read = 0
            while read < rows {
                let h = try length(&r)
                let n = try r.count(limit: rows - read)
                if n == 0 { throw r.fail("empty height run") }
                heights.append(h, count: n)
                read += n
            }
            sections.append(LayoutSection(rows: heights.build(), rowHeight: rowHeight, header: header, footer: footer, title: title))
        }
        s.layout = TableLayout(sections: sections, editorHeight: editorHeight)
        if let row = try readPath(&r) {
            guard s.layout.contains(row) else { throw r.fail("editor row out of range") }
            s.layout.openEditor(below: row)
        }
        let width = try r.points(), height = try r.points()
        try eventCouldGive(.viewport(width: width, height: height), "a viewport", &r)
        s.viewport = ViewportSize(width: width, height: height)
        s.contentOffset = try r.points(limit: .contentLimit)
        s.editing = try r.bool()
        s.selection = try readSet(&r)
        let dragging = try r.bool()
        s.decelerating = try r.bool()
        s.target = try readPoints(&r)
        s.gesture = try readGesture(&r, dragging: dragging, selection: s.selection)
        s.options.open = try readPath(&r)
        switch try r.u8() {
        case 0: s.options.swipe = nil
        case 1: s.options.swipe = .ignored
        case 2:
            let row = try readRow(&r)
            s.options.swipe = .active(row: row, offset: try r.points())
        default: throw r.fail("bad swipe state")
        }
        if try r.bool() {
            var options: [String] = []
            for _ in 0..<(try r.count(limit: EventLimits.eventBytes)) { options.append(try r.string()) }
            let multiple = try r.bool()
            var chosen: [Int] = []
            for _ in 0..<(try r.count(limit: options.count)) { chosen.append(try r.count(limit: Int(Int32.max))) }
            s.editorState.current = EditorRow(options: options, multiple: multiple, chosen: chosen, opening: try r.count(limit: counterLimit))
        }
        s.editorState.openings = try r.count(limit: counterLimit)
        for which in 0..<2 {
            var stack: [UndoStep] = []
            for _ in 0..<(try r.count(limit: Int(Int32.max))) {
                switch try r.u8() {
                case 0: stack.append(.selection(added: try readSet(&r), removed: try readSet(&r)))
                case 1:
                    let opening = try r.count(limit: counterLimit)
                    var lists: [[Int]] = []
                    // Version 3: the lists before and after; version 4: the flipped options.
                    for _ in 0..<(version == 3 ? 2 : 1) {
                        var list: [Int] = []
                        for _ in 0..<(try r.count(limit: EventLimits.eventBytes)) { list.append(try r.count(limit: Int(Int32.max))) }
                        lists.append(list)
                    }
                    // The options in one list and not the other (an unsorted list, which no
                    // engine wrote, gives a step the invariants refuse).
                    let toggled = version == 3 ? Self.flipping(lists[0], lists[1]) : lists[0]
                    stack.append(.choose(opening: opening, toggled: toggled))
                default: throw r.fail("bad undo step")
                }
            }
            if which == 0 { s.history.undoStack = stack } else { s.history.redoStack = stack }
        }
        return s
    }

    private static func readPath(_ r: inout BinaryReader) throws(BinaryError) -> RowPath? {
        guard try r.bool() else { return nil }
        return try readRow(&r)
    }

    private static func readRow(_ r: inout BinaryReader) throws(BinaryError) -> RowPath {
        RowPath(try r.count(limit: 1_000_000), try r.count(limit: 100_000_000))
    }

    /// An optional offset (the deceleration target), within the content's limit.
    private static func readPoints(_ r: inout BinaryReader) throws(BinaryError) -> Points? {
        guard try r.bool() else { return nil }
        return try r.points(limit: .contentLimit)
    }

    private static func readSet(_ r: inout BinaryReader) throws(BinaryError) -> RowSet {
        var set = RowSet()
        var lastSection = -1
        for _ in 0..<(try r.count(limit: 1_000_000)) {
            let s = try r.count(limit: 1_000_000)
            guard s > lastSection else { throw r.fail("sections out of order") }
            lastSection = s
            var position = 0
            for _ in 0..<(try r.count(limit: 100_000_000)) {
                let lower = position + (try r.count(limit: 100_000_000))
                let n = try r.count(limit: 100_000_000)
                guard n > 0 else { throw r.fail("empty range") }
                set.insert(lower..<lower + n, in: s)
                position = lower + n
            }
        }
        return set
    }
}
