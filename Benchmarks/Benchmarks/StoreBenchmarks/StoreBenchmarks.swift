#if canImport(Glibc)
import Glibc
#endif
import Benchmark
import SelectLog
import SelectLogStore

/// The standard synthetic session, one million events, shared by the write benchmarks.
let session = Array(SyntheticSession(seed: 1, count: 1_000_000))
let scratch = "/tmp/selectlog-bench"

/// A 10,000,000-event log of the standard session, made once and kept between runs.
func tenMillionLog() -> String {
    let path = "\(scratch)-10m-seed1-k\(Recorder.Options().checkpointInterval)-s\(TableState.snapshotVersion).slog"
    if let log = try? LogReader(path: path), log.eventCount == 10_000_000 { return path }
    var options = Recorder.Options()
    options.durability = .none
    guard let recorder = try? Recorder(creating: path, options: options) else { return path }
    for e in SyntheticSession(seed: 1, count: 10_000_000) { try? recorder.append(e) }
    try? recorder.close()
    return path
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        maxDuration: .seconds(5),
        maxIterations: 5
    )

    // MARK: Writing 1M events: selectlog vs raw structs (a) vs JSON Lines (b)

    Benchmark("write1M.recorder") { benchmark in
        var options = Recorder.Options()
        options.durability = .none
        for _ in benchmark.scaledIterations {
            guard let recorder = try? Recorder(creating: "\(scratch)-w.slog", options: options) else { return }
            for e in session { try? recorder.append(e) }
            try? recorder.close()
        }
    }
    Benchmark("write1M.rawStructs.baseline") { benchmark in
        for _ in benchmark.scaledIterations { writeRawStructs(session, to: "\(scratch)-w.raw") }
    }
    Benchmark("write1M.jsonLines.baseline") { benchmark in
        for _ in benchmark.scaledIterations { writeJSONLines(session, to: "\(scratch)-w.jsonl") }
    }

    // MARK: Caller-side append: 1,000 appends per iteration (per-append = p50 / 1000)

    Benchmark("append1000.callerSide", configuration: .init(timeUnits: .microseconds, maxDuration: .seconds(3), maxIterations: 900)) { benchmark in
        var options = Recorder.Options()
        options.durability = .none
        guard let recorder = try? Recorder(creating: "\(scratch)-a.slog", options: options) else { return }
        var next = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for _ in 0..<1000 {
                try? recorder.append(session[next])
                next += 1
            }
        }
        benchmark.stopMeasurement()
        try? recorder.close()
    }

    // MARK: Reading the 10M-event log

    Benchmark("replay10M.fromDisk", configuration: .init(maxIterations: 3)) { benchmark in
        let path = tenMillionLog()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            guard let log = try? LogReader(path: path) else { return }
            var state = TableState()
            try? log.replay(into: &state, to: log.eventCount)
            blackHole(state.events)
        }
    }

    Benchmark("stateAt.random10M", configuration: .init(timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 2000)) { benchmark in
        let path = tenMillionLog()
        guard let log = try? LogReader(path: path) else { return }
        var rng = SplitMix64(seed: 42)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let n = Int(rng.next() % UInt64(log.eventCount + 1))
            blackHole((try? log.state(at: n))?.events)
        }
    }
    Benchmark("stateAt.random10M.fromStart.baseline", configuration: .init(timeUnits: .microseconds, maxIterations: 4)) { benchmark in
        let path = tenMillionLog()
        guard let log = try? LogReader(path: path) else { return }
        var rng = SplitMix64(seed: 42)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let n = Int(rng.next() % UInt64(log.eventCount + 1))
            var state = TableState()
            try? log.replay(into: &state, to: n)
            blackHole(state.events)
        }
    }
}
