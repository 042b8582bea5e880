import SelectLog
import Testing

/// README Semantics: "single mode" in EVENTS.md 5.9 is every mode that is not multiple,
/// a mode that is not selectable included (found by a differential audit: the text
/// defines only *selectable* and *multiple*).
@Suite("Single mode is not multiple, selectable or not")
struct SingleModeSemanticsTests {
    /// A table of three rows after `configure`'s `flags` (a script's fields).
    static func table(_ flags: String) throws -> TableState {
        var state = TableState()
        for e in try Script(bytes: Array("{\"type\": \"configure\", \(flags)}\n{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n".utf8)).events {
            try state.apply(e)
        }
        return state
    }

    @Test("not selectable: two rows or selectAll are invalid (notAllowedNow) and change nothing; one row is selected", arguments: [
        "\"allowsSelection\": false", "\"allowsSelection\": false, \"allowsSelectionDuringEditing\": true",
    ])
    func notSelectable(flags: String) throws {
        var state = try Self.table(flags)
        let before = state
        for event in [Event.select(rows: [RowPath(0, 0), RowPath(0, 1)]), .selectAll] {
            do {
                try state.apply(TimedEvent(event))
                Issue.record("\(event) was accepted in \(flags)")
            } catch {
                #expect(error.kind == .notAllowedNow, "\(error)")
            }
            #expect(state == before)
        }
        try state.apply(TimedEvent(.select(rows: [RowPath(0, 1)])))
        #expect(state.selection.paths == [RowPath(0, 1)])
        // A tap does nothing where nothing is selectable: the row stays selected.
        try state.apply(TimedEvent(.tap(ViewportPoint(x: Points(10), y: Points(44 + 10)))))
        #expect(state.selection.paths == [RowPath(0, 1)])
        // Until a configure, whatever it changes: its clear rule (5.1) clears the selection.
        var patch = ConfigurationPatch()
        patch.undoLimit = 5
        try state.apply(TimedEvent(.configure(patch)))
        #expect(state.selection.paths.isEmpty)
    }

    @Test("multiple without allowsSelection is no single mode: two rows are selected")
    func multipleIsNotSingle() throws {
        var state = try Self.table("\"allowsSelection\": false, \"allowsMultipleSelection\": true")
        try state.apply(TimedEvent(.select(rows: [RowPath(0, 0), RowPath(0, 1)])))
        #expect(state.selection.paths == [RowPath(0, 0), RowPath(0, 1)])
    }
}
