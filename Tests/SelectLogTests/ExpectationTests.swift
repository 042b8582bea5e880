import Testing
@testable import SelectLog

/// The expectation language of issue 11: grammar, errors, evaluation on the state.
@Suite("Expectations")
struct ExpectationTests {
    static let session = """
        {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}, "optionWidth": 80}
        {"type": "viewport", "width": 390, "height": 500}
        {"type": "reload", "sections": [{"rows": 20, "rowHeight": 50}, {"rows": 70, "rowHeight": 44.3}]}
        {"type": "panBegan", "x": 20, "y": 125, "t": 1000}
        {"type": "panMoved", "x": 20, "y": 275, "t": 1016.667}
        """

    @Test("the issue's examples parse and evaluate on a real state")
    func examples() throws {
        let state = try play(ExpectationTests.session)
        #expect(try StateExpectation("selected contains [0, 2]").holds(in: state))
        #expect(try !StateExpectation("selected contains [3, 60]").holds(in: state))
        #expect(try StateExpectation("count(selected) > 3 and not editing").holds(in: state))
        #expect(try !StateExpectation("count(selected) > 4 and not editing").holds(in: state))
        #expect(try StateExpectation("optionOpen == null").holds(in: state))
        #expect(try StateExpectation("pan.kind == \"strip\" and pan.autoscroll == null").holds(in: state))
        #expect(try StateExpectation("pan.anchor == [0, 5] and pan.mode == \"select\"").holds(in: state))
        #expect(try StateExpectation("editor.chosen == null").holds(in: state), "a path through null is null")
        #expect(try StateExpectation("count(sections) == 2 and sections == [20, 70]").holds(in: state))
        #expect(try StateExpectation("t == 1016.667 and t > 1016.666 and t < 1016.668").holds(in: state))
        #expect(try StateExpectation("not (events != 5) or false").holds(in: state))
        #expect(try StateExpectation("selected == [[0, 2], [0, 3], [0, 4], [0, 5]]").holds(in: state))
        #expect(try !StateExpectation("selected == [[0, 2], [0, 3], [0, 4]]").holds(in: state))
        #expect(try StateExpectation("[1, 2] contains 2 and not ([1, 2] contains 3)").holds(in: state))
    }

    @Test("nesting is limited (parentheses, count(, not, lists), with the column of the level too many; chains of and/or are not")
    func nestingLimit() throws {
        let state = TableState()
        let limit = ExpectationParser.maxNesting
        // At the limit: parsed and evaluated.
        let parens = String(repeating: "(", count: limit) + "true" + String(repeating: ")", count: limit)
        #expect(try StateExpectation(parens).holds(in: state))
        #expect(try StateExpectation(String(repeating: "not ", count: limit) + "true").holds(in: state) == (limit % 2 == 0))
        let list = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try StateExpectation("null != " + list).holds(in: state))
        // One more: an error naming where the level too many opens (a review's 30,000
        // parentheses crashed the parser's recursion).
        for (text, column) in [("(" + parens + ")", limit + 1), ("not " + String(repeating: "not ", count: limit) + "true", 4 * limit + 1),
                               ("count(selected) != [" + list + "]", 20 + limit),
                               ("count(" + String(repeating: "(", count: limit) + "selected" + String(repeating: ")", count: limit + 1), 6 + limit),
                               (String(repeating: "(", count: 30_000) + "true" + String(repeating: ")", count: 30_000), limit + 1)] {
            #expect(throws: ExpectationError.self) { try StateExpectation(text) }
            do {
                _ = try StateExpectation(text)
            } catch {
                #expect(error.column == column, "\(error)")
                #expect(error.message.contains("nested more than \(limit) levels"), "\(error)")
            }
        }
        // A long chain is one node, however long: no recursion through it.
        let terms = 200_000
        let chain = try StateExpectation(Array(repeating: "count(selected) == 0", count: terms).joined(separator: " and "))
        #expect(chain.holds(in: state) && chain.value(in: state).description == "true")
        let either = try StateExpectation(Array(repeating: "editing", count: terms).joined(separator: " or ") + " or true")
        #expect(either.holds(in: state))
        #expect(chain.fields == ["selected"])
    }

    @Test("strings and white space read scalar by scalar: an escaped backslash before a combining mark, a CRLF between words")
    func scalarsInStrings() throws {
        var state = try play(#"""
            {"type": "viewport", "width": 390, "height": 300}
            {"type": "reload", "sections": [{"rows": 3}]}
            {"type": "toggleEditor", "row": [0, 0], "options": ["\\\u0301", "n\u0301"]}
            """#)
        #expect(state.editor?.options == ["\\\u{301}", "n\u{301}"])
        #expect(try StateExpectation(#"editor.options == ["\\\#u{301}", "n\#u{301}"]"#).holds(in: state))
        #expect(try StateExpectation("editing == false\r\nand count(selected) == 0").holds(in: state))
        try state.apply(.select(rows: [RowPath(0, 1)]))
        #expect(try !StateExpectation("editing == false\r\nand count(selected) == 0").holds(in: state))
    }

    @Test("strings compare by Unicode scalars, as the engine compares titles: a precomposed é is not e and a combining accent")
    func stringsCompareByScalars() throws {
        var state = try play(#"{"type": "reload", "sections": [{"rows": 3, "title": "e\u0301"}]}"#)
        try apply(&state, #"{"type": "toggleEditor", "row": [0, 0], "options": ["e\u0301", "b"]}"#)
        // The expectation language has no \u escapes: the characters themselves.
        let decomposed = "e\u{301}", precomposed = "\u{e9}"
        #expect(try StateExpectation("editor.options == [\"\(decomposed)\", \"b\"]").holds(in: state))
        #expect(try !StateExpectation("editor.options == [\"\(precomposed)\", \"b\"]").holds(in: state))
        #expect(try !StateExpectation("editor.options contains \"\(precomposed)\"").holds(in: state))
        #expect(try !StateExpectation("\"\(precomposed)\" == \"\(decomposed)\"").holds(in: state))
        // Ordered by scalar values: U+0065 (e) before U+00E9 (é), whatever follows it.
        #expect(try StateExpectation("\"\(decomposed)\" < \"\(precomposed)\" and \"a\" < \"b\" and not (\"b\" < \"b\")").holds(in: state))
        // The engine agrees: no section is titled with the precomposed é.
        #expect(throws: InvalidEvent.self) { try state.apply(.jumpToSection(.title("\u{e9}"))) }
    }

    @Test("precedence: not binds tighter than and, and tighter than or")
    func precedence() throws {
        let state = TableState()
        #expect(try StateExpectation("true or false and false").holds(in: state))
        #expect(try !StateExpectation("(true or false) and false").holds(in: state))
        #expect(try !StateExpectation("not true and false").holds(in: state))
        #expect(try StateExpectation("not (true and false)").holds(in: state))
        #expect(try StateExpectation("not not true").holds(in: state))
    }

    @Test("numbers compare on the grid: a literal is rounded onto the value's grid")
    func grid() throws {
        // Section 1 rows are 44.3 pt, stored as 44.296875 (the 1/64 grid point nearest).
        let state = try play(ExpectationTests.session)
        #expect(try StateExpectation("contentHeight == 4100.78125").holds(in: state))
        #expect(try StateExpectation("contentHeight == 4100.78").holds(in: state), "4100.78 rounds to 4100.78125 on the 1/64 grid")
        #expect(try !StateExpectation("contentHeight == 4100.8").holds(in: state))
        #expect(try StateExpectation("contentHeight > 4100.77 and contentHeight < 4100.8").holds(in: state))
        // Between literals the comparison is exact.
        #expect(try !StateExpectation("1.5 == 1.50001").holds(in: state))
        #expect(try StateExpectation("1.5 == 1.50").holds(in: state))
        #expect(try StateExpectation("-2 < -1.5").holds(in: state))
    }

    @Test("every field of the state JSON reads the value the JSON prints", arguments: [0, 1, 777, 3000])
    func fieldsMatchJSON(count: Int) throws {
        var iterator = SyntheticSession(seed: 11, count: count).makeIterator()
        while iterator.next() != nil {}
        let state = iterator.state
        guard case .object(let fields) = try JSONParser.parse(Array(state.json.utf8)) else {
            Issue.record("state JSON is not an object")
            return
        }
        for (key, value) in fields {
            if case .object(let inner) = value {
                for (k, v) in inner {
                    let text = "\(key).\(k) == \(ExpectationTests.literal(v))"
                    #expect(try StateExpectation(text).holds(in: state), "\(text)")
                    // Counted without listing (editor.options, editor.chosen) or listed: the JSON's count.
                    if case .array(let items) = v {
                        #expect(try StateExpectation("count(\(key).\(k)) == \(items.count)").holds(in: state), "count(\(key).\(k))")
                    }
                }
            }
            if case .array(let items) = value {
                #expect(try StateExpectation("count(\(key)) == \(items.count)").holds(in: state), "count(\(key))")
            }
            if case .null = value, let field = StateField(rawValue: key), let keys = field.keys {
                // No object: every key of it is null, and so is the count of a list's (a
                // row's too). A key that is no list has no count, whatever the state
                // (`ExpectationShape`).
                for k in keys {
                    let text = "count(\(key).\(k)) == null"
                    if case .list = ExpectationShape.of(field, key: k) {
                        #expect(try StateExpectation(text).holds(in: state), "\(text)")
                    } else {
                        #expect(throws: ExpectationError.self, "\(text)") { try StateExpectation(text) }
                    }
                }
            }
            let text = "\(key) == \(ExpectationTests.literal(value))"
            if case .object = value {} else {
                #expect(try StateExpectation(text).holds(in: state), "\(text)")
                #expect(try !StateExpectation(text).negated.holds(in: state))
            }
        }
    }

    @Test("an editor's lists are counted without listing them, and read one key at a time, as the JSON has them")
    func editorCounts() throws {
        var state = TableState()
        try state.apply(.configure(ConfigurationPatch()))
        try state.apply(.reload(sections: [SectionSpec(rows: 5)]))
        try state.apply(.toggleEditor(row: RowPath(0, 1), options: ["a", "b", "c"], multiple: true, chosen: [2]))
        for (text, holds) in [
            ("count(editor.options) == 3", true), ("count(editor.chosen) == 1", true),
            ("editor.options == [\"a\", \"b\", \"c\"]", true), ("editor.chosen == [2]", true),
            ("editor.row == [0, 1]", true), ("editor.multiple", true),
            ("count(editor.options) > 3", false),
        ] {
            #expect(try StateExpectation(text).holds(in: state) == holds, "\(text)")
        }
        // A boolean has no count in any state.
        #expect(throws: ExpectationError.self) { try StateExpectation("count(editor.multiple) == null") }
        try state.apply(.toggleEditor(row: RowPath(0, 1), options: [], multiple: false, chosen: []))
        #expect(state.editor == nil)
        #expect(try StateExpectation("count(editor.options) == null and editor.row == null").holds(in: state))
    }

    static func literal(_ v: JSONValue) -> String {
        switch v {
        case .null: "null"
        case .bool(let b): String(b)
        case .number(let n): ExpectationTests.decimal(n)
        case .string(let s): JSONText.quote(s)
        case .array(let items): "[" + items.map(literal).joined(separator: ", ") + "]"
        case .object: "null"
        }
    }

    static func decimal(_ n: JSONNumber) -> String {
        var digits = n.digits.map(String.init).joined()
        if digits.isEmpty { return "0" }
        if n.exponent < 0 {
            while digits.count <= -n.exponent { digits = "0" + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: n.exponent))
        } else {
            digits += String(repeating: "0", count: n.exponent)
        }
        return (n.negative ? "-" : "") + digits
    }

    @Test("errors name the column and what was expected", arguments: [
        ("selected contains", 18, "expected a field, a literal"),
        ("selectd contains [0, 1]", 1, "unknown field \"selectd\" (did you mean \"selected\"?)"),
        ("pan.knd == \"strip\"", 5, "expected a field of pan (kind, mode, anchor, autoscroll)"),
        ("count(selected > 3", 19, "\")\" to close count( at column 1"),
        ("editing = true", 9, "unexpected \"=\": did you mean ==?"),
        ("optionOpen ! null", 12, "did you mean != (or not before a condition)?"),
        // Other languages' spellings, and strings without their quotes.
        ("editing && visible contains [0, 1]", 9, "unexpected character \"&\" (and is written and)"),
        ("editing || editing", 9, "(or is written or)"),
        ("pan.kind == 'strip'", 13, "(a string takes double quotes)"),
        ("pan.kind == strip", 13, "unknown field \"strip\" (a string takes double quotes: \"strip\")"),
        ("pan.kind != multiSelect", 13, "(a string takes double quotes: \"multiSelect\")"),
        // A value that is also nearly a field's name: both.
        ("pan.mode == select", 13, "unknown field \"select\" (a string takes double quotes: \"select\"; or did you mean the field \"selected\"?)"),
        ("selectd contains [0, 1] and contentOffset => 5", 43, "unexpected \"=\": did you mean >=?"),
        ("contentOffset =< 5", 15, "did you mean <=?"),
        ("(editing", 9, "\")\" to close the \"(\" at column 1"),
        ("selected.row", 9, "selected has no fields"),
        // Another language's length of a list: this one's said.
        ("selected.count >= 5", 9, "selected has no fields (a list's length is count(selected), not selected.count)"),
        ("editor.options . length", 16, "editor.options has no fields (a list's length is count(editor.options), not editor.options.length)"),
        // Not for a number, which has no length, nor a range or a row, whose count is always 2.
        ("undo.count", 5, "undo has no fields: expected"),
        ("visible.count > 1", 8, "visible has no fields: expected"),
        ("pan.anchor.count", 11, "pan.anchor has no fields: expected"),
        ("editing true", 9, "expected \"and\", \"or\", an operator or the end"),
        ("[1, 2", 6, "\",\" or \"]\" in the list that opens at column 1"),
        ("optionOpen == \"x", 15, "never closed"),
        ("t > 1.2.3", 5, "is not a number"),
        ("events > 1e3", 10, "\"1e3\" has an exponent, which numbers here do not take: write its digits (1e3 as 1000)"),
        ("t < 2.5E-1 and editing", 5, "\"2.5E-1\" has an exponent"),
        ("and editing", 1, "expected a field, a literal"),
        // One letter is no typo of another field's one letter (`t`): no suggestion.
        ("x > 3", 1, "unknown field \"x\": expected one of"),
    ])
    func errors(text: String, column: Int, message: String) {
        do {
            _ = try StateExpectation(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.column == column, "\(text): \(error)")
            #expect(error.message.contains(message), "\(text): \(error)")
            #expect(error.description.hasPrefix("column \(column): "))
        }
    }

    @Test("fields lists what is read; reads gives their values")
    func reads() throws {
        let state = try play(ExpectationTests.session)
        let e = try StateExpectation("count(selected) > 3 and pan.kind == \"strip\" and not editing and selected contains [0, 1]")
        #expect(e.fields == ["selected", "pan.kind", "editing"])
        let reads = e.reads(in: state)
        #expect(reads.map(\.value.description) == ["[[0, 2], [0, 3], [0, 4], [0, 5]]", "\"strip\"", "false"])
        #expect(!e.holds(in: state))
        #expect(e.negated.holds(in: state))
        #expect(e.negated.text == "not (\(e.text))")
    }

    @Test("writeReads writes the reads as one JSON object, in pieces, with the selection listed in full")
    func writtenReads() throws {
        var iterator = SyntheticSession(seed: 11, count: 3000).makeIterator()
        var n = 0
        let expectations = try ["count(selected) > 3 and pan.kind == \"strip\" and not editing", "selected contains [0, 1] or optionOpen",
                                "contentOffset > 10", "events == 0"].map(StateExpectation.init(_:))
        while iterator.next() != nil {
            n += 1
            guard n % 211 == 0 else { continue }
            let state = iterator.state
            for e in expectations {
                var pieces: [String] = []
                e.writeReads(in: state) { pieces.append($0) }
                let listed = "{" + e.reads(in: state).map { JSONText.quote($0.path) + ": " + $0.value.description }.joined(separator: ", ") + "}"
                #expect(pieces.joined() == listed, "\(e.text)")
                #expect(!pieces.contains(""))
            }
        }
        // A selection too long for one piece is cut, and the pieces still join to the listing.
        var big = TableState()
        var multiple = ConfigurationPatch()
        multiple.allowsMultipleSelection = true
        try big.apply(.configure(multiple))
        try big.apply(.reload(sections: [SectionSpec(rows: 20_000)]))
        try big.apply(.selectAll)
        var pieces: [String] = []
        let e = try StateExpectation("count(selected) > 0")
        e.writeReads(in: big) { pieces.append($0) }
        #expect(pieces.count > 2)
        #expect(pieces.joined() == "{\"selected\": [" + (0..<20_000).map { "[0, \($0)]" }.joined(separator: ", ") + "]}")
    }

    /// The evaluation as it was, listing `selected` wherever it appears: the reference
    /// for the evaluation that never lists it.
    static func listed(_ node: ExpectationNode, _ state: TableState) -> ExpectationValue {
        switch node {
        case .or(let operands): return .bool(operands.contains { listed($0, state).isTruthy })
        case .and(let operands): return .bool(operands.allSatisfy { listed($0, state).isTruthy })
        case .not(let a): return .bool(!listed(a, state).isTruthy)
        case .field(let f, let key): return f.value(in: state, key: key)
        case .literal(let v): return v
        case .selectedContains(let row): return .bool(state.selection.contains(row))
        case .selectedCount: return .number(.count(state.selection.count))
        case .selectedEquals(let v, let negated): return .bool(StateField.selected.value(in: state).isEqual(to: v) != negated)
        case .count(let a):
            if case .list(let items) = listed(a, state) { return .number(.count(items.count)) }
            return .null
        case .compare(let a, let op, let b): return .bool(StateExpectation.compare(listed(a, state), op, listed(b, state)))
        }
    }

    @Test("selected anywhere in an expression answers as its listing would, without listing it")
    func selectedUnlisted() throws {
        let texts = ["selected", "not selected", "selected or false", "selected and editing", "selected == selected", "selected != selected",
                     "selected contains selected", "selected < 3", "selected >= selected", "selected > selected", "selected contains 5",
                     "selected contains [[0, 5]]", "selected contains [0, 5.4]", "selected contains [0.6, 3]", "selected contains [1, 7.5]",
                     "(selected) contains [1, 7]", "selected contains [0, -1]", "[[0, 2], [0, 3]] contains selected", "[[0, 2]] == selected",
                     "selected == visible", "visible == selected", "selected contains optionOpen", "selected contains visible",
                     "count(selected) == count((selected))", "selected == []", "[] != selected", "selected contains swipe.row",
                     "selected == null", "null == selected", "count(selected) > 2 and selected contains [0, 3]", "selected contains pan.anchor",
                     "not (selected == [[0, 2.4], [0, 3]])"]
        // Some are the same in every state, and do not parse (`ExpectationShape`): the
        // evaluator still answers them as their listing would.
        let expectations = try texts.map { (text: String) throws(ExpectationError) in try StateExpectation(uncheckedShapes: text) }
        var iterator = SyntheticSession(seed: 9, count: 3_000).makeIterator()
        var n = 0
        var tried = 0
        while iterator.next() != nil {
            n += 1
            guard n % 53 == 0 else { continue }
            let state = iterator.state
            if !state.selection.isEmpty { tried += 1 }
            for e in expectations {
                let reference = Self.listed(e.root, state)
                #expect(e.holds(in: state) == reference.isTruthy, "\(e.text) after \(n) events")
                #expect(e.value(in: state).isEqual(to: reference), "\(e.text) after \(n) events")
            }
        }
        #expect(tried > 10)
        // Rows 2 to 5 selected, found by literals that round onto them (half to even), as
        // their listing finds them.
        let state = try play(ExpectationTests.session)
        #expect(state.selection.paths == [p(0, 2), p(0, 3), p(0, 4), p(0, 5)])
        for (literal, holds) in [("[0, 1.5]", true), ("[0, 0.5]", false), ("[0, 5.5]", false), ("[0, 4.5]", true), ("[0.4, 3]", true), ("[0, 1.49]", false)] {
            #expect(try StateExpectation("selected contains \(literal)").holds(in: state) == holds, "\(literal)")
        }
    }

    @Test("the selection fast paths agree with the general evaluation")
    func fastPaths() throws {
        var iterator = SyntheticSession(seed: 5, count: 2000).makeIterator()
        var n = 0
        while iterator.next() != nil {
            n += 1
            guard n % 97 == 0 else { continue }
            let state = iterator.state
            for row in [RowPath(0, 0), RowPath(0, 3), RowPath(1, 7), RowPath(2, 40)] {
                let fast = try StateExpectation("selected contains [\(row.section), \(row.row)]").holds(in: state)
                let slow = try StateExpectation("(selected) contains [\(row.section), \(row.row)]").holds(in: state)
                #expect(fast == slow)
                #expect(fast == state.selection.paths.contains(row))
            }
            #expect(try StateExpectation("count(selected) == count((selected))").holds(in: state))
            // holds(in:) short-cuts the logical operators; it must agree with the value.
            for text in ["editing or dragging", "not decelerating and selected contains [1, 7]",
                         "(editing or not dragging) and (pan == null or pan.kind == \"strip\")", "optionOpen", "not optionOpen or editing"] {
                let e = try StateExpectation(text)
                #expect(e.holds(in: state) == e.value(in: state).isTruthy, "\(text)")
            }
            #expect(try StateExpectation("count(selected) == \(state.selection.count)").holds(in: state))
            // `selected == L` compares without listing; `(selected) == L` lists.
            let paths = state.selection.paths.map { "[\($0.section), \($0.row)]" }
            var literals = ["[" + paths.joined(separator: ", ") + "]", "[" + paths.dropLast().joined(separator: ", ") + "]",
                            "[" + paths.reversed().joined(separator: ", ") + "]", "[]", "null", "3",
                            "[" + (paths + paths.prefix(1)).joined(separator: ", ") + "]"]
            if let first = state.selection.paths.first {
                // A literal is rounded onto the row's grid: 0.4 is row 0 plus nothing.
                literals.append("[" + (["[\(first.section), \(Double(first.row) + 0.4)]"] + paths.dropFirst()).joined(separator: ", ") + "]")
            }
            for literal in literals {
                for (fast, slow) in [("selected == \(literal)", "(selected) == \(literal)"), ("\(literal) != selected", "\(literal) != (selected)")] {
                    // `selected == 3` does not parse (`ExpectationShape`); the evaluator is checked all the same.
                    let f = try StateExpectation(uncheckedShapes: fast), g = try StateExpectation(uncheckedShapes: slow)
                    #expect(f.holds(in: state) == g.holds(in: state), "\(fast)")
                    #expect(f.value(in: state).isEqual(to: g.value(in: state)), "\(fast)")
                }
            }
            #expect(try StateExpectation("selected == [" + paths.joined(separator: ", ") + "]").holds(in: state))
        }
    }
}
