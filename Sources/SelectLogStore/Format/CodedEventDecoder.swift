import SelectLog

// Format version 3: the event decoder. The order of decisions is the format (docs/LOG-FORMAT.md,
// "Coded batches"); CodedEvents+Coder.swift is the encoding side.

/// The decoding side of a version 3 batch.
struct CodedEventDecoder {
    private typealias M = CodedModels
    private var rc: RangeDecoder
    private var s: CodedState
    private(set) var isAtEnd = false
    private var items = 0
    /// `EventLimits.length` and `EventLimits.offset`, read once rather than through their
    /// accessors at every value.
    private let maxLength = EventLimits.length.raw.magnitude
    private let maxOffset = EventLimits.offset.raw.magnitude

    /// A decoder of `bytes`; `empty`: one that is never used (a version 2 batch's);
    /// `thirds`: a version 6 batch's.
    init(_ bytes: [UInt8], baseTime: Micros, empty: Bool = false, thirds: Bool = false) {
        rc = RangeDecoder(bytes)
        s = CodedState(time: baseTime, empty: empty, thirds: thirds)
    }

    var position: Int { rc.position }

    /// Starts on another batch, keeping the models' allocation (they start fresh).
    mutating func restart(_ bytes: [UInt8], baseTime: Micros) {
        rc = RangeDecoder(bytes)
        s.reset(time: baseTime)
        isAtEnd = false
        items = 0
        marker = .end
        isNewer = false
    }

    /// Goes on to a continued batch: the models, predictions, time and last item (the end
    /// of the batch before) carry over; only the range decoder starts again.
    mutating func continueBatch(_ bytes: [UInt8]) {
        rc = RangeDecoder(bytes)
        isAtEnd = false
        items = 0
        marker = .end
        isNewer = false
    }

    private func fail(_ c: RangeDecoderCore, _ reason: String) -> BinaryError { BinaryError(offset: c.position, reason: reason) }

    /// What `next()` read when it returns nil: the batch's end, a gesture fingerprint, or
    /// an event whose fields are a version 2 body, for `BinaryEventDecoder.decodeFields`.
    /// (Events come back as they are, so the hot path copies no enum around them.)
    enum Marker {
        case end
        case fingerprint(UInt32)
        case cold(EventTag, Micros?, [UInt8])
    }
    private(set) var marker = Marker.end

    /// The last event symbol read and its tag (nil: unknown), so that an item of the same
    /// kind as the one before it does not look its tag up again. Depends on nothing else.
    private var lastTag: (symbol: Int, tag: EventTag?) = (0, nil)

    /// Set when the batch holds an item symbol this reader does not know.
    private(set) var isNewer = false

    /// Whether the event `next()` returned may fail `TimedEvent.validate()`: false when the
    /// decoder has already checked everything `validate()` checks of it, which it does for
    /// every kind it builds but `panBegan` (its finger count, checked here only as an
    /// index), save the event's time, checked here against the same bounds.
    private(set) var needsCheck = false
    /// `EventLimits.time`, read once.
    private let maxTime = EventLimits.time.raw

    /// The next event, or nil with `marker` saying what was read instead.
    mutating func next() throws(BinaryError) -> TimedEvent? {
        var unused = ReplayRecord()
        var c = rc.core
        defer { rc.core.store(c) }
        return try next(&unused, &c, records: false)
    }

    /// `next()` for a pipelined replay: a tick, pan sample, scroll or swipe move that needs
    /// no check comes back in `record` (its kind not `.other`) and the call returns nil;
    /// other events as `next()` returns them (`record.kind` is `.other`, as it is when the
    /// call returns nil with `marker` saying what was read instead).
    mutating func next(into record: inout ReplayRecord) throws(BinaryError) -> TimedEvent? {
        var c = rc.core
        defer { rc.core.store(c) }
        return try next(&record, &c, records: true)
    }

    /// `next(into:)` over a run of records: each event that comes back as a record is
    /// written at `out + count` and counted, until `count` is `limit` (then nil, and
    /// nothing more read) or an item that is not a record, returned as `next(into:)`
    /// returns it (nil, with `count` below `limit`: `marker` says what was read). `count`
    /// is the records written when it throws, too. `start` is the position of the last
    /// item's first byte. One call for the run, so that an event costs no call of its own,
    /// and the registers stay in a local from one event to the next.
    mutating func next(run out: UnsafeMutablePointer<ReplayRecord>, _ count: inout Int, limit: Int,
                       start: inout Int) throws(BinaryError) -> TimedEvent? {
        var c = rc.core
        defer { rc.core.store(c) }
        while count < limit {
            start = c.position
            let r = out + count
            if let e = try next(&r.pointee, &c, records: true) { return e }
            if r.pointee.kind == .other { return nil }
            count &+= 1
        }
        return nil
    }

    /// The decoding of all three: `records` is a constant in each, so `next()` carries none
    /// of the records' code. `c` is the registers, in the caller's local (stored back by it
    /// once: only the registers, as the byte pointer and count are constants of the batch).
    @inline(__always)
    private mutating func next(_ r: inout ReplayRecord, _ c: inout RangeDecoderCore, records: Bool) throws(BinaryError) -> TimedEvent? {
        if records { r.kind = .other }
        guard !isAtEnd else { return nil }
        items &+= 1
        guard items <= LogFormat.Limits.batchEvents * 2 else { throw fail(c, "batch holds more items than the format allows") }
        let m = s.models.table
        var symbol = s.lastSymbol
        let same = c.decodeLikely(m, s.sameKindModel)
        if !same { symbol = c.decodeLikelySymbol(bits: 6, m, s.kindContext) }
        s.lastSymbol = symbol
        if symbol == M.endSymbol {
            isAtEnd = true
            marker = .end
            if c.overran { throw fail(c, "coded batch runs past its end") }
            return nil
        }
        if symbol == M.fingerprintSymbol {
            let v = UInt32(truncatingIfNeeded: c.directBits(32))
            if c.overran { throw fail(c, "coded batch runs past its end") }
            marker = .fingerprint(v)
            return nil
        }
        // Most items are of the kind before them: their tag is the one found last time.
        if symbol != lastTag.symbol {
            lastTag = (symbol, symbol < M.fingerprintSymbol ? EventTag(rawValue: UInt8(truncatingIfNeeded: symbol)) : nil)
        }
        guard let tag = lastTag.tag else {
            isNewer = true
            throw fail(c, "unknown event type \(symbol): written by a newer selectlog")
        }
        let hasTime = same ? s.lastHasTime : c.decodeLikely(m, M.hasTimeBase)
        s.lastHasTime = hasTime
        var timeKey = symbol
        var shape = 0
        if tag == .scroll {
            shape = s.lastScrollShape
            if !c.decodeLikely(m, M.sameShapeBase + (shape & 31)) {
                shape = c.decodeLikelySymbol(bits: 5, m, M.scrollShapeBase + (shape & 31) * 32)
            }
            guard shape < M.scrollShapes else { throw fail(c, "bad scroll shape \(shape)") }
            s.lastScrollShape = shape
            timeKey = M.scrollTimeKey(shape)
        }
        var t: Micros?
        var timeOutOfRange = false
        if hasTime {
            let model = s.timeModel(timeKey)
            let residual = c.decodeInt(m, model)
            let step = s.lastStep(timeKey) &+ residual
            let time = s.time &+ step
            s.noteTime(timeKey, step: step, residual: residual, t: time)
            t = Micros(raw: time)
            timeOutOfRange = time < 0 || time > maxTime
            if records { r.time = time }
        }
        // A record only for an event whose time needs no check (the kinds it takes need no other).
        let recording = records && !timeOutOfRange
        if recording { r.hasTime = hasTime }
        let event: Event
        switch tag {
        case .tap: event = .tap(try point(&c, tag))
        case .panMoved:
            let p = try point(&c, tag)
            if recording {
                r.a = p.x.raw
                r.b = p.y.raw
                return try recorded(&r, .panMoved, c)
            }
            event = .panMoved(p)
        case .panBegan:
            let p = try point(&c, tag)
            let fingers = c.decodeInt(m, M.smallBase)
            guard fingers >= 0, fingers <= EventLimits.index else { throw fail(c, "finger count out of range") }
            event = .panBegan(p, fingers: Int(fingers))
        case .panEnded:
            let p: ViewportPoint? = c.decode(m, M.flagBase + M.Flag.panEndedHasPoint.rawValue) ? try point(&c, tag) : nil
            var target: Points?
            if c.decode(m, M.flagBase + M.Flag.panEndedHasTarget.rawValue) {
                target = try contentOffset(value(&c, .target, model: M.targetBase), c)
            }
            event = .panEnded(p, targetOffset: target)
        case .scroll:
            // The motion's value first, then the target's, as they were coded.
            let motionKind = shape / 6
            var motionValue = Points(raw: 0)
            switch motionKind {
            case 1: motionValue = try contentOffset(value(&c, .scrollTo, model: M.scrollToBase), c)
            case 2: motionValue = try length(value(&c, .scrollBy, model: M.scrollByBase), c)
            default: break
            }
            let hasTarget = shape % 2 == 1
            var targetValue = Points(raw: 0)
            if hasTarget {
                targetValue = try contentOffset(value(&c, .target, model: M.targetBase), c)
            }
            if recording {
                r.motion = UInt8(truncatingIfNeeded: motionKind)
                r.phase = UInt8(truncatingIfNeeded: shape % 6 / 2)
                r.hasTarget = hasTarget
                r.a = motionValue.raw
                r.b = targetValue.raw
                return try recorded(&r, .scroll, c)
            }
            let motion: ScrollMotion? = switch motionKind {
            case 1: .to(motionValue)
            case 2: .by(motionValue)
            default: nil
            }
            let phase: ScrollPhase? = switch shape % 6 / 2 {
            case 1: .decelerate
            case 2: .idle
            default: nil
            }
            event = .scroll(motion, phase: phase, target: hasTarget ? targetValue : nil)
        case .swipeMoved:
            let offset = try length(value(&c, .swipe, model: M.swipeBase), c)
            if recording {
                r.a = offset.raw
                return try recorded(&r, .swipeMoved, c)
            }
            event = .swipeMoved(offset: offset)
        case .swipeEnded:
            var velocity: Points?
            if c.decode(m, M.flagBase + M.Flag.swipeEndedHasVelocity.rawValue) {
                velocity = try length(c.decodeInt(m, M.velocityBase), c)
            }
            event = .swipeEnded(velocity: velocity)
        case .tick:
            if recording { return try recorded(&r, .tick, c) }
            event = .tick
        default:
            if let fieldless = M.fieldless(tag) {
                event = fieldless
                break
            }
            let n = c.decodeInt(m, M.lengthBase)
            guard n >= 0, n <= LogFormat.Limits.payloadBytes else { throw fail(c, "event of \(n) bytes, over the format's limit") }
            var bytes: [UInt8] = []
            for i in 0..<Int(n) {
                bytes.append(UInt8(c.decodeSymbol(bits: 8, m, M.byteBase)))
                if i & 63 == 63, c.overran { throw fail(c, "coded batch runs past its end") }
            }
            if c.overran { throw fail(c, "coded batch runs past its end") }
            marker = .cold(tag, t, bytes)
            return nil
        }
        if c.overran { throw fail(c, "coded batch runs past its end") }
        needsCheck = timeOutOfRange || tag == .panBegan
        return TimedEvent(event, t: t)
    }

    /// Ends an event decoded as a record of `kind`: the batch's bounds checked as for any
    /// event, and nothing left to check (`needsCheck` false).
    @inline(__always)
    private mutating func recorded(_ r: inout ReplayRecord, _ kind: ReplayRecord.Kind, _ c: RangeDecoderCore) throws(BinaryError) -> TimedEvent? {
        if c.overran { throw fail(c, "coded batch runs past its end") }
        needsCheck = false
        r.kind = kind
        return nil
    }

    // `value` and `point` are mutating, although they change only models, so that a call
    // passes `self` by reference rather than a copy of it.

    /// A value through a channel.
    private mutating func value(_ c: inout RangeDecoderCore, _ channel: M.Channel, model: Int) -> Int64 {
        c.decodeValue(&s.channel(channel).pointee, s.models.table, model: model, flag: channel.rawValue)
    }

    private func length(_ raw: Int64, _ c: RangeDecoderCore) throws(BinaryError) -> Points {
        guard raw.magnitude <= maxLength else { throw fail(c, "length out of range") }
        return Points(raw: raw)
    }

    private func contentOffset(_ raw: Int64, _ c: RangeDecoderCore) throws(BinaryError) -> Points {
        guard raw.magnitude <= maxOffset else { throw fail(c, "content offset out of range") }
        return Points(raw: raw)
    }

    private mutating func point(_ c: inout RangeDecoderCore, _ tag: EventTag) throws(BinaryError) -> ViewportPoint {
        // Both coordinates inlined, on a local copy of the registers.
        var r = c
        let m = s.models.table
        let x = r.decodeValueInline(&s.channel(.fingerX).pointee, m, model: M.pointModel(tag, y: false), flag: M.Channel.fingerX.rawValue)
        let y = r.decodeValueInline(&s.channel(.fingerY).pointee, m, model: M.pointModel(tag, y: true), flag: M.Channel.fingerY.rawValue)
        c.store(r)
        guard x.magnitude <= maxLength, y.magnitude <= maxLength else {
            throw fail(c, "position out of range")
        }
        return ViewportPoint(x: Points(raw: x), y: Points(raw: y))
    }
}
