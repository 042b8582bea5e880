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
}

/// The decoding side of a rANS-format batch (`RANSEventEncoder`): the items in the order
/// they were coded, every value checked against `EventLimits` as format 6's decoder
/// checks it, and a batch's end checked to be where its encoder left it.
///
/// As in `CodedEventDecoder`, an event is decoded on a local copy of the registers
/// (`Registers`: both readers and the pointers into the tables and predictions), stored
/// back once, so that the loop keeps them in registers and touches no reference count.
struct RANSEventDecoder {
    private typealias C = RANSContexts
    private typealias M = CodedModels

    /// The readers and the pointers an event's decoding uses.
    struct Registers {
        var rans: RANSDecoderCore
        var raw: BitReaderCore
        /// The window's decoding tables, `RANS.total` entries per context.
        let tables: UnsafePointer<UInt32>
        /// The channels' predictions (`CodedModels.channels`).
        let channels: UnsafeMutablePointer<CodedChannel>

        @inline(__always)
        func fail(_ reason: String) -> BinaryError { BinaryError(offset: rans.position, reason: reason) }

        @inline(__always)
        mutating func symbol(_ context: Int) throws(BinaryError) -> Int {
            let symbol = rans.decode(tables + context &* Int(RANS.total))
            guard symbol == RANS.escape else { return symbol }
            return try escaped(context)
        }

        /// An escaped symbol of `context`, in raw bits.
        @inline(never)
        mutating func escaped(_ context: Int) throws(BinaryError) -> Int {
            let alphabet = C.alphabet(context)
            let symbol = Int(raw.read(bits: RANSTable.escapeBits(alphabet)))
            guard symbol < alphabet else { throw fail("escaped symbol \(symbol) past its alphabet") }
            return symbol
        }

        @inline(__always)
        mutating func integer(_ context: Int) throws(BinaryError) -> Int64 {
            try integer(symbol: symbol(context))
        }

        @inline(__always)
        mutating func integer(symbol: Int) throws(BinaryError) -> Int64 {
            guard symbol < IntegerClass.alphabet, let v = IntegerClass.decode(symbol, raw: &raw) else {
                throw fail("integer class \(symbol) out of range")
            }
            return v
        }

        /// A value through channel `channel` (`CodedModels.Channel`), as
        /// `RANSEventEncoder.value` coded it.
        @inline(__always)
        mutating func value(_ channel: Int, _ context: Int) throws(BinaryError) -> Int64 {
            let first = try symbol(context)
            let c = channels + (channel & 7)
            let prediction = c.pointee.prediction
            let v: Int64
            if first == C.offGridSymbol {
                v = prediction &+ (try integer(C.offGrid))
            } else {
                let r = try integer(symbol: first)
                let grid = c.pointee.grid
                if grid > 0 {
                    v = prediction &+ r &<< Int64(grid)
                } else if c.pointee.thirds {
                    v = ThirdsGrid.sixtyFourths(third: ThirdsGrid.third(prediction) &+ r)
                } else {
                    v = prediction &+ r
                }
            }
            c.pointee.update(v)
            return v
        }

        /// A finger position of an event of finger kind `k` (`CodedModels.fingerKind`).
        @inline(__always)
        mutating func point(_ k: Int) throws(BinaryError) -> ViewportPoint {
            let x = try value(M.Channel.fingerX.rawValue, C.point &+ 2 &* k)
            let y = try value(M.Channel.fingerY.rawValue, C.point &+ 2 &* k &+ 1)
            let limit = EventLimits.length.raw.magnitude
            guard x.magnitude <= limit, y.magnitude <= limit else { throw fail("position out of range") }
            return ViewportPoint(x: Points(raw: x), y: Points(raw: y))
        }

        @inline(__always)
        func length(_ raw: Int64) throws(BinaryError) -> Points {
            guard raw.magnitude <= EventLimits.length.raw.magnitude else { throw fail("length out of range") }
            return Points(raw: raw)
        }

        @inline(__always)
        func contentOffset(_ raw: Int64) throws(BinaryError) -> Points {
            guard raw.magnitude <= EventLimits.offset.raw.magnitude else { throw fail("content offset out of range") }
            return Points(raw: raw)
        }

        @inline(__always)
        mutating func flag(_ f: CodedModels.Flag) throws(BinaryError) -> Bool { try symbol(C.flag &+ f.rawValue) != 0 }

        var overran: Bool { rans.overran || raw.overran }
    }

    /// Keeps the tables `r.tables` points into alive.
    private let tables: RANSDecodingTables
    private var s: CodedState
    /// The batch's bytes, owned here, which `r`'s readers point into.
    private var input = RangeInput([])
    private var r: Registers
    private(set) var isAtEnd = true
    private var items = 0
    private let maxTime = EventLimits.time.raw
    /// The last item symbol read and its tag, so that an item of the kind before it does
    /// not look its tag up again (as `CodedEventDecoder`'s).
    private var lastTag: (symbol: Int, tag: EventTag?) = (-1, nil)

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
        r = Registers(rans: RANSDecoderCore(input.base, count: 0), raw: BitReaderCore(input.base, count: 0),
                      tables: UnsafePointer(tables.base), channels: s.models.channels)
    }

    /// Starts a window: fresh predictions from `baseTime`.
    mutating func reset(baseTime: Micros) { s.reset(time: baseTime) }

    /// Starts on a batch of the window (its bytes as `RANSEventEncoder.seal` made them).
    mutating func start(_ bytes: [UInt8]) throws(BinaryError) {
        var reader = BinaryReader(bytes)
        let declared = try reader.varint()
        guard declared <= UInt64(reader.remaining), declared >= 3 else {
            throw BinaryError(offset: reader.offset, reason: "rANS stream of \(declared) bytes does not fit the batch")
        }
        let length = Int(declared), at = reader.offset
        input = RangeInput(bytes)
        r.rans = RANSDecoderCore(input.base + at, count: length)
        r.raw = BitReaderCore(input.base + at + length, count: bytes.count - at - length)
        isAtEnd = false
        items = 0
        marker = .end
    }

    /// The next event, or nil with `marker` saying what was read instead.
    mutating func next() throws(BinaryError) -> TimedEvent? {
        guard !isAtEnd else { return nil }
        var c = r
        defer { r = c }
        items &+= 1
        guard items <= LogFormat.Limits.batchEvents * 2 else { throw c.fail("batch holds more items than the format allows") }
        let head = try c.symbol(C.head &+ Swift.min(s.lastSymbol, C.headContexts - 1))
        let itemSymbol = head &>> 1, hasTime = head & 1 == 1
        s.lastSymbol = itemSymbol
        if itemSymbol != lastTag.symbol {
            if itemSymbol == M.endSymbol { return try end(c) }
            if itemSymbol == M.fingerprintSymbol {
                marker = .fingerprint(UInt32(truncatingIfNeeded: c.raw.read(bits: 32)))
                if c.raw.overran { throw c.fail("batch's raw bits run past its end") }
                return nil
            }
            lastTag = (itemSymbol, itemSymbol < M.fingerprintSymbol ? EventTag(rawValue: UInt8(truncatingIfNeeded: itemSymbol)) : nil)
        }
        guard let tag = lastTag.tag else {
            isNewer = true
            throw c.fail("unknown event type \(itemSymbol): written by a newer selectlog")
        }
        var timeKey = itemSymbol
        var shape = 0
        if tag == .scroll {
            shape = try c.symbol(C.shape &+ s.lastScrollShape)
            s.lastScrollShape = shape
            timeKey = M.scrollTimeKey(shape)
        }
        var t: Micros?
        var timeOutOfRange = false
        if hasTime {
            let residual = try c.integer(C.time &+ M.timeGroup(timeKey) &* 3 &+ Int(s.models.lastSign[timeKey & 63]))
            let step = s.lastStep(timeKey) &+ residual
            let time = s.time &+ step
            s.noteTime(timeKey, step: step, residual: residual, t: time)
            t = Micros(raw: time)
            timeOutOfRange = time < 0 || time > maxTime
        }
        let event: Event
        switch tag {
        case .panMoved: event = .panMoved(try c.point(M.fingerKind(.panMoved)))
        case .tick: event = .tick
        case .tap: event = .tap(try c.point(M.fingerKind(.tap)))
        case .panBegan:
            let p = try c.point(M.fingerKind(.panBegan))
            let fingers = try c.integer(C.small)
            guard fingers >= 0, fingers <= EventLimits.index else { throw c.fail("finger count out of range") }
            event = .panBegan(p, fingers: Int(fingers))
        case .panEnded:
            let p: ViewportPoint? = try c.flag(.panEndedHasPoint) ? try c.point(M.fingerKind(.panEnded)) : nil
            let target: Points? = try c.flag(.panEndedHasTarget)
                ? try c.contentOffset(c.value(M.Channel.target.rawValue, C.target)) : nil
            event = .panEnded(p, targetOffset: target)
        case .scroll:
            let motion: ScrollMotion? = switch shape / 6 {
            case 1: .to(try c.contentOffset(c.value(M.Channel.scrollTo.rawValue, C.scrollTo)))
            case 2: .by(try c.length(c.value(M.Channel.scrollBy.rawValue, C.scrollBy)))
            default: nil
            }
            let target: Points? = shape % 2 == 1 ? try c.contentOffset(c.value(M.Channel.target.rawValue, C.target)) : nil
            let phase: ScrollPhase? = switch shape % 6 / 2 {
            case 1: .decelerate
            case 2: .idle
            default: nil
            }
            event = .scroll(motion, phase: phase, target: target)
        case .swipeMoved: event = .swipeMoved(offset: try c.length(c.value(M.Channel.swipe.rawValue, C.swipe)))
        case .swipeEnded:
            event = .swipeEnded(velocity: try c.flag(.swipeEndedHasVelocity) ? try c.length(c.integer(C.velocity)) : nil)
        default:
            if let fieldless = M.fieldless(tag) {
                event = fieldless
            } else {
                marker = .cold(tag, t, try Self.body(&c))
                return nil
            }
        }
        if c.overran { throw c.fail("rANS batch runs past its end") }
        needsCheck = timeOutOfRange || tag == .panBegan
        return TimedEvent(event, t: t)
    }

    /// The batch's end: both readers where the encoder left them.
    private mutating func end(_ c: Registers) throws(BinaryError) -> TimedEvent? {
        isAtEnd = true
        marker = .end
        guard c.rans.isFinished, c.raw.isFinished else {
            throw c.fail("rANS batch does not end where it was written")
        }
        return nil
    }

    /// A rare event's body, byte by byte.
    private static func body(_ c: inout Registers) throws(BinaryError) -> [UInt8] {
        let n = try c.integer(C.length)
        guard n >= 0, n <= LogFormat.Limits.payloadBytes else { throw c.fail("event of \(n) bytes, over the format's limit") }
        var bytes: [UInt8] = []
        for i in 0..<Int(n) {
            bytes.append(UInt8(truncatingIfNeeded: try c.symbol(C.bytes)))
            if i & 63 == 63, c.overran { throw c.fail("rANS batch runs past its end") }
        }
        if c.overran { throw c.fail("rANS batch runs past its end") }
        return bytes
    }
}
