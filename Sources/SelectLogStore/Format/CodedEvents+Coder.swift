import SelectLog

// Format version 3: the event coder's encoding side (CodedEventDecoder.swift decodes).
// The order of decisions here is the format; docs/LOG-FORMAT.md, "Coded batches", lists it.
//
// The coder's registers are copied into a local `c` once per event and passed down by
// `inout` to functions inlined into `appendCoded`, so they stay in registers; what is
// out of line (a new item kind, a nonzero integer, normalizing) takes and returns them
// by value.

extension BinaryEventEncoder {
    private typealias M = CodedModels
    private typealias Registers = RangeEncoder.EncoderCore

    /// Inlined into `append`, its one caller, so an event costs one call, not two.
    @inline(__always)
    mutating func appendCoded(_ timed: TimedEvent) {
        var c = coder.core
        // The common events first, each with its kind and time inlined; the rest share one path.
        switch timed.event {
        case .panMoved(let p):
            head(.panMoved, timed.t, &c)
            c = point(p, model: M.pointModel(.panMoved, y: false), c)
        case .tick:
            head(.tick, timed.t, &c)
        case .scroll(let motion, let phase, let target):
            c = scroll(motion, phase, target, timed.t, c)
        case .swipeMoved(let offset):
            head(.swipeMoved, timed.t, &c)
            c = value(offset.raw, .swipe, model: M.swipeBase, c)
        case .tap(let p):
            head(.tap, timed.t, &c)
            c = point(p, model: M.pointModel(.tap, y: false), c)
        case .panBegan(let p, let fingers):
            head(.panBegan, timed.t, &c)
            c = point(p, model: M.pointModel(.panBegan, y: false), c)
            coder.encodeInt(Int64(fingers), coded.models.table, M.smallBase, &c)
        case .panEnded(let p, let target):
            head(.panEnded, timed.t, &c)
            c = panEnded(p, target, c)
        case .swipeEnded(let velocity):
            head(.swipeEnded, timed.t, &c)
            let m = coded.models.table
            coder.encode(velocity != nil, m.at(M.flagBase + M.Flag.swipeEndedHasVelocity.rawValue), &c)
            if let velocity { coder.encodeInt(velocity.raw, m, M.velocityBase, &c) }
        case .panCancelled, .selectAll, .deselectAll, .undo, .redo:
            head(BinaryEventEncoder.tag(of: timed.event), timed.t, &c)
        default:
            // Rarer events: their version 2 fields, as bytes.
            head(BinaryEventEncoder.tag(of: timed.event), timed.t, &c)
            coder.core = c
            body.removeAll()
            encodeFields(timed.event)
            let m = coded.models.table
            coder.encodeInt(Int64(body.count), m, M.lengthBase)
            for b in body.bytes { coder.encodeSymbol(Int(b), bits: 8, m, M.byteBase) }
            c = coder.core
        }
        coder.core = c
    }

    /// An event's symbol and time, for every kind but `scroll` (whose shape comes between).
    @inline(__always)
    private mutating func head(_ tag: EventTag, _ t: Micros?, _ c: inout Registers) {
        let m = coded.models.table
        kind(Int(tag.rawValue), hasTime: t != nil, m, &c)
        if let t { time(t, key: Int(tag.rawValue), m, &c) }
    }

    /// One decision for the common case: the same kind as the item before, timed as the
    /// event before was; else the kind's tree and the time flag.
    @inline(__always)
    private mutating func kind(_ symbol: Int, hasTime: Bool, _ m: ModelTable, _ c: inout Registers) {
        let same = symbol == coded.lastSymbol && hasTime == coded.lastHasTime
        coder.encode(same, m.at(coded.sameKindModel), &c)
        if !same { c = newKind(symbol, hasTime: hasTime, c) }
        coded.lastSymbol = symbol
        coded.lastHasTime = hasTime
    }

    /// The kind's tree and the time flag (the symbol is not yet the last one).
    @inline(never)
    private mutating func newKind(_ symbol: Int, hasTime: Bool, _ c: Registers) -> Registers {
        var c = c
        let m = coded.models.table
        coder.encodeTree6(symbol, m, coded.kindContext, &c)
        coder.encode(hasTime, m.at(M.hasTimeBase), &c)
        return c
    }

    /// The time step's residual under the time key `key`.
    @inline(__always)
    private mutating func time(_ t: Micros, key: Int, _ m: ModelTable, _ c: inout Registers) {
        let step = t.raw &- coded.time
        let residual = step &- coded.lastStep(key)
        coder.encodeInt(residual, m, coded.timeModel(key), &c)
        // `CodedState.noteTime`, with the residual's sign (0 zero, 1 plus, 2 minus) made
        // without branches: 1 for nonzero, and 1 more for negative.
        let models = coded.models
        models.lastStep[key & 63] = step
        models.lastSign[key & 63] = UInt8(truncatingIfNeeded: UInt64(bitPattern: residual) &>> 63) &+ (residual != 0 ? 1 : 0)
        coded.time = t.raw
    }

    /// A scroll: its kind, its shape, its time, its fields.
    @inline(never)
    private mutating func scroll(_ motion: ScrollMotion?, _ phase: ScrollPhase?, _ target: Points?, _ t: Micros?,
                                 _ c: Registers) -> Registers {
        var c = c
        let m = coded.models.table
        kind(Int(EventTag.scroll.rawValue), hasTime: t != nil, m, &c)
        let shape = M.scrollShape(motion, phase, hasTarget: target != nil)
        let last = coded.lastScrollShape
        coder.encode(shape == last, m.at(M.sameShapeBase + last), &c)
        if shape != last { coder.encodeTree5(shape, m, M.scrollShapeBase &+ last &* 32, &c) }
        coded.lastScrollShape = shape
        if let t { time(t, key: M.scrollTimeKey(shape), m, &c) }
        switch motion {
        case nil: break
        case .to(let y)?: c = value(y.raw, .scrollTo, model: M.scrollToBase, c)
        case .by(let dy)?: c = value(dy.raw, .scrollBy, model: M.scrollByBase, c)
        }
        if let target { c = value(target.raw, .target, model: M.targetBase, c) }
        return c
    }

    /// A `panEnded`'s fields.
    @inline(never)
    private mutating func panEnded(_ p: ViewportPoint?, _ target: Points?, _ c: Registers) -> Registers {
        var c = c
        let m = coded.models.table
        coder.encode(p != nil, m.at(M.flagBase + M.Flag.panEndedHasPoint.rawValue), &c)
        if let p { c = point(p, model: M.pointModel(.panEnded, y: false), c) }
        coder.encode(target != nil, m.at(M.flagBase + M.Flag.panEndedHasTarget.rawValue), &c)
        if let target { c = value(target.raw, .target, model: M.targetBase, c) }
        return c
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
    @inline(never)
    private mutating func value(_ v: Int64, _ channel: M.Channel, model: Int, _ c: Registers) -> Registers {
        var c = c
        coder.encodeValue(v, coded.channel(channel), coded.models.table, model: model, flag: channel.rawValue,
                          inlinesNonzero: true, &c)
        return c
    }

    /// An item symbol that is not an event (the end, a fingerprint): no time flag.
    private mutating func codeSymbol(_ symbol: Int) {
        var c = coder.core
        let m = coded.models.table
        coder.encode(symbol == coded.lastSymbol, m.at(coded.sameKindModel), &c)
        if symbol != coded.lastSymbol { coder.encodeTree6(symbol, m, coded.kindContext, &c) }
        coded.lastSymbol = symbol
        coder.core = c
    }

    /// A finger position: x then y, each through its channel; `model` is x's integer model, y's follows it.
    /// (One coordinate in a loop of two: inlined once, where two copies would not be.)
    @inline(never)
    private mutating func point(_ p: ViewportPoint, model: Int, _ c: Registers) -> Registers {
        var c = c
        let m = coded.models.table
        var v = p.x.raw
        for k in 0..<2 {
            coder.encodeValue(v, coded.channel(fingerCoordinate: k), m, model: model &+ k &* M.intSize,
                              flag: M.Channel.fingerX.rawValue &+ k, inlinesNonzero: false, &c)
            v = p.y.raw
        }
        return c
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

    /// `encodeInt` on the registers `c`: a zero (one decision) inline, any other value out of line.
    @inline(__always)
    mutating func encodeInt(_ v: Int64, _ m: ModelTable, _ base: Int, _ c: inout EncoderCore) {
        if v == 0 {
            encode(known: false, m.at(base), &c)
        } else {
            c = encodeNonzero(v, m, base, c)
        }
    }

    /// A nonzero integer under the model at `base`: nonzero, sign, bit length, the bit
    /// below the leading one, the rest as direct bits.
    @inline(never)
    mutating func encodeNonzero(_ v: Int64, _ m: ModelTable, _ base: Int, _ c: EncoderCore) -> EncoderCore {
        var c = c
        encodeNonzeroInline(v, m, base, &c)
        return c
    }

    /// `encodeInt` with a nonzero integer coded inline, for `value` (scroll offsets and
    /// deltas, targets, swipes), whose values are seldom zero: it saves the call, about 12
    /// instructions an event on the random walks. `point` keeps the call: its standard
    /// session's coordinates are mostly zero, and the inlined code cost their path more
    /// than the calls saved (8 instructions an event).
    @inline(__always)
    mutating func encodeIntInline(_ v: Int64, _ m: ModelTable, _ base: Int, _ c: inout EncoderCore) {
        if v == 0 {
            encode(known: false, m.at(base), &c)
        } else {
            encodeNonzeroInline(v, m, base, &c)
        }
    }

    /// `encodeNonzero`'s decisions.
    @inline(__always)
    mutating func encodeNonzeroInline(_ v: Int64, _ m: ModelTable, _ base: Int, _ c: inout EncoderCore) {
        encode(known: true, m.at(base), &c)
        encode(v < 0, m.at(base &+ 1), &c)
        let mag = v.magnitude
        let tree = base &+ 2
        if mag == 1 {
            // The commonest: bit length 1, whose four tree decisions are 0s (nodes 1, 2, 4, 8), and nothing after.
            encode(known: false, m.at(tree &+ 1), &c)
            encode(known: false, m.at(tree &+ 2), &c)
            encode(known: false, m.at(tree &+ 4), &c)
            encode(known: false, m.at(tree &+ 8), &c)
            return
        }
        let n = 64 &- mag.leadingZeroBitCount            // 2...64
        // The bit length less one (15 for 16 or more), a 4-level tree under base + 2, unrolled.
        let s = Swift.min(n &- 1, 15)
        encode(s & 8 != 0, m.at(tree &+ 1), &c)
        encode(s & 4 != 0, m.at(tree &+ (2 | s &>> 3)), &c)
        encode(s & 2 != 0, m.at(tree &+ (4 | s &>> 2)), &c)
        encode(s & 1 != 0, m.at(tree &+ (8 | s &>> 1)), &c)
        if n >= 16 { c = longLength(n, m, c) }
        if n <= 16 {
            encode((mag &>> UInt64(n &- 2)) & 1 != 0, m.at(base &+ 16 &+ n), &c)
            encodeDirect(mag, count: n &- 2, &c)
        } else {
            encodeDirect(mag, count: n &- 1, &c)
        }
    }

    /// A bit length of 16 or more, less 16, under the long-length tree.
    @inline(never)
    private mutating func longLength(_ n: Int, _ m: ModelTable, _ c: EncoderCore) -> EncoderCore {
        var c = c
        encodeTree6(n &- 16, m, CodedModels.longLengthBase, &c)
        return c
    }

    /// A value of the channel at `channel`, predicted; `flag` is the channel's grid-flag model.
    /// `inlinesNonzero`: a nonzero integer is coded here (`encodeIntInline`), not by a call.
    @inline(__always)
    mutating func encodeValue(_ v: Int64, _ channel: UnsafeMutablePointer<CodedChannel>, _ m: ModelTable, model: Int, flag: Int,
                              inlinesNonzero: Bool, _ c: inout EncoderCore) {
        let prediction = channel.pointee.prediction
        let r = v &- prediction
        let grid = channel.pointee.grid
        var coded = r, base = model
        if grid > 0 {
            let off = r & ((1 &<< Int64(grid)) &- 1) != 0
            encode(off, m.at(CodedModels.gridFlagBase &+ flag), &c)
            if off { base = CodedModels.offGridBase } else { coded = r &>> Int64(grid) }
        } else if channel.pointee.thirds {
            // Version 6: a third, as the number of thirds from the prediction's nearest.
            let off = !RangeEncoder.isThird(v)
            encode(off, m.at(CodedModels.gridFlagBase &+ flag), &c)
            if off { base = CodedModels.offGridBase } else { coded = ThirdsGrid.third(v) &- ThirdsGrid.third(prediction) }
        }
        if inlinesNonzero { encodeIntInline(coded, m, base, &c) } else { encodeInt(coded, m, base, &c) }
        channel.pointee.update(v)
    }

    /// `ThirdsGrid.isThird(v)`, without its division by 6: the thirds of a point are
    /// 64a + 0, 21 and 43 in 1/64 pt, so `v` is one when its remainder mod 64 is one of
    /// those. That holds while 3v does not wrap; past 2^60 (only scroll offsets get
    /// there) the grid's own test answers. It made encoding the standard session
    /// and the 3x random walk about 10 instructions an event cheaper (callgrind).
    @inline(__always)
    static func isThird(_ v: Int64) -> Bool {
        guard UInt64(bitPattern: v &+ (1 << 60)) < 1 << 61 else { return ThirdsGrid.isThird(v) }
        return (thirdRemainders &>> UInt64(v & 63)) & 1 != 0
    }

    /// Bits 0, 21 and 43: the remainders mod 64 of the thirds of a point.
    static let thirdRemainders: UInt64 = 1 | 1 << 21 | 1 << 43

    /// A 6-bit tree-coded symbol under the tree at `base` (`encodeSymbol` with 6 bits, unrolled).
    @inline(__always)
    mutating func encodeTree6(_ s: Int, _ m: ModelTable, _ base: Int, _ c: inout EncoderCore) {
        encode(s & 32 != 0, m.at(base &+ 1), &c)
        encode(s & 16 != 0, m.at(base &+ (2 | s &>> 5)), &c)
        encode(s & 8 != 0, m.at(base &+ (4 | s &>> 4)), &c)
        encode(s & 4 != 0, m.at(base &+ (8 | s &>> 3)), &c)
        encode(s & 2 != 0, m.at(base &+ (16 | s &>> 2)), &c)
        encode(s & 1 != 0, m.at(base &+ (32 | s &>> 1)), &c)
    }

    /// A 5-bit tree-coded symbol under the tree at `base` (`encodeSymbol` with 5 bits, unrolled).
    @inline(__always)
    mutating func encodeTree5(_ s: Int, _ m: ModelTable, _ base: Int, _ c: inout EncoderCore) {
        encode(s & 16 != 0, m.at(base &+ 1), &c)
        encode(s & 8 != 0, m.at(base &+ (2 | s &>> 4)), &c)
        encode(s & 4 != 0, m.at(base &+ (4 | s &>> 3)), &c)
        encode(s & 2 != 0, m.at(base &+ (8 | s &>> 2)), &c)
        encode(s & 1 != 0, m.at(base &+ (16 | s &>> 1)), &c)
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
