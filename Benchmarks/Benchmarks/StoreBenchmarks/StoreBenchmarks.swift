#if canImport(Glibc)
import Glibc
#endif
import Benchmark
import Foundation
import SelectLog
import SelectLogStore

/// A benchmark's set-up step, which must succeed: a set-up that failed silently once left
/// the core benchmarks measuring an empty table (`CoreBenchmarks.setUp`).
@discardableResult
func must<T>(_ what: String, _ body: () throws -> T) -> T {
    do {
        return try body()
    } catch {
        preconditionFailure("a benchmark's set-up failed: \(what): \(error)")
    }
}

/// A step inside a measured loop, which must succeed: ignored, a refused append or a
/// failed replay would be measured as if it were the work, unseen. The per-event loops
/// are checked after they end instead (`checkAppended`).
@inline(__always) @discardableResult
func measured<T>(_ body: () throws -> T) -> T {
    do {
        return try body()
    } catch {
        failedInMeasurement(error)
    }
}

@inline(never)
func failedInMeasurement(_ error: any Error) -> Never {
    preconditionFailure("a step in a measured loop failed: \(error)")
}

/// After a measured loop of appends (or `apply`s) of the session's events `start..<end`:
/// that the recorder's or engine's event count is `end`, so that none was refused (a
/// refused event is not counted). Outside the loop, which stays as plain as it can be.
func checkAppended(_ count: Int, from start: Int, to end: Int) {
    precondition(count == end, "\(end - count) of the session's events \(start)..<\(end) were refused in a measured loop")
}

/// The standard synthetic session, one million events, shared by the write benchmarks.
let session = Array(SyntheticSession(seed: 1, count: 1_000_000))
let scratch = "/tmp/selectlog-bench"

/// A 10,000,000-event log of the standard session, made once and kept between runs.
func tenMillionLog() -> String { standardLog(events: 10_000_000, name: "10m") }

/// The standard session's first 100,000 events as a log, made once and kept between runs.
func hundredThousandLog() -> String { standardLog(events: 100_000, name: "100k") }

/// A 10,000,000-event log of the random-walk session (`RandomWalkSession`, a generator
/// unlike the standard one in every respect a codec could be tuned to: its log takes
/// about twice the bytes an event), made once and kept between runs.
func tenMillionRandomWalkLog() -> String {
    sessionLog(RandomWalkSession(seed: 1, count: 10_000_000), events: 10_000_000, name: "10m-walk")
}

/// The first `events` events of the standard session as a log, made once and kept between runs.
func standardLog(events: Int, name: String) -> String {
    sessionLog(SyntheticSession(seed: 1, count: events), events: events, name: name)
}

/// `session`, of `events` events, as a log made once and kept between runs (the file
/// name says what it holds, and a log the current engine would not trust, or of another
/// format version than this build writes, is made again).
func sessionLog(_ session: some Sequence<TimedEvent>, events: Int, name: String) -> String {
    let path = "\(scratch)-\(name)-seed1-k\(Recorder.Options().checkpointInterval)-s\(TableState.snapshotVersion).slog"
    if let log = try? LogReader(path: path), log.eventCount == events, log.checkpointsTrusted,
       formatVersion(of: path) == writtenFormatVersion {
        return path
    }
    var options = Recorder.Options()
    options.durability = .none
    let recorder = must("creating \(path)") { try Recorder(creating: path, options: options, replacingExisting: true) }
    for e in session { must("appending to \(path)") { try recorder.append(e) } }
    must("closing \(path)") { try recorder.close() }
    return path
}

/// The format version in the file header at `path` (bytes 8-9), or nil.
func formatVersion(of path: String) -> UInt16? {
    guard let handle = FileHandle(forReadingAtPath: path), let head = try? handle.read(upToCount: 10), head.count == 10 else { return nil }
    try? handle.close()
    return UInt16(head[8]) | UInt16(head[9]) << 8
}

/// The format version this build writes, read from an empty log it makes (the package's
/// own constant is not visible to another package): a log kept from a build of an older
/// format would measure that format's reading.
let writtenFormatVersion: UInt16? = {
    let path = "\(scratch)-version.slog"
    var options = Recorder.Options()
    options.durability = .none
    guard let recorder = try? Recorder(creating: path, options: options, replacingExisting: true), (try? recorder.close()) != nil else {
        return nil
    }
    return formatVersion(of: path)
}()

/// The random-walk session, one million events, for the write benchmarks' second session.
let walkSession = Array(RandomWalkSession(seed: 1, count: 1_000_000))

/// Records `events` to a fresh log (durability `.none`), once per iteration.
func recordAll(_ events: [TimedEvent], _ benchmark: Benchmark) {
    var options = Recorder.Options()
    options.durability = .none
    for _ in benchmark.scaledIterations {
        // The loop as plain as it can be, its work checked after it (`checkAppended`):
        // any check inside it (a closure, a catch, a count of results) cost this
        // benchmark 5% of its rate, the library unchanged (alternating runs, 2026-12-05).
        guard let recorder = try? Recorder(creating: "\(scratch)-w.slog", options: options, replacingExisting: true) else {
            preconditionFailure("a benchmark's set-up failed: the recorder could not be created")
        }
        for e in events { _ = try? recorder.append(e) }
        checkAppended(recorder.eventCount, from: 0, to: events.count)
        must("closing the recorder") { try recorder.close() }
    }
}

/// Applies `events` to a fresh state with the engine alone, once per iteration.
func applyAll(_ events: [TimedEvent], _ benchmark: Benchmark) {
    for _ in benchmark.scaledIterations {
        var state = TableState()
        for e in events { _ = try? state.apply(e) }
        checkAppended(state.events, from: 0, to: events.count)
    }
}

/// Seeks `log` to a random event (`seeks`), once per iteration.
func seekRandomly(_ log: LogReader, _ benchmark: Benchmark) {
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        let n = Int(seeks.next() % UInt64(log.eventCount + 1))
        blackHole(measured { try log.state(at: n) }.events)
    }
}

/// Opens `path` and replays all of it from its first event, once per iteration.
func replayFromDisk(_ path: String, _ benchmark: Benchmark) {
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        let log = measured { try LogReader(path: path) }
        var state = TableState()
        measured { try log.replay(into: &state, to: log.eventCount) }
        blackHole(state.events)
    }
}

/// Reopens a copy of `log` for appending, once per iteration; only the reopening is measured.
func reopenForAppend(_ log: String, _ benchmark: Benchmark) {
    let copy = "\(scratch)-reopen.slog"
    for _ in benchmark.scaledIterations {
        _ = try? FileManager.default.removeItem(atPath: copy)  // absent the first time
        must("copying \(log)") { try FileManager.default.copyItem(atPath: log, toPath: copy) }
        benchmark.startMeasurement()
        let recorder = measured { try Recorder(appendingTo: copy) }
        benchmark.stopMeasurement()
        blackHole(recorder.eventCount)
        must("closing the reopened copy") { try recorder.close() }
    }
}

/// The readers the warm random seeks share, by log, each opened once per run.
nonisolated(unsafe) var sharedReaders: [String: LogReader] = [:]

/// The reader of the log `makeLog` makes (or finds kept), opened the first time `name` is asked for.
func sharedReader(_ name: String, _ makeLog: () -> String) -> LogReader {
    if let reader = sharedReaders[name] { return reader }
    let path = makeLog()
    let reader = must("opening \(path)") { try LogReader(path: path) }
    sharedReaders[name] = reader
    return reader
}

/// Where the random seeks draw their next event: one generator for the whole run, so
/// that every sample seeks somewhere else (a generator made per sample always drew
/// the same event).
nonisolated(unsafe) var seeks = SplitMix64(seed: 42)

/// The recorder the caller-side benchmark appends to, warmed up with the session's
/// first 100,000 events, and where in the session the next sample continues: every
/// sample appends 1,000 events of the steady-state session, never its first ones.
nonisolated(unsafe) var steadyRecorder: Recorder?
nonisolated(unsafe) var steadyNext = 0

func warmRecorder() -> Recorder? {
    if let steadyRecorder { return steadyRecorder }
    var options = Recorder.Options()
    options.durability = .none
    let recorder = must("creating the warm recorder's log") { try Recorder(creating: "\(scratch)-a.slog", options: options, replacingExisting: true) }
    for e in session[..<100_000] { must("warming the recorder") { try recorder.append(e) } }
    steadyRecorder = recorder
    steadyNext = 100_000
    return recorder
}

/// The engine the caller-side baseline applies to, warmed up as `warmRecorder()`'s is,
/// and where in the session its next sample continues.
nonisolated(unsafe) var steadyEngine: TableState?
nonisolated(unsafe) var steadyEngineNext = 0

/// Takes the warmed engine out of `steadyEngine`, so that the caller holds its storage
/// uniquely (a copy left in the global would make the first mutation copy it all).
func warmEngine() -> TableState {
    if let state = steadyEngine {
        steadyEngine = nil
        return state
    }
    var state = TableState()
    for e in session[..<100_000] { must("warming the engine") { try state.apply(e) } }
    steadyEngineNext = 100_000
    return state
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        maxDuration: .seconds(5),
        maxIterations: 5
    )

    // MARK: Writing 1M events: selectlog vs raw structs (a) vs JSON Lines (b)

    Benchmark("write1M.recorder") { benchmark in recordAll(session, benchmark) }
    Benchmark("write1M.rawStructs.baseline") { benchmark in
        for _ in benchmark.scaledIterations { writeRawStructs(session, to: "\(scratch)-w.raw") }
    }
    Benchmark("write1M.jsonLines.baseline") { benchmark in
        for _ in benchmark.scaledIterations { writeJSONLines(session, to: "\(scratch)-w.jsonl") }
    }

    // MARK: Caller-side append: 1,000 appends per iteration (per-append = p50 / 1000)

    Benchmark("append1000.callerSide", configuration: .init(timeUnits: .microseconds, maxDuration: .seconds(3), maxIterations: 800)) { benchmark in
        guard let recorder = warmRecorder() else { return }
        // The session and the position in locals: the measured loop reads no global
        // (each read of one goes through its accessor), only the appends.
        let events = session
        var next = steadyNext
        defer { steadyNext = next }
        for _ in benchmark.scaledIterations {
            guard next + 1000 <= events.count else { break }
            let before = next
            benchmark.startMeasurement()
            for _ in 0..<1000 {
                _ = try? recorder.append(events[next])
                next += 1
            }
            benchmark.stopMeasurement()
            checkAppended(recorder.eventCount, from: before, to: next)
            // The writer thread catches up between samples, as it does between an app's
            // events (an app appends at most a few hundred a second); sustained appends
            // faster than the writer encodes are `write1M.recorder`'s measure.
            must("flushing between samples") { try recorder.flush() }
        }
    }
    // The engine alone on the same steady-state events, 1,000 per iteration: what the
    // caller-side append costs beyond `apply` is the difference.
    Benchmark("append1000.callerSide.apply.baseline", configuration: .init(timeUnits: .microseconds, maxDuration: .seconds(3), maxIterations: 800)) { benchmark in
        var state = warmEngine()
        let events = session
        var next = steadyEngineNext
        defer {
            steadyEngineNext = next
            steadyEngine = state
        }
        for _ in benchmark.scaledIterations {
            guard next + 1000 <= events.count else { break }
            let before = next
            benchmark.startMeasurement()
            for _ in 0..<1000 {
                _ = try? state.apply(events[next])
                next += 1
            }
            benchmark.stopMeasurement()
            checkAppended(state.events, from: before, to: next)
        }
    }
    // The engine alone on the same events: the recorder's throughput is compared with it.
    Benchmark("apply1M.engine.baseline") { benchmark in applyAll(session, benchmark) }

    // The recorder against the engine on a session the codec was not tuned on.
    Benchmark("write1M.recorder.randomWalk") { benchmark in recordAll(walkSession, benchmark) }
    Benchmark("apply1M.engine.randomWalk.baseline") { benchmark in applyAll(walkSession, benchmark) }

    // MARK: Reading the 10M-event log

    Benchmark("replay10M.fromDisk", configuration: .init(maxIterations: 3)) { benchmark in
        replayFromDisk(tenMillionLog(), benchmark)
    }
    // The same target on a session the codec was not tuned on: twice the bytes an event
    // to decode, gestures of 5-120 samples, relative scrolls.
    Benchmark("replay10M.fromDisk.randomWalk", configuration: .init(maxIterations: 3)) { benchmark in
        replayFromDisk(tenMillionRandomWalkLog(), benchmark)
    }

    // Reopening a log to append to it (an app relaunched on its session's log): the
    // 10M-event log against the same session's first 100,000 events. Each sample
    // reopens a fresh copy (made outside the measurement), and appends nothing.
    Benchmark("reopen10M.forAppend", configuration: .init(maxIterations: 3)) { benchmark in
        reopenForAppend(tenMillionLog(), benchmark)
    }
    Benchmark("reopen10M.forAppend.baseline", configuration: .init(maxIterations: 3)) { benchmark in
        reopenForAppend(hundredThousandLog(), benchmark)
    }

    // Time travel: random seeks in a log kept open (a debugger or viewer stepping through
    // a session). The plugin calls this closure once per sample, so the reader is opened
    // once for the run, not per sample.
    Benchmark("stateAt.random10M", configuration: .init(timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 2000)) { benchmark in
        let log = sharedReader("10m", tenMillionLog)
        seekRandomly(log, benchmark)
    }
    // The same on the random-walk session, whose events take about twice the bytes, and
    // the time, to decode.
    Benchmark("stateAt.random10M.randomWalk", configuration: .init(timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 2000)) { benchmark in
        let log = sharedReader("10m-walk", tenMillionRandomWalkLog)
        seekRandomly(log, benchmark)
    }
    // The first seek of a reader just opened (`selectlog replay LOG --at N`): it also
    // checks every record before the one it reads.
    Benchmark("stateAt.random10M.coldReader", configuration: .init(timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 500)) { benchmark in
        let path = tenMillionLog()
        let log = must("opening \(path)") { try LogReader(path: path) }
        seekRandomly(log, benchmark)
    }
    Benchmark("stateAt.random10M.fromStart.baseline", configuration: .init(timeUnits: .microseconds, maxIterations: 4)) { benchmark in
        let path = tenMillionLog()
        let log = must("opening \(path)") { try LogReader(path: path) }
        var rng = SplitMix64(seed: 42)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let n = Int(rng.next() % UInt64(log.eventCount + 1))
            var state = TableState()
            measured { try log.replay(into: &state, to: n) }
            blackHole(state.events)
        }
    }
}
