import Testing
@testable import SelectLog

/// `TableState.selectionPanPoint`: a selection pan's finger reported at the viewport's edge.
@Suite("A selection pan's finger outside the viewport")
struct SelectionPanPointTests {
    func point(_ x: Double, _ y: Double) -> ViewportPoint { ViewportPoint(x: Points(rounding: x), y: Points(rounding: y)) }

    @Test("a finger past the bottom edge selects every row it crossed and goes on selecting as auto-scroll brings rows under the edge")
    func pastTheBottomEdge() throws {
        var s = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 30, "y": 425, "t": 0}"#)
        let outside = point(30, 620)
        // Reported as it is, the finger hits nothing (EVENTS.md 2): rows 9-11 are skipped
        // and auto-scroll scrolls without selecting.
        var literal = s
        try literal.apply(TimedEvent(.panMoved(outside), t: Micros(raw: 16_000)))
        try literal.apply(TimedEvent(.tick, t: Micros(raw: 516_000)))
        #expect(literal.selected == rows(8...8))
        #expect(literal.offset > 0)

        let edge = s.selectionPanPoint(outside)
        #expect(edge == ViewportPoint(x: Points(30), y: Points(raw: 600 * 64 - 1)))
        try s.apply(TimedEvent(.panMoved(edge), t: Micros(raw: 16_000)))
        #expect(s.selected == rows(8...11))
        #expect(s.pan?.autoscroll == .down)
        try s.apply(TimedEvent(.tick, t: Micros(raw: 516_000)))
        // 10 rows/s of 50 pt for 500 ms: 250 pt, so the row at the edge is row 16.
        #expect(s.offset == 250)
        #expect(s.selected == rows(8...16))
        try s.apply(TimedEvent(.panEnded(at: s.selectionPanPoint(point(30, 640))), t: Micros(raw: 532_000)))
        #expect(s.selected == rows(8...16))
        #expect(s.pan == nil)
    }

    @Test("above the top edge and off either side, the point is moved to the nearest point inside")
    func everyEdge() throws {
        let s = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 30, "y": 300}"#)
        #expect(s.selectionPanPoint(point(-5, -40)) == point(0, 0))
        #expect(s.selectionPanPoint(point(400, 300)) == ViewportPoint(x: Points(raw: 390 * 64 - 1), y: Points(300)))
        #expect(s.selectionPanPoint(point(389.5, 599.5)) == point(389.5, 599.5))
        var flick = s
        // A flick up past the top edge from row 6: rows 0-5 are crossed, none skipped.
        try flick.apply(.panMoved(s.selectionPanPoint(point(30, -20))))
        #expect(flick.selected == rows(0...6))
    }

    @Test("a drag scroll, no pan, an interrupted pan and an empty viewport keep the point as it is")
    func unchanged() throws {
        let far = point(-30, 900)
        let idle = try play(stripTable)
        #expect(idle.selectionPanPoint(far) == far)
        let drag = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 200, "y": 300}"#)
        #expect(drag.pan?.kind == .scroll)
        #expect(drag.selectionPanPoint(far) == far)
        var interrupted = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 30, "y": 300}"#)
        try apply(&interrupted, #"{"type": "batch"}"#)
        #expect(interrupted.pan?.kind == .interrupted)
        #expect(interrupted.selectionPanPoint(far) == far)
        var empty = try play(stripTable + "\n" + #"{"type": "panBegan", "x": 30, "y": 300}"#)
        try apply(&empty, #"{"type": "viewport", "height": 0}"#)
        #expect(empty.selectionPanPoint(far) == far)
    }
}
