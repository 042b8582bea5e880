import Testing
@testable import SelectLog

/// A host's mirror of the table, kept only from what `apply` reports (as an app mirrors
/// the engine into a UITableView), with rows in a plain set and edits applied naively.
struct ChangesMirror {
    var selected: Set<RowPath> = []
    var optionOpen: RowPath?
    var editorRow: RowPath?
    var chosen: [Int]?
    var pan: GestureKind?
    var swiping = false
    var offset = Points.zero
    var editing = false

    /// Follows rows through one row operation, the way a host moves its cells.
    mutating func perform(_ op: RowOperation, carried: inout [Int: (selected: Bool, open: Bool, editor: Bool)]) {
        func shift(_ r: RowPath, by f: (RowPath) -> RowPath?) -> RowPath? { f(r) }
        func mapAll(_ f: (RowPath) -> RowPath?) {
            selected = Set(selected.compactMap(f))
            optionOpen = optionOpen.flatMap(f)
            editorRow = editorRow.flatMap(f)
        }
        switch op {
        case let .remove(p, move):
            if let move { carried[move] = (selected.contains(p), optionOpen == p, editorRow == p) }
            mapAll { r in r == p ? nil : (r.section == p.section && r.row > p.row ? RowPath(r.section, r.row - 1) : r) }
        case let .insert(p, source):
            mapAll { r in r.section == p.section && r.row >= p.row ? RowPath(r.section, r.row + 1) : r }
            if case .move(let m) = source, let c = carried[m] {
                if c.selected { selected.insert(p) }
                if c.open { optionOpen = p }
                if c.editor { editorRow = p }
            }
        case .insertSection(let i):
            mapAll { r in r.section >= i ? RowPath(r.section + 1, r.row) : r }
        case .removeSection(let i):
            mapAll { r in r.section == i ? nil : (r.section > i ? RowPath(r.section - 1, r.row) : r) }
        }
    }

    mutating func mirror(_ c: TableChanges, state: TableState) {
        if let on = c.editing { editing = on }
        if c.reloaded {
            selected = []
            optionOpen = nil
            editorRow = nil
            chosen = nil
        }
        var carried: [Int: (selected: Bool, open: Bool, editor: Bool)] = [:]
        for op in c.rowOperations { perform(op, carried: &carried) }
        if editorRow == nil { chosen = nil }
        for r in c.deselected { selected.remove(r) }
        for r in c.selected { selected.insert(r) }
        if let o = c.optionView { optionOpen = o.to }
        switch c.editor {
        case .opened(let row)?, .moved(_, let row)?:
            editorRow = row
            chosen = state.editor?.chosen
        case .closed?:
            editorRow = nil
            chosen = nil
        case nil:
            if c.chosenChanged { chosen = state.editor?.chosen }
        }
        for g in c.gestures {
            switch g {
            case .began(.swipe): swiping = true
            case .ended(.swipe), .cancelled(.swipe): swiping = false
            case .began(let k): pan = k
            case .ended, .cancelled: pan = nil
            case .interrupted: pan = .interrupted
            }
        }
        if let o = c.offsetChange { offset = o.to }
    }
}

/// Pan-heavy random events: strip and multi-select pans with moves, ticks, scrolls and edits.
enum RandomPanEvents {
    static func event<R: RandomNumberGenerator>(using rng: inout R) -> Event {
        let x = Bool.random(using: &rng) ? RandomEvents.points(&rng, 0...69) : RandomEvents.points(&rng, 70...389)
        let finger = ViewportPoint(x: x, y: RandomEvents.points(&rng, -10...310))
        switch Int.random(in: 0..<20, using: &rng) {
        case 0, 1: return .panBegan(finger, fingers: Int.random(in: 1...2, using: &rng))
        case 2...7: return .panMoved(finger)
        case 8, 9: return .tick
        case 10: return .panEnded(Bool.random(using: &rng) ? finger : nil, targetOffset: nil)
        case 11: return .panCancelled
        case 12: return .scroll(.by(RandomEvents.points(&rng, -100...100)), phase: nil, target: nil)
        case 13: return .insertRows(at: [RandomEvents.path(&rng, rows: 12, sections: 2)], heights: nil)
        case 14: return .deleteRows(at: [RandomEvents.path(&rng, rows: 12, sections: 2)])
        case 15: return .tap(finger)
        case 16: return .select(rows: [RandomEvents.path(&rng, rows: 12, sections: 2)])
        case 17: return .setEditing(Bool.random(using: &rng))
        case 18: return .jumpToSection(.index(Int.random(in: 0...1, using: &rng)))
        default: return Bool.random(using: &rng) ? .undo : .deselectAll
        }
    }
}

@Suite("TableChanges: a mirror kept from the changes alone matches the state")
struct TableChangesPropertyTests {
    @Test("endsGesture says whether gestures holds an end or a cancel, on both synthetic sessions")
    func endsGestureMatchesTheList() throws {
        func check(_ events: some Sequence<TimedEvent>, _ name: String) throws {
            var state = TableState()
            var ends = 0, others = 0
            for (i, event) in events.enumerated() {
                let changes = try state.apply(event)
                let listed = changes.gestures.contains {
                    switch $0 {
                    case .ended, .cancelled: true
                    case .began, .interrupted: false
                    }
                }
                #expect(changes.endsGesture == listed, "\(name) event \(i): \(changes.gestures)")
                if listed { ends += 1 } else if !changes.gestures.isEmpty { others += 1 }
            }
            // Both answers occur, so the comparison above saw each way.
            #expect(ends > 100 && others > 100, "\(name): \(ends) gesture ends, \(others) other transitions")
        }
        try check(SyntheticSession(seed: 3, count: 20_000), "standard")
        try check(RandomWalkSession(seed: 3, count: 20_000), "random walk")

        // The public setter keeps it too, both ways.
        var changes = TableChanges()
        changes.gestures = [.began(.strip), .cancelled(.strip)]
        #expect(changes.endsGesture)
        changes.gestures = [.interrupted(.strip)]
        #expect(!changes.endsGesture)
        changes.gestures = [.ended(.scroll)]
        #expect(changes.endsGesture)
        changes.gestures = []
        #expect(!changes.endsGesture)
    }

    @Test("pan-heavy random sequences: the selection rebuilt from the changes", arguments: 0..<2)
    func mirrorMatchesDuringPans(shard: Int) throws {
        for k in 0..<200 {
            let seed = UInt64(20_000 + shard * 200 + k)
            var rng = SeededRandom(seed: seed)
            var state = TableState()
            var mirror = ChangesMirror()
            var c = ConfigurationPatch()
            c.allowsMultipleSelection = true
            c.allowsMultipleSelectionDuringEditing = true
            c.multiSelectInteraction = true
            var strip = StripPatch()
            strip.enabled = true
            strip.reversal = Bool.random(using: &rng) ? .flip : .restore
            strip.jitter = RandomEvents.points(&rng, 0...6)
            c.scrollAndSelect = strip
            let setup: [Event] = [
                .configure(c),
                .viewport(width: Points(390), height: Points(300)),
                .reload(sections: [SectionSpec(rows: 12, rowHeight: Points(50)), SectionSpec(rows: 10, rowHeight: Points(40), header: Points(20))]),
            ]
            for e in setup { mirror.mirror(try state.apply(e), state: state) }
            for step in 0..<120 {
                let event = TimedEvent(RandomPanEvents.event(using: &rng), t: Micros(raw: state.t.raw + Int64.random(in: 0...200_000, using: &rng)))
                let changes: TableChanges
                do { changes = try state.apply(event) } catch { continue }
                mirror.mirror(changes, state: state)
                let what = "seed \(seed) step \(step) after \(EventEncoder.line(event))"
                #expect(mirror.selected == Set(state.selected), "\(what): selection")
                #expect(mirror.offset == state.contentOffset, "\(what): offset")
                #expect(mirror.editing == state.editing, "\(what): editing")
                #expect(mirror.pan == state.pan.map { GestureKind($0.kind) }, "\(what): pan")
            }
        }
    }

    @Test("random sequences: selection, option view, editor, pan, swipe and offset rebuilt from the changes",
          arguments: 0..<4)
    func mirrorMatches(shard: Int) throws {
        for k in 0..<250 {
            let seed = UInt64(10_000 + shard * 250 + k)
            var rng = SeededRandom(seed: seed)
            var state = TableState()
            var mirror = ChangesMirror()
            let setup: [Event] = [
                .configure({ var c = ConfigurationPatch(); c.allowsMultipleSelection = Bool.random(using: &rng); return c }()),
                .viewport(width: Points(390), height: Points(300)),
                .reload(sections: [SectionSpec(rows: 12, rowHeight: Points(50)), SectionSpec(rows: 6, rowHeight: Points(40), header: Points(20))]),
            ]
            for e in setup { mirror.mirror(try state.apply(e), state: state) }
            for step in 0..<80 {
                let event = TimedEvent(RandomEvents.event(using: &rng, rows: 14, sections: 3),
                                       t: RandomEvents.time(after: state.t, using: &rng))
                let before = state
                let changes: TableChanges
                do { changes = try state.apply(event) } catch { continue }
                mirror.mirror(changes, state: state)
                let what = "seed \(seed) step \(step) after \(EventEncoder.line(event))"
                #expect(mirror.selected == Set(state.selected), "\(what): selection")
                #expect(changes.selected == changes.selected.sorted() && changes.deselected == changes.deselected.sorted(), "\(what)")
                #expect(Set(changes.selected).isDisjoint(with: changes.deselected), "\(what)")
                #expect(mirror.optionOpen == state.options.open, "\(what): option view")
                #expect(mirror.editorRow == state.layout.editorRow, "\(what): editor row")
                #expect(mirror.chosen == state.editor?.chosen, "\(what): chosen")
                #expect(mirror.offset == state.contentOffset, "\(what): offset")
                #expect(mirror.swiping == (state.options.swipe != nil), "\(what): swipe")
                #expect(changes.swipeChanged == (before.options.swipe != state.options.swipe), "\(what): swipeChanged")
                #expect(changes.editing == (before.editing != state.editing ? state.editing : nil), "\(what): editing")
                #expect(mirror.editing == state.editing, "\(what): mirrored editing")
                let kind: GestureKind? = state.pan.map { GestureKind($0.kind) }
                #expect(mirror.pan == kind, "\(what): pan")
                if changes.undoStepRecorded, !event.event.isReload {
                    #expect(!state.undoStack.isEmpty || state.configuration.undoLimit == 0, "\(what): undo step")
                    #expect(state.redoStack.isEmpty, "\(what): a new step clears redo")
                }
            }
        }
    }
}

extension Event {
    /// A reload clears the history after an interrupted pan recorded its step.
    var isReload: Bool {
        if case .reload = self { return true }
        return false
    }
}
