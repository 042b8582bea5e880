import SelectLog

/// Format version 3's batch encoding: every field of every event is predicted and its
/// residual coded by `RangeCoder` under an adaptive model of its own (the event kind
/// after the previous kind, each kind's time step, each coordinate of each gesture
/// event, scroll deltas, …), so each column gets its own statistics although events
/// stay in order. Models start fresh at every batch, so a batch decodes on its own.
/// docs/LOG-FORMAT.md, "Coded batches", specifies it.
///
/// A class, so that the coder's hot loop updates the one array in place: a copy of an
/// encoder or decoder shares its models (none of ours is copied and then advanced twice).
/// Unchecked `Sendable`: the recorder touches its encoder only under its lock.
final class CodedModels: @unchecked Sendable {
    /// Item symbols: 0 ends the batch, 1-31 are `EventTag`s, 32 a gesture fingerprint.
    static let endSymbol = 0
    static let fingerprintSymbol = 32
    static let symbolCount = 64

    /// An integer model: nonzero, sign, bit length (6-bit tree), the bit below the leading one.
    static let intSize = 2 + 64 + 64

    // Layout of `p`: offsets of each model.
    static let kindBase = 0                                        // 33 contexts x 64-node tree
    static let kindContexts = 33
    static let hasTimeBase = kindBase + kindContexts * 64          // one model
    static let timeGroups = 8
    static let timeBase = hasTimeBase + 1                          // group x previous residual's sign (3)
    static let pointBase = timeBase + timeGroups * 3 * intSize     // 4 kinds x (x, y)
    static let offGridBase = pointBase + 8 * intSize               // values off the batch's grid
    static let gridFlagBase = offGridBase + intSize                // 8 channels
    static let scrollShapeBase = gridFlagBase + 8                  // 18 shapes as contexts x 32-node tree
    static let scrollToBase = scrollShapeBase + 18 * 32
    static let scrollByBase = scrollToBase + intSize
    static let targetBase = scrollByBase + intSize
    static let swipeBase = targetBase + intSize
    static let velocityBase = swipeBase + intSize
    static let smallBase = velocityBase + intSize                  // finger counts
    static let lengthBase = smallBase + intSize                    // bodies of other events
    static let flagBase = lengthBase + intSize                     // 8 yes/no flags
    static let byteBase = flagBase + 8                             // 256-node tree
    static let size = byteBase + 256

    /// Unchecked exclusivity: only the owning coder touches it, one element at a time.
    @exclusivity(unchecked) var p: [UInt32]

    /// Fresh models; `empty` holds none (the unused coder of a version 2 decoder).
    init(empty: Bool = false) {
        p = empty ? [] : [UInt32](repeating: RangeCoder.fresh, count: CodedModels.size)
    }

    func reset() {
        for i in p.indices { p[i] = RangeCoder.fresh }
    }

    /// The time model group of an item symbol.
    static func timeGroup(_ key: Int) -> Int {
        switch key {
        case Int(EventTag.panMoved.rawValue): 0
        case Int(EventTag.tick.rawValue): 1
        case scrollTimeKey(12)..<scrollTimeKey(18): 2    // relative scrolls
        case Int(EventTag.swipeMoved.rawValue): 3
        case Int(EventTag.tap.rawValue): 4
        case Int(EventTag.panBegan.rawValue), Int(EventTag.panEnded.rawValue), Int(EventTag.panCancelled.rawValue): 5
        case scrollTimeKey(0)..<scrollTimeKey(12): 6     // other scrolls
        default: 7
        }
    }

    /// The point model of a finger event kind.
    static func pointModel(_ tag: EventTag, y: Bool) -> Int {
        let k: Int
        switch tag {
        case .tap: k = 0
        case .panBegan: k = 1
        case .panMoved: k = 2
        default: k = 3
        }
        return pointBase + (2 * k + (y ? 1 : 0)) * intSize
    }

    /// Channel numbers for the grid flags.
    enum Channel: Int { case fingerX = 0, fingerY, scrollTo, scrollBy, target, swipe }

    /// Flags.
    enum Flag: Int { case panEndedHasPoint = 0, panEndedHasTarget, swipeEndedHasVelocity }

    /// A scroll's shape: motion (none, to, by) x phase (none, decelerate, idle) x has a target.
    static func scrollShape(motion: Int, phase: Int, hasTarget: Bool) -> Int { motion * 6 + phase * 2 + (hasTarget ? 1 : 0) }
    static let scrollShapes = 18
    /// Scrolls keep a time step per shape (a burst's deltas come at the frame rate, its
    /// end after a pause): their time key is 33 + shape; other events' is their symbol.
    static func scrollTimeKey(_ shape: Int) -> Int { 33 + shape }
}

/// A value predicted by whichever of three predictors has erred least lately: "where
/// it was" (right for random walks), "where it was plus its last step" (steady
/// motion), and, for channels that damp, "where it was less a sixteenth" (decaying
/// scroll velocities). Values on a grid coarser than 1/64 pt are coded in grid units:
/// `grid` is the largest power of two (at most 64) that every value so far divides.
struct CodedChannel {
    var value: Int64 = 0
    var step: Int64 = 0
    var grid = 6
    private var stillError: Int64 = 0
    private var movingError: Int64 = 0
    private var dampedError: Int64 = Int64.max / 4
    private let damps: Bool

    init(damps: Bool = false) {
        self.damps = damps
        if damps { dampedError = 0 }
    }

    private var damped: Int64 { ((value &- value >> 4) >> Int64(grid)) &<< Int64(grid) }

    var prediction: Int64 {
        if movingError < stillError && movingError <= dampedError { return value &+ step }
        if dampedError < stillError { return damped }
        return value
    }

    mutating func update(_ v: Int64) {
        if v != 0 { grid = Swift.min(grid, v.trailingZeroBitCount) }
        func decay(_ e: Int64, _ miss: Int64) -> Int64 { e - e >> 2 + Int64(clamping: Swift.min(miss.magnitude, 1 << 40)) }
        stillError = decay(stillError, v &- value)
        movingError = decay(movingError, v &- value &- step)
        if damps { dampedError = decay(dampedError, v &- damped) }
        step = v &- value
        value = v
    }
}

extension RangeEncoder {
    /// A signed integer under the model at `base` of `p`.
    mutating func encodeInt(_ v: Int64, _ p: inout [UInt32], _ base: Int) {
        encode(v != 0, &p[base])
        if v == 0 { return }
        encode(v < 0, &p[base + 1])
        let m = v.magnitude
        let n = 64 - m.leadingZeroBitCount            // 1...64
        let symbol = n - 1
        var node = 1
        for i in stride(from: 5, through: 0, by: -1) {
            let bit = (symbol >> i) & 1
            encode(bit != 0, &p[base + 2 + node])
            node = node << 1 | bit
        }
        if n >= 2 {
            encode((m >> UInt64(n - 2)) & 1 != 0, &p[base + 66 + symbol])
            if n >= 3 { encodeDirect(m, count: n - 2) }
        }
    }

    /// A value of `channel`, predicted; `flag` is the channel's grid-flag model.
    mutating func encodeValue(_ v: Int64, _ channel: inout CodedChannel, _ p: inout [UInt32], model: Int, flag: Int) {
        let r = v &- channel.prediction
        let grid = channel.grid
        if grid > 0 {
            let off = r & ((1 << Int64(grid)) - 1) != 0
            encode(off, &p[CodedModels.gridFlagBase + flag])
            if off { encodeInt(r, &p, CodedModels.offGridBase) } else { encodeInt(r >> Int64(grid), &p, model) }
        } else {
            encodeInt(r, &p, model)
        }
        channel.update(v)
    }

    /// A tree-coded symbol of `bits` bits under the tree at `base`.
    mutating func encodeSymbol(_ s: Int, bits: Int, _ p: inout [UInt32], _ base: Int) {
        var node = 1
        for i in stride(from: bits - 1, through: 0, by: -1) {
            let bit = (s >> i) & 1
            encode(bit != 0, &p[base + node])
            node = node << 1 | bit
        }
    }
}

extension RangeDecoder {
    mutating func decodeInt(_ p: inout [UInt32], _ base: Int) -> Int64 {
        guard decode(&p[base]) else { return 0 }
        let negative = decode(&p[base + 1])
        var node = 1
        for _ in 0..<6 { node = node << 1 | (decode(&p[base + 2 + node]) ? 1 : 0) }
        let symbol = node - 64
        let n = symbol + 1
        var m: UInt64 = 1
        if n >= 2 {
            m = m << 1 | (decode(&p[base + 66 + symbol]) ? 1 : 0)
            if n >= 3 { m = m << UInt64(n - 2) | decodeDirect(count: n - 2) }
        }
        let v = Int64(bitPattern: m)
        return negative ? 0 &- v : v
    }

    mutating func decodeValue(_ channel: inout CodedChannel, _ p: inout [UInt32], model: Int, flag: Int) -> Int64 {
        let grid = channel.grid
        let r: Int64
        if grid > 0 && !decode(&p[CodedModels.gridFlagBase + flag]) {
            r = decodeInt(&p, model) &<< Int64(grid)
        } else {
            r = decodeInt(&p, grid > 0 ? CodedModels.offGridBase : model)
        }
        let v = channel.prediction &+ r
        channel.update(v)
        return v
    }

    mutating func decodeSymbol(bits: Int, _ p: inout [UInt32], _ base: Int) -> Int {
        var node = 1
        for _ in 0..<bits { node = node << 1 | (decode(&p[base + node]) ? 1 : 0) }
        return node - (1 << bits)
    }
}

/// The prediction state both sides share, besides the models.
struct CodedState {
    var models = CodedModels()
    var time: Int64
    var lastSymbol = 0
    var lastScrollShape = 0
    var lastStep = [Int64](repeating: 0, count: CodedModels.symbolCount)
    var lastSign = [UInt8](repeating: 0, count: CodedModels.symbolCount)
    /// Indexed by `CodedModels.Channel`.
    var channels = CodedState.freshChannels

    static let freshChannels = [CodedChannel(), CodedChannel(), CodedChannel(), CodedChannel(damps: true), CodedChannel(), CodedChannel()]

    init(time: Micros, empty: Bool = false) {
        self.time = time.raw
        if empty {
            models = CodedModels(empty: true)
            lastStep = []
            lastSign = []
            channels = []
        }
    }

    mutating func reset(time: Micros) {
        models.reset()
        self.time = time.raw
        lastSymbol = 0
        lastScrollShape = 0
        for i in lastStep.indices { lastStep[i] = 0; lastSign[i] = 0 }
        channels = CodedState.freshChannels
    }

    /// The model of a time residual under `key` (`CodedModels.scrollTimeKey`).
    func timeModel(_ key: Int) -> Int {
        CodedModels.timeBase + (CodedModels.timeGroup(key) * 3 + Int(lastSign[key])) * CodedModels.intSize
    }

    mutating func noteTime(_ symbol: Int, step: Int64, residual: Int64, t: Int64) {
        lastStep[symbol] = step
        lastSign[symbol] = residual == 0 ? 0 : (residual > 0 ? 1 : 2)
        time = t
    }

    var kindContext: Int { CodedModels.kindBase + Swift.min(lastSymbol, CodedModels.kindContexts - 1) * 64 }
}
