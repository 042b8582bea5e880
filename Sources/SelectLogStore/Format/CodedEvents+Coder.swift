import SelectLog

// Format version 3: the event coder on both sides. The order of decisions here is the
// format; docs/LOG-FORMAT.md, "Coded batches", lists it.

extension BinaryEventEncoder {
    private typealias M = CodedModels

    mutating func appendCoded(_ timed: TimedEvent) {
        let tag = BinaryEventEncoder.tag(of: timed.event)
        let symbol = Int(tag.rawValue)
        // One decision for the common case: the same kind as the item before, timed as
        // the event before was; else the kind's tree and the time flag.
        let hasTime = timed.t != nil
        let same = symbol == coded.lastSymbol && hasTime == coded.lastHasTime
        coder.encode(same, coded.models.table, coded.sameKindModel)
        if !same {
            coder.encodeSymbol(symbol, bits: 6, coded.models.table, coded.kindContext)
            coder.encode(hasTime, coded.models.table, M.hasTimeBase)
        }
        coded.lastSymbol = symbol
        coded.lastHasTime = hasTime
        var timeKey = symbol
        if case .scroll(let motion, let phase, let target) = timed.event {
            let m: Int
            switch motion {
            case nil: m = 0
            case .to?: m = 1
            case .by?: m = 2
            }
            let shape = M.scrollShape(motion: m, phase: phase == nil ? 0 : (phase == .decelerate ? 1 : 2), hasTarget: target != nil)
            coder.encode(shape == coded.lastScrollShape, coded.models.table, M.sameShapeBase + coded.lastScrollShape)
            if shape != coded.lastScrollShape {
                coder.encodeSymbol(shape, bits: 5, coded.models.table, M.scrollShapeBase + coded.lastScrollShape * 32)
            }
            coded.lastScrollShape = shape
            timeKey = M.scrollTimeKey(shape)
        }
        if let t = timed.t {
            let step = t.raw &- coded.time
            let residual = step &- coded.lastStep(timeKey)
            let model = coded.timeModel(timeKey)
            coder.encodeInt(residual, coded.models.table, model)
            coded.noteTime(timeKey, step: step, residual: residual, t: t.raw)
        }
        switch timed.event {
        case .tap(let p), .panMoved(let p):
            point(p, tag)
        case .panBegan(let p, let fingers):
            point(p, tag)
            coder.encodeInt(Int64(fingers), coded.models.table, M.smallBase)
        case .panEnded(let p, let target):
            coder.encode(p != nil, coded.models.table, M.flagBase + M.Flag.panEndedHasPoint.rawValue)
            if let p { point(p, tag) }
            coder.encode(target != nil, coded.models.table, M.flagBase + M.Flag.panEndedHasTarget.rawValue)
            if let target { value(target.raw, .target, model: M.targetBase) }
        case .scroll(let motion, _, let target):
            switch motion {
            case nil: break
            case .to(let y)?: value(y.raw, .scrollTo, model: M.scrollToBase)
            case .by(let dy)?: value(dy.raw, .scrollBy, model: M.scrollByBase)
            }
            if let target { value(target.raw, .target, model: M.targetBase) }
        case .swipeMoved(let offset):
            value(offset.raw, .swipe, model: M.swipeBase)
        case .swipeEnded(let velocity):
            coder.encode(velocity != nil, coded.models.table, M.flagBase + M.Flag.swipeEndedHasVelocity.rawValue)
            if let velocity { coder.encodeInt(velocity.raw, coded.models.table, M.velocityBase) }
        case .tick, .panCancelled, .selectAll, .deselectAll, .undo, .redo:
            break
        default:
            // Rarer events: their version 2 fields, as bytes.
            body.removeAll()
            encodeFields(timed.event)
            coder.encodeInt(Int64(body.count), coded.models.table, M.lengthBase)
            for b in body.bytes { coder.encodeSymbol(Int(b), bits: 8, coded.models.table, M.byteBase) }
        }
    }

    mutating func appendCodedFingerprint(_ value: UInt32) {
        codeSymbol(M.fingerprintSymbol)
        coder.encodeDirect(UInt64(value), count: 32)
    }

    /// Ends the batch for good: codes the end symbol (its models adapt, as the decoder's
    /// do when it reads it) and returns the flushed bytes. The models go on, so the next
    /// batch can continue this one (version 4); the range coder must be reset before it.
    mutating func sealCoded() -> [UInt8] {
        codeSymbol(M.endSymbol)
        return coder.finished()
    }

    /// The batch's coded bytes: the end symbol and the flush, on copies.
    func finishedCoded() -> [UInt8] {
        var c = coder
        // The end symbol, with the models it touches restored afterwards.
        let m = coded.models.table
        let touched = [coded.sameKindModel] + [1, 2, 4, 8, 16, 32].map { coded.kindContext + $0 }
        let saved = touched.map { m.at($0).pointee }
        c.encode(coded.lastSymbol == M.endSymbol, m, coded.sameKindModel)
        if coded.lastSymbol != M.endSymbol { c.encodeSymbol(M.endSymbol, bits: 6, m, coded.kindContext) }
        for (i, v) in zip(touched, saved) { m.at(i).pointee = v }
        return c.finished()
    }

    /// A value through a channel.
    private mutating func value(_ v: Int64, _ channel: M.Channel, model: Int) {
        coder.encodeValue(v, &coded.channel(channel).pointee, coded.models.table, model: model, flag: channel.rawValue)
    }

    private mutating func codeSymbol(_ symbol: Int) {
        coder.encode(symbol == coded.lastSymbol, coded.models.table, coded.sameKindModel)
        if symbol != coded.lastSymbol { coder.encodeSymbol(symbol, bits: 6, coded.models.table, coded.kindContext) }
        coded.lastSymbol = symbol
    }

    private mutating func point(_ p: ViewportPoint, _ tag: EventTag) {
        // Both coordinates inlined, on one local copy of the coder's registers.
        let m = coded.models.table
        var c = coder.core
        coder.encodeValue(p.x.raw, &coded.channel(.fingerX).pointee, m, model: M.pointModel(tag, y: false),
                          flag: M.Channel.fingerX.rawValue, &c)
        coder.encodeValue(p.y.raw, &coded.channel(.fingerY).pointee, m, model: M.pointModel(tag, y: true),
                          flag: M.Channel.fingerY.rawValue, &c)
        coder.core = c
    }
}

/// The decoding side of a version 3 batch.
struct CodedEventDecoder {
    private typealias M = CodedModels
    private var rc: RangeDecoder
    private var s: CodedState
    private(set) var isAtEnd = false
    private var items = 0
    /// `EventLimits.length`, read once rather than through its accessor at every value.
    private let maxLength = EventLimits.length.raw.magnitude

    /// A decoder of `bytes`; `empty`: one that is never used (a version 2 batch's).
    init(_ bytes: [UInt8], baseTime: Micros, empty: Bool = false) {
        rc = RangeDecoder(bytes)
        s = CodedState(time: baseTime, empty: empty)
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

    /// Set when the batch holds an item symbol this reader does not know.
    private(set) var isNewer = false

    /// The next event, or nil with `marker` saying what was read instead.
    mutating func next() throws(BinaryError) -> TimedEvent? {
        guard !isAtEnd else { return nil }
        // The registers in a local for the whole event, stored back once.
        var c = rc.core
        defer { rc.core = c }
        items += 1
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
        guard symbol < M.fingerprintSymbol, let tag = EventTag(rawValue: UInt8(truncatingIfNeeded: symbol)) else {
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
        if hasTime {
            let model = s.timeModel(timeKey)
            let residual = c.decodeInt(m, model)
            let step = s.lastStep(timeKey) &+ residual
            let time = s.time &+ step
            s.noteTime(timeKey, step: step, residual: residual, t: time)
            t = Micros(raw: time)
        }
        let event: Event
        switch tag {
        case .tap: event = .tap(try point(&c, tag))
        case .panMoved: event = .panMoved(try point(&c, tag))
        case .panBegan:
            let p = try point(&c, tag)
            let fingers = c.decodeInt(m, M.smallBase)
            guard fingers >= 0, fingers <= EventLimits.index else { throw fail(c, "finger count out of range") }
            event = .panBegan(p, fingers: Int(fingers))
        case .panEnded:
            let p: ViewportPoint? = c.decode(m, M.flagBase + M.Flag.panEndedHasPoint.rawValue) ? try point(&c, tag) : nil
            var target: Points?
            if c.decode(m, M.flagBase + M.Flag.panEndedHasTarget.rawValue) {
                target = try length(value(&c, .target, model: M.targetBase), c)
            }
            event = .panEnded(p, targetOffset: target)
        case .scroll:
            let motion: ScrollMotion?
            switch shape / 6 {
            case 1: motion = .to(try length(value(&c, .scrollTo, model: M.scrollToBase), c))
            case 2: motion = .by(try length(value(&c, .scrollBy, model: M.scrollByBase), c))
            default: motion = nil
            }
            let phase: ScrollPhase? = switch shape % 6 / 2 {
            case 1: .decelerate
            case 2: .idle
            default: nil
            }
            var target: Points?
            if shape % 2 == 1 {
                target = try length(value(&c, .target, model: M.targetBase), c)
            }
            event = .scroll(motion, phase: phase, target: target)
        case .swipeMoved:
            event = .swipeMoved(offset: try length(value(&c, .swipe, model: M.swipeBase), c))
        case .swipeEnded:
            var velocity: Points?
            if c.decode(m, M.flagBase + M.Flag.swipeEndedHasVelocity.rawValue) {
                velocity = try length(c.decodeInt(m, M.velocityBase), c)
            }
            event = .swipeEnded(velocity: velocity)
        case .tick: event = .tick
        case .panCancelled: event = .panCancelled
        case .selectAll: event = .selectAll
        case .deselectAll: event = .deselectAll
        case .undo: event = .undo
        case .redo: event = .redo
        default:
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
        return TimedEvent(event, t: t)
    }

    /// A value through a channel.
    private func value(_ c: inout RangeDecoderCore, _ channel: M.Channel, model: Int) -> Int64 {
        c.decodeValue(&s.channel(channel).pointee, s.models.table, model: model, flag: channel.rawValue)
    }

    private func length(_ raw: Int64, _ c: RangeDecoderCore) throws(BinaryError) -> Points {
        guard raw.magnitude <= maxLength else { throw fail(c, "length out of range") }
        return Points(raw: raw)
    }

    private func point(_ c: inout RangeDecoderCore, _ tag: EventTag) throws(BinaryError) -> ViewportPoint {
        // Both coordinates inlined, on a local copy of the registers.
        var r = c
        let m = s.models.table
        let x = r.decodeValueInline(&s.channel(.fingerX).pointee, m, model: M.pointModel(tag, y: false), flag: M.Channel.fingerX.rawValue)
        let y = r.decodeValueInline(&s.channel(.fingerY).pointee, m, model: M.pointModel(tag, y: true), flag: M.Channel.fingerY.rawValue)
        c = r
        guard x.magnitude <= maxLength, y.magnitude <= maxLength else {
            throw fail(c, "position out of range")
        }
        return ViewportPoint(x: Points(raw: x), y: Points(raw: y))
    }
}
