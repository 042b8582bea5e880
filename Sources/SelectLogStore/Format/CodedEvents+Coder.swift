import SelectLog

// Format version 3: the event coder on both sides. The order of decisions here is the
// format; docs/LOG-FORMAT.md, "Coded batches", lists it.

extension BinaryEventEncoder {
    private typealias M = CodedModels

    mutating func appendCoded(_ timed: TimedEvent) {
        let tag = BinaryEventEncoder.tag(of: timed.event)
        let symbol = Int(tag.rawValue)
        codeSymbol(symbol)
        coder.encode(timed.t != nil, &coded.models.p[M.hasTimeBase])
        var timeKey = symbol
        if case .scroll(let motion, let phase, let target) = timed.event {
            let m: Int
            switch motion {
            case nil: m = 0
            case .to?: m = 1
            case .by?: m = 2
            }
            let shape = M.scrollShape(motion: m, phase: phase == nil ? 0 : (phase == .decelerate ? 1 : 2), hasTarget: target != nil)
            coder.encodeSymbol(shape, bits: 5, &coded.models.p, M.scrollShapeBase + coded.lastScrollShape * 32)
            coded.lastScrollShape = shape
            timeKey = M.scrollTimeKey(shape)
        }
        if let t = timed.t {
            let step = t.raw &- coded.time
            let residual = step &- coded.lastStep[timeKey]
            let model = coded.timeModel(timeKey)
            coder.encodeInt(residual, &coded.models.p, model)
            coded.noteTime(timeKey, step: step, residual: residual, t: t.raw)
        }
        switch timed.event {
        case .tap(let p), .panMoved(let p):
            point(p, tag)
        case .panBegan(let p, let fingers):
            point(p, tag)
            coder.encodeInt(Int64(fingers), &coded.models.p, M.smallBase)
        case .panEnded(let p, let target):
            coder.encode(p != nil, &coded.models.p[M.flagBase + M.Flag.panEndedHasPoint.rawValue])
            if let p { point(p, tag) }
            coder.encode(target != nil, &coded.models.p[M.flagBase + M.Flag.panEndedHasTarget.rawValue])
            if let target { coder.encodeValue(target.raw, &coded.target, &coded.models.p, model: M.targetBase, flag: M.Channel.target.rawValue) }
        case .scroll(let motion, _, let target):
            switch motion {
            case nil: break
            case .to(let y)?: coder.encodeValue(y.raw, &coded.scrollTo, &coded.models.p, model: M.scrollToBase, flag: M.Channel.scrollTo.rawValue)
            case .by(let dy)?: coder.encodeValue(dy.raw, &coded.scrollBy, &coded.models.p, model: M.scrollByBase, flag: M.Channel.scrollBy.rawValue)
            }
            if let target { coder.encodeValue(target.raw, &coded.target, &coded.models.p, model: M.targetBase, flag: M.Channel.target.rawValue) }
        case .swipeMoved(let offset):
            coder.encodeValue(offset.raw, &coded.swipe, &coded.models.p, model: M.swipeBase, flag: M.Channel.swipe.rawValue)
        case .swipeEnded(let velocity):
            coder.encode(velocity != nil, &coded.models.p[M.flagBase + M.Flag.swipeEndedHasVelocity.rawValue])
            if let velocity { coder.encodeInt(velocity.raw, &coded.models.p, M.velocityBase) }
        case .tick, .panCancelled, .selectAll, .deselectAll, .undo, .redo:
            break
        default:
            // Rarer events: their version 2 fields, as bytes.
            body.removeAll()
            encodeFields(timed.event)
            coder.encodeInt(Int64(body.count), &coded.models.p, M.lengthBase)
            for b in body.bytes { coder.encodeSymbol(Int(b), bits: 8, &coded.models.p, M.byteBase) }
        }
    }

    mutating func appendCodedFingerprint(_ value: UInt32) {
        codeSymbol(M.fingerprintSymbol)
        coder.encodeDirect(UInt64(value), count: 32)
    }

    /// The batch's coded bytes: the end symbol and the flush, on copies.
    func finishedCoded() -> [UInt8] {
        var c = coder
        var p = coded.models.p
        c.encodeSymbol(M.endSymbol, bits: 6, &p, coded.kindContext)
        return c.finished()
    }

    private mutating func codeSymbol(_ symbol: Int) {
        let context = coded.kindContext
        coder.encodeSymbol(symbol, bits: 6, &coded.models.p, context)
        coded.lastSymbol = symbol
    }

    private mutating func point(_ p: ViewportPoint, _ tag: EventTag) {
        coder.encodeValue(p.x.raw, &coded.fingerX, &coded.models.p, model: M.pointModel(tag, y: false), flag: M.Channel.fingerX.rawValue)
        coder.encodeValue(p.y.raw, &coded.fingerY, &coded.models.p, model: M.pointModel(tag, y: true), flag: M.Channel.fingerY.rawValue)
    }
}

/// The decoding side of a version 3 batch.
struct CodedEventDecoder {
    private typealias M = CodedModels
    private var rc: RangeDecoder
    private var s: CodedState
    private(set) var isAtEnd = false
    private var items = 0

    init(_ bytes: [UInt8], baseTime: Micros) {
        rc = RangeDecoder(bytes)
        s = CodedState(time: baseTime)
    }

    var position: Int { rc.position }

    private func fail(_ reason: String) -> BinaryError { BinaryError(offset: rc.position, reason: reason) }

    /// The next event, decoded with `fields` for the kinds that are coded as bytes.
    mutating func next(isNewer: inout Bool,
                       fields: (EventTag, inout BinaryReader) throws(BinaryError) -> Event) throws(BinaryError) -> BinaryEventDecoder.Item? {
        guard !isAtEnd else { return nil }
        items += 1
        guard items <= LogFormat.Limits.batchEvents * 2 else { throw fail("batch holds more items than the format allows") }
        let context = s.kindContext
        let symbol = rc.decodeSymbol(bits: 6, &s.models.p, context)
        s.lastSymbol = symbol
        if symbol == M.endSymbol {
            isAtEnd = true
            if rc.overran { throw fail("coded batch runs past its end") }
            return nil
        }
        if symbol == M.fingerprintSymbol {
            let v = UInt32(truncatingIfNeeded: rc.decodeDirect(count: 32))
            if rc.overran { throw fail("coded batch runs past its end") }
            return .gestureFingerprint(v)
        }
        guard let tag = EventTag(rawValue: UInt8(symbol)), symbol < M.fingerprintSymbol else {
            isNewer = true
            throw fail("unknown event type \(symbol): written by a newer selectlog")
        }
        let hasTime = rc.decode(&s.models.p[M.hasTimeBase])
        var timeKey = symbol
        var shape = 0
        if tag == .scroll {
            shape = rc.decodeSymbol(bits: 5, &s.models.p, M.scrollShapeBase + s.lastScrollShape * 32)
            guard shape < M.scrollShapes else { throw fail("bad scroll shape \(shape)") }
            s.lastScrollShape = shape
            timeKey = M.scrollTimeKey(shape)
        }
        var t: Micros?
        if hasTime {
            let model = s.timeModel(timeKey)
            let residual = rc.decodeInt(&s.models.p, model)
            let step = s.lastStep[timeKey] &+ residual
            let time = s.time &+ step
            s.noteTime(timeKey, step: step, residual: residual, t: time)
            t = Micros(raw: time)
        }
        let event: Event
        switch tag {
        case .tap: event = .tap(try point(tag))
        case .panMoved: event = .panMoved(try point(tag))
        case .panBegan:
            let p = try point(tag)
            let fingers = rc.decodeInt(&s.models.p, M.smallBase)
            guard fingers >= 0, fingers <= EventLimits.index else { throw fail("finger count out of range") }
            event = .panBegan(p, fingers: Int(fingers))
        case .panEnded:
            let p: ViewportPoint? = rc.decode(&s.models.p[M.flagBase + M.Flag.panEndedHasPoint.rawValue]) ? try point(tag) : nil
            var target: Points?
            if rc.decode(&s.models.p[M.flagBase + M.Flag.panEndedHasTarget.rawValue]) {
                target = try length(rc.decodeValue(&s.target, &s.models.p, model: M.targetBase, flag: M.Channel.target.rawValue))
            }
            event = .panEnded(p, targetOffset: target)
        case .scroll:
            let motion: ScrollMotion?
            switch shape / 6 {
            case 1: motion = .to(try length(rc.decodeValue(&s.scrollTo, &s.models.p, model: M.scrollToBase, flag: M.Channel.scrollTo.rawValue)))
            case 2: motion = .by(try length(rc.decodeValue(&s.scrollBy, &s.models.p, model: M.scrollByBase, flag: M.Channel.scrollBy.rawValue)))
            default: motion = nil
            }
            let phase: ScrollPhase? = switch shape % 6 / 2 {
            case 1: .decelerate
            case 2: .idle
            default: nil
            }
            var target: Points?
            if shape % 2 == 1 {
                target = try length(rc.decodeValue(&s.target, &s.models.p, model: M.targetBase, flag: M.Channel.target.rawValue))
            }
            event = .scroll(motion, phase: phase, target: target)
        case .swipeMoved:
            event = .swipeMoved(offset: try length(rc.decodeValue(&s.swipe, &s.models.p, model: M.swipeBase, flag: M.Channel.swipe.rawValue)))
        case .swipeEnded:
            var velocity: Points?
            if rc.decode(&s.models.p[M.flagBase + M.Flag.swipeEndedHasVelocity.rawValue]) {
                velocity = try length(rc.decodeInt(&s.models.p, M.velocityBase))
            }
            event = .swipeEnded(velocity: velocity)
        case .tick: event = .tick
        case .panCancelled: event = .panCancelled
        case .selectAll: event = .selectAll
        case .deselectAll: event = .deselectAll
        case .undo: event = .undo
        case .redo: event = .redo
        default:
            let n = rc.decodeInt(&s.models.p, M.lengthBase)
            guard n >= 0, n <= LogFormat.Limits.payloadBytes else { throw fail("event of \(n) bytes, over the format's limit") }
            var bytes: [UInt8] = []
            for i in 0..<Int(n) {
                bytes.append(UInt8(rc.decodeSymbol(bits: 8, &s.models.p, M.byteBase)))
                if i & 63 == 63, rc.overran { throw fail("coded batch runs past its end") }
            }
            var r = BinaryReader(bytes)
            event = try fields(tag, &r)
            guard r.isAtEnd else {
                isNewer = true
                throw fail("\(event.typeName) has \(r.remaining) bytes of fields this reader does not know: written by a newer selectlog")
            }
        }
        if rc.overran { throw fail("coded batch runs past its end") }
        return .event(TimedEvent(event, t: t))
    }

    private func length(_ raw: Int64) throws(BinaryError) -> Points {
        guard raw.magnitude <= EventLimits.length.raw.magnitude else { throw fail("length out of range") }
        return Points(raw: raw)
    }

    private mutating func point(_ tag: EventTag) throws(BinaryError) -> ViewportPoint {
        let x = rc.decodeValue(&s.fingerX, &s.models.p, model: M.pointModel(tag, y: false), flag: M.Channel.fingerX.rawValue)
        let y = rc.decodeValue(&s.fingerY, &s.models.p, model: M.pointModel(tag, y: true), flag: M.Channel.fingerY.rawValue)
        guard x.magnitude <= EventLimits.length.raw.magnitude, y.magnitude <= EventLimits.length.raw.magnitude else {
            throw fail("position out of range")
        }
        return ViewportPoint(x: Points(raw: x), y: Points(raw: y))
    }
}
