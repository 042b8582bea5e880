import SelectLog

/// A window's decoding tables (`RANSTable.fillDecoding`), one block of `RANS.total`
/// entries per context. Loading a window's tables refills only the contexts whose table
/// changed, so contexts a session never uses are filled once.
final class RANSDecodingTables: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt32>
    private var loaded: [RANSTable?] = Array(repeating: nil, count: RANSContexts.count)

    init() {
        let n = RANSContexts.count * Int(RANS.total)
        base = .allocate(capacity: n)
        base.initialize(repeating: 0, count: n)
    }

    deinit { base.deallocate() }

    func load(_ tables: RANSTables) {
        for (c, t) in tables.tables.enumerated() where loaded[c] != t {
            t.fillDecoding(base + c * Int(RANS.total))
            loaded[c] = t
        }
    }

    /// The tables last loaded.
    var current: [RANSTable?] { loaded }
}

/// The decoding side of a format 7 batch (`RANSEventEncoder`): the items in the order
/// they were coded, every value checked against `EventLimits` as format 6's decoder
/// checks it, and a batch's end checked to be where its encoder ended it.
struct RANSEventDecoder {
    private typealias C = RANSContexts
    private typealias M = CodedModels
    private let tables: RANSDecodingTables
    private var s: CodedState
    /// The batch's bytes, owned here, and the two readers into them.
    private var input = RangeInput([])
    private var rans: RANSDecoderCore
    private var raw: BitReaderCore
    private(set) var isAtEnd = true
    private var items = 0
    private let maxLength = EventLimits.length.raw.magnitude
    private let maxOffset = EventLimits.offset.raw.magnitude
    private let maxTime = EventLimits.time.raw

    /// What `next()` read when it returns nil (as `CodedEventDecoder.Marker`).
    private(set) var marker = CodedEventDecoder.Marker.end
    /// Set when the batch holds an item symbol this reader does not know.
    private(set) var isNewer = false
    /// Whether the event `next()` returned may fail `TimedEvent.validate()` (as
    /// `CodedEventDecoder.needsCheck`).
    private(set) var needsCheck = false

    /// A decoder for a window starting at `baseTime`, with the window's tables loaded in `tables`.
    init(tables: RANSDecodingTables, baseTime: Micros) {
        self.tables = tables
        s = CodedState(time: baseTime, thirds: true)
        rans = RANSDecoderCore(input.base, count: 0)
        raw = BitReaderCore(input.base, count: 0)
    }

    /// Starts a window: fresh predictions from `baseTime`.
    mutating func reset(baseTime: Micros) { s.reset(time: baseTime) }

    /// Starts on a batch of the window (its bytes as `RANSEventEncoder.seal` made them).
    mutating func start(_ bytes: [UInt8]) throws(BinaryError) {
        var r = BinaryReader(bytes)
        let declared = try r.varint()
        guard declared <= UInt64(r.remaining), declared >= 8 else {
            throw BinaryError(offset: r.offset, reason: "rANS stream of \(declared) bytes does not fit the batch")
        }
        let length = Int(declared)
        input = RangeInput(bytes)
        rans = RANSDecoderCore(input.base + r.offset, count: length)
        raw = BitReaderCore(input.base + r.offset + length, count: bytes.count - r.offset - length)
        isAtEnd = false
        items = 0
        marker = .end
    }

    private func fail(_ reason: String) -> BinaryError { BinaryError(offset: rans.position, reason: reason) }

    @inline(__always)
    private mutating func symbol(_ context: Int) throws(BinaryError) -> Int {
        let symbol = rans.decode(tables.base + context &* Int(RANS.total))
        guard symbol == RANS.escape else { return symbol }
        return try escaped(context)
    }

    /// An escaped symbol of `context`, in raw bits.
    @inline(never)
    private mutating func escaped(_ context: Int) throws(BinaryError) -> Int {
        let alphabet = C.alphabet(context)
        let symbol = Int(raw.read(bits: RANSTable.escapeBits(alphabet)))
        guard symbol < alphabet else { throw fail("escaped symbol \(symbol) past its alphabet") }
        return symbol
    }

    @inline(__always)
    private mutating func integer(_ context: Int) throws(BinaryError) -> Int64 {
        try integer(symbol: symbol(context))
    }

    @inline(__always)
    private mutating func integer(symbol: Int) throws(BinaryError) -> Int64 {
        guard symbol < IntegerClass.alphabet, let v = IntegerClass.decode(symbol, raw: &raw) else {
            throw fail("integer class \(symbol) out of range")
        }
        return v
    }

    /// A value through its channel (`RANSEventEncoder.value`).
    @inline(__always)
    private mutating func value(_ channel: UnsafeMutablePointer<CodedChannel>, _ context: Int) throws(BinaryError) -> Int64 {
        let first = try symbol(context)
        let prediction = channel.pointee.prediction
        let v: Int64
        if first == C.offGridSymbol {
            v = prediction &+ (try integer(C.offGrid))
        } else {
            let r = try integer(symbol: first)
            let grid = channel.pointee.grid
            if grid > 0 {
                v = prediction &+ r &<< Int64(grid)
            } else if channel.pointee.thirds {
                v = ThirdsGrid.sixtyFourths(third: ThirdsGrid.third(prediction) &+ r)
            } else {
                v = prediction &+ r
            }
        }
        channel.pointee.update(v)
        return v
    }

    private mutating func point(_ tag: EventTag) throws(BinaryError) -> ViewportPoint {
        let k: Int
        switch tag {
        case .tap: k = 0
        case .panBegan: k = 1
        case .panMoved: k = 2
        default: k = 3
        }
        let x = try value(s.channel(.fingerX), C.point + 2 * k)
        let y = try value(s.channel(.fingerY), C.point + 2 * k + 1)
        guard x.magnitude <= maxLength, y.magnitude <= maxLength else { throw fail("position out of range") }
        return ViewportPoint(x: Points(raw: x), y: Points(raw: y))
    }

    private func length(_ raw: Int64) throws(BinaryError) -> Points {
        guard raw.magnitude <= maxLength else { throw fail("length out of range") }
        return Points(raw: raw)
    }

    private func contentOffset(_ raw: Int64) throws(BinaryError) -> Points {
        guard raw.magnitude <= maxOffset else { throw fail("content offset out of range") }
        return Points(raw: raw)
    }

    private mutating func flag(_ f: M.Flag) throws(BinaryError) -> Bool { try symbol(C.flag + f.rawValue) != 0 }

    /// The next event, or nil with `marker` saying what was read instead.
    mutating func next() throws(BinaryError) -> TimedEvent? {
        guard !isAtEnd else { return nil }
        items += 1
        guard items <= LogFormat.Limits.batchEvents * 2 else { throw fail("batch holds more items than the format allows") }
        let head = try symbol(C.head + Swift.min(s.lastSymbol, C.headContexts - 1))
        let itemSymbol = head >> 1, hasTime = head & 1 == 1
        s.lastSymbol = itemSymbol
        if itemSymbol == M.endSymbol {
            isAtEnd = true
            marker = .end
            guard rans.isFinished, !raw.overran, (raw.bitsRead + 7) / 8 == raw.count else {
                throw fail("rANS batch does not end where it was written")
            }
            return nil
        }
        if itemSymbol == M.fingerprintSymbol {
            marker = .fingerprint(UInt32(truncatingIfNeeded: raw.read(bits: 32)))
            if raw.overran { throw fail("batch's raw bits run past its end") }
            return nil
        }
        guard itemSymbol < M.fingerprintSymbol, let tag = EventTag(rawValue: UInt8(itemSymbol)) else {
            isNewer = true
            throw fail("unknown event type \(itemSymbol): written by a newer selectlog")
        }
        var timeKey = itemSymbol
        var shape = 0
        if tag == .scroll {
            shape = try symbol(C.shape + s.lastScrollShape)
            s.lastScrollShape = shape
            timeKey = M.scrollTimeKey(shape)
        }
        var t: Micros?
        var timeOutOfRange = false
        if hasTime {
            let residual = try integer(C.time + M.timeGroup(timeKey) * 3 + Int(s.models.lastSign[timeKey & 63]))
            let step = s.lastStep(timeKey) &+ residual
            let time = s.time &+ step
            s.noteTime(timeKey, step: step, residual: residual, t: time)
            t = Micros(raw: time)
            timeOutOfRange = time < 0 || time > maxTime
        }
        let event: Event
        switch tag {
        case .tap: event = .tap(try point(tag))
        case .panMoved: event = .panMoved(try point(tag))
        case .panBegan:
            let p = try point(tag)
            let fingers = try integer(C.small)
            guard fingers >= 0, fingers <= EventLimits.index else { throw fail("finger count out of range") }
            event = .panBegan(p, fingers: Int(fingers))
        case .panEnded:
            let p: ViewportPoint? = try flag(.panEndedHasPoint) ? try point(tag) : nil
            let target: Points? = try flag(.panEndedHasTarget) ? try contentOffset(value(s.channel(.target), C.target)) : nil
            event = .panEnded(p, targetOffset: target)
        case .scroll:
            let motion: ScrollMotion? = switch shape / 6 {
            case 1: .to(try contentOffset(value(s.channel(.scrollTo), C.scrollTo)))
            case 2: .by(try length(value(s.channel(.scrollBy), C.scrollBy)))
            default: nil
            }
            let target: Points? = shape % 2 == 1 ? try contentOffset(value(s.channel(.target), C.target)) : nil
            let phase: ScrollPhase? = switch shape % 6 / 2 {
            case 1: .decelerate
            case 2: .idle
            default: nil
            }
            event = .scroll(motion, phase: phase, target: target)
        case .swipeMoved: event = .swipeMoved(offset: try length(value(s.channel(.swipe), C.swipe)))
        case .swipeEnded:
            event = .swipeEnded(velocity: try flag(.swipeEndedHasVelocity) ? try length(integer(C.velocity)) : nil)
        case .tick: event = .tick
        case .panCancelled: event = .panCancelled
        case .selectAll: event = .selectAll
        case .deselectAll: event = .deselectAll
        case .undo: event = .undo
        case .redo: event = .redo
        default:
            let n = try integer(C.length)
            guard n >= 0, n <= LogFormat.Limits.payloadBytes else { throw fail("event of \(n) bytes, over the format's limit") }
            var bytes: [UInt8] = []
            for i in 0..<Int(n) {
                bytes.append(UInt8(truncatingIfNeeded: try symbol(C.bytes)))
                if i & 63 == 63, rans.overran { throw fail("rANS batch runs past its end") }
            }
            if rans.overran || raw.overran { throw fail("rANS batch runs past its end") }
            marker = .cold(tag, t, bytes)
            return nil
        }
        if rans.overran || raw.overran { throw fail("rANS batch runs past its end") }
        needsCheck = timeOutOfRange || tag == .panBegan
        return TimedEvent(event, t: t)
    }
}
