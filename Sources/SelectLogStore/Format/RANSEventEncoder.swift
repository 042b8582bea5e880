import SelectLog

/// The encoding side of a rANS-format batch (RANSEvents.swift): events become a list of
/// steps, symbols under contexts and raw bits, as they are appended; `seal(with:)` codes
/// the list under the window's tables. Counting the symbols as they come gives the tables
/// of the window after (a recorder) or, with every batch of a window listed before any is
/// sealed, of the window itself (`compact`).
struct RANSEventEncoder {
    private typealias C = RANSContexts
    private typealias M = CodedModels
    /// The predictions (format 6's; its models are not used).
    private var coded: CodedState
    /// For rare events' bodies (`BinaryEventEncoder.encodeFields`).
    private var fields = BinaryEventEncoder(baseTime: Micros(raw: 0))
    /// The batch so far: a symbol as context << 16 | symbol, raw bits as 1 << 63 | count
    /// << 56 | value (at most 56 bits).
    private var steps: [UInt64] = []
    /// Symbols counted since `takeCounts()`, laid out by `RANSContexts.countOffsets`.
    private(set) var counts: [UInt32]

    init(baseTime: Micros, thirds: Bool = true) {
        coded = CodedState(time: baseTime, thirds: thirds)
        counts = [UInt32](repeating: 0, count: C.countOffsets[C.count])
    }

    /// Starts a window: fresh predictions from `baseTime` (the counts go on).
    mutating func reset(baseTime: Micros) {
        coded.reset(time: baseTime)
        steps.removeAll(keepingCapacity: true)
    }

    /// The counts so far, and zero from here.
    mutating func takeCounts() -> [UInt32] {
        defer { counts = [UInt32](repeating: 0, count: counts.count) }
        return counts
    }

    // MARK: Steps

    @inline(__always)
    private mutating func symbol(_ s: Int, _ context: Int) {
        steps.append(UInt64(context) << 16 | UInt64(s))
        counts[C.countOffsets[context] + s] &+= 1
    }

    @inline(__always)
    private mutating func raw(_ value: UInt64, bits: Int) {
        guard bits > 0 else { return }
        if bits > 56 {
            raw(value, bits: 32)
            raw(value >> 32, bits: bits - 32)
            return
        }
        steps.append(1 << 63 | UInt64(bits) << 56 | value & (1 << UInt64(bits) &- 1))
    }

    /// An integer as its class under `context` and its raw bits (`IntegerClass.split`).
    private mutating func integer(_ v: Int64, _ context: Int) {
        let c = IntegerClass.split(v)
        symbol(c.symbol, context)
        if let long = c.longLength { raw(UInt64(long), bits: 6) }
        raw(c.low, bits: c.lowBits)
    }

    // MARK: Items

    /// The item's kind and time flag, under the item before it.
    private mutating func head(_ itemSymbol: Int, hasTime: Bool) {
        symbol(itemSymbol * 2 + (hasTime ? 1 : 0), C.head + Swift.min(coded.lastSymbol, C.headContexts - 1))
        coded.lastSymbol = itemSymbol
        coded.lastHasTime = hasTime
    }

    /// The time step's residual under the time key `key`, as format 6 predicts it.
    private mutating func time(_ t: Micros, key: Int) {
        let step = t.raw &- coded.time
        let residual = step &- coded.lastStep(key)
        integer(residual, C.time + M.timeGroup(key) * 3 + Int(coded.models.lastSign[key & 63]))
        coded.noteTime(key, step: step, residual: residual, t: t.raw)
    }

    /// A value through its channel: on the grid, one class in `context`; off it, the
    /// `offGrid` symbol and its class under `RANSContexts.offGrid`.
    private mutating func value(_ v: Int64, _ channel: UnsafeMutablePointer<CodedChannel>, _ context: Int) {
        let prediction = channel.pointee.prediction
        let r = v &- prediction
        let grid = channel.pointee.grid
        if grid > 0 {
            if r & ((1 &<< Int64(grid)) &- 1) != 0 {
                symbol(C.offGridSymbol, context)
                integer(r, C.offGrid)
            } else {
                integer(r &>> Int64(grid), context)
            }
        } else if channel.pointee.thirds {
            if !ThirdsGrid.isThird(v) {
                symbol(C.offGridSymbol, context)
                integer(r, C.offGrid)
            } else {
                integer(ThirdsGrid.third(v) &- ThirdsGrid.third(prediction), context)
            }
        } else {
            integer(r, context)
        }
        channel.pointee.update(v)
    }

    private mutating func point(_ p: ViewportPoint, _ tag: EventTag) {
        let k = M.fingerKind(tag)
        value(p.x.raw, coded.channel(.fingerX), C.point + 2 * k)
        value(p.y.raw, coded.channel(.fingerY), C.point + 2 * k + 1)
    }

    private mutating func flag(_ on: Bool, _ f: M.Flag) { symbol(on ? 1 : 0, C.flag + f.rawValue) }

    /// Appends an event (one that passed `TimedEvent.validate()`).
    mutating func append(_ timed: TimedEvent) {
        let tag = BinaryEventEncoder.tag(of: timed.event)
        if case .scroll = timed.event {} else {
            head(Int(tag.rawValue), hasTime: timed.t != nil)
            if let t = timed.t { time(t, key: Int(tag.rawValue)) }
        }
        switch timed.event {
        case .panMoved(let p), .tap(let p):
            point(p, tag)
        case .tick, .panCancelled, .selectAll, .deselectAll, .undo, .redo:
            break
        case .scroll(let motion, let phase, let target):
            scroll(motion, phase, target, timed.t)
        case .swipeMoved(let offset):
            value(offset.raw, coded.channel(.swipe), C.swipe)
        case .panBegan(let p, let fingers):
            point(p, .panBegan)
            integer(Int64(fingers), C.small)
        case .panEnded(let p, let target):
            flag(p != nil, .panEndedHasPoint)
            if let p { point(p, .panEnded) }
            flag(target != nil, .panEndedHasTarget)
            if let target { value(target.raw, coded.channel(.target), C.target) }
        case .swipeEnded(let velocity):
            flag(velocity != nil, .swipeEndedHasVelocity)
            if let velocity { integer(velocity.raw, C.velocity) }
        default:
            // Rarer events: their version 2 fields, as bytes.
            fields.body.removeAll()
            fields.encodeFields(timed.event)
            integer(Int64(fields.body.count), C.length)
            for b in fields.body.bytes { symbol(Int(b), C.bytes) }
        }
    }

    private mutating func scroll(_ motion: ScrollMotion?, _ phase: ScrollPhase?, _ target: Points?, _ t: Micros?) {
        head(Int(EventTag.scroll.rawValue), hasTime: t != nil)
        let shape = M.scrollShape(motion, phase, hasTarget: target != nil)
        symbol(shape, C.shape + coded.lastScrollShape)
        coded.lastScrollShape = shape
        if let t { time(t, key: M.scrollTimeKey(shape)) }
        switch motion {
        case nil: break
        case .to(let y)?: value(y.raw, coded.channel(.scrollTo), C.scrollTo)
        case .by(let dy)?: value(dy.raw, coded.channel(.scrollBy), C.scrollBy)
        }
        if let target { value(target.raw, coded.channel(.target), C.target) }
    }

    /// Appends a gesture fingerprint: its head and 32 raw bits.
    mutating func appendFingerprint(_ value: UInt32) {
        head(M.fingerprintSymbol, hasTime: false)
        raw(UInt64(value), bits: 32)
    }

    /// Ends the batch: its end symbol, then the steps coded under `tables`. The bytes: the
    /// rANS stream's length (a varint), the stream, the raw bits. The predictions go on
    /// into the window's next batch.
    mutating func seal(with tables: RANSTables) -> [UInt8] {
        head(M.endSymbol, hasTime: false)
        var rans = RANSEncoder(capacity: steps.count)
        var bits = BitWriter()
        tables.tables.withUnsafeBufferPointer { t in
            for step in steps {
                if step >> 63 == 0 {
                    t[Int(step >> 16)].encode(Int(step & 0xFFFF), into: &rans, raw: &bits)
                } else {
                    bits.write(step, bits: Int(step >> 56 & 63))
                }
            }
        }
        steps.removeAll(keepingCapacity: true)
        let stream = rans.finished()
        var out = BinaryWriter(capacity: stream.count + bits.bitCount / 8 + 8)
        out.varint(stream.count)
        out.append(stream)
        out.append(bits.finished())
        return out.bytes
    }
}
