import SelectLog

/// Event type tags of the binary encoding, format version 1. Tags 1-63 are events
/// that change state; 64-127 are reserved for annotations an old reader may skip.
enum EventTag: UInt8 {
    case configure = 1, viewport, reload, setEditing, tap, panBegan, panMoved, panEnded, panCancelled
    case scroll, jumpToSection, swipeBegan, swipeMoved, swipeEnded, setOptionVisible, toggleEditor, choose
    case tick, insertRows, deleteRows, moveRow, reloadRows, batch, insertSections, deleteSections
    case select, deselect, selectAll, deselectAll, undo, redo

    static let hasTime: UInt8 = 0x80
    static let firstSkippable: UInt8 = 64
    /// Annotation: the state's `gestureFingerprint` (u32) after the event before it.
    static let gestureFingerprint: UInt8 = 64
}

/// Encodes events as compact binary frames: `tag | hasTime`, body length, body.
///
/// It encodes events that passed `TimedEvent.validate()` (the recorder appends
/// only what `apply` accepted): within `EventLimits` every field is representable
/// and decodes to the same value.
///
/// Time and finger positions are predicted from the previous events (second-order
/// deltas on the fixed-point grid), so a 120 Hz pan or a 60 Hz tick stream encodes
/// its residuals, mostly one byte each. The predictor starts fresh at every batch,
/// so every batch decodes on its own.
struct BinaryEventEncoder {
    /// Frames of versions 1 and 2.
    private var frames = BinaryWriter(capacity: 1 << 16)
    var body = BinaryWriter(capacity: 256)
    private var predictor: Predictor
    /// Version 3: the range coder and its models.
    var coder = RangeEncoder()
    var coded: CodedState

    /// The format version written (this build writes the current one; tests forge versions 1 and 2).
    let version: UInt16

    init(baseTime: Micros, version: UInt16 = LogFormat.version) {
        predictor = Predictor(time: baseTime, version: version)
        coded = CodedState(time: baseTime, thirds: version >= LogFormat.thirdsVersion)
        self.version = version
    }

    /// The batch so far, ready to store (in version 3, the coder flushed on a copy).
    var out: BinaryWriter {
        guard version >= 3 else { return frames }
        var w = BinaryWriter(capacity: 0)
        w.bytes = finishedCoded()
        return w
    }

    var byteCount: Int { version >= 3 ? coder.count : frames.count }

    /// Events in the current window (version 4): the batches since the last one that
    /// started with fresh models.
    private(set) var windowEvents = 0
    /// Whether the next batch may continue the one before it (version 4).
    private var windowOpen = false
    /// A window holds at most this many events, so that a reader that wants an event
    /// decodes at most this many before it, with or without checkpoints.
    static let windowLimit = 8192

    /// Starts the next batch: a continued one (version 4) when the window is open and not
    /// full, else one with fresh models. Returns whether it continues.
    mutating func startBatch(baseTime: Micros) -> Bool {
        if version >= LogFormat.continuedBatchesVersion && windowOpen && windowEvents < Self.windowLimit {
            frames.removeAll()
            coder.reset()
            return true
        }
        reset(baseTime: baseTime)
        windowOpen = version >= LogFormat.continuedBatchesVersion
        windowEvents = 0
        return false
    }

    /// Ends the window: the next batch starts with fresh models (after a checkpoint, so
    /// that a reader starting there can decode it).
    mutating func endWindow() { windowOpen = false }

    /// Ends the batch of `events` events and returns its bytes. In version 4 the end is
    /// coded into the models, which the next batch may carry on with.
    mutating func seal(events: Int) -> [UInt8] {
        windowEvents += events
        guard version >= LogFormat.continuedBatchesVersion else { return out.bytes }
        return sealCoded()
    }

    mutating func reset(baseTime: Micros) {
        frames.removeAll()
        predictor = Predictor(time: baseTime, version: version)
        if version >= 3 {
            coder.reset()
            coded.reset(time: baseTime)
        }
    }

    mutating func append(_ timed: TimedEvent) {
        if version >= 3 {
            appendCoded(timed)
            return
        }
        body.removeAll()
        var tag = BinaryEventEncoder.tag(of: timed.event).rawValue
        if let t = timed.t {
            tag |= EventTag.hasTime
            body.signed(predictor.timeResidual(t))
        }
        encodeFields(timed.event)
        frames.u8(tag)
        frames.varint(body.count)
        frames.append(body.bytes)
    }

    /// Appends a gesture fingerprint annotation frame.
    mutating func appendGestureFingerprint(_ value: UInt32) {
        if version >= 3 {
            appendCodedFingerprint(value)
            return
        }
        frames.u8(EventTag.gestureFingerprint)
        frames.u8(4)
        frames.u32(value)
    }

    private mutating func point(_ p: ViewportPoint) {
        let (dx, dy) = predictor.pointResidual(p)
        body.signed(dx)
        body.signed(dy)
    }

    private mutating func path(_ r: RowPath) {
        body.varint(r.section)
        body.varint(r.row)
    }

    private mutating func paths(_ rs: [RowPath]) {
        body.varint(rs.count)
        for r in rs { path(r) }
    }

    private mutating func heights(_ hs: [Points]?) {
        body.bool(hs != nil)
        if let hs {
            body.varint(hs.count)
            for h in hs { body.points(h) }
        }
    }

    private mutating func optional(_ p: Points?) {
        body.bool(p != nil)
        if let p { body.points(p) }
    }

    private mutating func optional(_ b: Bool?) {
        body.u8(b == nil ? 2 : (b == true ? 1 : 0))
    }

    private mutating func sections(_ specs: [SectionSpec]) {
        body.varint(specs.count)
        for s in specs {
            body.varint(s.rows)
            optional(s.rowHeight)
            heights(s.rowHeights)
            optional(s.header)
            optional(s.footer)
            body.bool(s.title != nil)
            if let title = s.title { body.string(title) }
        }
    }

    mutating func encodeFields(_ e: Event) {
        switch e {
        case .configure(let p):
            for flag in [p.allowsSelection, p.allowsMultipleSelection, p.allowsSelectionDuringEditing,
                         p.allowsMultipleSelectionDuringEditing, p.multiSelectInteraction] { optional(flag) }
            optional(p.optionWidth)
            optional(p.editorHeight)
            body.bool(p.undoLimit != nil)
            if let u = p.undoLimit { body.varint(u) }
            body.bool(p.scrollAndSelect != nil)
            if let s = p.scrollAndSelect {
                optional(s.enabled)
                body.u8(s.edge == nil ? 2 : (s.edge == .leading ? 0 : 1))
                optional(s.stripWidth)
                optional(s.topAnchor)
                optional(s.bottomAnchor)
                optional(s.rowsPerSecond)
                body.u8(s.reversal == nil ? 2 : (s.reversal == .flip ? 0 : 1))
                optional(s.jitter)
            }
        case .viewport(let width, let height):
            optional(width)
            optional(height)
        case .reload(let specs):
            sections(specs)
        case .setEditing(let on):
            body.bool(on)
        case .tap(let p), .panMoved(let p):
            point(p)
        case .panBegan(let p, let fingers):
            point(p)
            body.varint(fingers)
        case .panEnded(let p, let target):
            body.bool(p != nil)
            if let p { point(p) }
            optional(target)
        case .panCancelled, .tick, .selectAll, .deselectAll, .undo, .redo:
            break
        case .scroll(let motion, let phase, let target):
            switch motion {
            case nil: body.u8(0)
            case .to(let y)?: body.u8(1); body.signed(predictor.scrollResidual(y.raw))
            case .by(let dy)?:
                body.u8(2)
                if version >= 2 { body.signed(predictor.scrollByResidual(dy.raw)) } else { body.points(dy) }
            }
            body.u8(phase == nil ? 0 : (phase == .decelerate ? 1 : 2))
            optional(target)
        case .jumpToSection(.index(let i)):
            body.u8(0)
            body.varint(i)
        case .jumpToSection(.title(let title)):
            body.u8(1)
            body.string(title)
        case .swipeBegan(let row):
            path(row)
        case .swipeMoved(let offset):
            body.signed(predictor.swipeResidual(offset.raw))
        case .swipeEnded(let velocity):
            optional(velocity)
        case .setOptionVisible(let row, let visible):
            path(row)
            body.bool(visible)
        case .toggleEditor(let row, let options, let multiple, let chosen):
            path(row)
            body.varint(options.count)
            for o in options { body.string(o) }
            body.bool(multiple)
            body.varint(chosen.count)
            for c in chosen { body.varint(c) }
        case .choose(let option):
            body.varint(option)
        case .insertRows(let at, let hs), .reloadRows(let at, let hs):
            paths(at)
            heights(hs)
        case .deleteRows(let at):
            paths(at)
        case .moveRow(let from, let to):
            path(from)
            path(to)
        case .batch(let u):
            paths(u.deletes)
            paths(u.inserts)
            heights(u.insertHeights)
            body.varint(u.moves.count)
            for m in u.moves {
                path(m.from)
                path(m.to)
            }
            paths(u.reloads)
            heights(u.reloadHeights)
        case .insertSections(let at, let specs):
            body.varint(at.count)
            for i in at { body.varint(i) }
            sections(specs)
        case .deleteSections(let at):
            body.varint(at.count)
            for i in at { body.varint(i) }
        case .select(let rows), .deselect(let rows):
            paths(rows)
        }
    }

    static func tag(of e: Event) -> EventTag {
        switch e {
        case .configure: .configure
        case .viewport: .viewport
        case .reload: .reload
        case .setEditing: .setEditing
        case .tap: .tap
        case .panBegan: .panBegan
        case .panMoved: .panMoved
        case .panEnded: .panEnded
        case .panCancelled: .panCancelled
        case .scroll: .scroll
        case .jumpToSection: .jumpToSection
        case .swipeBegan: .swipeBegan
        case .swipeMoved: .swipeMoved
        case .swipeEnded: .swipeEnded
        case .setOptionVisible: .setOptionVisible
        case .toggleEditor: .toggleEditor
        case .choose: .choose
        case .tick: .tick
        case .insertRows: .insertRows
        case .deleteRows: .deleteRows
        case .moveRow: .moveRow
        case .reloadRows: .reloadRows
        case .batch: .batch
        case .insertSections: .insertSections
        case .deleteSections: .deleteSections
        case .select: .select
        case .deselect: .deselect
        case .selectAll: .selectAll
        case .deselectAll: .deselectAll
        case .undo: .undo
        case .redo: .redo
        }
    }
}
