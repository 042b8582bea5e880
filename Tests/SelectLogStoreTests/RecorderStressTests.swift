import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// A seeded stress of `Recorder` from several threads at once, with tiny options (a queue
/// of a few slots, batches of 1–7 events, a checkpoint every 1–64 events, a queue weight
/// of a few bytes, sometimes a write that fails part-way), flushes and reads of `state`,
/// `eventCount` and `acknowledged` racing the appends, and `close()` (from one to three
/// threads) racing them too.
///
/// Every run checks: nothing hangs (every thread ends within a minute); every append that
/// returned is in the log, each thread's events in its own order (each event carries the
/// thread that made it: in the 1/64 pt of a point, the section of a row or a title), and
/// nothing else is; the log's state at its end, and replayed from its start, is the
/// recorder's; every state read mid-run is the log's at that count; `verify` finds the log
/// intact; appends after `close()` returned, or after one saw `.closed`, throw `.closed`.
///
/// It runs about 6 s (debug). `SELECTLOG_STRESS_SECONDS=600` runs it ten minutes;
/// `SELECTLOG_STRESS_SEED=N` runs that one seed (a failure prints its seed and options).
@Suite("Recorder under stress")
struct RecorderStressTests {
    static let seconds: Double = {
        let value = ProcessInfo.processInfo.environment["SELECTLOG_STRESS_SECONDS"].flatMap(Double.init) ?? 6
        return max(0.1, value)
    }()
    static let onlySeed: UInt64? = ProcessInfo.processInfo.environment["SELECTLOG_STRESS_SEED"].flatMap { UInt64($0) }
    static let firstSeed: UInt64 = ProcessInfo.processInfo.environment["SELECTLOG_STRESS_FIRST_SEED"].flatMap { UInt64($0) } ?? 1

    @Test("threads appending, flushing, reading and closing a recorder with tiny options: nothing lost, reordered, stuck or accepted after close",
          .timeLimit(.minutes(max(1, Int(RecorderStressTests.seconds / 60) + 3))))
    func stress() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let deadline = ContinuousClock.now + .milliseconds(Int(Self.seconds * 1000))
        var seed = Self.onlySeed ?? Self.firstSeed
        var runs = 0
        var totals = StressTotals()
        while true {
            let outcome = try StressRun(seed: seed, directory: dir).run()
            runs += 1
            totals.add(outcome)
            if outcome.failed || Self.onlySeed != nil || ContinuousClock.now >= deadline { break }
            seed += 1
        }
        print("RecorderStressTests: \(runs) runs, seeds \(Self.onlySeed ?? Self.firstSeed)...\(seed); \(totals)")
    }
}

/// What the runs did, to show that they exercised what they mean to.
struct StressTotals: CustomStringConvertible {
    var appended = 0, invalid = 0, closedAppends = 0, failedRuns = 0, flushes = 0
    var kinds: [String: Int] = [:]
    mutating func add(_ o: StressRun.Outcome) {
        kinds.merge(o.kinds, uniquingKeysWith: +)
        appended += o.appended
        invalid += o.invalid
        closedAppends += o.closedAppends
        failedRuns += o.writeFailed ? 1 : 0
        flushes += o.flushes
    }
    var description: String {
        "\(appended) appends returned, \(invalid) invalid, \(closedAppends) refused as closed, \(flushes) flushes, \(failedRuns) runs whose write failed; returned: \(kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
    }
}

/// One seeded run.
struct StressRun {
    struct Outcome {
        var failed = false
        var appended = 0, invalid = 0, closedAppends = 0, flushes = 0
        var writeFailed = false
        var kinds: [String: Int] = [:]
    }

    let seed: UInt64
    let path: String
    var g: SeededRandom
    var options = Recorder.Options()
    let threads: Int
    let eventsPerThread: Int
    /// 0: close once every appender is done; 1: after a delay; 2: once this many appends returned.
    let closeMode: Int
    let closeDelayMicros: UInt32
    let closeAfterAppends: Int
    let closers: Int
    let readers: Int
    /// Rows of each section of every reload (there are `threads` sections).
    static let rows = 40

    init(seed: UInt64, directory: URL) {
        self.seed = seed
        path = directory.appendingPathComponent("stress-\(seed).slog").path
        var g = SeededRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ 0x5EED)
        threads = Int.random(in: 2...5, using: &g)
        eventsPerThread = Int.random(in: 60...500, using: &g)
        options.queueCapacity = [1, 2, 2, 4, 4, 8, 16].randomElement(using: &g)!
        options.batchEvents = Int.random(in: 1...7, using: &g)
        options.batchBytes = Bool.random(using: &g) ? Int.random(in: 1...256, using: &g) : 64 * 1024
        switch Int.random(in: 0..<20, using: &g) {
        case 0: options.checkpointInterval = 0  // no checkpoints: no offer ever
        case 1, 2: options.checkpointInterval = Int.random(in: 1...7, using: &g)
        default: options.checkpointInterval = Int.random(in: 8...64, using: &g)
        }
        options.putsOffLargeCheckpoints = Bool.random(using: &g)
        options.flushIntervalMilliseconds = Int.random(in: 1...20, using: &g)
        options.durability = [.none, .interval(milliseconds: 0), .interval(milliseconds: 3), .always].randomElement(using: &g)!
        options.queueWeight = [1, 16, 64, 512, 4096].randomElement(using: &g)!
        options.storesUncompressed = Int.random(in: 0..<4, using: &g) == 0
        options.salt = g.next()
        // One run in four fails its writes part-way (a full disk).
        if Int.random(in: 0..<4, using: &g) == 0 { options.failsWritesPast = Int.random(in: 300...6_000, using: &g) }
        closeMode = Int.random(in: 0...2, using: &g)
        closeDelayMicros = UInt32.random(in: 0...30_000, using: &g)
        closeAfterAppends = Int.random(in: 0...(threads * eventsPerThread), using: &g)
        closers = Int.random(in: 1...3, using: &g)
        readers = Int.random(in: 1...2, using: &g)
        self.g = g
    }

    var context: String {
        "seed \(seed) (SELECTLOG_STRESS_SEED=\(seed)): \(threads) threads × \(eventsPerThread), queueCapacity \(options.queueCapacity), "
            + "batchEvents \(options.batchEvents), batchBytes \(options.batchBytes), checkpointInterval \(options.checkpointInterval), "
            + "putsOff \(options.putsOffLargeCheckpoints), flushInterval \(options.flushIntervalMilliseconds) ms, \(options.durability), "
            + "queueWeight \(options.queueWeight), failsWritesPast \(options.failsWritesPast), close mode \(closeMode) "
            + "(\(closeDelayMicros) µs, after \(closeAfterAppends)), \(closers) closers, \(readers) readers"
    }

    // MARK: Events, each telling which thread made it

    /// A length whose 1/64 pt say which thread made the event (`thread + 1`).
    static func tagged(_ points: Int, _ thread: Int) -> Points { Points(raw: Int64(points) * 64 + Int64(thread + 1)) }
    static func tag(_ p: Points) -> Int { Int(p.raw & 63) - 1 }
    static let setUp = -1

    /// The thread that made `event` (`setUp` for the events before the threads start).
    static func maker(of event: Event, threads: Int) -> Int? {
        switch event {
        case .tap(let p), .panBegan(let p, _), .panMoved(let p): return tag(p.x)
        case .panEnded(let p?, _): return tag(p.x)
        case .scroll(.to(let y)?, _, _): return tag(y)
        case .select(let rows), .deselect(let rows), .deleteRows(let rows): return rows.first?.section
        case .insertRows(let rows, _): return rows.first?.section
        case .reload(let sections):
            guard let title = sections.first?.title else { return nil }
            return title == "s" ? setUp : Int(title.dropFirst())
        case .configure: return setUp
        // Events without a field to carry it: each kind is one thread's.
        case .tick: return 0
        case .selectAll: return 1 % threads
        case .deselectAll: return 2 % threads
        case .undo: return 3 % threads
        default: return nil
        }
    }

    func reload(_ title: String) -> Event {
        .reload(sections: (0..<threads).map { SectionSpec(rows: Self.rows, title: $0 == 0 ? title : nil) })
    }

    /// The next event of thread `k`; whether the recorder stamps it (`append(_: Event)`), or
    /// it is appended as it is (a `TimedEvent`, with no time or one); and whether it must be
    /// refused (invalid whatever the state). `panning`: the thread's own pan is under way.
    func nextEvent(_ k: Int, panning: inout Bool, g: inout SeededRandom) -> (event: TimedEvent, stamp: Bool, mustFail: Bool) {
        let x = Self.tagged(Int.random(in: 5...300, using: &g), k)
        let y = Points(Int.random(in: 0...400, using: &g))
        let point = ViewportPoint(x: x, y: y)
        if panning {
            if Int.random(in: 0..<4, using: &g) == 0 {
                panning = false
                return (TimedEvent(.panEnded(point, targetOffset: nil)), true, false)
            }
            return (TimedEvent(.panMoved(point)), true, false)
        }
        let row = { (g: inout SeededRandom) in RowPath(k, Int.random(in: 0..<(Self.rows / 2), using: &g)) }
        let event: Event
        var mustFail = false
        var timed: Micros?? = .none
        switch Int.random(in: 0..<100, using: &g) {
        case 0..<15:
            panning = true
            event = .panBegan(point, fingers: 1)
        case 15..<30: event = .tap(point)
        case 30..<42: event = .scroll(.to(Self.tagged(Int.random(in: 0...2_000, using: &g), k)), phase: nil, target: nil)
        case 42..<54: event = .select(rows: [row(&g), row(&g)])
        case 54..<60: event = .deselect(rows: [row(&g)])
        case 60..<64: event = reload("t\(k)")
        case 64..<67: event = .insertRows(at: [RowPath(k, 0)], heights: nil)
        case 67..<70: event = .deleteRows(at: [RowPath(k, Self.rows / 2)])
        case 70..<78:
            // The events without a tag, each kind one thread's.
            switch k {
            case 0: event = .tick
            case 1: event = .selectAll
            case 2: event = .deselectAll
            case 3: event = .undo
            default: event = .tap(point)
            }
        case 78..<84:
            // With no time: stamped by nobody.
            event = .tap(point)
            timed = .some(nil)
        // Refused whatever the state.
        case 84..<87:
            mustFail = true
            event = .select(rows: [RowPath(k, 40_000_000)])
        case 87..<90:
            mustFail = true
            timed = .some(.zero)
            event = .tap(point)
        case 90..<93:
            mustFail = true
            event = .panMoved(ViewportPoint(x: Points(raw: Points.limit.raw + 64 + Int64(k + 1)), y: y))
        case 93..<96:
            mustFail = true
            event = .reload(sections: [SectionSpec(rows: -1, title: "t\(k)")])
        default:
            event = .scroll(.to(Self.tagged(Int.random(in: 0...50, using: &g), k)), phase: nil, target: nil)
        }
        switch timed {
        case .none: return (TimedEvent(event), true, mustFail)
        case .some(let t): return (TimedEvent(event, t: t), false, mustFail)
        }
    }
}
