import Testing
@testable import SelectLog

/// Public calls with arguments an app may pass that trapped (an audit of the public API,
/// 2026-11-27). Each answers now: a value, an empty result, or the argument taken within
/// the limits the type documents.
@Suite("Public calls with any arguments answer instead of trapping")
struct PublicAPITrapTests {
    @Test("an empty layout has no row before or after any y, negative ones included")
    func emptyLayout() {
        let layout = TableLayout()
        #expect(layout.firstRow(endingAfter: Points(-1)) == nil)
        #expect(layout.rows(in: Points(-10), height: Points(20)) == nil)
        #expect(layout.lastRow(startingBefore: Points(5)) == nil)
        #expect(layout.element(at: Points(-3)) == .nothing)
    }

    @Test("sections past a table's limits are cut to them, so that heights add up without overflow")
    func layoutLimits() {
        let huge = TableLayout(sections: [LayoutSection(count: .max), LayoutSection(count: .max), LayoutSection(count: .max)])
        #expect(huge.sections.map(\.rowCount) == [EventLimits.sectionRows, EventLimits.sectionRows])
        #expect(huge.rowCount == EventLimits.tableRows)
        #expect(huge.contentHeight == Points(raw: Points(44).raw * Int64(EventLimits.tableRows)))

        let extreme = TableLayout(sections: [LayoutSection(count: 3, heights: [Points(raw: .min), Points(raw: .max), Points(5)],
                                                           header: Points(raw: .max), footer: Points(raw: .min))],
                                  editorHeight: Points(raw: .max))
        #expect(extreme.sections[0].header == EventLimits.length && extreme.sections[0].footer == .zero)
        #expect(extreme.editorHeight == EventLimits.length)
        // Row 0 is 0 pt high (clamped from below), row 1 the longest length, row 2 5 pt.
        #expect(extreme.element(at: EventLimits.length + Points(1)) == .row(RowPath(0, 1)))
        #expect(extreme.element(at: .zero) == .header(0))
        #expect(LayoutSection(count: -4).rowCount == 0)

        // A section's header set past the limit after it was made is cut when laid out.
        var section = LayoutSection(count: 2)
        section.header = Points(raw: .max)
        #expect(TableLayout(sections: [section]).sections[0].header == EventLimits.length)
        // The engine's own sections are within the limits: a layout of them keeps them as they are.
        let spec = [LayoutSection(count: 10, header: Points(30)), LayoutSection(count: 4, heights: [Points(1), Points(2)])]
        #expect(TableLayout(sections: spec).sections == spec)
    }

    @Test("an expectation number's scale is at least 1")
    func expectationScale() {
        #expect(ExpectationNumber(raw: 1, scale: 0).description == "1")
        #expect(ExpectationNumber(raw: 3, scale: -1).scale == 1)
        var n = ExpectationNumber(raw: 5, scale: 10)
        n.scale = -7
        #expect(n.scale == 1 && n.description == "5")
        #expect(ExpectationNumber(literal: 1, scale: 10).compare(ExpectationNumber(raw: 1, scale: -64)) == -1)
        #expect(ExpectationNumber(literal: 10, scale: 10).compare(ExpectationNumber(raw: 1, scale: 0)) == 0)
        // A scale with a factor other than 2 and 5 has no finite decimal: written as a fraction.
        #expect(ExpectationNumber(raw: 1, scale: 3).description == "1/3")
        #expect(ExpectationNumber(raw: 7, scale: 1).description == "7")
        #expect(ExpectationNumber(raw: -1, scale: 64).description == "-0.015625")
        // Remainders past 2^60 times ten, in full width.
        #expect(ExpectationNumber(raw: .max, scale: 1 << 62).description == "1.99999999999999999978315956550289911319850943982601165771484375")
        #expect(ExpectationNumber(raw: 1, scale: .max).description == "1/9223372036854775807")
    }

    @Test("changes set by an app with paths outside the domain leave them out")
    func changesOutsideDomain() {
        var changes = TableChanges()
        changes.selected = [RowPath(0, .max), RowPath(0, 3), RowPath(-1, 2)]
        changes.deselected = [RowPath(.max, 0)]
        #expect(changes.selected == [RowPath(0, 3)])
        #expect(changes.deselected.isEmpty)
    }

    @Test("a span of the largest height still covers every row below its top")
    func rowsInExtremeSpan() {
        let layout = TableLayout(sections: [LayoutSection(count: 10)])
        #expect(layout.rows(in: Points(10), height: Points(raw: .max)) == RowPath(0, 0)...RowPath(0, 9))
        #expect(layout.rows(in: Points(raw: .min), height: Points(raw: .max)) == nil)
        #expect(layout.rows(in: Points(raw: .max), height: Points(raw: .max)) == nil)
    }

    @Test("negating an expectation twice gives it back, however often it is done")
    func negations() throws {
        let editing = try StateExpectation("editing")
        var e = editing
        for _ in 0..<20_001 { e = e.negated }
        var state = TableState()
        #expect(e.text == "not (editing)")
        #expect(e.holds(in: state))
        #expect(e.negated.text == "editing" && !e.negated.holds(in: state))
        #expect(e.fields == ["editing"])
        try state.apply(.setEditing(true))
        #expect(!e.holds(in: state) && e.negated.holds(in: state))
        // A parsed "not" is an expectation like any other: its negation wraps it.
        let parsed = try StateExpectation("not editing")
        #expect(parsed.negated.text == "not (not editing)" && parsed.negated.holds(in: state))
        #expect(parsed.negated.negated.text == "not editing")
    }

    @Test("replaying a script up to a negative count replays nothing")
    func negativeReplayLimit() throws {
        let script = try Script(bytes: Array("{\"type\": \"tick\"}\n{\"type\": \"tick\"}\n".utf8))
        var state = TableState()
        try script.replay(upTo: -1, into: &state)
        #expect(state.events == 0)
        try script.replay(upTo: .max, into: &state)
        #expect(state.events == 2)
    }

    @Test("a snapshot whose counters or time no event could reach is refused by name")
    func snapshotCounters() throws {
        let snapshot = TableState().snapshot()
        // Byte 0 is the version; the events counter follows as a varint (0 for a new table).
        #expect(snapshot[1] == 0)
        var huge = snapshot
        huge.replaceSubrange(1...1, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: SnapshotError.self) { try TableState(snapshot: huge) }
        // Just under the limit reads, and counting on from it does not overflow.
        var near = TableState()
        near.events = TableState.counterLimit
        var read = try TableState(snapshot: near.snapshot())
        try read.apply(.tick)
        #expect(read.events == TableState.counterLimit + 1)
        var late = TableState()
        late.t = Micros(raw: -1)
        #expect(throws: SnapshotError.self) { try TableState(snapshot: late.snapshot()) }
        late.t = Micros(raw: Micros.limit.raw + 1)
        #expect(throws: SnapshotError.self) { try TableState(snapshot: late.snapshot()) }
    }

    @Test("a snapshot with a negative header is refused, not laid out as zero")
    func snapshotNegativeLength() throws {
        var state = TableState()
        try state.apply(.reload(sections: [SectionSpec(rows: 3, header: Points(raw: 2371))]))
        let bytes = state.snapshot()
        var positive = BinaryWriter(), negative = BinaryWriter()
        positive.points(Points(raw: 2371))
        negative.points(Points(raw: -2371))
        let at = (0...(bytes.count - positive.bytes.count)).filter { Array(bytes[$0..<$0 + positive.bytes.count]) == positive.bytes }
        try #require(at.count == 1 && negative.bytes.count == positive.bytes.count, "the header's bytes are found once")
        var forged = bytes
        forged.replaceSubrange(at[0]..<at[0] + negative.bytes.count, with: negative.bytes)
        #expect(throws: SnapshotError.self) { try TableState(snapshot: forged) }
        #expect(try TableState(snapshot: bytes) == state)
    }

    /// A strip-enabled table with a pan under way, for the forged-snapshot tests below.
    private func panningState() throws -> TableState {
        var state = try play(#"{"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}"#)
        try state.apply(.viewport(width: Points(390), height: Points(600)))
        try state.apply(.reload(sections: [SectionSpec(rows: 100)]))
        try state.apply(.select(rows: [RowPath(0, 7)]))
        try state.apply(TimedEvent(.panBegan(ViewportPoint(x: Points(10), y: Points(22)), fingers: 1), t: .milliseconds(1)))
        try state.apply(TimedEvent(.panMoved(ViewportPoint(x: Points(10), y: Points(140))), t: .milliseconds(2)))
        return state
    }

    @Test("a snapshot with settings no configure event may set is refused, before a tick or a swipe can trap on them",
          arguments: ["rowsPerSecond", "stripWidth", "jitter", "optionWidth"])
    func snapshotSettings(field: String) throws {
        var state = try panningState()
        switch field {
        case "rowsPerSecond": state.configuration.strip.rowsPerSecond = Points(-20)
        case "stripWidth": state.configuration.strip.stripWidth = Points(-1)
        case "jitter": state.configuration.strip.jitter = Points(-3)
        default: state.configuration.optionWidth = Points(-80)
        }
        #expect { try TableState(snapshot: state.snapshot()) } throws: { e in
            (e as? SnapshotError)?.reason.contains(field) == true
        }
        // The same state with its settings as an event left them reads back.
        let sound = try panningState()
        #expect(try TableState(snapshot: sound.snapshot()) == sound)
    }

    @Test("a snapshot with a viewport no viewport event may give is refused", arguments: ["width", "height"])
    func snapshotViewport(field: String) throws {
        var state = try panningState()
        if field == "width" { state.viewport.width = Points(-1) } else { state.viewport.height = Points(-600) }
        #expect { try TableState(snapshot: state.snapshot()) } throws: { e in
            (e as? SnapshotError)?.reason.contains(field) == true
        }
    }

    @Test("a snapshot whose pan changed rows the table does not have is refused, before the pan's end records them as an undo step")
    func snapshotPanRows() throws {
        var state = try panningState()
        guard case .running(var pan) = state.gesture.state else {
            Issue.record("the pan is not running: \(state.gesture.state)")
            return
        }
        pan.changedRows.insert(RowPath(0, 150))
        state.gesture.enter(.running(pan), kind: pan.kind)
        #expect(state.invariantViolations().contains { $0.contains("[0, 150]") })
        #expect { try TableState(snapshot: state.snapshot()) } throws: { e in
            (e as? SnapshotError)?.reason.contains("[0, 150] does not exist") == true
        }
    }
}
