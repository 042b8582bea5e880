import SelectLog
import Testing

/// `StateExpectation(all:)`: the expectation a command given several `--expect`s checks.
@Suite("StateExpectation(all:)")
struct ExpectationAllTests {
    /// States to decide them on: a new table, and one with rows selected and an editor
    /// open (so that every part below is true in some state and false in another).
    static func states() throws -> [TableState] {
        var edited = TableState()
        for line in [#"{"type": "configure", "allowsSelectionDuringEditing": true, "allowsMultipleSelectionDuringEditing": true}"#,
                     #"{"type": "viewport", "width": 390, "height": 500}"#,
                     #"{"type": "reload", "sections": [{"rows": 20, "rowHeight": 50}]}"#,
                     #"{"type": "setEditing", "editing": true}"#,
                     #"{"type": "select", "rows": [[0, 2], [0, 6]]}"#] {
            try edited.apply(try #require(try EventDecoder.decode(line: line)))
        }
        #expect(edited.editing && edited.selection.count == 2)
        return [TableState(), edited]
    }

    static let parts = ["editing", "selected contains [0, 6] or count(selected) > 5", "not editing",
                        "count(selected) == 2 and editing", "events > 3"]

    @Test("holds exactly when every part does, and its text parses back to the same expectation")
    func holdsWhenAllDo() throws {
        let parsed = try Self.parts.map { try StateExpectation($0) }
        for i in parsed.indices {
            for j in parsed.indices where j != i {
                let all = try StateExpectation(all: [parsed[i], parsed[j]])
                let again = try StateExpectation(all.text)
                for state in try Self.states() {
                    let expected = parsed[i].holds(in: state) && parsed[j].holds(in: state)
                    #expect(all.holds(in: state) == expected, "\(all.text)")
                    #expect(again.holds(in: state) == expected, "\(all.text)")
                }
            }
        }
    }

    @Test("an `or` is put in parentheses, nothing else is; one part is itself; none is true")
    func text() throws {
        let a = try StateExpectation("editing or events > 3"), b = try StateExpectation("not editing")
        #expect(try StateExpectation(all: [a, b]).text == "(editing or events > 3) and not editing")
        #expect(try StateExpectation(all: [b, b, b]).text == "not editing and not editing and not editing")
        #expect(try StateExpectation(all: [a]).text == a.text)
        let none = try StateExpectation(all: [])
        #expect(try Self.states().allSatisfy { none.holds(in: $0) })
    }

    @Test("a part 100 levels deep joins as it is; an `or` that deep needs parentheses past the limit, and throws")
    func nestingLimit() throws {
        let deep = String(repeating: "(", count: 100) + "editing" + String(repeating: ")", count: 100)
        let joined = try StateExpectation(all: [try StateExpectation(deep), try StateExpectation("events > 3")])
        #expect(joined.text == deep + " and events > 3")
        let deepOr = String(repeating: "(", count: 100) + "editing or events > 3" + String(repeating: ")", count: 100)
        #expect(throws: ExpectationError.self) {
            try StateExpectation(all: [try StateExpectation(deepOr), try StateExpectation("editing")])
        }
    }
}
