import SelectLog

/// Format version 3's batch encoding: every field of every event is predicted and its
/// residual coded by `RangeCoder` under an adaptive model of its own (the event kind
/// after the previous kind, each kind's time step, each coordinate of each gesture
/// event, scroll deltas, …), so each column gets its own statistics although events
/// stay in order. Models start fresh at every batch, so a batch decodes on its own.
/// docs/LOG-FORMAT.md, "Coded batches", specifies it.
///
/// One allocation owned by one class instance, so that the coder's hot loop updates it in
/// place without copy-on-write, reference counting or exclusivity checks: a copy of an
/// encoder or decoder shares its models (none of ours is copied and then advanced twice;
/// the encoder's flush works on copies of the few models it touches).
///
/// Memory safety does not rest on the index arithmetic: every access goes through
/// `ModelTable.at`, which masks the index to the allocation, whose size is a power of
/// two (`CodedBatchTests` checks the layout fits). A malformed batch can at worst make
/// its own decoding wrong, which the batch's checksum and the event checks catch.
/// Unchecked `Sendable`: the recorder touches its encoder only under its lock, and a
/// reader's decoder is a local of one call.
final class CodedModels: @unchecked Sendable {
    /// Item symbols: 0 ends the batch, 1-31 are `EventTag`s, 32 a gesture fingerprint.
    static let endSymbol = 0
    static let fingerprintSymbol = 32
    static let symbolCount = 64

    /// An integer model: nonzero, sign, bit length (4-bit tree, 15 meaning 16 or more),
    /// the bit below the leading one (bit lengths 2-16).
    static let intSize = 2 + 16 + 16

    // Layout of the table: offsets of each model.
    static let kindBase = 0                                        // 33 contexts x 64-node tree
    static let kindContexts = 33
    static let sameKindBase = kindBase + kindContexts * 64         // 33 contexts: the same kind again
    static let hasTimeBase = sameKindBase + kindContexts           // one model
    static let timeGroups = 8
    static let timeBase = hasTimeBase + 1                          // group x previous residual's sign (3)
    static let pointBase = timeBase + timeGroups * 3 * intSize     // 4 kinds x (x, y)
    static let offGridBase = pointBase + 8 * intSize               // values off the batch's grid
    static let gridFlagBase = offGridBase + intSize                // 8 channels
    static let scrollShapeBase = gridFlagBase + 8                  // 18 shapes as contexts x 32-node tree
    static let sameShapeBase = scrollShapeBase + 18 * 32           // 18 contexts: the same shape again
    static let scrollToBase = sameShapeBase + 18
    static let scrollByBase = scrollToBase + intSize
    static let targetBase = scrollByBase + intSize
    static let swipeBase = targetBase + intSize
    static let velocityBase = swipeBase + intSize
    static let smallBase = velocityBase + intSize                  // finger counts
    static let lengthBase = smallBase + intSize                    // bodies of other events
    static let flagBase = lengthBase + intSize                     // 8 yes/no flags
    static let byteBase = flagBase + 8                             // 256-node tree
    static let longLengthBase = byteBase + 256                     // 64-node tree: bit lengths over 16, less 16
    static let size = longLengthBase + 64
    /// The allocation: the power of two at or above `size`.
    static let capacity = 8192

    /// The probabilities (`RangeCoder`'s models).
    let table: ModelTable
    /// Per time key: the last time step and the sign of the last residual (0, +, -).
    let lastStep: UnsafeMutablePointer<Int64>
    let lastSign: UnsafeMutablePointer<UInt8>
    /// Per time key: the first model of its time group (`timeBase + timeGroup(key) * 3 * intSize`),
    /// so that finding a time model is two loads rather than a switch. Constant.
    let timeGroupBase: UnsafeMutablePointer<Int>
    /// Indexed by `CodedModels.Channel` (8 slots, 6 used).
    let channels: UnsafeMutablePointer<CodedChannel>

    /// Whether the channels code values on the grid of thirds (version 6).
    let thirds: Bool

    /// Fresh models; `empty` holds a table of one model (the unused coder of a version 2
    /// decoder); `thirds`: channels code thirds of a point (version 6).
    init(empty: Bool = false, thirds: Bool = false) {
        self.thirds = thirds
        let n = empty ? 1 : CodedModels.capacity
        let base = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
        base.initialize(repeating: RangeCoder.fresh, count: n)
        table = ModelTable(base: base, mask: n - 1)
        lastStep = .allocate(capacity: CodedModels.symbolCount)
        lastStep.initialize(repeating: 0, count: CodedModels.symbolCount)
        lastSign = .allocate(capacity: CodedModels.symbolCount)
        lastSign.initialize(repeating: 0, count: CodedModels.symbolCount)
        timeGroupBase = .allocate(capacity: CodedModels.symbolCount)
        for key in 0..<CodedModels.symbolCount {
            (timeGroupBase + key).initialize(to: CodedModels.timeBase + CodedModels.timeGroup(key) * 3 * CodedModels.intSize)
        }
        channels = .allocate(capacity: 8)
        for i in 0..<8 { (channels + i).initialize(to: CodedModels.freshChannel(i, thirds: thirds)) }
    }

    deinit {
        table.base.deallocate()
        lastStep.deallocate()
        lastSign.deallocate()
        timeGroupBase.deallocate()
        channels.deallocate()
    }

    /// Fresh channel `i` (`Channel` order; 8 slots, 6 used): the relative scroll's damps.
    static func freshChannel(_ i: Int, thirds: Bool) -> CodedChannel {
        CodedChannel(damps: i == Channel.scrollBy.rawValue, thirds: thirds)
    }

    func reset() {
        // Only the models in use: the rest of the table is never reached by a valid index
        // (an index is masked, not checked, so it stays as fresh as at allocation).
        table.base.update(repeating: RangeCoder.fresh, count: Swift.min(CodedModels.size, table.mask + 1))
        lastStep.update(repeating: 0, count: CodedModels.symbolCount)
        lastSign.update(repeating: 0, count: CodedModels.symbolCount)
        for i in 0..<8 { channels[i] = CodedModels.freshChannel(i, thirds: thirds) }
    }

    /// The time model group of an item symbol.
    @inline(__always)
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
    @inline(__always)
    static func pointModel(_ tag: EventTag, y: Bool) -> Int {
        pointBase + (2 * fingerKind(tag) + (y ? 1 : 0)) * intSize
    }

    /// Which of the four finger event kinds a point belongs to (0 tap, 1 panBegan, 2
    /// panMoved, 3 panEnded), for its models (the rANS format: its contexts).
    @inline(__always)
    static func fingerKind(_ tag: EventTag) -> Int {
        switch tag {
        case .tap: 0
        case .panBegan: 1
        case .panMoved: 2
        default: 3
        }
    }

    /// The event of a kind that has no fields (only its time), or nil for a kind with fields.
    static func fieldless(_ tag: EventTag) -> Event? {
        switch tag {
        case .tick: .tick
        case .panCancelled: .panCancelled
        case .selectAll: .selectAll
        case .deselectAll: .deselectAll
        case .undo: .undo
        case .redo: .redo
        default: nil
        }
    }

    /// Channel numbers for the grid flags.
    enum Channel: Int { case fingerX = 0, fingerY, scrollTo, scrollBy, target, swipe }

    /// Flags.
    enum Flag: Int { case panEndedHasPoint = 0, panEndedHasTarget, swipeEndedHasVelocity }

    /// A scroll's shape: motion (none, to, by) x phase (none, decelerate, idle) x has a target.
    static func scrollShape(motion: Int, phase: Int, hasTarget: Bool) -> Int { motion * 6 + phase * 2 + (hasTarget ? 1 : 0) }

    /// The shape of a scroll with these fields.
    static func scrollShape(_ motion: ScrollMotion?, _ phase: ScrollPhase?, hasTarget: Bool) -> Int {
        let code: Int
        switch motion {
        case nil: code = 0
        case .to?: code = 1
        case .by?: code = 2
        }
        return scrollShape(motion: code, phase: phase == nil ? 0 : (phase == .decelerate ? 1 : 2), hasTarget: hasTarget)
    }
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
/// Failing that, in version 6 (`thirds`), each value says whether it is a third of a
/// point (a 3x screen's pixel) as the 1/64 pt grid rounds it, and one that is is coded
/// in thirds: a value off that grid costs one decision, and does not end it for the
/// values after it.
struct CodedChannel {
    var value: Int64 = 0
    var step: Int64 = 0
    var grid = 6
    /// Whether values off the power-of-two grid are coded in thirds when they are thirds
    /// (version 6; false before, so older logs decode as they were written).
    let thirds: Bool
    private var stillError: Int64 = 0
    private var movingError: Int64 = 0
    private var dampedError: Int64 = Int64.max / 4
    private let damps: Bool

    init(damps: Bool = false, thirds: Bool = false) {
        self.damps = damps
        self.thirds = thirds
        if damps { dampedError = 0 }
    }

    // Wrapping and masked operations throughout: grid is 0...6, and each error sum
    // stays below 2^43 (it decays by a quarter and grows by at most 2^40 a value).
    private var damped: Int64 { ((value &- value &>> 4) &>> Int64(grid)) &<< Int64(grid) }

    @inline(__always)
    var prediction: Int64 {
        if movingError < stillError && movingError <= dampedError { return value &+ step }
        if dampedError < stillError { return damped }
        return value
    }

    @inline(__always)
    mutating func update(_ v: Int64) {
        if v != 0 { grid = Swift.min(grid, v.trailingZeroBitCount) }
        func decay(_ e: Int64, _ miss: Int64) -> Int64 {
            e &- e &>> 2 &+ Int64(truncatingIfNeeded: Swift.min(miss.magnitude, 1 << 40))
        }
        stillError = decay(stillError, v &- value)
        movingError = decay(movingError, v &- value &- step)
        if damps { dampedError = decay(dampedError, v &- damped) }
        step = v &- value
        value = v
    }
}

/// The probabilities of a coder's models: every index is masked to the allocation,
/// so no index, however computed, reaches outside it.
struct ModelTable {
    let base: UnsafeMutablePointer<UInt32>
    /// The allocation's size less one (a power of two less one).
    let mask: Int

    @inline(__always)
    func at(_ i: Int) -> UnsafeMutablePointer<UInt32> { base + (i & mask) }
}

/// The prediction state both sides share, besides the models.
struct CodedState {
    var models: CodedModels
    var time: Int64
    var lastSymbol = 0
    /// Whether the last event had a time (items of the same kind and timing cost one decision).
    var lastHasTime = true
    var lastScrollShape = 0

    init(time: Micros, empty: Bool = false, thirds: Bool = false) {
        self.time = time.raw
        models = CodedModels(empty: empty, thirds: thirds)
    }

    mutating func reset(time: Micros) {
        models.reset()
        self.time = time.raw
        lastSymbol = 0
        lastHasTime = true
        lastScrollShape = 0
    }

    /// The model of a time residual under `key` (`CodedModels.scrollTimeKey`).
    @inline(__always)
    func timeModel(_ key: Int) -> Int {
        models.timeGroupBase[key & 63] &+ Int(models.lastSign[key & 63]) &* CodedModels.intSize
    }

    @inline(__always)
    func lastStep(_ key: Int) -> Int64 { models.lastStep[key & 63] }

    @inline(__always)
    mutating func noteTime(_ symbol: Int, step: Int64, residual: Int64, t: Int64) {
        models.lastStep[symbol & 63] = step
        models.lastSign[symbol & 63] = residual == 0 ? 0 : (residual > 0 ? 1 : 2)
        time = t
    }

    /// A channel's state (`CodedModels.Channel`).
    func channel(_ c: CodedModels.Channel) -> UnsafeMutablePointer<CodedChannel> { models.channels + (c.rawValue & 7) }

    /// The finger channel of coordinate `k` (0 x, 1 y).
    func channel(fingerCoordinate k: Int) -> UnsafeMutablePointer<CodedChannel> {
        models.channels + ((CodedModels.Channel.fingerX.rawValue &+ k) & 7)
    }

    var kindContext: Int { CodedModels.kindBase + Swift.min(lastSymbol, CodedModels.kindContexts - 1) * 64 }
    var sameKindModel: Int { CodedModels.sameKindBase + Swift.min(lastSymbol, CodedModels.kindContexts - 1) }
}
