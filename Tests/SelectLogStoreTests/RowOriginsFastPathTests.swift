import Testing
@testable import SelectLog
@testable import SelectLogStore

/// `lastChange(of:at:)` marks the rows an event without row moves changed from the
/// engine's own report (`TableChanges.selectedRuns`, `deselectedRuns`) instead of
/// comparing the whole selection before and after it: the two must agree on every row.
@Suite("row origins from the engine's report")
struct RowOriginsFastPathTests {
    @Test("on sessions with pans, taps, undo, edits and reloads, every row's origin is the one comparing selections gives", arguments: [8, 21])
    func sameOrigins(seed: UInt64) throws {
        let events = Array(SyntheticSession(seed: seed, count: 6_000)) + Array(RandomWalkSession(seed: seed, count: 4_000))
        var state = TableState()
        var compared = RowOrigins(layout: state.layout), reported = compared
        var checked = 0
        for (i, e) in events.enumerated() {
            let before = state.selection
            guard let changes = try? state.apply(e) else { continue }
            compared.follow(e.event, at: i, to: state.layout, selection: (before, state.selection))
            if RowOrigins.movesRows(e.event) {
                reported.follow(e.event, at: i, to: state.layout, selection: (before, state.selection))
            } else {
                reported.markChanged(reported: changes, at: i)
            }
            if i % 250 == 249 {
                for s in 0..<state.layout.sectionCount {
                    for r in 0..<state.layout.rowCount(in: s) {
                        let row = RowPath(s, r)
                        #expect(reported.origin(of: row) == compared.origin(of: row), "event \(i), row \(row)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 10_000, "\(checked) rows compared")
    }
}
