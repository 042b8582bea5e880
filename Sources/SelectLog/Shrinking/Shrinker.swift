/// How far a shrink has got, for progress reports.
public struct ShrinkProgress: Sendable {
    /// The stage running: "cut", "gestures", "samples", "set-up", "scrolls", "simplify" or "events".
    public var stage: String
    /// Events in the smallest passing script so far.
    public var events: Int
    /// Candidate scripts replayed so far.
    public var tests: Int
}

/// The outcome of a shrink.
public struct ShrinkResult: Sendable {
    /// The shrunk script: replayed from an empty table, every event is accepted and
    /// the expectation holds after the last one.
    public var events: [TimedEvent]
    /// Candidate scripts replayed.
    public var tests: Int
    /// Whether the shrink ran to the end, so that `events` is 1-minimal. False when it
    /// stopped at `Shrinker.maxTests`: `events` still replays and ends with the
    /// expectation holding, but deleting one more event might keep it so.
    public var isMinimal: Bool
}

/// Why a shrink could not start.
public enum ShrinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Event `index` (1-based) of the input is rejected by the engine.
    case invalidEvent(index: Int, reason: InvalidEvent)
    /// The expectation does not hold after the input's last event (nor after any).
    case expectationNeverHolds(events: Int)

    /// The reason, in words.
    public var description: String {
        switch self {
        case .invalidEvent(let index, let reason): "event \(index) is rejected: \(reason)"
        case .expectationNeverHolds(let events): "the expectation never holds in the \(events) event\(events == 1 ? "" : "s")"
        }
    }
}

/// Cuts a session down to a short script that still ends with an expectation holding,
/// the way a UI session is built: the tail after the expectation first holds, then whole
/// gestures and runs of ticks and scrolls, pan samples collapsed to their turning points,
/// set-up events merged, runs of scrolls replaced by one, and single events, until
/// the script is *1-minimal*: deleting any one event makes the expectation false or an
/// event invalid. Last, in a script of at most 1,000 events, the set-up that is left is
/// simplified (a `reload`'s later sections and last rows, its titles and default heights;
/// a `configure`'s settings), each change kept only when every later event lands as it
/// did, and all of them only when the script is still 1-minimal.
///
/// This is delta debugging (Zeller's ddmin) over units that know gestures: each level
/// tries deleting chunks of half, a quarter, … of the units, keeping the state after
/// the kept prefix so that a candidate replays only what follows the chunk.
///
/// ```swift
/// let shrinker = Shrinker(expectation: try StateExpectation("selected contains [3, 60]"))
/// let result = try shrinker.shrink(session)   // e.g. 200,000 events -> 6
/// ```
public struct Shrinker: Sendable {
    /// What must hold after the shrunk script's last event.
    public var expectation: StateExpectation
    /// The most candidates to replay, or nil for no limit. Each replays up to the rest of
    /// the session, and a session the shrink cannot reduce takes about as many candidates
    /// as events, so the work grows with the square of its length (`events == N` on
    /// 100,000 events: minutes). Past the limit the shrink finishes without replaying
    /// more and returns what it has (`ShrinkResult.isMinimal` false).
    public var maxTests: Int?

    /// A shrinker that keeps `expectation` holding, replaying at most `maxTests`
    /// candidates (nil: no limit).
    public init(expectation: StateExpectation, maxTests: Int? = nil) {
        self.expectation = expectation
        self.maxTests = maxTests
    }

    /// Shrinks `events`. The expectation must hold after some event of the input (the
    /// first such moment is where the shrink starts); `progress` is called between stages
    /// and every few hundred candidates.
    public func shrink(_ events: [TimedEvent], progress: ((ShrinkProgress) -> Void)? = nil) throws(ShrinkError) -> ShrinkResult {
        var run = ShrinkRun(expectation: expectation, maxTests: maxTests, progress: progress)
        var current = try run.cut(events)
        run.report("gestures", current.count)
        var units = run.units(of: current)
        run.removeChunks(&units, stage: "gestures")
        current = Array(units.joined())
        run.collapsePanSamples(&current)
        run.mergeSetUp(&current)
        run.collapseScrolls(&current)
        run.removeSingles(&current)
        // The set-up simplified on the short script; kept only if it is still 1-minimal
        // (a shorter table can make an event removable by another route, a clamp doing
        // a scroll's work: the script as it was is then the answer).
        var simplified = current
        run.simplify(&simplified)
        if simplified != current, run.isOneMinimal(simplified) { current = simplified }
        return ShrinkResult(events: current, tests: run.tests, isMinimal: !run.outOfTests)
    }
}

/// One shrink in progress: the oracle and the count of candidates.
struct ShrinkRun {
    let expectation: StateExpectation
    let maxTests: Int?
    let progress: ((ShrinkProgress) -> Void)?
    var tests = 0
    /// Whether a candidate went untried because `maxTests` were replayed.
    var outOfTests = false

    init(expectation: StateExpectation, maxTests: Int? = nil, progress: ((ShrinkProgress) -> Void)?) {
        self.expectation = expectation
        self.maxTests = maxTests
        self.progress = progress
    }

    /// Single events, to a fixpoint: after a deletion an earlier event may have become removable.
    mutating func removeSingles(_ events: inout [TimedEvent]) {
        var singles = events.map { [$0] }
        var before = Int.max
        while singles.count < before {
            before = singles.count
            removeChunks(&singles, stage: "events", from: 1)
        }
        events = Array(singles.joined())
    }

    func report(_ stage: String, _ events: Int) {
        progress?(ShrinkProgress(stage: stage, events: events, tests: tests))
    }

    /// Whether replaying `suffix` after `prefix` accepts every event and ends with the
    /// expectation holding; false, untried, once `maxTests` candidates were replayed (the
    /// deletion it would test is not made, so the script so far, which passed, stays).
    mutating func passes<S: Sequence<TimedEvent>>(_ prefix: TableState, _ suffix: S) -> Bool {
        if budgetSpent() { return false }
        tests += 1
        var state = prefix
        for e in suffix {
            do { try state.applyDiscardingChanges(e) } catch { return false }
        }
        return expectation.holds(in: state)
    }

    /// Whether `maxTests` candidates were replayed (and so no more will be; noted in
    /// `outOfTests`). A stage that builds each candidate whole (a copy of the script)
    /// asks this first and stops, or it would go on copying for candidates never tried.
    mutating func budgetSpent() -> Bool {
        guard let maxTests, tests >= maxTests else { return false }
        outOfTests = true
        return true
    }

    /// Whether `events` replays from an empty table to the expectation holding.
    mutating func passes(_ events: [TimedEvent]) -> Bool { passes(TableState(), events) }

    /// The input up to the first event after which the expectation holds.
    mutating func cut(_ events: [TimedEvent]) throws(ShrinkError) -> [TimedEvent] {
        var state = TableState()
        if expectation.holds(in: state) { return [] }
        for (i, e) in events.enumerated() {
            do { try state.applyDiscardingChanges(e) } catch { throw .invalidEvent(index: i + 1, reason: error) }
            if expectation.holds(in: state) {
                report("cut", i + 1)
                return Array(events[...i])
            }
        }
        throw .expectationNeverHolds(events: events.count)
    }

    /// ddmin over `units`: for chunk sizes from half the units down to 1, tries deleting
    /// each chunk in turn, keeping the deletion when the rest still passes. The state
    /// after the kept prefix is carried along, so a candidate replays only the events
    /// after the chunk. Starts at chunk size `from` when given.
    mutating func removeChunks(_ units: inout [[TimedEvent]], stage: String, from: Int? = nil) {
        var size = from ?? max(units.count / 2, 1)
        while true {
            var i = 0
            var prefix = TableState()
            while i < units.count {
                let end = min(i + size, units.count)
                if passes(prefix, units[end...].joined()) {
                    units.removeSubrange(i..<end)
                } else {
                    for e in units[i..<end].joined() {
                        // The kept units passed as a whole, so every event applies.
                        do { try prefix.applyDiscardingChanges(e) } catch { return }
                    }
                    i = end
                }
                if tests % 256 == 0, !outOfTests { report(stage, units.reduce(0) { $0 + $1.count }) }
            }
            if size == 1 { break }
            size = max(size / 2, 1)
        }
        report(stage, units.reduce(0) { $0 + $1.count })
    }
}
