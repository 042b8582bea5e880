import Testing
@testable import SelectLog

@Suite("4. Scripts")
struct ScriptTests {
    @Test("blank lines and lines starting with # are skipped")
    func skipsBlankAndComments() throws {
        let script = try Script(bytes: Array("# a comment\n\n   \n{\"type\": \"tick\"}\n  # indented comment\n".utf8))
        #expect(script.entries.count == 1)
        #expect(script.entries[0].line == 4)
    }

    @Test("a field the contract does not name is invalid (v2, section 4)")
    func unknownFieldsRejected() {
        #expect(throws: InvalidEvent(.malformed, "tap", field: "pressure", "unknown field \"pressure\"")) {
            try EventDecoder.decode(line: Array(#"{"type": "tap", "x": 1, "y": 2, "pressure": 0.5}"#.utf8))
        }
    }

    @Test("an unknown type is an invalid event, named with its line")
    func unknownType() {
        #expect(throws: ScriptError(line: 2, reason: InvalidEvent(.malformed, "wiggle", field: "type", "unknown event type"))) {
            try Script(bytes: Array("{\"type\": \"tick\"}\n{\"type\": \"wiggle\"}\n".utf8))
        }
    }

    @Test("missing and ill-typed fields name the field", arguments: [
        (#"{"type": "tap", "x": 1}"#, "missing field \"y\""),
        (#"{"type": "tap", "x": "1", "y": 2}"#, "field \"x\" must be a number"),
        (#"{"type": "select", "rows": [[0]]}"#, "rows[0] must be an index path"),
        (#"{"type": "select", "rows": [[0, 1.5]]}"#, "whole number"),
        (#"{"type": "setEditing", "editing": 1}"#, "true or false"),
        (#"{"type": "reload", "sections": [{"rowHeight": 3}]}"#, "missing field \"sections[0].rows\""),
        (#"{"type": "viewport", "width": -1}"#, "must not be negative"),
        (#"{"type": "scroll", "y": 1, "dy": 2}"#, "not both"),
        // The contract's `{section}` or `{title}`: a title is checked even beside a section.
        (#"{"type": "jumpToSection", "section": 0, "title": "nope"}"#, "give \"section\" or \"title\", not both"),
        (#"{"type": "jumpToSection", "section": 0, "title": 5}"#, "field \"title\" must be a string"),
        (#"{"type": "scroll", "phase": "fling"}"#, "unknown phase"),
        (#"{"type": "configure", "scrollAndSelect": {"edge": "top"}}"#, "edge"),
        (#"{"type": "configure", "scrollAndSelect": {"reversal": "undo"}}"#, "reversal"),
        // A nested object's fields are named by their path, as a section's are, and as the
        // checks after decoding name them (`"scrollAndSelect.rowsPerSecond" must not be negative`).
        (#"{"type": "configure", "scrollAndSelect": {"stripWidth": "a"}}"#, "field \"scrollAndSelect.stripWidth\" must be a number, not a string"),
        (#"{"type": "configure", "scrollAndSelect": {"enabled": 1}}"#, "field \"scrollAndSelect.enabled\" must be true or false, not a number"),
        (#"{"type": "configure", "scrollAndSelect": {"edge": "left"}}"#, "unknown scrollAndSelect.edge \"left\" (expected \"leading\" or \"trailing\")"),
        (#"{"type": "configure", "scrollAndSelect": {"rowsPerSecond": -1}}"#, "field \"scrollAndSelect.rowsPerSecond\" must not be negative, not -1"),
        (#"{"type": "tap", "x": 1, "y": 2, "t": -5}"#, "must not be negative"),
        (#"{"x": 1}"#, "missing field \"type\""),
        (#"[1, 2]"#, "must be a JSON object"),
        (#"{"type": "tap", "x": 1, "x": 2, "y": 3}"#, "duplicate field"),
        (#"{"type": "tap", "x": 1, "y": 2"#, "not valid JSON at column"),
        (#"{"type": "tap", "x": 1e999, "y": 2}"#, "out of range"),
        // A number is quoted as written, and a whole number past the range is out of range,
        // not "not a whole number" (a review's reproducers).
        (#"{"type": "reload", "sections": [{"rows": 1.5}]}"#, "field \"sections[0].rows\" must be a whole number, not 1.5"),
        (#"{"type": "reload", "sections": [{"rows": 2.50}]}"#, "must be a whole number, not 2.50"),
        (#"{"type": "select", "rows": [[0, 99999999999999999999]]}"#, "must be at most 2147483647, not 99999999999999999999"),
        (#"{"type": "reload", "sections": [{"rows": 1e30}]}"#, "must be at most 2147483647, not 1e30"),
        (#"{"type": "reload", "sections": [{"rows": -99999999999999999999}]}"#, "must not be negative, not -99999999999999999999"),
        (#"{"type": "tick", "t": 1e400}"#, "not 1e400"),
    ])
    func fieldErrors(line: String, expected: String) {
        do {
            _ = try EventDecoder.decode(line: Array(line.utf8))
            Issue.record("\(line) was accepted")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test("invalid UTF-8 inside a string is an error with its column, not a silent repair")
    func invalidUTF8() {
        var line = Array(#"{"type": "jumpToSection", "title": "A"#.utf8)
        line.append(0xFF)
        line.append(contentsOf: Array(#""}"#.utf8))
        do {
            _ = try EventDecoder.decode(line: line)
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.description.contains("invalid UTF-8"))
        }
    }

    @Test("a JSON error's column counts characters, as an editor does, and names the byte when they differ")
    func columnsCountCharacters() {
        // "Été" is 3 characters in 5 bytes: the field after it, where a comma belongs, is character 42, byte 44.
        let cases = [
            (#"{"type": "jumpToSection", "title": "Été" "x": 1}"#, "not valid JSON at column 42 (byte 44)"),
            (#"{"type": "jumpToSection", "title": "Ete" "x": 1}"#, "not valid JSON at column 42:"),
        ]
        for (line, expected) in cases {
            do {
                _ = try EventDecoder.decode(line: Array(line.utf8))
                Issue.record("\(line) was accepted")
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
            }
        }
    }

    @Test("an explicit null is the same as an absent field")
    func nullIsAbsent() throws {
        let e = try EventDecoder.decode(line: Array(#"{"type": "panBegan", "x": 1, "y": 2, "fingers": null, "t": null}"#.utf8))
        #expect(e == TimedEvent(.panBegan(ViewportPoint(x: Points(1), y: Points(2)), fingers: 1)))
    }

    @Test("replay stops at the first invalid event and keeps the state before it")
    func replayStopsAtInvalid() throws {
        let text = multipleTable + "\n" + #"{"type": "tap", "x": 1, "y": 1}"# + "\n" + #"{"type": "select", "rows": [[5, 5]]}"# + "\n" + #"{"type": "tap", "x": 1, "y": 60}"#
        let script = try Script(bytes: Array(text.utf8))
        var state = TableState()
        #expect(throws: ScriptError.self) { try script.replay(into: &state) }
        do {
            var again = TableState()
            try script.replay(into: &again)
        } catch {
            #expect(error.line == 5)
        }
        #expect(state.selected == [p(0, 0)])
        #expect(state.events == 4)
    }

    @Test("every event encodes to a line that decodes to the same event")
    func encoderRoundTrip() throws {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<3000 {
            let e = RandomEvents.event(using: &rng, rows: 20, sections: 3)
            let timed = TimedEvent(e, t: Bool.random(using: &rng) ? Micros(raw: Int64.random(in: 0...10_000_000, using: &rng)) : nil)
            let line = EventEncoder.line(timed)
            let back = try EventDecoder.decode(line: Array(line.utf8))
            #expect(back == timed, "\(line)")
        }
    }
}

@Suite("6. State as JSON")
struct StateJSONTests {
    @Test("replay --json prints every field of spec 6 in order with exact values")
    func stateJSON() throws {
        let s = try play(multipleTable + "\n" + #"{"type": "tap", "x": 200, "y": 75}"# + "\n" + #"{"type": "tap", "x": 200, "y": 125, "t": 100}"#)
        let expected = #"{"events": 5, "t": 100, "sections": [100], "editing": false, "selected": [[0, 1], [0, 2]], "contentOffset": 0, "contentHeight": 5000, "visible": [[0, 0], [0, 11]], "dragging": false, "decelerating": false, "rowsToLoad": [[0, 0], [0, 11]], "pan": null, "optionOpen": null, "swipe": null, "editor": null, "undo": 2, "redo": 0, "hash": ""#
        #expect(s.json.hasPrefix(expected))
        #expect(s.json.hasSuffix("\"\(s.hashHex)\"}"))
    }

    @Test("fractions print exactly; the editor and option view print their rows")
    func fractionsAndFeatures() throws {
        let s = try play("""
            {"type": "configure", "optionWidth": 80}
            {"type": "viewport", "width": 390, "height": 100}
            {"type": "reload", "sections": [{"rows": 10, "rowHeight": 10.5}]}
            {"type": "scroll", "y": 0.015625}
            {"type": "setOptionVisible", "row": [0, 3], "visible": true}
            {"type": "toggleEditor", "row": [0, 2], "options": ["Spring", "Sum\\"mer"], "multiple": true, "chosen": [1]}
            {"type": "tick", "t": 0.25}
            """)
        let json = s.json
        #expect(json.contains(#""t": 0.25"#))
        #expect(json.contains(#""contentOffset": 0.015625"#))
        #expect(json.contains(#""contentHeight": 149"#))
        #expect(json.contains(#""optionOpen": [0, 3]"#))
        #expect(json.contains(#""editor": {"row": [0, 2], "options": ["Spring", "Sum\"mer"], "multiple": true, "chosen": [1]}"#))
    }

    @Test("the JSON parses back as JSON")
    func jsonIsValid() throws {
        let s = try play(multipleTable + "\n" + #"{"type": "selectAll"}"#)
        guard case .object(let members) = try JSONParser.parse(Array(s.json.utf8)) else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["events", "t", "sections", "editing", "selected", "contentOffset", "contentHeight",
                                       "visible", "dragging", "decelerating", "rowsToLoad", "pan", "optionOpen", "swipe", "editor",
                                       "undo", "redo", "hash"])
    }
}
