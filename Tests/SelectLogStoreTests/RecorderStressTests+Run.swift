import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// The run itself: the threads, then every check of the log against what they saw.
extension StressRun {

    /// What one appending thread saw.
    struct Appender: Sendable {
        var events: [Event] = []
        var problems: [String] = []
        var invalid = 0, closed = 0, flushes = 0
    }

    /// What the whole run shares.
    struct Shared: Sendable {
        var done = 0
        var appended = 0
        var closeReturned = false
        var closeOutcomes: [String?] = []
        var snapshots: [TableState] = []
        var maxAcknowledged = 0
        var problems: [String] = []
    }

    func run() throws -> Outcome {
        var g = self.g
        let threads = self.threads
        var outcome = Outcome()
        var failures = 0
        func check(_ ok: Bool, _ what: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
            if !ok {
                failures += 1
                if failures <= 12 { Issue.record("\(what()) — \(context)", sourceLocation: sourceLocation) }
            }
        }
        try? FileManager.default.removeItem(atPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try Recorder(creating: path, options: options)
        var config = ConfigurationPatch()
        config.allowsMultipleSelection = true
        var setUp = 0
        // Set up at 1 ms, so that an event at time zero is always refused as out of order.
        try recorder.append(TimedEvent(.configure(config), t: .milliseconds(1)))
        try recorder.append(TimedEvent(reload("s"), t: .milliseconds(1)))
        setUp = 2

        let shared = LockedBox(Shared())
        let appenders = LockedBox([Appender](repeating: Appender(), count: threads))
        let workers = threads + readers + closers
        var spawned: [Thread] = []

        // Appenders.
        for k in 0..<threads {
            let threadSeed = g.next()
            let count = eventsPerThread
            let generator = self
            spawned.append(Thread {
                var tg = SeededRandom(seed: threadSeed)
                var me = Appender()
                var panning = false
                var sawClosed = false
                for i in 0..<count {
                    let (timed, stamped, mustFail) = generator.nextEvent(k, panning: &panning, g: &tg)
                    let closedBefore = shared.withLockedValue { $0.closeReturned }
                    var result: Result<TableChanges, LogError>
                    do throws(LogError) {
                        result = .success(stamped ? try recorder.append(timed.event) : try recorder.append(timed))
                    } catch {
                        result = .failure(error)
                    }
                    switch result {
                    case .success:
                        me.events.append(timed.event)
                        if mustFail { me.problems.append("append \(i) of thread \(k) of an invalid event returned: \(timed)") }
                        if closedBefore { me.problems.append("append \(i) of thread \(k) returned after close() had returned: \(timed.event)") }
                        if sawClosed { me.problems.append("append \(i) of thread \(k) returned after an earlier append threw .closed") }
                        shared.withLockedValue { $0.appended += 1 }
                    case .failure(let e):
                        switch e.code {
                        case .invalidEvent:
                            me.invalid += 1
                            if closedBefore || sawClosed { me.problems.append("append \(i) of thread \(k) after close: .invalidEvent, not .closed: \(e)") }
                        case .closed:
                            me.closed += 1
                            sawClosed = true
                        default:
                            me.problems.append("append \(i) of thread \(k) threw \(e.code): \(e)")
                        }
                    }
                    // Past the close, a few more to see them refused, then stop.
                    if sawClosed && me.closed > 8 { break }
                    if i % 37 == 36 {
                        me.flushes += 1
                        do throws(LogError) { try recorder.flush() } catch {
                            if error.code != .io && error.code != .closed { me.problems.append("flush on thread \(k) threw \(error.code): \(error)") }
                        }
                    }
                    if i % 53 == 52 { usleep(UInt32.random(in: 0...300, using: &tg)) }
                }
                appenders.withLockedValue { $0[k] = me }
                shared.withLockedValue { $0.done += 1 }
                shared.wake()
            })
        }
        // Readers: flush, state, eventCount, acknowledged, each checked against the last.
        for r in 0..<readers {
            let readerSeed = g.next()
            let durability = options.durability
            spawned.append(Thread {
                var rg = SeededRandom(seed: readerSeed)
                var lastCount = 0, lastAcknowledged = 0, lastStateEvents = 0
                var problems: [String] = []
                var snapshots: [TableState] = []
                var round = 0
                while shared.withLockedValue({ $0.done < threads || !$0.closeReturned }) {
                    round += 1
                    let acknowledged = recorder.acknowledged
                    let count = recorder.eventCount
                    if count < lastCount { problems.append("reader \(r): eventCount went back from \(lastCount) to \(count)") }
                    if acknowledged < lastAcknowledged { problems.append("reader \(r): acknowledged went back from \(lastAcknowledged) to \(acknowledged)") }
                    if acknowledged > count { problems.append("reader \(r): acknowledged \(acknowledged) past the eventCount \(count) read after it") }
                    lastCount = count
                    lastAcknowledged = acknowledged
                    switch Int.random(in: 0..<4, using: &rg) {
                    case 0:
                        do throws(LogError) {
                            try recorder.flush()
                            let after = recorder.acknowledged
                            if after < count { problems.append("reader \(r): flush returned with \(after) acknowledged, \(count) appended before it (\(durability))") }
                            lastAcknowledged = max(lastAcknowledged, after)
                        } catch {
                            if error.code != .io && error.code != .closed { problems.append("reader \(r): flush threw \(error.code): \(error)") }
                        }
                    case 1:
                        let state = recorder.state
                        if state.events < lastStateEvents { problems.append("reader \(r): state went back from \(lastStateEvents) events to \(state.events)") }
                        if state.events < count { problems.append("reader \(r): state of \(state.events) events after eventCount \(count)") }
                        lastStateEvents = state.events
                        if snapshots.count < 12, Int.random(in: 0..<4, using: &rg) == 0 { snapshots.append(state) }
                    default:
                        usleep(UInt32.random(in: 0...200, using: &rg))
                    }
                    if round % 64 == 0 { usleep(100) }
                }
                let acknowledged = lastAcknowledged
                shared.withLockedValue {
                    $0.problems += problems
                    $0.snapshots += snapshots
                    $0.maxAcknowledged = max($0.maxAcknowledged, acknowledged)
                    $0.done += 1
                }
                shared.wake()
            })
        }
        // Closers.
        for _ in 0..<closers {
            let mode = closeMode, delay = closeDelayMicros, after = closeAfterAppends
            spawned.append(Thread {
                switch mode {
                case 0: shared.withLockedValue(waitingFor: { $0.done >= threads }, timeout: .seconds(120)) { _, _ in }
                case 1: usleep(delay)
                default:
                    let end = ContinuousClock.now + .seconds(120)
                    while shared.withLockedValue({ $0.appended < after && $0.done < threads }), ContinuousClock.now < end { usleep(50) }
                }
                var outcome: String?
                do throws(LogError) { try recorder.close() } catch { outcome = "\(error.code): \(error)" }
                shared.withLockedValue {
                    $0.closeReturned = true
                    $0.closeOutcomes.append(outcome)
                    $0.done += 1
                }
                shared.wake()
            })
        }
        spawned.forEach { $0.start() }
        let finished = shared.withLockedValue(waitingFor: { $0.done >= workers }, timeout: .seconds(90)) { s, _ in s.done }
        guard finished >= workers else {
            let w = recorder.writer.withLockedValue { w in
                "published \(w.published) taken \(w.taken) flushTarget \(w.flushTarget) written \(w.writtenUpTo) synced \(w.syncedUpTo) "
                    + "closing \(w.closing) failure \(String(describing: w.failure)) workerDone \(w.workerDone) offered \(w.offered.count) offersTaken \(w.offersTaken)"
            }
            check(false, "HANG: \(finished) of \(workers) threads ended in 90 s; writer: \(w)")
            outcome.failed = true
            // The threads are left as they are: the recorder is stuck.
            _ = Unmanaged.passRetained(recorder)
            return outcome
        }

        let s = shared.withLockedValue { $0 }
        let mine = appenders.withLockedValue { $0 }
        for a in mine {
            outcome.appended += a.events.count
            outcome.invalid += a.invalid
            outcome.closedAppends += a.closed
            outcome.flushes += a.flushes
            for e in a.events { outcome.kinds[e.typeName, default: 0] += 1 }
            for p in a.problems { check(false, p) }
        }
        for p in s.problems { check(false, p) }

        // The close: one outcome for every caller; none unless a write failed.
        // `writeFailed`: the writer thread's write failed (the log holds a prefix of the
        // events); `indexFailed`: only close()'s index (the log holds every event).
        let writeFailed = options.failsWritesPast != .max && recorder.writer.withLockedValue { $0.failure != nil }
        let indexFailed = !writeFailed && options.failsWritesPast != .max && s.closeOutcomes.contains { $0 != nil }
        outcome.writeFailed = writeFailed || indexFailed
        check(Set(s.closeOutcomes.map { $0 ?? "nil" }).count == 1, "close() callers saw different outcomes: \(s.closeOutcomes)")
        if !writeFailed && !indexFailed { check(s.closeOutcomes.allSatisfy { $0 == nil }, "close() threw without a failed write: \(s.closeOutcomes)") }
        if writeFailed || indexFailed {
            check(s.closeOutcomes.allSatisfy { $0?.contains("write failed") == true }, "close() after a failed write: \(s.closeOutcomes)")
        }
        // Refused after close, and the count unchanged.
        let count = recorder.eventCount
        do throws(LogError) {
            try recorder.append(.tick)
            check(false, "an append after close() returned")
        } catch {
            check(error.code == .closed, "an append after close() threw \(error.code), not .closed: \(error)")
        }
        do throws(LogError) {
            try recorder.append(.select(rows: [RowPath(0, 40_000_000)]))
            check(false, "an invalid append after close() returned")
        } catch {
            check(error.code == .closed, "an invalid append after close() threw \(error.code), not .closed: \(error)")
        }
        check(recorder.eventCount == count, "eventCount moved after close(): \(count) then \(recorder.eventCount)")
        let returned = mine.reduce(0) { $0 + $1.events.count }
        check(count == setUp + returned, "the recorder counts \(count) events; \(setUp) set up and \(returned) appends returned")
        let final = recorder.state
        check(final.events == count, "the final state has \(final.events) events, eventCount \(count)")

        // The log.
        let log: LogReader
        do { log = try LogReader(path: path) } catch {
            check(false, "LogReader(path:) failed: \(error)")
            outcome.failed = true
            return outcome
        }
        defer { log.close() }
        let n = log.eventCount
        let events: [TimedEvent]
        do { events = try log.events() } catch {
            check(false, "LogReader.events() failed: \(error)")
            outcome.failed = true
            return outcome
        }
        check(events.count == n, "events() read \(events.count) events, eventCount \(n)")
        if writeFailed {
            check(n >= s.maxAcknowledged, "the log holds \(n) events, \(s.maxAcknowledged) were acknowledged")
            check(n <= count, "the log holds \(n) events, the recorder counts \(count)")
        } else {
            check(n == count, "the log holds \(n) events, the recorder counts \(count)")
        }
        // Each thread's events in its own order, and nothing else.
        var perThread = [[Event]](repeating: [], count: threads)
        var logSetUp = 0
        for (i, e) in events.enumerated() {
            guard let k = Self.maker(of: e.event, threads: threads), k == Self.setUp || (0..<threads).contains(k) else {
                check(false, "event \(i) of the log was made by no thread: \(e)")
                continue
            }
            if k == Self.setUp { logSetUp += 1 } else { perThread[k].append(e.event) }
        }
        check(logSetUp == min(setUp, n), "the log holds \(logSetUp) set-up events")
        for k in 0..<threads {
            let expected = mine[k].events
            let got = perThread[k]
            let matches = writeFailed ? Array(expected.prefix(got.count)) == got : expected == got
            if !matches {
                let first = zip(expected, got).enumerated().first { $0.element.0 != $0.element.1 }
                check(false, "thread \(k): \(expected.count) appends returned, the log holds \(got.count) of its events; "
                        + "first difference at its event \(first?.offset ?? min(expected.count, got.count)): "
                        + "appended \(first.map { "\($0.element.0)" } ?? "-"), logged \(first.map { "\($0.element.1)" } ?? "-")")
            }
        }
        // Stamps never go back.
        let stamps = events.compactMap(\.t)
        if let i = stamps.indices.dropLast().first(where: { stamps[$0] > stamps[$0 + 1] }) {
            check(false, "stamps go back at the \(i)th stamped event: \(stamps[i]) then \(stamps[i + 1])")
        }
        // The state at the end, by its checkpoints and replayed from the start.
        var replayed = TableState()
        var replayFailed = false
        for (i, e) in events.enumerated() {
            do { try replayed.apply(e) } catch {
                check(false, "replaying the log, event \(i) was refused: \(error) (\(e))")
                replayFailed = true
                break
            }
        }
        do {
            let atEnd = try log.state(at: n)
            if !replayFailed { check(atEnd == replayed, "the log's state(at: \(n)) is not its replay from the start") }
            if !writeFailed { check(atEnd == final, "the log's state(at: \(n)) is not the recorder's final state") }
        } catch {
            check(false, "state(at: \(n)) failed: \(error)")
        }
        if !writeFailed, !replayFailed { check(replayed == final, "the log replayed from the start is not the recorder's final state") }
        // Every state read mid-run is the log's at its count.
        for snapshot in s.snapshots where snapshot.events <= n {
            do {
                let logged = try log.state(at: snapshot.events)
                check(logged == snapshot, "a state read mid-run at \(snapshot.events) events is not the log's state(at:) there")
            } catch {
                check(false, "state(at: \(snapshot.events)) failed: \(error)")
            }
        }
        // Intact.
        do {
            let report = try LogReader.verify(path: path, replaying: true)
            if writeFailed || indexFailed {
                check(report.intactEvents == n, "verify: \(report.intactEvents) intact events of \(n): \(String(describing: report.problem))")
            } else {
                check(report.problem == nil, "verify found a problem: \(String(describing: report.problem))")
                check(report.intactEvents == n, "verify: \(report.intactEvents) intact events of \(n)")
            }
        } catch {
            check(false, "verify threw \(error)")
        }
        outcome.failed = failures > 0
        return outcome
    }
}
