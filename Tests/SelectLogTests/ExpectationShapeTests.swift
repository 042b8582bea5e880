import Foundation
import Testing
@testable import SelectLog

/// A comparison whose operands' shapes make it the same in every state does not parse
/// (a CI review, 2026-12-07: `selected contains 6` was false after every event, and a
/// gate took its own mistake for a bug that no longer reproduces).
@Suite("Expectations: comparisons no state can decide")
struct ExpectationShapeTests {
    @Test("mistakes of shape are refused at the operator (or count), saying why", arguments: [
        ("events == \"12\"", 8, "events is a number and \"12\" is a string, which are never equal"),
        ("selected contains 6", 10, "selected holds rows [section, row]; 6 is a number"),
        ("selected contains [0, 6, 1]", 10, "[0, 6, 1] is a list of 3 numbers, which it never contains"),
        ("editing < 3", 9, "< orders two numbers or two strings; editing is true or false and 3 a number"),
        ("pan == \"strip\"", 5, "pan is an object (or null) and \"strip\" is a string, which are never equal: == would be false in every state (pan's fields: pan.kind, pan.mode, pan.anchor, pan.autoscroll)"),
        ("count(events) == 1", 1, "count( takes a list, and events is a number"),
        ("visible == [0, 5]", 9, "visible is a list of 2 rows [section, row] (or null) and [0, 5] is a row [section, row]"),
        ("sections == [\"a\"]", 10, "sections is a list of numbers and [\"a\"] is a list of 1 string"),
        ("pan.kind == selected", 10, "pan.kind is a string (or null) and selected is a list of rows"),
        ("optionOpen != 3", 12, "!= would be true in every state"),
        ("sections contains \"A\"", 10, "sections holds numbers"),
        ("editor.options contains 1", 16, "editor.options holds strings"),
        ("hash >= 3", 6, ">= orders two numbers or two strings"),
        ("events contains 3", 8, "contains looks in a list, and events is a number"),
        ("not (editor.multiple == \"yes\") and editing", 22, "editor.multiple is true or false"),
        ("count(count(selected)) > 1", 1, "count(…) is a number"),
    ])
    func refused(text: String, column: Int, message: String) throws {
        let error = #expect(throws: ExpectationError.self) { _ = try StateExpectation(text) }
        #expect(error?.column == column, "\(text): \(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(text): \(String(describing: error))")
    }

    @Test("what some state can make true or false still parses", arguments: [
        "pan == null", "optionOpen != null", "optionOpen == [0, 3]", "selected == []", "selected == [[0, 1]]",
        "[] == selected", "visible contains [0, 3]", "visible == [[0, 0], [0, 11]]", "editor.chosen == [1]",
        "sections == [100]", "sections contains 100", "pan.kind == \"strip\"", "pan.mode == null",
        "count(editor.options) > 2", "count(null) == null", "hash == \"abc\"", "t > 1.5", "events >= 3 and editing",
        "contentOffset < 10.5", "[1, \"a\"] contains 1", "\"a\" < \"b\"", "count([1, 2]) == 2", "null == null",
        "true == editing", "editing == (events > 3)", "count(selected) > 3", "swipe.offset < 0", "editor.row == pan.anchor",
        "rowsToLoad != visible", "pan.autoscroll != \"down\"", "selected contains [0, 6]", "null < 3",
    ])
    func accepted(text: String) throws {
        _ = try StateExpectation(text)
    }

    /// States from every example script, after each event: pans, swipes, the editor,
    /// multi-select, edits, an empty table.
    static func states() throws -> [TableState] {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples")
        var names = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".jsonl") }
        names += try FileManager.default.contentsOfDirectory(atPath: examples.appendingPathComponent("bugs").path)
            .filter { $0.hasSuffix(".jsonl") }.map { "bugs/" + $0 }
        var states = [TableState()]
        for name in names.sorted() {
            let script = try Script(bytes: Array(Data(contentsOf: examples.appendingPathComponent(name))))
            var state = TableState()
            for e in script.events {
                _ = try state.apply(e)
                states.append(state)
            }
        }
        return states
    }

    /// Every operand × operator × operand, the operands every field's path, its `count(…)`
    /// and literals from a pool: each one refused is the same in every state (false, or
    /// true for `!=`), evaluated as it would have been without the check; so the check
    /// refuses nothing a state could decide (a review found `pan.mode == pan.anchor`
    /// refused, though both are null during a drag scroll).
    @Test("a refused comparison is the same in every state of the examples")
    func refusedOnlyWhenConstant() throws {
        let states = try Self.states()
        #expect(states.contains { $0.pan != nil } && states.contains { $0.editor != nil } && states.contains { $0.options.swipe != nil })
        #expect(states.contains { $0.pan != nil && $0.pan?.anchor == nil }, "a drag scroll: a pan with no anchor")
        var paths: [String] = []
        for f in StateField.allCases {
            paths.append(f.rawValue)
            for key in f.keys ?? [] { paths.append(f.rawValue + "." + key) }
        }
        let literals = ["3", "\"12\"", "true", "null", "[0, 6]", "[0, 6, 1]", "[]", "[[0, 1]]", "[\"A\"]", "[1]"]
        let left = paths + paths.map { "count(\($0))" }
        let right = left + literals
        var refused = 0, tried = 0
        for a in left {
            for op in ExpectationOperator.allCases {
                for b in right {
                    let text = "\(a) \(op.rawValue) \(b)"
                    tried += 1
                    let error: ExpectationError
                    do {
                        _ = try StateExpectation(text)
                        continue
                    } catch let e {
                        error = e
                    }
                    // Refused for the comparison (false, or true for `!=`), or for a
                    // `count(` of no list (null, whatever it is compared with): constant.
                    let forCount = error.message.hasPrefix("count( takes a list")
                    guard let unchecked = try? StateExpectation(uncheckedShapes: text) else {
                        Issue.record("\(text) does not parse even unchecked")
                        continue
                    }
                    refused += 1
                    if forCount {
                        // The `count(` of no list is null in every state; what it is compared
                        // with may not be.
                        for operand in [a, b] where operand.hasPrefix("count(") && (try? StateExpectation(operand)) == nil {
                            let count = try StateExpectation(uncheckedShapes: operand)
                            for state in states {
                                #expect(count.value(in: state).isEqual(to: .null), "\(operand) after \(state.events) events")
                            }
                        }
                        continue
                    }
                    let first = unchecked.value(in: states[0])
                    for state in states {
                        let value = unchecked.value(in: state)
                        #expect(value.isEqual(to: first), "\(text) after \(state.events) events: \(value), but \(first) on an empty table")
                        #expect(value.isEqual(to: .bool(op == .notEqual)), "\(text) after \(state.events) events: \(value)")
                    }
                }
            }
        }
        #expect(refused > 1_000 && refused < tried, "the pool holds mistakes and sound comparisons: \(refused) of \(tried) refused")
    }
}
