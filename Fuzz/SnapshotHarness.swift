// libFuzzer harness: `TableState(snapshot:)` on forged snapshots of real states. The
// log harness reaches the snapshot reader only through zstd-compressed checkpoints,
// where a mutated byte rarely decodes to anything plausible; here every input starts
// from the snapshot of a state the engine reached (a synthetic session cut mid-pan,
// mid-swipe, with the editor open or undo steps, or a small hand-made table) and
// patches a few of its bytes. A forged snapshot the reader takes must be a state the
// engine can go on from: sound, reading back equal, and never trapping or breaking an
// invariant under the events that follow.
// Built by Fuzz/build.sh; run by `make fuzz`.
@testable import SelectLog

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshot(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size <= 1 << 12 else { return 0 }
    checkSnapshot(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

// MARK: The input

/// The input: three header bytes choosing the base state, then patches of its snapshot.
///
/// - byte 0: the base. Its low 4 bits: 0–7 one of `handMadeBases`, 8–11
///   `SyntheticSession`, 12–13 `RandomWalkSession` on a 2x screen, 14–15 on a 3x one.
///   For a session, bits 4–6 name a `Stop` and bit 7 adds 256 to the seed.
/// - byte 1: the session's seed (low 8 bits).
/// - byte 2: the session's length, 20 to 400 events (then on to the stop, if any).
/// - then 4 bytes a patch, at most 32: an op, a 16-bit offset (big-endian), a byte.
///   The op's bits 0–1: set, xor, insert, delete; bit 2: the offset counts back from
///   the snapshot's end (where the gesture, the option views, the editor and the history
///   are: a sectioned table's heights put them thousands of bytes from the start);
///   bits 3–5: an insert or delete of that many bytes more (a varint grows or shrinks).
///   A xor with 0 flips bit 0, the sign of a zigzag-coded length (a negative setting in
///   one patch). Offsets are taken modulo the snapshot's length, so every patch lands.
struct SnapshotInput {
    var base: UInt8
    var seed: UInt8
    var length: UInt8
    var patches: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) {
        func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 0 }
        base = at(0)
        seed = at(1)
        length = at(2)
        patches = bytes.count > 3 ? bytes[3...] : []
    }

    /// The base's key in the cache: the bytes that choose it, hand-made bases' unused
    /// bits cleared so that they share one entry.
    var key: UInt32 {
        base & 15 < 8 ? UInt32(base & 15) : UInt32(base) << 16 | UInt32(seed) << 8 | UInt32(length)
    }

    /// The snapshot with the patches applied.
    func patched(_ snapshot: [UInt8]) -> [UInt8] {
        var bytes = snapshot
        var p = patches.startIndex
        for _ in 0..<32 {
            guard p + 4 <= patches.endIndex else { break }
            let op = patches[p], offset = Int(patches[p + 1]) << 8 | Int(patches[p + 2]), value = patches[p + 3]
            p += 4
            let n = bytes.count
            let extra = Int(op >> 3 & 7)
            if op & 3 == 2 {
                // An insert goes before any byte, or at the end.
                let at = op & 4 == 0 ? offset % (n + 1) : n - offset % (n + 1)
                bytes.insert(contentsOf: repeatElement(value, count: 1 + extra), at: at)
                continue
            }
            guard n > 0 else { continue }
            let at = op & 4 == 0 ? offset % n : n - 1 - offset % n
            switch op & 3 {
            case 0: bytes[at] = value
            case 1: bytes[at] ^= value == 0 ? 1 : value
            default: bytes.removeSubrange(at..<Swift.min(n, at + 1 + extra))
            }
        }
        return bytes
    }
}

// MARK: Bases

/// Where a session base is cut: after its length, then on until the state holds what
/// the stop names (at most `stopSearch` events more), so that the bases reach the states
/// a forged snapshot is most likely to break.
enum Stop: UInt8 {
    case atLength, selectionPan, autoScrolling, swipe, editorOpen, redo, dragScroll, optionOpen

    func holds(_ s: TableState) -> Bool {
        switch self {
        case .atLength: true
        case .selectionPan: s.gesture.isSelecting
        case .autoScrolling: s.gesture.phase == .autoScrolling
        case .swipe: if case .active? = s.options.swipe { true } else { false }
        case .editorOpen: s.editor != nil
        case .redo: s.redoCount > 0
        case .dragScroll: s.dragging || s.decelerating
        case .optionOpen: s.options.open != nil
        }
    }
}

/// The most events a session goes on from its length to find its stop: a few dozen
/// gestures, which reach every stop but a redo or an open option view in most seeds.
let stopSearch = 2_000
/// The events of the base's session after the cut, which the decoded state replays.
let restLength = 48

/// A base: a state the engine reached, its snapshot, and what its session does next.
struct Base {
    var name: String
    var state: TableState
    var snapshot: [UInt8]
    var rest: [TimedEvent]

    init(name: String, state: TableState, rest: [TimedEvent]) {
        self.name = name
        self.state = state
        self.rest = rest
        snapshot = state.snapshot()
        // The engine's own states read back: else every input of this base is noise.
        do {
            let again = try TableState(snapshot: snapshot)
            if again != state { finding("the snapshot of base \(name) reads back as another state") }
        } catch {
            finding("the snapshot of base \(name) is refused: \(error)")
        }
    }
}

/// Bases by key: a session of 400 events and a search for its stop cost more than the
/// rest of the run, and libFuzzer mutates the patches far more often than the header.
nonisolated(unsafe) var bases: [UInt32: Base] = [:]

func base(for input: SnapshotInput) -> Base {
    if let b = bases[input.key] { return b }
    if bases.count >= 512 { bases.removeAll(keepingCapacity: true) }
    let b = makeBase(input)
    bases[input.key] = b
    return b
}

func makeBase(_ input: SnapshotInput) -> Base {
    let kind = Int(input.base & 15)
    if kind < 8 { return handMadeBases[kind]() }
    let stop = Stop(rawValue: input.base >> 4 & 7)!
    let seed = UInt64(input.base >> 7) << 8 | UInt64(input.seed)
    let length = 20 + Int(input.length) * 380 / 255
    if kind < 12 {
        var it = SyntheticSession(seed: seed, count: length + stopSearch + restLength).makeIterator()
        return cut(&it, { $0.state }, "SyntheticSession(seed: \(seed))", length, stop)
    }
    var it = RandomWalkSession(seed: seed, count: length + stopSearch + restLength, screenScale: kind < 14 ? 2 : 3).makeIterator()
    return cut(&it, { $0.state }, "RandomWalkSession(seed: \(seed), screenScale: \(kind < 14 ? 2 : 3))", length, stop)
}

/// The session's state after `length` events and on to `stop`, and the events after it.
func cut<I: IteratorProtocol<TimedEvent>>(_ it: inout I, _ state: (I) -> TableState, _ name: String, _ length: Int, _ stop: Stop) -> Base {
    var n = 0
    while n < length, it.next() != nil { n += 1 }
    while n < length + stopSearch, !stop.holds(state(it)), it.next() != nil { n += 1 }
    let s = state(it)
    var rest: [TimedEvent] = []
    while rest.count < restLength, let e = it.next() { rest.append(e) }
    return Base(name: "\(name) after \(n) events (\(stop))", state: s, rest: rest)
}

/// Applies `events` to `state`: each must be accepted (a base is a state the engine reaches).
func play(_ state: inout TableState, _ name: String, _ events: [TimedEvent]) {
    for e in events {
        do { try state.apply(e) } catch { finding("base \(name): \(EventEncoder.line(e)) is rejected: \(error)") }
    }
}

func at(_ ms: Int, _ e: Event) -> TimedEvent { TimedEvent(e, t: .milliseconds(ms)) }
func point(_ x: Int, _ y: Int) -> ViewportPoint { ViewportPoint(x: Points(x), y: Points(y)) }

/// The hand-made bases' table: strip on, multiple selection in and out of editing, an
/// option view 80 pt wide, 390 x 600 pt, two sections of 300 rows (at least the 200 and
/// 500 rows the sessions go on from without a reload) whose uniform heights keep the
/// snapshot short, so that most patches land on the gesture, the options and the history.
func smallTable(_ strip: StripPatch = StripPatch()) -> TableState {
    var c = ConfigurationPatch()
    c.allowsMultipleSelection = true
    c.allowsMultipleSelectionDuringEditing = true
    c.multiSelectInteraction = true
    c.optionWidth = Points(80)
    c.editorHeight = Points(120)
    var s = strip
    s.enabled = true
    s.rowsPerSecond = Points(20)
    c.scrollAndSelect = s
    var state = TableState()
    play(&state, "smallTable", [TimedEvent(.configure(c)), TimedEvent(.viewport(width: Points(390), height: Points(600))),
                                TimedEvent(.reload(sections: [SectionSpec(rows: 300, header: Points(28), title: "A"),
                                                              SectionSpec(rows: 300, rowHeight: Points(60), header: Points(28), footer: Points(10), title: "B")]))])
    return state
}

/// A hand-made base, whose rest is a synthetic session from it.
func handMade(_ name: String, _ state: TableState) -> Base {
    var it = SyntheticSession.Iterator(seed: 7, remaining: restLength, from: state)
    var rest: [TimedEvent] = []
    while let e = it.next() { rest.append(e) }
    return Base(name: name, state: state, rest: rest)
}

/// Small states, each mid-way through what a forged field could break.
let handMadeBases: [@Sendable () -> Base] = [
    {
        // As PublicAPITrapTests' panningState: a strip pan running over selected rows.
        var s = smallTable()
        play(&s, "strip pan", [TimedEvent(.select(rows: [RowPath(0, 7), RowPath(0, 9)])),
                               at(1, .panBegan(point(10, 50), fingers: 1)), at(2, .panMoved(point(10, 140)))])
        return handMade("strip pan running", s)
    },
    {
        var s = smallTable()
        play(&s, "auto-scroll", [TimedEvent(.select(rows: [RowPath(0, 2)])), at(1, .panBegan(point(10, 50), fingers: 1)),
                                 at(2, .panMoved(point(10, 300))), at(3, .panMoved(point(10, 590))), at(20, .tick), at(40, .tick)])
        return handMade("strip pan auto-scrolling down", s)
    },
    {
        var s = smallTable()
        play(&s, "multi-select", [TimedEvent(.setEditing(true)), TimedEvent(.select(rows: [RowPath(0, 4)])),
                                  at(1, .panBegan(point(200, 100), fingers: 2)), at(2, .panMoved(point(200, 320)))])
        return handMade("two-finger multi-select pan in editing", s)
    },
    {
        var s = smallTable()
        play(&s, "swipe", [at(1, .tap(point(200, 60))), at(2, .tap(point(200, 150))), at(3, .swipeBegan(row: RowPath(0, 8))),
                           at(4, .swipeMoved(offset: Points(30)))])
        return handMade("a swipe revealing an option view, taps to undo", s)
    },
    {
        var s = smallTable()
        play(&s, "editor", [at(1, .tap(point(200, 60))),
                            at(2, .toggleEditor(row: RowPath(0, 2), options: ["Spring", "Summer", "Autumn"], multiple: true, chosen: [0])),
                            at(3, .choose(option: 1)), at(4, .choose(option: 2)), at(5, .undo)])
        return handMade("the editor open, choose steps undone and redoable", s)
    },
    {
        var s = smallTable()
        play(&s, "drag", [at(1, .panBegan(point(200, 400), fingers: 1)), at(2, .panMoved(point(200, 300))), at(3, .panMoved(point(200, 100)))])
        return handMade("a drag scroll", s)
    },
    {
        var s = smallTable()
        play(&s, "option", [at(1, .setOptionVisible(row: RowPath(0, 4), visible: true)), at(2, .panBegan(point(200, 400), fingers: 1)),
                            at(3, .panMoved(point(200, 100))), at(4, .panEnded(point(200, 80), targetOffset: Points(2000))),
                            at(5, .scroll(.by(Points(300)), phase: .decelerate, target: Points(2000)))])
        return handMade("an option view open while decelerating", s)
    },
    {
        var strip = StripPatch()
        strip.edge = .trailing
        strip.reversal = .restore
        var s = smallTable(strip)
        play(&s, "waiting", [TimedEvent(.select(rows: [RowPath(0, 1)])), at(1, .panBegan(point(380, 10), fingers: 1)),
                             at(2, .panMoved(point(381, 20)))])
        return handMade("a trailing restoring strip pan waiting for its start row", s)
    },
]

// MARK: The check

func checkSnapshot(_ bytes: [UInt8]) {
    let input = SnapshotInput(bytes)
    let base = base(for: input)
    let forged = input.patched(base.snapshot)
    guard let state = try? TableState(snapshot: forged) else { return }
    // The reader promises a sound state: it checks the invariants before it returns.
    let problems = state.invariantViolations()
    if !problems.isEmpty { finding("a snapshot of \(base.name) read into an unsound state: \(problems)") }
    roundTrip(state, "the snapshot read")
    for (name, events) in battery(state, base) {
        var s = state
        for (k, e) in events.enumerated() { step(&s, e, "\(name), event \(k)", base) }
        if name == "rest" { roundTrip(s, "after the base's rest") }
    }
}

/// The state's snapshot reads back equal.
func roundTrip(_ state: TableState, _ what: String) {
    do {
        let again = try TableState(snapshot: state.snapshot())
        if again != state { finding("snapshot round trip changed the state (\(what))") }
    } catch {
        finding("snapshot round trip refused the state (\(what)): \(error)")
    }
}

/// One event through `apply`: accepted, the state stays sound; rejected, it stays as it was.
func step(_ state: inout TableState, _ event: TimedEvent, _ context: String, _ base: Base) {
    let before = state
    do {
        try state.apply(event)
    } catch {
        if state != before { finding("a rejected event changed a forged state of \(base.name) (\(context)): \(EventEncoder.line(event))") }
        return
    }
    let problems = state.invariantViolations()
    if !problems.isEmpty {
        finding("invariants broken in a forged state of \(base.name) after \(EventEncoder.line(event)) (\(context)): \(problems)")
    }
}

/// The events applied to the decoded state, each list to a copy of it: what a forged
/// field could break. A pan goes on (its moves into both auto-scroll zones, ticks at
/// growing intervals, its end or cancel, undo and redo of what it recorded, a new pan of
/// each kind), a swipe goes on and new ones start, the editor chooses, the table is
/// scrolled, edited and configured under the state, and the base's session goes on.
/// Rows are the decoded state's own (its first visible, last, selected, swiped and pan
/// rows) and one past its end; points are in its viewport and strip. Times count on
/// from the state's.
func battery(_ s: TableState, _ base: Base) -> [(String, [TimedEvent])] {
    // Each list counts from the state's time: its first tick finds a forged auto-scroll's
    // `since` as it was read.
    var now = s.t.raw
    func from(_ build: () -> [TimedEvent]) -> [TimedEvent] {
        now = s.t.raw
        return build()
    }
    func after(_ micros: Int64, _ e: Event) -> TimedEvent {
        now = Swift.min(now + micros, Micros.limit.raw)
        return TimedEvent(e, t: Micros(raw: now))
    }
    let width = s.viewport.width, height = s.viewport.height
    let stripWidth = s.configuration.strip.stripWidth
    let inset = Points(raw: Swift.max(0, Swift.min(stripWidth.raw, width.raw) / 2))
    let stripX = s.configuration.strip.edge == .leading ? inset : width - inset - Points(raw: 1)
    let middleX = Points(raw: width.raw / 2)
    func strip(_ y: Points) -> ViewportPoint { ViewportPoint(x: stripX, y: y) }
    func middle(_ y: Points) -> ViewportPoint { ViewportPoint(x: middleX, y: y) }
    let top = Points(raw: 64), bottom = height - Points(raw: 64), half = Points(raw: height.raw / 2)
    let sections = s.layout.sectionCount
    let last = sections > 0 ? RowPath(sections - 1, Swift.max(0, s.layout.rowCount(in: sections - 1) - 1)) : RowPath(0, 0)
    let visible = s.visibleRows?.lowerBound ?? RowPath(0, 0)
    let selected = s.selection.sections.first.flatMap { p in p.rows.first.map { RowPath(p.section, $0) } } ?? visible
    let panRow = s.gesture.selectionPan?.rows?.end ?? visible
    let swiped: RowPath = if case .active(let row, _)? = s.options.swipe { row } else { s.options.open ?? visible }
    let past = RowPath(last.section, last.row + 1)

    let pan = from { [
        after(16_667, .tick), after(16_667, .tick),
        after(8_333, .panMoved(strip(bottom))), after(16_667, .tick), after(16_667, .tick), after(250_000, .tick),
        after(8_333, .panMoved(strip(height))), after(1_000_000, .tick), after(30_000_000, .tick),
        after(8_333, .panMoved(strip(top))), after(16_667, .tick), after(500_000, .tick),
        after(8_333, .panMoved(strip(.zero))), after(16_667, .tick),
        after(8_333, .panMoved(strip(half))), after(8_333, .panEnded(strip(half), targetOffset: nil)),
        after(1_000, .tick), after(1_000, .undo), after(1_000, .redo), after(1_000, .undo), after(1_000, .undo),
        after(1_000, .redo), after(16_667, .tick),
    ] }
    let cancel = from { [
        after(8_333, .panMoved(strip(half + Points(44)))), after(8_333, .panMoved(middle(top))), after(16_667, .tick),
        after(8_333, .panCancelled), after(1_000, .undo), after(1_000, .redo),
        after(100_000, .panBegan(strip(half), fingers: 1)), after(8_333, .panMoved(strip(bottom))),
        after(16_667, .tick), after(16_667, .tick), after(8_333, .panMoved(strip(top))), after(100_000, .tick),
        after(8_333, .panEnded(strip(top), targetOffset: s.maxOffset)),
        after(16_667, .scroll(nil, phase: .decelerate, target: s.maxOffset)), after(16_667, .tick),
        after(16_667, .scroll(nil, phase: .idle, target: nil)), after(1_000, .undo), after(1_000, .redo),
    ] }
    let editing = from { [
        after(1_000, .setEditing(!s.editing)), after(8_333, .panMoved(middle(bottom))), after(16_667, .tick),
        after(1_000, .setEditing(true)), after(100_000, .panBegan(middle(half), fingers: 2)),
        after(8_333, .panMoved(middle(bottom))), after(100_000, .tick), after(8_333, .panMoved(middle(top))),
        after(100_000, .tick), after(8_333, .panEnded(nil, targetOffset: nil)), after(1_000, .setEditing(false)),
        after(1_000, .undo), after(1_000, .undo), after(1_000, .redo),
        after(100_000, .panBegan(middle(half), fingers: 0)), after(8_333, .panMoved(middle(top))),
        after(8_333, .panEnded(nil, targetOffset: .zero)),
    ] }
    let swipe = from { [
        after(8_333, .swipeMoved(offset: Points(10))), after(8_333, .swipeMoved(offset: s.configuration.optionWidth + Points(50))),
        after(8_333, .swipeEnded(velocity: nil)), after(100_000, .swipeBegan(row: visible)),
        after(8_333, .swipeMoved(offset: Points(5))), after(8_333, .swipeMoved(offset: Points(40))),
        after(8_333, .swipeMoved(offset: Points(300))), after(8_333, .swipeEnded(velocity: Points(500))),
        after(1_000, .setOptionVisible(row: swiped, visible: false)), after(100_000, .swipeBegan(row: selected)),
        after(8_333, .swipeMoved(offset: Points(-5))), after(8_333, .swipeEnded(velocity: Points(-500))),
        after(100_000, .swipeBegan(row: last)), after(8_333, .swipeMoved(offset: Points(60))),
        after(8_333, .tap(middle(half))), after(8_333, .swipeEnded(velocity: Points(10))),
        after(1_000, .setOptionVisible(row: last, visible: true)), after(100_000, .tap(strip(top))),
    ] }
    let editor = from { [
        after(1_000, .choose(option: 0)), after(1_000, .choose(option: 1)), after(1_000, .choose(option: 5)),
        after(1_000, .undo), after(1_000, .redo), after(1_000, .undo),
        after(1_000, .toggleEditor(row: visible, options: ["a", "b", "c"], multiple: true, chosen: [1])),
        after(1_000, .choose(option: 0)), after(1_000, .choose(option: 2)), after(1_000, .undo), after(1_000, .undo),
        after(1_000, .redo), after(1_000, .toggleEditor(row: visible, options: [], multiple: false, chosen: [])),
        after(1_000, .undo), after(1_000, .redo), after(1_000, .undo), after(1_000, .undo), after(1_000, .undo),
    ] }
    let edits = from { [
        after(1_000, .insertRows(at: [RowPath(0, 0)], heights: [Points(44)])), after(1_000, .deleteRows(at: [last])),
        after(1_000, .deleteRows(at: [selected])), after(1_000, .moveRow(from: panRow, to: RowPath(0, 0))),
        after(1_000, .reloadRows(at: [visible], heights: [Points(90)])), after(16_667, .tick),
        after(8_333, .panMoved(strip(bottom))), after(16_667, .tick), after(8_333, .panEnded(nil, targetOffset: nil)),
        after(1_000, .undo), after(1_000, .undo), after(1_000, .undo), after(1_000, .redo), after(1_000, .redo),
        after(1_000, .batch(BatchUpdate(deletes: [last], inserts: [RowPath(0, 1)], moves: [.init(from: selected, to: RowPath(0, 0))],
                                        reloads: [panRow]))), after(1_000, .undo),
        after(1_000, .deleteSections(at: [0])), after(1_000, .undo),
        after(1_000, .insertSections(at: [0], sections: [SectionSpec(rows: 3)])), after(1_000, .select(rows: [past])),
        after(1_000, .select(rows: [last])), after(1_000, .selectAll), after(1_000, .undo), after(1_000, .deselectAll),
        after(1_000, .undo), after(1_000, .redo),
    ] }
    // Settings changed under the state: the mode, the strip and the option view mid-gesture,
    // the undo limit under its history, the editor's height under it.
    func configure(_ change: (inout ConfigurationPatch) -> Void) -> Event {
        var c = ConfigurationPatch()
        change(&c)
        return .configure(c)
    }
    let configure = from { [
        after(1_000, configure { $0.undoLimit = 1 }), after(1_000, .undo), after(1_000, .redo),
        after(8_333, .panMoved(strip(bottom))), after(16_667, .tick),
        after(1_000, configure { $0.scrollAndSelect = StripPatch(setting: StripSettings()) }), after(16_667, .tick),
        after(8_333, .swipeMoved(offset: Points(70))),
        after(1_000, configure { $0.optionWidth = Points(20); $0.editorHeight = .zero }), after(8_333, .swipeMoved(offset: Points(70))),
        after(8_333, .swipeEnded(velocity: nil)), after(1_000, configure { $0.allowsMultipleSelection = false }),
        after(16_667, .tick), after(8_333, .panMoved(strip(top))), after(8_333, .panEnded(nil, targetOffset: nil)),
        after(1_000, configure { $0.optionWidth = .zero; $0.undoLimit = 0 }), after(1_000, .undo),
        after(1_000, configure { $0.allowsMultipleSelection = true; $0.undoLimit = 1000 }), after(1_000, .choose(option: 0)),
        after(1_000, .undo), after(1_000, .redo),
    ] }
    let scroll = from { [
        after(16_667, .scroll(.to(.zero), phase: nil, target: nil)), after(16_667, .scroll(.to(s.maxOffset), phase: nil, target: nil)),
        after(16_667, .scroll(.by(-Points.limit), phase: .decelerate, target: Points.limit)), after(16_667, .tick),
        after(1_000, .viewport(width: nil, height: Points(raw: height.raw / 3))), after(16_667, .tick),
        after(1_000, .jumpToSection(.index(Swift.max(0, sections - 1)))), after(1_000, .viewport(width: width, height: height)),
        after(16_667, .scroll(nil, phase: .idle, target: nil)), after(100_000, .tap(middle(top))),
        after(100_000, .tap(strip(half))), after(16_667, .tick), after(1_000, .undo), after(1_000, .redo),
        after(1_000, .reload(sections: [SectionSpec(rows: 5)])), after(16_667, .tick), after(1_000, .undo),
    ] }
    return [("pan", pan), ("cancel", cancel), ("editing", editing), ("swipe", swipe), ("editor", editor),
            ("edits", edits), ("configure", configure), ("scroll", scroll), ("rest", base.rest)]
}
