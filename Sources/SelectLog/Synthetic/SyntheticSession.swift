/// A standard, seeded, deterministic synthetic session: what a user does to a
/// long table in ten minutes — strip pans sampled at 120 Hz with 60 Hz auto-scroll
/// ticks, drag scrolls that decelerate, taps, option swipes, row edits, the editor
/// row, undo — repeated for as many events as asked (10k to 10M and beyond).
///
/// Every event is valid: the generator keeps a shadow `TableState` and plans each
/// gesture against it. Benchmarks and tests share it.
///
/// ```swift
/// for event in SyntheticSession(seed: 1, count: 100_000) { try recorder.append(event) }
/// ```
public struct SyntheticSession: Sequence, Sendable {
    /// The generator's seed: the same seed gives the same events.
    public var seed: UInt64
    /// The number of events the session yields.
    public var count: Int

    /// A session of `count` events generated from `seed`.
    public init(seed: UInt64 = 1, count: Int) {
        self.seed = seed
        self.count = count
    }

    public func makeIterator() -> Iterator { Iterator(seed: seed, remaining: count) }

    /// Yields the session's events, each one valid in the state the previous ones left.
    public struct Iterator: IteratorProtocol {
        private var rng: SplitMix64
        private var remaining: Int
        private var shadow = TableState()
        private var pending: [TimedEvent] = []
        private var cursor = 0
        private var now: Int64 = 0
        private var frame = 0

        init(seed: UInt64, remaining: Int) {
            rng = SplitMix64(seed: seed)
            self.remaining = remaining
        }

        /// A generator that goes on from `state` (which has seen an event), as if it had
        /// made it: for tests of tables the session does not reach quickly.
        init(seed: UInt64, remaining: Int, from state: TableState) {
            self.init(seed: seed, remaining: remaining)
            shadow = state
            now = state.t.raw
        }

        /// The state after every event returned so far.
        public var state: TableState { shadow }

        public mutating func next() -> TimedEvent? {
            guard remaining > 0 else { return nil }
            while true {
                if cursor == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    cursor = 0
                    planGesture()
                    // A plan can come to nothing (an edit of a section too short for it, a
                    // swipe with no row in view): then plan again.
                    if pending.isEmpty { continue }
                }
                let event = pending[cursor]
                cursor += 1
                do {
                    try shadow.apply(event)
                } catch {
                    // A plan that no longer fits the table (a rare edge): drop the rest of it.
                    pending.removeAll(keepingCapacity: true)
                    cursor = 0
                    if shadow.pan != nil { pending.append(TimedEvent(.panCancelled, t: Micros(raw: now))) }
                    continue
                }
                remaining -= 1
                return event
            }
        }

        // MARK: Planning

        private mutating func emit(_ e: Event, after micros: Int64 = 0) {
            now += micros
            pending.append(TimedEvent(e, t: Micros(raw: now)))
        }

        /// One 120 Hz frame: 8333 or 8334 µs, so that 120 frames make a second exactly.
        private mutating func frame120() -> Int64 {
            frame += 1
            return frame % 3 == 0 ? 8334 : 8333
        }

        private mutating func random(_ range: ClosedRange<Int>) -> Int { Int(rng.next() % UInt64(range.count)) + range.lowerBound }
        private mutating func chance(_ percent: Int) -> Bool { random(0...99) < percent }
        /// A position given in 1/64 pt.
        private func points(_ raw: Int64) -> Points { Points(raw: raw) }

        /// A touch position: touch screens report device pixels, 1/3 pt on a 3x screen.
        private func touch(_ pixels: Int64) -> Points { Points(raw: (pixels * 64 + 1) / 3) }

        private mutating func planGesture() {
            if shadow.events == 0 {
                var c = ConfigurationPatch()
                c.allowsMultipleSelection = true
                c.optionWidth = Points(88)
                c.multiSelectInteraction = true
                c.allowsMultipleSelectionDuringEditing = true
                var strip = StripPatch()
                strip.enabled = true
                strip.rowsPerSecond = Points(20)
                c.scrollAndSelect = strip
                emit(.configure(c))
                emit(.viewport(width: Points(390), height: Points(844)))
                let sections = (0..<20).map { s in
                    SectionSpec(rows: 100, rowHeight: Points(44), rowHeights: (0..<100).map { Points([44, 44, 60, 88][($0 * 7 + s) % 4]) },
                                header: Points(28), title: String(UnicodeScalar(UInt8(65 + s))))
                }
                emit(.reload(sections: sections))
                return
            }
            // Think time between gestures.
            now += Int64(random(150_000...900_000))
            if shadow.editing && chance(30) {
                emit(.setEditing(false))
                return
            }
            switch random(0...99) {
            case 0..<30: planStripPan()
            case 30..<55: planDragScroll()
            case 55..<72: planTaps()
            case 72..<82: planSwipe()
            case 82..<90: planRowEdit()
            case 90..<95: planEditor()
            case 95..<98: emit(chance(70) ? .undo : .redo)
            default: emit(.jumpToSection(.index(random(0...Swift.max(0, shadow.layout.sectionCount - 1)))))
            }
            if shadow.layout.rowCount < 500 { emit(.reload(sections: [SectionSpec(rows: 2000, rowHeight: Points(50))])) }
        }

        private mutating func planStripPan() {
            // Finger positions in device pixels (1/3 pt).
            let height = shadow.viewport.height.raw * 3 / 64
            var y = Int64(random(60...500)) * 3 + Int64(random(0...2))
            var x = Int64(random(8...50)) * 3
            emit(.panBegan(ViewportPoint(x: touch(x), y: touch(y)), fingers: 1))
            // Drag down toward the bottom edge at 300-900 pt/s, with a little wobble.
            var speed = Int64(random(300...900)) * 3
            let bottom = height - Int64(random(5...30)) * 3
            while y < bottom {
                let dt = frame120()
                if chance(20) { speed += Int64(random(-30...30)) }
                if chance(10) { x += Int64(random(-1...1)) }
                y = Swift.min(bottom, y + Swift.max(1, speed * dt / 1_000_000))
                emit(.panMoved(ViewportPoint(x: touch(x), y: touch(y))), after: dt)
            }
            // Hold in the auto-scroll zone: 60 Hz ticks, with a small touch sample now and then.
            for k in 0..<random(20...120) {
                emit(.tick, after: k % 3 == 0 ? 16_666 : 16_667)
                if chance(25) { emit(.panMoved(ViewportPoint(x: touch(x), y: touch(y + Int64(random(0...2))))), after: 0) }
            }
            if chance(40) {
                // Turn back up for a few rows.
                for _ in 0..<random(5...25) {
                    let dt = frame120()
                    y = Swift.max(0, y - speed * dt / 1_000_000)
                    emit(.panMoved(ViewportPoint(x: touch(x), y: touch(y))), after: dt)
                }
            }
            emit(chance(90) ? .panEnded(nil, targetOffset: nil) : .panCancelled, after: frame120())
        }

        private mutating func planDragScroll() {
            var y = Int64(random(200...700)) * 3
            let x = Int64(random(100...350)) * 3
            emit(.panBegan(ViewportPoint(x: touch(x), y: touch(y)), fingers: chance(5) ? 2 : 1))
            let up = chance(60)
            var speed = Int64(random(400...2500)) * 3
            for _ in 0..<random(10...40) {
                let dt = frame120()
                if chance(20) { speed += Int64(random(-60...60)) }
                y += (up ? -1 : 1) * speed * dt / 1_000_000
                emit(.panMoved(ViewportPoint(x: touch(x), y: touch(y))), after: dt)
            }
            let throwDistance = Int64(random(0...3000)) * 64 * (up ? 1 : -1)
            let target = shadow.contentOffset.raw + throwDistance
            emit(.panEnded(ViewportPoint(x: touch(x), y: touch(y)), targetOffset: points(target)), after: frame120())
            // The scroll view reports its own deceleration at 60 Hz, then comes to rest.
            var offset = shadow.contentOffset.raw
            let steps = random(15...60)
            for k in 1...steps {
                let next = offset + (target - offset) / Int64(Swift.max(1, steps - k + 1))
                offset = next
                emit(.scroll(.to(points(next)), phase: .decelerate, target: nil), after: k % 3 == 0 ? 16_666 : 16_667)
            }
            emit(.scroll(nil, phase: .idle, target: nil), after: 16_667)
        }

        private mutating func visibleRow() -> RowPath? {
            guard let visible = shadow.visibleRows else { return nil }
            var row = visible.lowerBound
            for _ in 0..<random(0...12) {
                guard let next = shadow.layout.row(after: row), next <= visible.upperBound else { break }
                row = next
            }
            return row
        }

        private mutating func planTaps() {
            for _ in 0..<random(1...3) {
                guard let row = visibleRow() else { return }
                let top = shadow.layout.top(of: row).raw - shadow.contentOffset.raw
                let h = Swift.max(1, shadow.layout.height(of: row).raw)
                let y = Swift.max(0, top + h / 2)
                emit(.tap(ViewportPoint(x: Points(random(20...370)), y: points(y))), after: Int64(random(80_000...400_000)))
            }
        }

        private mutating func planSwipe() {
            guard let row = visibleRow() else { return }
            emit(.swipeBegan(row: row))
            var offset: Int64 = 0
            for _ in 0..<random(4...14) {
                offset += Int64(random(2...12)) * 64
                emit(.swipeMoved(offset: points(offset)), after: frame120())
            }
            emit(.swipeEnded(velocity: Points(random(-400...600))), after: frame120())
        }

        private mutating func planRowEdit() {
            let sections = shadow.layout.sectionCount
            guard sections > 0 else { return }
            let s = random(0...sections - 1)
            let rows = shadow.layout.rowCount(in: s)
            switch random(0...3) {
            case 0:
                emit(.insertRows(at: [RowPath(s, random(0...rows))], heights: [Points([44, 60, 88][random(0...2)])]))
            case 1 where rows > 1:
                emit(.deleteRows(at: [RowPath(s, random(0...rows - 1))]))
            case 2 where rows > 1:
                emit(.moveRow(from: RowPath(s, random(0...rows - 1)), to: RowPath(s, random(0...rows - 1))))
            default:
                guard rows > 0 else { return }
                emit(.reloadRows(at: [RowPath(s, random(0...rows - 1))], heights: nil))
            }
        }

        private mutating func planEditor() {
            if shadow.editor != nil, chance(70) {
                for _ in 0..<random(1...3) { emit(.choose(option: random(0...3)), after: Int64(random(200_000...700_000))) }
                return
            }
            guard let row = visibleRow() else { return }
            emit(.toggleEditor(row: row, options: ["Spring", "Summer", "Autumn", "Winter"], multiple: chance(50), chosen: []))
        }
    }
}

/// SplitMix64: a tiny, fast, seeded generator with a fixed, documented sequence.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
