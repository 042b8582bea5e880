import Benchmark
import SelectLog

/// Applies a benchmark's set-up event, which must be valid: a refused one left the
/// benchmarks measuring an empty table once, unnoticed.
func setUp(_ state: inout TableState, _ event: Event) {
    do {
        _ = try state.apply(event)
    } catch {
        preconditionFailure("a benchmark's set-up event was refused: \(error)")
    }
}

/// Applies an event inside a measured loop. A refused event stops the run: ignored, the
/// refusal would be measured instead of the work, unseen.
@inline(__always)
func measuredApply(_ state: inout TableState, _ event: Event) {
    do {
        _ = try state.apply(event)
    } catch {
        refusedInMeasurement(error)
    }
}

@inline(never)
func refusedInMeasurement(_ error: any Error) -> Never {
    preconditionFailure("an event in a measured loop was refused: \(error)")
}

/// The height of row `row` of `millionRowTable()`: 20 to 99 pt, deterministic.
func millionRowHeight(_ row: Int) -> Points { Points(20 + (row &* 7919) % 80) }

/// A 1,000,000-row table with varied heights (20 to 99 pt, deterministic), multiple selection.
///
/// The heights go in `reloadRows` of 50,000 rows each: one event holds at most
/// `EventLimits.eventBytes`, about 500,000 heights, and a `reload` listing all 1,000,000
/// is refused. (It was, from 2026-11-28 on, and every benchmark on this table measured
/// an empty one until a hit test divided by its zero height; hence the check.)
func millionRowTable() -> TableState {
    var state = TableState()
    var c = ConfigurationPatch()
    c.allowsMultipleSelection = true
    setUp(&state, .configure(c))
    setUp(&state, .reload(sections: [SectionSpec(rows: 1_000_000)]))
    for start in stride(from: 0, to: 1_000_000, by: 50_000) {
        let rows = start..<start + 50_000
        setUp(&state, .reloadRows(at: rows.map { RowPath(0, $0) }, heights: rows.map(millionRowHeight)))
    }
    let expected = (0..<1_000_000).reduce(Int64(0)) { $0 + millionRowHeight($1).raw }
    precondition(state.layout.rowCount == 1_000_000 && state.layout.contentHeight.raw == expected,
                 "the benchmark table was not built: \(state.layout.rowCount) rows")
    return state
}

/// Taps the row at (100, 300) of `table` scrolled 20,000,000 pt down, once an iteration.
func tapping(_ table: TableState, _ benchmark: Benchmark) {
    var state = table
    setUp(&state, .scroll(.to(Points(20_000_000)), phase: nil, target: nil))
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        measuredApply(&state, .tap(ViewportPoint(x: Points(100), y: Points(300))))
    }
    blackHole(state.selection.count)
}

/// 100 rows spread over the table, ascending.
let batchRows = (0..<100).map { RowPath(0, $0 * 9_973) }

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )
    let base = millionRowTable()
    let naiveBase = NaiveTable(rows: 1_000_000) { millionRowHeight($0).raw }

    Benchmark("1M.selectAll") { benchmark in
        for _ in benchmark.scaledIterations {
            var state = base
            measuredApply(&state, .selectAll)
            blackHole(state.selection.count)
        }
    }
    Benchmark("1M.selectAll.baseline") { benchmark in
        var naive = naiveBase
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            naive.selectAll()
            blackHole(naive.selected[999_999])
        }
    }

    Benchmark("1M.tap") { benchmark in tapping(base, benchmark) }
    Benchmark("1M.tap.baseline") { benchmark in
        var naive = naiveBase
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            if let r = naive.row(at: 20_000_300 * 64) { naive.tap(r) }
        }
    }

    // A tap amid a fragmented selection (every other row of the first 800,000: 400,000
    // ranges) against the same tap with nothing selected. It copied and compared the
    // whole selection (about 10 ms a tap); what is left is the move of the ranges after
    // the row within the section's sorted array (0.3–0.5 ms here).
    let fragmented: TableState = {
        var state = base
        // 50,000 rows a select: one event holds about 200,000 index paths.
        for part in 0..<8 {
            setUp(&state, .select(rows: (part * 50_000..<(part + 1) * 50_000).map { RowPath(0, $0 * 2) }))
        }
        precondition(state.selection.count == 400_000, "the fragmented selection was not made: \(state.selection.count) rows")
        return state
    }()
    Benchmark("1M.tapFragmented") { benchmark in tapping(fragmented, benchmark) }
    Benchmark("1M.tapFragmented.baseline") { benchmark in tapping(base, benchmark) }

    Benchmark("1M.batch100") { benchmark in
        var state = base
        let deletes = BatchUpdate(deletes: batchRows)
        let inserts = BatchUpdate(inserts: batchRows)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            measuredApply(&state, .batch(i % 2 == 0 ? deletes : inserts))
        }
        blackHole(state.layout.rowCount)
    }
    Benchmark("1M.batch100.baseline") { benchmark in
        var naive = naiveBase
        let rows = batchRows.map(\.row)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            naive.batch(rows)
        }
        blackHole(naive.heights.count)
    }

    Benchmark("1M.hitTest1000") { benchmark in
        let state = base
        let height = state.layout.contentHeight.raw
        for _ in benchmark.scaledIterations {
            var found = 0
            var y: Int64 = 12_345
            for _ in 0..<1000 {
                y = (y &* 6_364_136_223_846_793_005 &+ 1) & 0x7fff_ffff_ffff_ffff
                if case .row = state.layout.element(at: Points(raw: y % height)) { found += 1 }
            }
            blackHole(found)
        }
    }
    Benchmark("1M.hitTest1000.baseline", configuration: .init(maxIterations: 20)) { benchmark in
        let naive = naiveBase
        let height = naive.heights.reduce(0, +)
        for _ in benchmark.scaledIterations {
            var found = 0
            var y: Int64 = 12_345
            for _ in 0..<1000 {
                y = (y &* 6_364_136_223_846_793_005 &+ 1) & 0x7fff_ffff_ffff_ffff
                if naive.row(at: y % height) != nil { found += 1 }
            }
            blackHole(found)
        }
    }
}
