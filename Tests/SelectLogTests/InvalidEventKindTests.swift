import Testing
@testable import SelectLog

/// `InvalidEvent.kind`: which kind of rule a rejected event broke, for code that handles
/// rejections without reading `reason`; and `field`, the path of the one field at fault.
@Suite("5. Rejections say which kind of rule they broke")
struct InvalidEventKindTests {
    /// A line rejected after `setUp`: its kind, field (nil: none single) and type.
    struct Rejection: Sendable, CustomTestStringConvertible {
        let rule: String
        let setUp: String
        let line: String
        let kind: InvalidEvent.Kind
        let field: String?
        var testDescription: String { rule }
    }

    static let pan = #"{"type": "panBegan", "t": 100, "x": 200, "y": 300}"#
    static let editor = #"{"type": "toggleEditor", "row": [0, 5], "options": ["a", "b"], "multiple": false}"#

    /// (The script reader's own, a bare CR and an over-long line, are `ParserLimitTests`'.)
    ///
    /// The state-dependent rules of EVENTS.md 5 that say **invalid**, and a few of the
    /// event's own (state-independent ones are `ValidationTests`' reproducers, all malformed).
    static let rejections: [Rejection] = [
        // 5.2-5.8: an index path, section, option or title the table does not have.
        Rejection(rule: "5.5 a row out of range", setUp: multipleTable,
                  line: #"{"type": "swipeBegan", "row": [0, 100]}"#, kind: .outOfRange, field: "row"),
        Rejection(rule: "5.4 an unknown section", setUp: multipleTable,
                  line: #"{"type": "jumpToSection", "section": 1}"#, kind: .outOfRange, field: "section"),
        Rejection(rule: "5.4 an unknown title", setUp: multipleTable,
                  line: #"{"type": "jumpToSection", "title": "Z"}"#, kind: .outOfRange, field: "title"),
        Rejection(rule: "5.6 an option out of range", setUp: multipleTable + "\n" + editor,
                  line: #"{"type": "choose", "option": 2}"#, kind: .outOfRange, field: "option"),
        Rejection(rule: "5.8 a pre-update path out of range", setUp: multipleTable,
                  line: #"{"type": "deleteRows", "at": [[0, 1], [0, 100]]}"#, kind: .outOfRange, field: "at[1]"),
        Rejection(rule: "5.8 a post-update path out of range", setUp: multipleTable,
                  line: #"{"type": "insertRows", "at": [[0, 101]]}"#, kind: .outOfRange, field: "at[0]"),
        Rejection(rule: "5.8 a batch move's destination out of range", setUp: multipleTable,
                  line: #"{"type": "batch", "moves": [[[0, 1], [0, 100]]]}"#, kind: .outOfRange, field: "moves[0][1]"),
        Rejection(rule: "5.8 a moveRow's source out of range", setUp: multipleTable,
                  line: #"{"type": "moveRow", "from": [0, 100], "to": [0, 0]}"#, kind: .outOfRange, field: "from"),
        Rejection(rule: "5.8 a section out of range", setUp: multipleTable,
                  line: #"{"type": "deleteSections", "at": [1]}"#, kind: .outOfRange, field: "at[0]"),
        Rejection(rule: "5.9 a row out of range", setUp: multipleTable,
                  line: #"{"type": "select", "rows": [[0, 1], [3, 0]]}"#, kind: .outOfRange, field: "rows[1]"),
        // 5.8: the event's own fields contradict each other.
        Rejection(rule: "5.8 a duplicate", setUp: multipleTable,
                  line: #"{"type": "deleteRows", "at": [[0, 1], [0, 1]]}"#, kind: .malformed, field: "at[1]"),
        Rejection(rule: "5.8 a row both deleted and moved", setUp: multipleTable,
                  line: #"{"type": "batch", "deletes": [[0, 1]], "moves": [[[0, 1], [0, 5]]]}"#, kind: .malformed, field: "moves[0][0]"),
        Rejection(rule: "5.8 a duplicate post-update path", setUp: multipleTable,
                  line: #"{"type": "batch", "inserts": [[0, 3]], "moves": [[[0, 1], [0, 3]]]}"#, kind: .malformed, field: "moves[0][1]"),
        Rejection(rule: "5.8 a row both reloaded and deleted", setUp: multipleTable,
                  line: #"{"type": "batch", "deletes": [[0, 1]], "reloads": [[0, 1]]}"#, kind: .malformed, field: "reloads[0]"),
        Rejection(rule: "5.6 a chosen option past the event's own options", setUp: multipleTable,
                  line: #"{"type": "toggleEditor", "row": [0, 5], "options": ["a", "b"], "multiple": true, "chosen": [2]}"#,
                  kind: .malformed, field: "chosen[0]"),
        Rejection(rule: "5.6 several chosen in a single-choice editor", setUp: multipleTable,
                  line: #"{"type": "toggleEditor", "row": [0, 5], "options": ["a", "b"], "multiple": false, "chosen": [0, 1]}"#,
                  kind: .malformed, field: "chosen"),
        // 5.3, 5.6, 5.9: what the state forbids now.
        Rejection(rule: "5.3 panBegan while a pan is active", setUp: multipleTable + "\n" + pan,
                  line: #"{"type": "panBegan", "t": 200, "x": 200, "y": 300}"#, kind: .notAllowedNow, field: nil),
        Rejection(rule: "5.3 panMoved with no pan", setUp: multipleTable,
                  line: #"{"type": "panMoved", "x": 200, "y": 300}"#, kind: .notAllowedNow, field: nil),
        Rejection(rule: "5.3 panEnded with no pan", setUp: multipleTable,
                  line: #"{"type": "panEnded"}"#, kind: .notAllowedNow, field: nil),
        Rejection(rule: "5.3 panCancelled with no pan", setUp: multipleTable,
                  line: #"{"type": "panCancelled"}"#, kind: .notAllowedNow, field: nil),
        Rejection(rule: "5.6 choose with no editor", setUp: multipleTable,
                  line: #"{"type": "choose", "option": 0}"#, kind: .notAllowedNow, field: nil),
        Rejection(rule: "5.9 undo during a pan", setUp: multipleTable + "\n" + pan,
                  line: #"{"type": "undo"}"#, kind: .notAllowedNow, field: nil),
        Rejection(rule: "5.9 redo during a pan", setUp: multipleTable + "\n" + pan,
                  line: #"{"type": "redo"}"#, kind: .notAllowedNow, field: nil),
        Rejection(rule: "5.9 several rows selected in single mode", setUp: singleTable,
                  line: #"{"type": "select", "rows": [[0, 1], [0, 2]]}"#, kind: .notAllowedNow, field: "rows"),
        Rejection(rule: "5.9 selectAll in single mode", setUp: singleTable,
                  line: #"{"type": "selectAll"}"#, kind: .notAllowedNow, field: nil),
        // 5.7: time never goes back.
        Rejection(rule: "5.7 an earlier t", setUp: multipleTable + "\n" + #"{"type": "tick", "t": 500}"#,
                  line: #"{"type": "tick", "t": 499}"#, kind: .outOfOrder, field: "t"),
        // The engine's sizes.
        Rejection(rule: "a section past 50,000,000 rows", setUp: multipleTable,
                  line: #"{"type": "reload", "sections": [{"rows": 50000001}]}"#, kind: .overLimit, field: "sections[0].rows"),
        Rejection(rule: "a reload past 100,000,000 rows", setUp: multipleTable,
                  line: #"{"type": "reload", "sections": [{"rows": 50000000}, {"rows": 50000000}, {"rows": 1}]}"#,
                  kind: .overLimit, field: nil),
        Rejection(rule: "a title past 1 MiB", setUp: multipleTable,
                  line: #"{"type": "jumpToSection", "title": ""# + String(repeating: "a", count: EventLimits.stringBytes + 1) + #""}"#,
                  kind: .overLimit, field: "title"),
        Rejection(rule: "an event past 1 MiB", setUp: multipleTable,
                  line: #"{"type": "toggleEditor", "row": [0, 5], "multiple": true, "options": [""#
                      + String(repeating: "a", count: 600_000) + #"", ""# + String(repeating: "b", count: 600_000) + #""]}"#,
                  kind: .overLimit, field: nil),
        Rejection(rule: "a table past 100,000,000 rows",
                  setUp: #"{"type": "reload", "sections": [{"rows": 50000000}, {"rows": 50000000}]}"#,
                  line: #"{"type": "insertRows", "at": [[0, 0]]}"#, kind: .overLimit, field: nil),
    ]

    @Test("each rule's kind and field, the state left as it was", arguments: rejections)
    func kindAndField(_ r: Rejection) throws {
        var state = try play(r.setUp)
        let before = state
        // Decoded and applied as `replay` does: a rule of the event's own fields is the
        // decoder's to check (it runs `TimedEvent.validate()`, as `apply` does).
        do {
            if let event = try EventDecoder.decode(line: r.line) { try state.apply(event) }
            Issue.record("accepted \(r.line)")
        } catch {
            #expect(error.kind == r.kind)
            #expect(error.field == r.field)
            #expect(error.type.map { r.line.contains("\"type\": \"\($0)\"") } == true)
        }
        #expect(state == before)
    }

    @Test("a duplicate post-update path names the entry that put a row there first", arguments: [
        (#"{"type": "batch", "inserts": [[0, 3]], "moves": [[[0, 1], [0, 3]]]}"#, "moves[0] to [0, 3] is a duplicate post-update index path (inserts[0] [0, 3] too)"),
        (#"{"type": "batch", "moves": [[[0, 1], [0, 6]], [[0, 2], [0, 6]]]}"#, "moves[1] to [0, 6] is a duplicate post-update index path (moves[0] to [0, 6] too)"),
    ])
    func duplicateNamesTheOther(line: String, reason: String) throws {
        var state = try play(multipleTable)
        let event = try #require(try EventDecoder.decode(line: line))
        #expect { try state.apply(event) } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test("not JSON, an unknown type, a field of the wrong type, half a point: malformed, naming the field when there is one")
    func decoderKinds() {
        let cases: [(String, String?)] = [
            (#"{"type": "tap", "x": 1"#, nil),
            (#"[1, 2]"#, nil),
            (#"{"type": "wiggle"}"#, "type"),
            (#"{"type": "tap", "x": "1", "y": 2}"#, "x"),
            (#"{"type": "tap", "x": 1, "y": 2, "pressure": 1}"#, "pressure"),
            // README, Semantics: a point comes whole, even where it is optional.
            (#"{"type": "panEnded", "y": 200}"#, nil),
        ]
        for (line, field) in cases {
            do {
                _ = try EventDecoder.decode(line: line)
                Issue.record("\(line) was accepted")
            } catch {
                #expect(error.kind == .malformed, "\(line)")
                #expect(error.field == field, "\(line)")
            }
        }
    }
}
