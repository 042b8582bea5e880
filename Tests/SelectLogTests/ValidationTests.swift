import Foundation
import Testing
@testable import SelectLog

/// One of issue 8's reproducers: an event the engine must reject, naming `field`.
struct Reproducer: Sendable, CustomTestStringConvertible {
    let event: TimedEvent
    let field: String
    /// A field's own domain broken (malformed), or a size the engine supports passed.
    let kind: InvalidEvent.Kind
    var testDescription: String { "\(event.event.typeName) \(field)" }

    init(_ event: Event, _ field: String, t: Micros? = nil, kind: InvalidEvent.Kind = .malformed) {
        self.event = TimedEvent(event, t: t)
        self.field = field
        self.kind = kind
    }

    /// Issue 8, first bullet, and its neighbours: every state-independent rule of the contract and the log's limits.
    static let all: [Reproducer] = {
        var strip = StripPatch()
        strip.rowsPerSecond = Points(-20)
        var stripWidth = StripPatch()
        stripWidth.stripWidth = Points(raw: -1)
        var jitter = StripPatch()
        jitter.jitter = Points(-5)
        var undo = ConfigurationPatch()
        undo.undoLimit = -1
        var rps = ConfigurationPatch()
        rps.scrollAndSelect = strip
        var width = ConfigurationPatch()
        width.scrollAndSelect = stripWidth
        var jitterPatch = ConfigurationPatch()
        jitterPatch.scrollAndSelect = jitter
        var optionWidth = ConfigurationPatch()
        optionWidth.optionWidth = Points(-80)
        var editorHeight = ConfigurationPatch()
        editorHeight.editorHeight = Points(raw: -1)
        let finger = ViewportPoint(x: Points(10), y: Points(10))
        return [
            Reproducer(.reload(sections: [SectionSpec(rows: -5)]), "sections[0].rows"),
            Reproducer(.insertSections(at: [0], sections: [SectionSpec(rows: -1)]), "sections[0].rows"),
            Reproducer(.configure(undo), "undoLimit"),
            Reproducer(.insertRows(at: [RowPath(0, -1)], heights: nil), "at[0][1]"),
            Reproducer(.insertSections(at: [-1], sections: [SectionSpec(rows: 1)]), "at[0]"),
            Reproducer(.deleteSections(at: [-1]), "at[0]"),
            Reproducer(.configure(rps), "scrollAndSelect.rowsPerSecond"),
            Reproducer(.viewport(width: Points(raw: .max), height: nil), "width"),
            Reproducer(.tick, "t", t: Micros(raw: .max)),
            Reproducer(.reload(sections: [SectionSpec(rows: 3, rowHeight: Points(raw: (1 << 54) * 64))]), "sections[0].rowHeight"),
            Reproducer(.panBegan(finger, fingers: -5), "fingers"),
            Reproducer(.viewport(width: nil, height: Points(-1)), "height"),
            Reproducer(.reload(sections: [SectionSpec(rows: 3, rowHeights: [Points(1), Points(-1)])]), "sections[0].rowHeights[1]"),
            Reproducer(.reload(sections: [SectionSpec(rows: 3, header: Points(-1))]), "sections[0].header"),
            Reproducer(.reload(sections: [SectionSpec(rows: 3), SectionSpec(rows: 3, footer: Points(raw: -1))]), "sections[1].footer"),
            Reproducer(.configure(width), "scrollAndSelect.stripWidth"),
            Reproducer(.configure(jitterPatch), "scrollAndSelect.jitter"),
            Reproducer(.configure(optionWidth), "optionWidth"),
            Reproducer(.configure(editorHeight), "editorHeight"),
            Reproducer(.insertRows(at: [RowPath(0, 0)], heights: [Points(-44)]), "heights[0]"),
            Reproducer(.reloadRows(at: [RowPath(0, 0)], heights: [Points(-44)]), "heights[0]"),
            Reproducer(.batch(BatchUpdate(inserts: [RowPath(0, 0)], insertHeights: [Points(-1)])), "insertHeights[0]"),
            Reproducer(.batch(BatchUpdate(moves: [.init(from: RowPath(0, 1), to: RowPath(-1, 0))])), "moves[0][1][0]"),
            Reproducer(.choose(option: -1), "option"),
            Reproducer(.jumpToSection(.index(-1)), "section"),
            Reproducer(.select(rows: [RowPath(0, 1), RowPath(-1, 0)]), "rows[1][0]"),
            Reproducer(.deselect(rows: [RowPath(0, Int(Int32.max) + 1)]), "rows[0][1]"),
            Reproducer(.moveRow(from: RowPath(0, -1), to: RowPath(0, 0)), "from[1]"),
            Reproducer(.swipeBegan(row: RowPath(-1, 0)), "row[0]"),
            Reproducer(.setOptionVisible(row: RowPath(0, -3), visible: true), "row[1]"),
            Reproducer(.toggleEditor(row: RowPath(0, 1), options: ["a"], multiple: true, chosen: [-1]), "chosen[0]"),
            Reproducer(.tap(ViewportPoint(x: Points(raw: .min), y: Points(0))), "x"),
            Reproducer(.scroll(.to(EventLimits.offset + Points(raw: 1)), phase: nil, target: nil), "y"),
            Reproducer(.scroll(nil, phase: .decelerate, target: -EventLimits.offset - Points(raw: 1)), "target"),
            Reproducer(.panEnded(nil, targetOffset: Points(raw: .min)), "targetOffset"),
            Reproducer(.scroll(.by(EventLimits.length + Points(raw: 1)), phase: nil, target: nil), "dy"),
            Reproducer(.swipeMoved(offset: Points(raw: .max)), "offset"),
            Reproducer(.tick, "t", t: Micros(raw: -1)),
            Reproducer(.tick, "t", t: Micros(raw: EventLimits.time.raw + 1)),
            Reproducer(.reload(sections: [SectionSpec(rows: EventLimits.sectionRows + 1)]), "sections[0].rows", kind: .overLimit),
        ]
    }()
}

/// A table of 100 rows, one selected, an editor open: every event type has something to act on.
func validationTable() throws -> TableState {
    var s = try play(multipleTable + "\n" + #"{"type": "tap", "x": 10, "y": 75, "t": 10}"#)
    try s.apply(.toggleEditor(row: RowPath(0, 5), options: ["a", "b"], multiple: false, chosen: []))
    return s
}

@Suite("5. Events validated once")
struct ValidationTests {
    @Test("issue 8's reproducers are rejected by apply, naming the field, and change nothing", arguments: Reproducer.all)
    func throughApply(_ r: Reproducer) throws {
        var s = try validationTable()
        let before = s, hash = s.hashHex
        #expect {
            try s.apply(r.event)
        } throws: { error in
            guard let e = error as? InvalidEvent else { return false }
            return e.kind == r.kind && e.type == r.event.event.typeName && e.field == r.field && e.reason.contains("\"\(r.field)\"")
        }
        #expect(s == before)
        #expect(s.hashHex == hash)
        // The table still works: a tick after a rejected rowsPerSecond does not trap.
        try s.apply(TimedEvent(.tick, t: Micros(raw: s.t.raw + 1000)))
    }

    @Test("the JSON decoder rejects what apply rejects, with the same field", arguments: Reproducer.all)
    func throughJSON(_ r: Reproducer) {
        let line = EventEncoder.line(r.event)
        #expect {
            try EventDecoder.decode(line: Array(line.utf8))
        } throws: { error in
            guard let e = error as? InvalidEvent else { return false }
            return e.kind == r.kind && e.type == r.event.event.typeName && e.field == r.field
        }
    }

    @Test("a rejected row edit names the field the event has: a single edit's at, from and to; a batch's deletes, inserts, reloads and moves")
    func rowEditFieldNames() throws {
        let twice = [RowPath(0, 1), RowPath(0, 1)], far = RowPath(0, 99)
        let cases: [(Event, String)] = [
            (.deleteRows(at: twice), "deleteRows: at[1] [0, 1] is a duplicate"),
            (.insertRows(at: twice, heights: nil), "insertRows: at[1] [0, 1] is a duplicate"),
            (.reloadRows(at: twice, heights: nil), "reloadRows: at[1] [0, 1] is a duplicate"),
            (.deleteRows(at: [far]), "deleteRows: at[0] [0, 99] is out of range"),
            (.moveRow(from: far, to: RowPath(0, 1)), "moveRow: from [0, 99] is out of range"),
            (.moveRow(from: RowPath(0, 1), to: far), "moveRow: to [0, 99] is out of range"),
            (.batch(BatchUpdate(deletes: twice)), "batch: deletes[1] [0, 1] is a duplicate"),
            (.batch(BatchUpdate(moves: [.init(from: far, to: RowPath(0, 1))])), "batch: moves[0] from [0, 99] is out of range"),
        ]
        for (event, message) in cases {
            var state = TableState()
            try state.apply(.reload(sections: [SectionSpec(rows: 5)]))
            let before = state
            #expect { try state.apply(event) } throws: { e in
                "\(e)".contains(message)
            }
            #expect(state == before, "\(message)")
        }
    }

    @Test("a table may have 1,000,000 sections and 100,000,000 rows, not one more")
    func tableSizeLimits() throws {
        // The check apply runs before a reload or an insert (applying a table this large
        // takes seconds in a debug build, so the check is called directly).
        var s = TableState()
        try s.apply(TimedEvent(.reload(sections: [SectionSpec(rows: 2)])))
        let empty = SectionSpec(rows: 0)
        #expect(throws: Never.self) {
            try s.checkTableSize(adding: Array(repeating: empty, count: 1_000_000), type: "reload", replacing: true)
            try s.checkTableSize(adding: Array(repeating: empty, count: 999_999), type: "insertSections", replacing: false)
            try s.checkTableSize(adding: [SectionSpec(rows: 50_000_000), SectionSpec(rows: 49_999_998)], type: "insertSections", replacing: false)
        }
        #expect { try s.checkTableSize(adding: Array(repeating: empty, count: 1_000_001), type: "reload", replacing: true) }
            throws: { ($0 as? InvalidEvent)?.reason.contains("1000001 sections") == true }
        #expect { try s.checkTableSize(adding: Array(repeating: empty, count: 1_000_000), type: "insertSections", replacing: false) }
            throws: { ($0 as? InvalidEvent)?.reason.contains("1000001 sections") == true }
        #expect { try s.checkTableSize(adding: [SectionSpec(rows: 50_000_000), SectionSpec(rows: 49_999_999)], type: "insertSections", replacing: false) }
            throws: { ($0 as? InvalidEvent)?.reason.contains("100000001 rows") == true }
    }

    @Test("a field's limit is accepted, one step past it is not", arguments: [
        ("viewport", #"{"type": "viewport", "width": 1000000000, "height": 0}"#, #"{"type": "viewport", "width": 1000000000.015625}"#),
        ("x", #"{"type": "tap", "x": -1000000000, "y": 1000000000}"#, #"{"type": "tap", "x": -1000000000.015625, "y": 0}"#),
        ("t", #"{"type": "tick", "t": 8000000000000}"#, #"{"type": "tick", "t": 8000000000000.001}"#),
        ("rows", #"{"type": "reload", "sections": [{"rows": 50000000, "rowHeight": 0}]}"#, #"{"type": "reload", "sections": [{"rows": 50000001}]}"#),
        ("undoLimit", #"{"type": "configure", "undoLimit": 0}"#, #"{"type": "configure", "undoLimit": -1}"#),
        ("undoLimit max", #"{"type": "configure", "undoLimit": 2147483647}"#, #"{"type": "configure", "undoLimit": 2147483648}"#),
        ("fingers", #"{"type": "panBegan", "x": 0, "y": 0, "fingers": 0}"#, #"{"type": "panBegan", "x": 0, "y": 0, "fingers": -1}"#),
        ("rowsPerSecond", #"{"type": "configure", "scrollAndSelect": {"rowsPerSecond": 0}}"#, #"{"type": "configure", "scrollAndSelect": {"rowsPerSecond": -0.015625}}"#),
        ("heights", #"{"type": "insertRows", "at": [[0, 0]], "heights": [0]}"#, #"{"type": "insertRows", "at": [[0, 0]], "heights": [-0.015625]}"#),
    ])
    func limits(name: String, accepted: String, rejected: String) throws {
        var s = TableState()
        try apply(&s, #"{"type": "reload", "sections": [{"rows": 3}]}"#)
        // The limit passes the decoder and the validation every way in runs. (Applying
        // a 50,000,000-row reload takes seconds in a debug build; the other limits are
        // also applied, and logged, in `ValidationRoundTripTests.limitsSurviveTheLog`.)
        let atLimit = try #require(try EventDecoder.decode(line: Array(accepted.utf8)))
        #expect(throws: Never.self) { try atLimit.validate() }
        if name != "rows" { try s.apply(atLimit) }
        // One step past it is rejected by the decoder, and by apply without a change.
        let message = reject(&s, rejected)
        #expect(!message.isEmpty, "\(name)")
    }

    @Test("a rejected event in a script stops it at its line; the state is the state before it")
    func scriptStops() throws {
        let text = multipleTable + "\n" + #"{"type": "tap", "x": 1, "y": 1}"# + "\n" + #"{"type": "configure", "undoLimit": -1}"#
        var s = TableState()
        #expect(throws: ScriptError(line: 5, reason: InvalidEvent(.malformed, "configure", field: "undoLimit", "field \"undoLimit\" must not be negative, not -1"))) {
            try Script(bytes: Array(text.utf8)).replay(into: &s)
        }
    }

    @Test("every length within ±1e9 pt and a t of 8e12 ms are valid")
    func validSamples() throws {
        for raw in [Int64(0), 1, -1, EventLimits.length.raw, -EventLimits.length.raw] {
            let e = TimedEvent(.panMoved(ViewportPoint(x: Points(raw: raw), y: Points(raw: -raw))), t: EventLimits.time)
            try e.validate()
        }
    }

    @Test("a content offset (scroll y and target, panEnded targetOffset) is valid up to the tallest content, past a length's 1e9 pt")
    func offsetsPastALengthsLimit() throws {
        for raw in [EventLimits.length.raw + 1, EventLimits.offset.raw, -EventLimits.offset.raw] {
            let y = Points(raw: raw)
            for e in [Event.scroll(.to(y), phase: nil, target: nil), .scroll(nil, phase: .decelerate, target: y),
                      .scroll(.by(Points(1)), phase: .decelerate, target: y), .panEnded(nil, targetOffset: y)] {
                try TimedEvent(e).validate()
                // Each way in agrees: the script line reads back as the same event.
                let line = EventEncoder.line(TimedEvent(e))
                #expect(try EventDecoder.decode(line: Array(line.utf8)) == TimedEvent(e), "\(line)")
            }
        }
        #expect(EventLimits.offset == Points(raw: 1_000_000_000 * 64 * 102_000_001))
        // A 100,000,000-row table taller than 1e9 pt scrolls to its end with one `scroll {y}`.
        var s = try play(#"{"type": "viewport", "width": 390, "height": 600}"# + "\n"
                         + #"{"type": "reload", "sections": [{"rows": 50000000, "rowHeight": 44}, {"rows": 50000000, "rowHeight": 37}]}"#)
        try s.apply(.scroll(.to(Points(5_000_000_000)), phase: nil, target: nil))
        #expect(s.contentOffset == s.maxOffset)
        try s.apply(.scroll(.to(Points(3_000_000_000)), phase: .decelerate, target: Points(3_500_000_000)))
        #expect(s.contentOffset == Points(3_000_000_000) && s.target == Points(3_500_000_000))
    }

    @Test("a title fits one event up to the event's budget less its own length and type: a jump by a title of stringBytes is refused with a hint about the title")
    func longestTitle() throws {
        let whole = String(repeating: "T", count: EventLimits.stringBytes)
        do {
            try TimedEvent(.jumpToSection(.title(whole))).validate()
            Issue.record("a jump whose title alone takes the event's whole budget was accepted")
        } catch {
            #expect("\(error)".contains("a shorter title"), "\(error)")
        }
        // The title's length varint and the reference's tag share the budget with it.
        let fits = String(repeating: "T", count: EventLimits.stringBytes - 8)
        try TimedEvent(.jumpToSection(.title(fits))).validate()
        #expect(try #require(Event.jumpToSection(.title(fits)).fieldBytes) <= EventLimits.eventBytes)
    }
}
