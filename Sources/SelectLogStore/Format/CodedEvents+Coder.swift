import SelectLog

// Format version 3: the event coder's encoding side (CodedEventDecoder.swift decodes).
// The order of decisions here is the format; docs/LOG-FORMAT.md, "Coded batches", lists it.

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

extension RangeEncoder {
    @inline(__always)
    mutating func encode(_ bit: Bool, _ m: ModelTable, _ i: Int) { encode(bit, &m.at(i).pointee) }

    /// A signed integer under the model at `base`.
    mutating func encodeInt(_ v: Int64, _ m: ModelTable, _ base: Int) {
        var c = core
        encodeInt(v, m, base, &c)
        core = c
    }

    /// `encodeInt` on the registers `c`.
    @inline(__always)
    mutating func encodeInt(_ v: Int64, _ m: ModelTable, _ base: Int, _ c: inout EncoderCore) {
        encode(v != 0, m.at(base), &c)
        if v == 0 { return }
        encode(v < 0, m.at(base &+ 1), &c)
        let mag = v.magnitude
        let n = 64 &- mag.leadingZeroBitCount            // 1...64
        encodeSymbol(Swift.min(n &- 1, 15), bits: 4, m, base &+ 2, &c)
        if n >= 16 { encodeSymbol(n &- 16, bits: 6, m, CodedModels.longLengthBase, &c) }
        if n >= 2 {
            if n <= 16 {
                encode((mag &>> UInt64(n &- 2)) & 1 != 0, m.at(base &+ 16 &+ n), &c)
                if n >= 3 { encodeDirect(mag, count: n &- 2, &c) }
            } else {
                encodeDirect(mag, count: n &- 1, &c)
            }
        }
    }

    /// A value of `channel`, predicted; `flag` is the channel's grid-flag model.
    mutating func encodeValue(_ v: Int64, _ channel: inout CodedChannel, _ m: ModelTable, model: Int, flag: Int) {
        var c = core
        encodeValue(v, &channel, m, model: model, flag: flag, &c)
        core = c
    }

    /// `encodeValue` on the registers `c`, inlined into its caller (a point's two coordinates).
    @inline(__always)
    mutating func encodeValue(_ v: Int64, _ channel: inout CodedChannel, _ m: ModelTable, model: Int, flag: Int,
                              _ c: inout EncoderCore) {
        let r = v &- channel.prediction
        let grid = channel.grid
        var coded = r, base = model
        if grid > 0 {
            let off = r & ((1 &<< Int64(grid)) &- 1) != 0
            encode(off, m.at(CodedModels.gridFlagBase &+ flag), &c)
            if off { base = CodedModels.offGridBase } else { coded = r &>> Int64(grid) }
        }
        encodeInt(coded, m, base, &c)
        channel.update(v)
    }

    /// A tree-coded symbol of `bits` bits under the tree at `base`.
    mutating func encodeSymbol(_ s: Int, bits: Int, _ m: ModelTable, _ base: Int) {
        var c = core
        encodeSymbol(s, bits: bits, m, base, &c)
        core = c
    }

    /// `encodeSymbol` on the registers `c`.
    @inline(__always)
    mutating func encodeSymbol(_ s: Int, bits: Int, _ m: ModelTable, _ base: Int, _ c: inout EncoderCore) {
        var node = 1
        var i = bits
        while i > 0 {
            i &-= 1
            let bit = (s &>> i) & 1
            encode(bit != 0, m.at(base &+ node), &c)
            node = node &<< 1 | bit
        }
    }
}
