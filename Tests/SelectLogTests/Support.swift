import Testing
@testable import SelectLog

/// The state after replaying `script` (JSON Lines) from an empty table.
func play(_ script: String) throws -> TableState {
    var state = TableState()
    try Script(bytes: Array(script.utf8)).replay(into: &state)
    return state
}

/// Applies one script line to `state`; returns what it changed.
@discardableResult
func apply(_ state: inout TableState, _ line: String) throws -> TableChanges {
    guard let event = try EventDecoder.decode(line: Array(line.utf8)) else { return TableChanges() }
    return try state.apply(event)
}

/// Applies one line that must be rejected; returns the reason and checks nothing changed.
@discardableResult
func reject(_ state: inout TableState, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let before = state
    let hash = state.hashHex
    do {
        try apply(&state, line)
        Issue.record("expected \(line) to be rejected", sourceLocation: sourceLocation)
        return ""
    } catch {
        #expect(state == before, "a rejected event changed the state", sourceLocation: sourceLocation)
        #expect(state.hashHex == hash, sourceLocation: sourceLocation)
        return "\(error)"
    }
}

func p(_ section: Int, _ row: Int) -> RowPath { RowPath(section, row) }

extension TableState {
    var selected: [RowPath] { selection.paths }
    var offset: Double { Double(contentOffset.raw) / 64 }
}

/// A table of 100 rows of 50 pt in a 390 × 600 viewport, multiple selection.
let multipleTable = """
{"type": "configure", "allowsMultipleSelection": true}
{"type": "viewport", "width": 390, "height": 600}
{"type": "reload", "sections": [{"rows": 100, "rowHeight": 50}]}
"""

/// The same table in single-selection mode.
let singleTable = """
{"type": "viewport", "width": 390, "height": 600}
{"type": "reload", "sections": [{"rows": 100, "rowHeight": 50}]}
"""

/// The core's seeded SplitMix64: property tests print the seed they failed with.
typealias SeededRandom = SplitMix64
