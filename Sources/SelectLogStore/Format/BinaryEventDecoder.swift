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
    /// Version 1 and 2 predictions (`BinaryEventDecoder+Fields.swift` reads through it).
    var predictor: Predictor

    /// A decoder for one batch of a log of format `version`.
    init(_ bytes: [UInt8], baseTime: Micros, version: UInt16 = LogFormat.version) {
        predictor = Predictor(time: baseTime, version: version)
        self.version = version
        isCoded = version >= 3
        if isCoded {
            coded = CodedEventDecoder(bytes, baseTime: baseTime, thirds: version >= LogFormat.thirdsVersion)
            reader = BinaryReader([])
        } else {
            coded = CodedEventDecoder([], baseTime: baseTime, empty: true)
            reader = BinaryReader(bytes)
        }
    }
    /// The log's format version (`BinaryEventDecoder+Fields.swift` reads it).
    let version: UInt16

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

    /// `next(into:)` that also hands back the gesture fingerprints, as records of kind
    /// `.fingerprint` with the value in `a` (a check's replay, which compares them).
    mutating func nextWithFingerprints(into record: inout ReplayRecord) throws(BinaryError) -> TimedEvent? {
        guard isCoded else {
            record.kind = .other
            switch try nextItem() {
            case .event(let e)?: return e
            case .gestureFingerprint(let v)?:
                record.kind = .fingerprint
                record.a = Int64(v)
                return nil
            case nil: return nil
            }
        }
        return try nextFromCoded(&record, records: true, fingerprints: true)
    }

    /// Whether `next(run:_:limit:)` can read this decoder's batches (a coded one's).
    var readsRuns: Bool { isCoded }

    /// `next(into:)` over a run of events (`CodedEventDecoder.next(run:_:limit:start:)`) for
    /// a decoder that `readsRuns`: the records at `out + count ..< out + limit`, then the
    /// next event not a record, or nil (`count` below `limit`: the end of the batch; at
    /// `limit`: the run is full, nothing more read). The same events, checks and errors
    /// as `next(into:)` called for each; `count` is the records written when it throws.
    mutating func next(run out: UnsafeMutablePointer<ReplayRecord>, _ count: inout Int, limit: Int) throws(BinaryError) -> TimedEvent? {
        while true {
            var start = 0
            do {
                if let e = try coded.next(run: out, &count, limit: limit, start: &start) {
                    if coded.needsCheck { try check(e, at: start) }
                    return e
                }
            } catch {
                if coded.isNewer { isNewer = true }
                throw error
            }
            if count == limit { return nil }
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

    /// The coded batch's next event for all three: `records` and `fingerprints` are
    /// constants in each, so `next()` carries none of the records' code.
    @inline(__always)
    private mutating func nextFromCoded(_ record: inout ReplayRecord, records: Bool, fingerprints: Bool = false) throws(BinaryError) -> TimedEvent? {
        while true {
            let start = coded.position
            if let e = try records ? nextCoded(into: &record) : nextCoded() {
                if coded.needsCheck { try check(e, at: start) }
                return e
            }
            if records, record.kind != .other { return nil }
            switch coded.marker {
            case .end: return nil
            case .fingerprint(let v):
                guard fingerprints else { continue }
                record.kind = .fingerprint
                record.a = Int64(v)
                return nil
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
}
