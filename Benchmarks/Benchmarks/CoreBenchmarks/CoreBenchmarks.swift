import Benchmark
import SelectLog

/// A 1,000,000-row table with varied heights (20 to 99 pt, deterministic), multiple selection.
func millionRowTable() -> TableState {
    var state = TableState()
    var c = ConfigurationPatch()
    c.allowsMultipleSelection = true
    _ = try? state.apply(.configure(c))
    let heights = (0..<1_000_000).map { Points(20 + ($0 &* 7919) % 80) }
    _ = try? state.apply(.reload(sections: [SectionSpec(rows: 1_000_000, rowHeights: heights)]))
    return state
}

/// Taps the row at (100, 300) of `table` scrolled 20,000,000 pt down, once an iteration.
func tapping(_ table: TableState, _ benchmark: Benchmark) {
    var state = table
    _ = try? state.apply(.scroll(.to(Points(20_000_000)), phase: nil, target: nil))
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        _ = try? state.apply(.tap(ViewportPoint(x: Points(100), y: Points(300))))
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
    let naiveBase = NaiveTable(rows: 1_000_000) { Int64(20 + ($0 &* 7919) % 80) * 64 }

    Benchmark("1M.selectAll") { benchmark in
        for _ in benchmark.scaledIterations {
            var state = base
            _ = try? state.apply(.selectAll)
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
        _ = try? state.apply(.select(rows: (0..<400_000).map { RowPath(0, $0 * 2) }))
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
            _ = try? state.apply(.batch(i % 2 == 0 ? deletes : inserts))
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
