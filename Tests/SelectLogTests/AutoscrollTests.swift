import Testing
@testable import SelectLog

@Suite("5.3 Auto-scroll and 5.7 time")
struct AutoscrollTests {
    @Test("in the bottom zone moving down, each 100 ms tick scrolls one 50-pt row and selects the row under the finger")
    func bottomZoneTicks() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 20, "y": 300, "t": 0}
            {"type": "panMoved", "x": 20, "y": 570, "t": 0}
            """)
        #expect(s.selected == rows(6...11))
        #expect(s.pan?.autoscroll == .down)
        try apply(&s, #"{"type": "tick", "t": 100}"#)
        #expect(s.offset == 50)
        #expect(s.selected == rows(6...12))
        try apply(&s, #"{"type": "tick", "t": 200}"#)
        #expect(s.offset == 100)
        #expect(s.selected == rows(6...13))
        #expect(s.json.contains(#""pan": {"kind": "strip", "mode": "select", "anchor": [0, 13], "autoscroll": "down"}"#))
        try apply(&s, #"{"type": "tick", "t": 250}"#)
        #expect(s.offset == 125)
        try apply(&s, #"{"type": "panEnded", "t": 300}"#)
        #expect(s.pan == nil)
        #expect(s.undoStack.count == 1)
        try apply(&s, #"{"type": "tick", "t": 400}"#)
        #expect(s.offset == 125)
    }

    @Test("elapsed time counts from the later of the previous tick and the event that started the auto-scroll")
    func elapsedFromStart() throws {
        var s = try play(stripTable + """

            {"type": "tick", "t": 0}
            {"type": "panBegan", "x": 20, "y": 300}
            {"type": "panMoved", "x": 20, "y": 570, "t": 1000}
            {"type": "tick", "t": 1100}
            """)
        #expect(s.offset == 50)
        try apply(&s, #"{"type": "tick", "t": 1130}"#)
        #expect(s.offset == 65)
    }

    @Test("in the top zone moving up, ticks scroll up")
    func topZone() throws {
        var s = try play(stripTable + """

            {"type": "scroll", "y": 1000}
            {"type": "panBegan", "x": 20, "y": 300, "t": 0}
            {"type": "panMoved", "x": 20, "y": 30}
            """)
        #expect(s.selected == rows(20...26))
        #expect(s.pan?.autoscroll == .up)
        try apply(&s, #"{"type": "tick", "t": 100}"#)
        #expect(s.offset == 950)
        #expect(s.selected == rows(19...26))
    }

    @Test("no auto-scroll in the bottom zone while the finger moves up")
    func directionRule() throws {
        let s = try play(stripTable + """

            {"type": "panBegan", "x": 20, "y": 590}
            {"type": "panMoved", "x": 20, "y": 575}
            """)
        #expect(s.pan != nil && s.pan?.autoscroll == nil)
    }

    @Test("no auto-scroll when the offset cannot move that way")
    func boundPreventsStart() throws {
        let s = try play(stripTable + """

            {"type": "panBegan", "x": 20, "y": 300}
            {"type": "panMoved", "x": 20, "y": 20}
            """)
        #expect(s.pan != nil && s.pan?.autoscroll == nil)
    }

    @Test("a reversal inside the zone stops the auto-scroll (and flips the mode)")
    func reversalStops() throws {
        var s = try play(stripTable + """

            {"type": "panBegan", "x": 20, "y": 300, "t": 0}
            {"type": "panMoved", "x": 20, "y": 590}
            {"type": "tick", "t": 100}
            """)
        #expect(s.selected == rows(6...12))
        try apply(&s, #"{"type": "panMoved", "x": 20, "y": 580}"#)
        #expect(s.pan != nil && s.pan?.autoscroll == nil)
        #expect(s.pan?.mode == .deselect)
        #expect(s.selected == rows(6...11))
        try apply(&s, #"{"type": "tick", "t": 200}"#)
        #expect(s.offset == 50)
    }

    @Test("leaving the zone stops the auto-scroll")
    func leavingZoneStops() throws {
        let s = try play(stripTable + """

            {"type": "configure", "scrollAndSelect": {"reversal": "restore"}}
            {"type": "panBegan", "x": 20, "y": 300, "t": 0}
            {"type": "panMoved", "x": 20, "y": 570}
            {"type": "viewport", "width": 390, "height": 700}
            {"type": "panMoved", "x": 20, "y": 600}
            """)
        // The zone is now y > 660: the finger at 600, still moving down, is outside it.
        #expect(s.pan != nil && s.pan?.autoscroll == nil)
    }

    @Test("the auto-scroll stops at the content's bound")
    func stopsAtBound() throws {
        var s = try play(stripTable + """

            {"type": "scroll", "y": 4380}
            {"type": "panBegan", "x": 20, "y": 300, "t": 0}
            {"type": "panMoved", "x": 20, "y": 570}
            """)
        #expect(s.pan?.autoscroll == .down)
        #expect(s.selected == rows(93...99))
        try apply(&s, #"{"type": "tick", "t": 100}"#)
        #expect(s.offset == 4400)
        #expect(s.pan != nil && s.pan?.autoscroll == nil)
        #expect(s.selected == rows(93...99))
    }

    @Test("a scroll that leaves the offset at its bound stops the auto-scroll")
    func scrollToBoundStops() throws {
        let s = try play(stripTable + """

            {"type": "panBegan", "x": 20, "y": 300, "t": 0}
            {"type": "panMoved", "x": 20, "y": 570}
            {"type": "scroll", "y": 4400}
            """)
        #expect(s.pan != nil && s.pan?.autoscroll == nil)
        // The scroll also applied the move rule: the finger is over row 99.
        #expect(s.selected == rows(6...99))
    }

    @Test("a move ignored for jitter does not move the finger; ticks use the last counted position")
    func jitterAndTicks() throws {
        let s = try play(stripTable + """

            {"type": "panBegan", "x": 20, "y": 300, "t": 0}
            {"type": "panMoved", "x": 20, "y": 599}
            {"type": "panMoved", "x": 20, "y": 596}
            {"type": "tick", "t": 100}
            """)
        // 3 pt up is ignored: no reversal, the auto-scroll runs, finger at 599 over content 649 (row 12).
        #expect(s.pan?.autoscroll == .down)
        #expect(s.pan?.finger.y == Points(599))
        #expect(s.selected == rows(6...12))
    }

    @Test("the speed is rowsPerSecond times the mean data-row height; headers do not count")
    func meanRowHeight() throws {
        var s = try play("""
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true, "rowsPerSecond": 10}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 4, "rowHeights": [50, 150, 50, 150]}, {"rows": 96, "rowHeight": 100, "header": 500}]}
            {"type": "panBegan", "x": 20, "y": 300, "t": 0}
            {"type": "panMoved", "x": 20, "y": 570}
            {"type": "tick", "t": 100}
            """)
        // Mean (400 + 9600) / 100 = 100 pt; 10 rows/s × 100 pt × 0.1 s = 100 pt.
        #expect(s.offset == 100)
        try apply(&s, #"{"type": "panEnded"}"#)
    }

    @Test("an auto-scroll tick rounds its move once onto the 1/64 grid, half to even")
    func tickRounding() throws {
        // 1 row/s × 0.5 pt mean = 0.5 pt/s.
        let s = try play("""
            {"type": "configure", "scrollAndSelect": {"rowsPerSecond": 1}}
            {"type": "reload", "sections": [{"rows": 1000, "rowHeight": 0.5}]}
            """)
        // 15.625 ms → 0.0078125 pt = 0.5/64: half-way, to even 0.
        #expect(s.autoscrollDistance(elapsed: Micros(raw: 15_625)) == Points(raw: 0))
        // 46.875 ms → 1.5/64: to even 2/64.
        #expect(s.autoscrollDistance(elapsed: Micros(raw: 46_875)) == Points(raw: 2))
        // 31.25 ms → exactly 1/64; 31.251 ms → just above, still 1/64.
        #expect(s.autoscrollDistance(elapsed: Micros(raw: 31_250)) == Points(raw: 1))
        #expect(s.autoscrollDistance(elapsed: Micros(raw: 31_251)) == Points(raw: 1))
        // An absurdly long tick saturates instead of overflowing.
        #expect(s.autoscrollDistance(elapsed: Micros.limit) > Points(1_000_000))
    }

    @Test("tick drives auto-scroll and nothing else")
    func tickAlone() throws {
        var s = try play(stripTable + "\n" + #"{"type": "scroll", "y": 100}"#)
        let before = s.hashHex
        try apply(&s, #"{"type": "tick", "t": 5000}"#)
        #expect(s.hashHex == before)
        #expect(s.t == Micros(raw: 5_000_000))
    }

    @Test("auto-scroll stops when a configure or a viewport takes the zone away from the still finger; neither starts it")
    func zoneMovesAwayFromFinger() throws {
        // The finger rests at y 570 of a 600-pt viewport, in the bottom zone, moving down.
        let running = stripTable + """

            {"type": "panBegan", "x": 20, "y": 300, "t": 0}
            {"type": "panMoved", "x": 20, "y": 570, "t": 0}
            """
        for change in [#"{"type": "configure", "scrollAndSelect": {"bottomAnchor": -10}}"#,  // zone: y > 590
                       #"{"type": "viewport", "height": 800}"#] {                           // zone: y > 800 + anchor
            var s = try play(running)
            #expect(s.pan?.autoscroll == .down)
            try apply(&s, change)
            #expect(s.pan?.autoscroll == nil, "\(change)")
            try apply(&s, #"{"type": "tick", "t": 100}"#)
            #expect(s.offset == 0, "\(change): the finger left the zone, so ticks scroll no more")
            #expect(s.selected == rows(6...11))
        }
        // A setting that leaves the finger in its zone keeps it running, at the new rate.
        var kept = try play(running)
        try apply(&kept, #"{"type": "configure", "scrollAndSelect": {"rowsPerSecond": 20}}"#)
        #expect(kept.pan?.autoscroll == .down)
        try apply(&kept, #"{"type": "tick", "t": 100}"#)
        #expect(kept.offset == 100)
        // The top zone too: the anchor moves above the finger.
        var up = try play(stripTable + """

            {"type": "scroll", "y": 1000}
            {"type": "panBegan", "x": 20, "y": 300, "t": 0}
            {"type": "panMoved", "x": 20, "y": 30}
            """)
        #expect(up.pan?.autoscroll == .up)
        try apply(&up, #"{"type": "configure", "scrollAndSelect": {"topAnchor": 20}}"#)
        #expect(up.pan?.autoscroll == nil)
        // Moving the zone back under the still finger does not start it again: only a
        // counted move starts auto-scroll (README, Semantics).
        var back = try play(running + "\n" + #"{"type": "configure", "scrollAndSelect": {"bottomAnchor": -10}}"#)
        try apply(&back, #"{"type": "configure", "scrollAndSelect": {"bottomAnchor": -50}}"#)
        #expect(back.pan?.autoscroll == nil)
        try apply(&back, #"{"type": "panMoved", "x": 20, "y": 580, "t": 10}"#)
        #expect(back.pan?.autoscroll == .down)
    }
}
