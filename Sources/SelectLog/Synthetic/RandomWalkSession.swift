/// A second synthetic session, unlike `SyntheticSession` in every respect that a
/// codec or a heuristic could be tuned to: finger paths are random walks (Gaussian
/// steps of about 12 pt per 120 Hz sample, on a 2x screen's half-point grid rather
/// than the standard session's 3x grid), the scroll view reports relative deltas
/// (`scroll {dy}`), gestures last 5 to 120 samples, ticks come at irregular moments,
/// taps land at arbitrary points (headers, gaps, the strip), and the table has
/// irregular sections and heights.
///
/// Seeded and deterministic, integer arithmetic only; every event is valid (a shadow
/// `TableState` plans each gesture). Sizes and benchmarks report both generators.
/// With `screenScale` 3, lengths are on a 3x screen's pixels (thirds of a point, as
/// the 1/64 pt grid rounds them) instead: the same session on another device.
///
/// ```swift
/// for event in RandomWalkSession(seed: 7, count: 100_000) { try recorder.append(event) }
/// ```
public struct RandomWalkSession: Sequence, Sendable {
    /// The generator's seed.
    public var seed: UInt64
    /// How many events the session holds.
    public var count: Int
    /// The screen's pixels per point: 2 (half points) or 3 (thirds).
    public var screenScale: Int

    /// A session of `count` events from `seed`, on a screen of `screenScale` pixels a
    /// point: 3, or 2 for any other value.
    public init(seed: UInt64 = 1, count: Int, screenScale: Int = 2) {
        self.seed = seed
        self.count = count
        self.screenScale = screenScale == 3 ? 3 : 2
    }

    /// Generates the events one gesture at a time.
    public func makeIterator() -> Iterator { Iterator(seed: seed, remaining: count, thirds: screenScale == 3) }

    /// The generator: a shadow state and the planned rest of the current gesture.
    public struct Iterator: IteratorProtocol {
        private var rng: SplitMix64
        private var remaining: Int
        private var shadow = TableState()
        private var pending: [TimedEvent] = []
        private var cursor = 0
        private var now: Int64 = 0

        /// Lengths on thirds of a point (a 3x screen) rather than half points.
        private let thirds: Bool

        init(seed: UInt64, remaining: Int, thirds: Bool) {
            rng = SplitMix64(seed: seed ^ 0x5241_4E44_4F4D_5741)
            self.remaining = remaining
            self.thirds = thirds
        }

        /// A generator that goes on from `state` (which has seen an event), as if it had
        /// made it: for tests of tables the session does not reach quickly.
        init(seed: UInt64, remaining: Int, thirds: Bool, from state: TableState) {
            self.init(seed: seed, remaining: remaining, thirds: thirds)
            shadow = state
            now = state.t.raw
        }

        /// The state after every event returned so far.
        public var state: TableState { shadow }

        /// The next valid event.
        public mutating func next() -> TimedEvent? {
            guard remaining > 0 else { return nil }
            while true {
                if cursor == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    cursor = 0
                    plan()
                    // A plan can come to nothing (an edit of a section too short for it, a
                    // swipe with no row in view): then plan again.
                    if pending.isEmpty { continue }
                }
                let event = pending[cursor]
                cursor += 1
                do {
                    try shadow.apply(event)
                } catch {
                    pending.removeAll(keepingCapacity: true)
                    cursor = 0
                    if shadow.pan != nil { pending.append(TimedEvent(.panCancelled, t: Micros(raw: now))) }
                    continue
                }
                remaining -= 1
                return event
            }
        }

        // MARK: Randomness, in integers

        private mutating func uniform(_ range: ClosedRange<Int64>) -> Int64 {
            Int64(rng.next() % UInt64(range.upperBound - range.lowerBound + 1)) + range.lowerBound
        }

        /// A Gaussian sample with standard deviation `sigma` (Irwin–Hall: twelve
        /// uniforms, centred), in the same unit as `sigma`.
        private mutating func gaussian(sigma: Int64) -> Int64 {
            var sum: Int64 = 0
            for _ in 0..<12 { sum += Int64(rng.next() >> 48) }   // each in [0, 65536)
            return (sum - 6 * 65_536) * sigma / 65_536
        }

        private mutating func chance(_ percent: Int64) -> Bool { uniform(0...99) < percent }

        /// A 120 Hz sample interval: 8333 or 8334 µs, so that 120 samples make a second.
        private mutating func sampleInterval() -> Int64 {
            sample += 1
            return sample % 3 == 0 ? 8_334 : 8_333
        }
        private var sample = 0

        /// A length on the screen's pixel grid: half points (32/64 pt) on a 2x screen;
        /// on a 3x screen a third of a point (k = 3 · raw / 64, truncated towards zero),
        /// rounded to the 1/64 pt grid (`ThirdsGrid.sixtyFourths`).
        private func pixels(_ raw: Int64) -> Int64 {
            thirds ? ThirdsGrid.sixtyFourths(third: raw * 3 / 64) : raw / 32 * 32
        }

        private mutating func emit(_ e: Event, after micros: Int64 = 0) {
            now += micros
            pending.append(TimedEvent(e, t: Micros(raw: now)))
        }

        private var width: Int64 { shadow.viewport.width.raw }
        private var height: Int64 { shadow.viewport.height.raw }

        /// A point anywhere in the viewport, on the pixel grid.
        private mutating func anyPoint() -> ViewportPoint {
            ViewportPoint(x: Points(raw: pixels(uniform(0...width - 1))), y: Points(raw: pixels(uniform(0...height - 1))))
        }

        private func clamp(_ v: Int64, _ hi: Int64) -> Int64 { Swift.min(Swift.max(v, 0), hi) }

        // MARK: Planning

        private mutating func plan() {
            if shadow.events == 0 || shadow.layout.rowCount < 200 {
                planTable()
                return
            }
            now += uniform(40_000...2_500_000)
            switch uniform(0...99) {
            case 0..<28: planPan(fingers: 1)
            case 28..<38: planEditingPan()
            case 38..<60: planRelativeScroll()
            case 60..<80: planTaps()
            case 80..<88: planSwipe()
            case 88..<93: planEdit()
            case 93..<96: emit(chance(50) ? .undo : .redo)
            default: emit(.setEditing(!shadow.editing))
            }
        }

        private mutating func planTable() {
            var c = ConfigurationPatch()
            c.allowsMultipleSelection = chance(70)
            c.allowsMultipleSelectionDuringEditing = true
            c.multiSelectInteraction = true
            c.optionWidth = Points(raw: uniform(60...140) * 64)
            var strip = StripPatch()
            strip.enabled = chance(60)
            strip.edge = chance(50) ? .leading : .trailing
            c.scrollAndSelect = strip
            emit(.configure(c))
            emit(.viewport(width: Points(raw: uniform(320...430) * 64), height: Points(raw: uniform(560...930) * 64)))
            let sections = (0..<Int(uniform(3...12))).map { _ in
                let rows = Int(uniform(10...400))
                return SectionSpec(rows: rows, rowHeights: (0..<rows).map { _ in Points(raw: pixels(uniform(1_600...9_000))) },
                                   header: chance(70) ? Points(raw: uniform(0...3_000)) : nil,
                                   footer: chance(20) ? Points(raw: uniform(0...2_000)) : nil)
            }
            emit(.reload(sections: sections))
        }

        /// A finger that random-walks from a random point for 5–120 samples.
        private mutating func walk(from start: ViewportPoint, samples: Int, drift: Int64) -> ViewportPoint {
            var x = start.x.raw, y = start.y.raw
            for _ in 0..<samples {
                x = pixels(clamp(x + gaussian(sigma: 12 * 64) / 3, width - 1))
                y = pixels(clamp(y + gaussian(sigma: 12 * 64) + drift, height - 1))
                emit(.panMoved(ViewportPoint(x: Points(raw: x), y: Points(raw: y))), after: sampleInterval())
                if chance(15) { emit(.tick, after: uniform(1_000...16_000)) }
            }
            return ViewportPoint(x: Points(raw: x), y: Points(raw: y))
        }

        private mutating func planPan(fingers: Int) {
            let start = anyPoint()
            emit(.panBegan(start, fingers: fingers))
            let drift = uniform(-6...6) * 64
            let end = walk(from: start, samples: Int(uniform(5...120)), drift: drift)
            switch uniform(0...9) {
            case 0: emit(.panCancelled, after: sampleInterval())
            case 1...5: emit(.panEnded(end, targetOffset: nil), after: sampleInterval())
            default:
                let target = clamp(shadow.contentOffset.raw + gaussian(sigma: 900 * 64), shadow.maxOffset.raw)
                emit(.panEnded(end, targetOffset: Points(raw: target)), after: sampleInterval())
                emit(.scroll(nil, phase: .decelerate, target: Points(raw: target)), after: uniform(0...4_000))
                planRelativeScroll(settling: true)
            }
        }

        private mutating func planEditingPan() {
            if !shadow.editing { emit(.setEditing(true), after: uniform(100_000...600_000)) }
            planPan(fingers: chance(60) ? 2 : 1)
        }

        /// The scroll view's own motion as relative deltas: a decaying burst, then rest.
        private mutating func planRelativeScroll(settling: Bool = false) {
            var velocity = gaussian(sigma: 40 * 64)
            for _ in 0..<Int(uniform(5...90)) {
                velocity = velocity * uniform(85...99) / 100 + gaussian(sigma: 64)
                emit(.scroll(.by(Points(raw: pixels(velocity))), phase: nil, target: nil), after: sample % 2 == 0 ? 16_667 : 16_666)
                sample += 1
            }
            emit(.scroll(nil, phase: .idle, target: nil), after: uniform(8_000...40_000))
            _ = settling
        }

        private mutating func planTaps() {
            for _ in 0..<Int(uniform(1...4)) { emit(.tap(anyPoint()), after: uniform(60_000...900_000)) }
        }

        private mutating func planSwipe() {
            guard let visible = shadow.visibleRows else { return }
            let row = chance(50) ? visible.lowerBound : visible.upperBound
            emit(.swipeBegan(row: row))
            var offset: Int64 = 0
            for _ in 0..<Int(uniform(5...60)) {
                offset = pixels(clamp(offset + gaussian(sigma: 12 * 64), 200 * 64))
                emit(.swipeMoved(offset: Points(raw: offset)), after: sampleInterval())
            }
            emit(.swipeEnded(velocity: Points(raw: gaussian(sigma: 300 * 64))), after: sampleInterval())
        }

        private mutating func planEdit() {
            let sections = shadow.layout.sectionCount
            guard sections > 0 else { return }
            let s = Int(uniform(0...Int64(sections - 1)))
            let rows = Int64(shadow.layout.rowCount(in: s))
            if rows < 2 { return }
            switch uniform(0...2) {
            case 0: emit(.insertRows(at: [RowPath(s, Int(uniform(0...rows)))], heights: [Points(raw: pixels(uniform(1_600...9_000)))]))
            case 1: emit(.deleteRows(at: [RowPath(s, Int(uniform(0...rows - 1)))]))
            default: emit(.moveRow(from: RowPath(s, Int(uniform(0...rows - 1))), to: RowPath(s, Int(uniform(0...rows - 1)))))
            }
        }
    }
}
