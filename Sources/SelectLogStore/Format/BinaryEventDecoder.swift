import SelectLog

/// Decodes the frames `BinaryEventEncoder` wrote, in order, from one batch.
///
/// Counts and indexes are read within `EventLimits`, and every decoded event is
/// checked by `TimedEvent.validate()` (or, for the kinds a coded batch's decoder builds
/// itself, by that decoder, against the same bounds: `CodedEventDecoder.needsCheck`),
/// so the decoder accepts exactly the events `TableState.apply` can accept, and nothing
/// it returns can trap the engine.
struct BinaryEventDecoder {
    private var reader: BinaryReader
    private var predictor: Predictor

    /// A decoder for one batch of a log of format `version`.
    init(_ bytes: [UInt8], baseTime: Micros, version: UInt16 = LogFormat.version) {
        predictor = Predictor(time: baseTime, version: version)
        self.version = version
        isCoded = version >= 3
        if isCoded {
            coded = CodedEventDecoder(bytes, baseTime: baseTime)
            reader = BinaryReader([])
        } else {
            coded = CodedEventDecoder([], baseTime: baseTime, empty: true)
            reader = BinaryReader(bytes)
        }
    }
    private let version: UInt16

    /// Starts on another batch of the same log, as a fresh decoder would, keeping this
    /// one's allocations.
    mutating func restart(_ bytes: [UInt8], baseTime: Micros) {
        predictor = Predictor(time: baseTime, version: version)
        isNewer = false
        if isCoded {
            coded.restart(bytes, baseTime: baseTime)
        } else {
            reader = BinaryReader(bytes)
        }
    }
    /// Goes on to a continued batch (version 4): models, predictions and time carry over
    /// from the batch this decoder has just read to its end.
    mutating func continueBatch(_ bytes: [UInt8]) {
        isNewer = false
        coded.continueBatch(bytes)
    }

    /// Starts `decoder` on the batch `header` heads: one that starts a window restarts it
    /// (or creates it), a continued one goes on from the batch before it, which `decoder`
    /// must have read to its end.
    static func start(_ decoder: inout BinaryEventDecoder?, _ bytes: [UInt8], _ header: RecordHeader,
                      version: UInt16) throws(BinaryError) {
        if decoder == nil, !header.continues {
            decoder = BinaryEventDecoder(bytes, baseTime: header.baseTime, version: version)
            return
        }
        guard decoder?.start(bytes, header) == true else {
            decoder = nil
            throw BinaryError(offset: 0, reason: "a continued batch without the whole batch before it")
        }
    }

    /// Starts this decoder on the batch `header` heads, as `start(_:_:_:version:)` does;
    /// false (and nothing done) for a continued batch that cannot go on from here: the
    /// batch before it not read to its end, or a version without continued batches.
    mutating func start(_ bytes: [UInt8], _ header: RecordHeader) -> Bool {
        if header.continues {
            guard version >= LogFormat.continuedBatchesVersion, isAtEnd else { return false }
            continueBatch(bytes)
        } else {
            restart(bytes, baseTime: header.baseTime)
        }
        return true
    }

    /// Version 3: the range decoder of a coded batch.
    private let isCoded: Bool
    private var coded: CodedEventDecoder

    var isAtEnd: Bool { isCoded ? coded.isAtEnd : reader.isAtEnd }
    var offset: Int { isCoded ? coded.position : reader.offset }

    /// Set when the batch holds an event type, or fields of an event, that this reader
    /// does not know: the log was written by a newer selectlog.
    private(set) var isNewer = false

    /// What a batch holds, in order: events, and the state fingerprints recorded at
    /// gesture ends (annotation frames, which change no state).
    enum Item: Equatable {
        case event(TimedEvent)
        /// `TableState.gestureFingerprint` after the event before it.
        case gestureFingerprint(UInt32)
    }

    /// The next event, or nil at the end of the batch. Annotation frames (tags 64-127) are skipped.
    mutating func next() throws(BinaryError) -> TimedEvent? {
        if isCoded {
            var unused = ReplayRecord()
            return try nextFromCoded(&unused, records: false)
        }
        while let item = try nextItem() {
            if case .event(let e) = item { return e }
        }
        return nil
    }

    /// `next()` for a pipelined replay: the events a coded batch's decoder can hand over as
    /// plain values come back in `record` (its kind not `.other`) and the call returns nil;
    /// every other event as `next()` returns it. Nil with `record.kind` `.other`: the end
    /// of the batch. The same events, checks and errors as `next()`.
    mutating func next(into record: inout ReplayRecord) throws(BinaryError) -> TimedEvent? {
        guard isCoded else {
            record.kind = .other
            return try next()
        }
        return try nextFromCoded(&record, records: true)
    }

    /// The coded batch's next event for both: `records` is a constant in each, so `next()`
    /// carries none of the records' code.
    @inline(__always)
    private mutating func nextFromCoded(_ record: inout ReplayRecord, records: Bool) throws(BinaryError) -> TimedEvent? {
        while true {
            let start = coded.position
            if let e = try records ? nextCoded(into: &record) : nextCoded() {
                if coded.needsCheck { try check(e, at: start) }
                return e
            }
            if records, record.kind != .other { return nil }
            switch coded.marker {
            case .end: return nil
            case .fingerprint: continue
            case .cold(let tag, let t, let bytes):
                let e = try cold(tag, t, bytes, at: start)
                try check(e, at: start)
                return e
            }
        }
    }

    /// The next event or gesture fingerprint, or nil at the end of the batch. Annotation
    /// frames this reader does not know are skipped whole; an unknown event type or an
    /// event with more fields than this reader knows throws, with `isNewer` set.
    mutating func nextItem() throws(BinaryError) -> Item? {
        if isCoded { return try nextCodedItem() }
        while !reader.isAtEnd {
            let start = reader.offset
            let tagByte = try reader.u8()
            let length = try reader.count(limit: reader.remaining)
            let bodyEnd = reader.offset + length
            let rawTag = tagByte & ~EventTag.hasTime
            if rawTag >= EventTag.firstSkippable {
                if rawTag == EventTag.gestureFingerprint && length == 4 {
                    var body = BinaryReader(reader.bytes, from: reader.offset, to: bodyEnd)
                    let value = try body.u32()
                    try reader.skip(length)
                    return .gestureFingerprint(value)
                }
                try reader.skip(length)
                continue
            }
            guard let tag = EventTag(rawValue: rawTag) else {
                isNewer = true
                throw BinaryError(offset: start, reason: "unknown event type \(rawTag): written by a newer selectlog")
            }
            var body = BinaryReader(reader.bytes, from: reader.offset, to: bodyEnd)
            var t: Micros?
            if tagByte & EventTag.hasTime != 0 {
                t = predictor.time(fromResidual: try body.signed())
            }
            let event = try decodeFields(tag, &body)
            guard body.isAtEnd else {
                isNewer = true
                throw BinaryError(offset: start, reason: "\(event.typeName) has \(body.remaining) bytes of fields this reader does not know: written by a newer selectlog")
            }
            let timed = TimedEvent(event, t: t)
            // The checks every way in runs: a log holds only what `apply` accepts.
            do throws(InvalidEvent) {
                try timed.validate()
            } catch {
                throw BinaryError(offset: start, reason: "invalid event: \(error)")
            }
            try reader.skip(length)
            return .event(timed)
        }
        return nil
    }

    /// The next item of a version 3 batch; every event passes the same checks as in version 2.
    private mutating func nextCodedItem() throws(BinaryError) -> Item? {
        let start = coded.position
        if let e = try nextCoded() {
            if coded.needsCheck { try check(e, at: start) }
            return .event(e)
        }
        switch coded.marker {
        case .end: return nil
        case .fingerprint(let v): return .gestureFingerprint(v)
        case .cold(let tag, let t, let bytes):
            let e = try cold(tag, t, bytes, at: start)
            try check(e, at: start)
            return .event(e)
        }
    }

    private mutating func nextCoded() throws(BinaryError) -> TimedEvent? {
        do {
            return try coded.next()
        } catch {
            if coded.isNewer { isNewer = true }
            throw error
        }
    }

    private mutating func nextCoded(into record: inout ReplayRecord) throws(BinaryError) -> TimedEvent? {
        do {
            return try coded.next(into: &record)
        } catch {
            if coded.isNewer { isNewer = true }
            throw error
        }
    }

    /// An event the coded batch holds as a version 2 body.
    private mutating func cold(_ tag: EventTag, _ t: Micros?, _ bytes: [UInt8], at start: Int) throws(BinaryError) -> TimedEvent {
        var r = BinaryReader(bytes)
        let event = try decodeFields(tag, &r)
        guard r.isAtEnd else {
            isNewer = true
            throw BinaryError(offset: start, reason: "\(event.typeName) has \(r.remaining) bytes of fields this reader does not know: written by a newer selectlog")
        }
        return TimedEvent(event, t: t)
    }

    /// The checks every way in runs (`TimedEvent.validate()`), on the event in place: the
    /// caller returns the event it decoded, not a copy.
    private func check(_ timed: borrowing TimedEvent, at start: Int) throws(BinaryError) {
        do throws(InvalidEvent) {
            try timed.validate()
        } catch {
            throw BinaryError(offset: start, reason: "invalid event: \(error)")
        }
    }

    private mutating func point(_ r: inout BinaryReader) throws(BinaryError) -> ViewportPoint {
        let rx = try r.signed(), ry = try r.signed()
        let (x, y) = predictor.point(fromResidual: rx, ry)
        guard x.magnitude <= EventLimits.length.raw.magnitude, y.magnitude <= EventLimits.length.raw.magnitude else {
            throw r.fail("position out of range")
        }
        return ViewportPoint(x: Points(raw: x), y: Points(raw: y))
    }

    /// A predicted length, checked against the engine's range.
    private func checked(_ raw: Int64, _ r: inout BinaryReader) throws(BinaryError) -> Points {
        guard raw.magnitude <= EventLimits.length.raw.magnitude else { throw r.fail("length out of range") }
        return Points(raw: raw)
    }

    private func path(_ r: inout BinaryReader) throws(BinaryError) -> RowPath {
        RowPath(try r.count(limit: EventLimits.index), try r.count(limit: EventLimits.index))
    }

    private func paths(_ r: inout BinaryReader) throws(BinaryError) -> [RowPath] {
        let n = try r.count(limit: r.remaining)
        var out: [RowPath] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try path(&r)) }
        return out
    }

    private func heights(_ r: inout BinaryReader) throws(BinaryError) -> [Points]? {
        guard try r.bool() else { return nil }
        let n = try r.count(limit: r.remaining)
        var out: [Points] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try r.points()) }
        return out
    }

    private func optionalPoints(_ r: inout BinaryReader) throws(BinaryError) -> Points? {
        try r.bool() ? try r.points() : nil
    }

    private func optionalBool(_ r: inout BinaryReader) throws(BinaryError) -> Bool? {
        switch try r.u8() {
        case 0: return false
        case 1: return true
        case 2: return nil
        default: throw r.fail("bad optional boolean")
        }
    }

    private func sections(_ r: inout BinaryReader) throws(BinaryError) -> [SectionSpec] {
        let n = try r.count(limit: r.remaining)
        var out: [SectionSpec] = []
        for _ in 0..<n {
            let rows = try r.count(limit: EventLimits.sectionRows)
            let rowHeight = try optionalPoints(&r)
            let hs = try heights(&r)
            let header = try optionalPoints(&r)
            let footer = try optionalPoints(&r)
            let title: String? = try r.bool() ? try r.string() : nil
            out.append(SectionSpec(rows: rows, rowHeight: rowHeight, rowHeights: hs, header: header, footer: footer, title: title))
        }
        return out
    }

    mutating func decodeFields(_ tag: EventTag, _ r: inout BinaryReader) throws(BinaryError) -> Event {
        switch tag {
        case .configure:
            var p = ConfigurationPatch()
            p.allowsSelection = try optionalBool(&r)
            p.allowsMultipleSelection = try optionalBool(&r)
            p.allowsSelectionDuringEditing = try optionalBool(&r)
            p.allowsMultipleSelectionDuringEditing = try optionalBool(&r)
            p.multiSelectInteraction = try optionalBool(&r)
            p.optionWidth = try optionalPoints(&r)
            p.editorHeight = try optionalPoints(&r)
            if try r.bool() { p.undoLimit = try r.count(limit: EventLimits.index) }
            if try r.bool() {
                var s = StripPatch()
                s.enabled = try optionalBool(&r)
                switch try r.u8() {
                case 0: s.edge = .leading
                case 1: s.edge = .trailing
                case 2: s.edge = nil
                default: throw r.fail("bad edge")
                }
                s.stripWidth = try optionalPoints(&r)
                s.topAnchor = try optionalPoints(&r)
                s.bottomAnchor = try optionalPoints(&r)
                s.rowsPerSecond = try optionalPoints(&r)
                switch try r.u8() {
                case 0: s.reversal = .flip
                case 1: s.reversal = .restore
                case 2: s.reversal = nil
                default: throw r.fail("bad reversal")
                }
                s.jitter = try optionalPoints(&r)
                p.scrollAndSelect = s
            }
            return .configure(p)
        case .viewport:
            return .viewport(width: try optionalPoints(&r), height: try optionalPoints(&r))
        case .reload:
            return .reload(sections: try sections(&r))
        case .setEditing:
            return .setEditing(try r.bool())
        case .tap:
            return .tap(try point(&r))
        case .panMoved:
            return .panMoved(try point(&r))
        case .panBegan:
            let p = try point(&r)
            return .panBegan(p, fingers: try r.count(limit: EventLimits.index))
        case .panEnded:
            let p: ViewportPoint? = try r.bool() ? try point(&r) : nil
            return .panEnded(p, targetOffset: try optionalPoints(&r))
        case .panCancelled: return .panCancelled
        case .tick: return .tick
        case .selectAll: return .selectAll
        case .deselectAll: return .deselectAll
        case .undo: return .undo
        case .redo: return .redo
        case .scroll:
            let motion: ScrollMotion?
            switch try r.u8() {
            case 0: motion = nil
            case 1: motion = .to(try checked(predictor.scroll(fromResidual: try r.signed()), &r))
            case 2:
                if version >= 2 {
                    motion = .by(try checked(predictor.scrollBy(fromResidual: try r.signed()), &r))
                } else {
                    motion = .by(try r.points())
                }
            default: throw r.fail("bad scroll motion")
            }
            let phase: ScrollPhase?
            switch try r.u8() {
            case 0: phase = nil
            case 1: phase = .decelerate
            case 2: phase = .idle
            default: throw r.fail("bad scroll phase")
            }
            return .scroll(motion, phase: phase, target: try optionalPoints(&r))
        case .jumpToSection:
            switch try r.u8() {
            case 0: return .jumpToSection(.index(try r.count(limit: EventLimits.index)))
            case 1: return .jumpToSection(.title(try r.string()))
            default: throw r.fail("bad section reference")
            }
        case .swipeBegan:
            return .swipeBegan(row: try path(&r))
        case .swipeMoved:
            return .swipeMoved(offset: try checked(predictor.swipe(fromResidual: try r.signed()), &r))
        case .swipeEnded:
            return .swipeEnded(velocity: try optionalPoints(&r))
        case .setOptionVisible:
            return .setOptionVisible(row: try path(&r), visible: try r.bool())
        case .toggleEditor:
            let row = try path(&r)
            var options: [String] = []
            for _ in 0..<(try r.count(limit: r.remaining)) { options.append(try r.string()) }
            let multiple = try r.bool()
            var chosen: [Int] = []
            for _ in 0..<(try r.count(limit: r.remaining)) { chosen.append(try r.count(limit: EventLimits.index)) }
            return .toggleEditor(row: row, options: options, multiple: multiple, chosen: chosen)
        case .choose:
            return .choose(option: try r.count(limit: EventLimits.index))
        case .insertRows:
            return .insertRows(at: try paths(&r), heights: try heights(&r))
        case .reloadRows:
            return .reloadRows(at: try paths(&r), heights: try heights(&r))
        case .deleteRows:
            return .deleteRows(at: try paths(&r))
        case .moveRow:
            return .moveRow(from: try path(&r), to: try path(&r))
        case .batch:
            let deletes = try paths(&r)
            let inserts = try paths(&r)
            let insertHeights = try heights(&r)
            var moves: [BatchUpdate.Move] = []
            for _ in 0..<(try r.count(limit: r.remaining)) {
                moves.append(BatchUpdate.Move(from: try path(&r), to: try path(&r)))
            }
            let reloads = try paths(&r)
            return .batch(BatchUpdate(deletes: deletes, inserts: inserts, insertHeights: insertHeights,
                                      moves: moves, reloads: reloads, reloadHeights: try heights(&r)))
        case .insertSections:
            var at: [Int] = []
            for _ in 0..<(try r.count(limit: r.remaining)) { at.append(try r.count(limit: EventLimits.index)) }
            return .insertSections(at: at, sections: try sections(&r))
        case .deleteSections:
            var at: [Int] = []
            for _ in 0..<(try r.count(limit: r.remaining)) { at.append(try r.count(limit: EventLimits.index)) }
            return .deleteSections(at: at)
        case .select:
            return .select(rows: try paths(&r))
        case .deselect:
            return .deselect(rows: try paths(&r))
        }
    }
}
