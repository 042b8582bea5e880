import Testing
@testable import SelectLog

@Suite("Bridges from an app's values")
struct BridgeTests {
    @Test("Points(rounding:) rounds onto the 1/64 pt grid, half-way cases to even")
    func pointsRounding() {
        #expect(Points(rounding: 12.515625) == Points(raw: 801))          // exactly on the grid
        #expect(Points(rounding: 44) == Points(44))
        #expect(Points(rounding: 0.5 / 64) == Points(raw: 0))            // half-way: to even
        #expect(Points(rounding: 1.5 / 64) == Points(raw: 2))
        #expect(Points(rounding: 2.5 / 64) == Points(raw: 2))
        #expect(Points(rounding: -2.5 / 64) == Points(raw: -2))
        #expect(Points(rounding: 0.6 / 64) == Points(raw: 1))
        #expect(Points(rounding: -91) == Points(-91))
        #expect(Points(rounding: 16.7).doubleValue == 16.703125)
    }

    @Test("the grid rounding agrees with the standard library's half-to-even rounding")
    func roundingAgreesWithStandardLibrary() {
        var g = SplitMix64(seed: 5)
        for _ in 0..<5000 {
            let x = Double(Int64.random(in: -1 << 40...1 << 40, using: &g)) / 8 + (Bool.random(using: &g) ? 0.5 : 0.3)
            #expect(GridRounding.toNearestOrEven(x) == x.rounded(.toNearestOrEven), "\(x)")
        }
        for x in [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 4_503_599_627_370_495.5, -4_503_599_627_370_495.5, 1e20, -1e20, 0, -0.0] {
            #expect(GridRounding.toNearestOrEven(x) == x.rounded(.toNearestOrEven), "\(x)")
        }
    }

    @Test("Points(rounding:) never traps: NaN, infinities and huge values give a value past a content offset's limit, which the engine refuses")
    func pointsEdges() throws {
        let past = Points(raw: EventLimits.offset.raw + 1)
        #expect(Points(rounding: .nan) == past)
        #expect(Points(rounding: .infinity) == past)
        #expect(Points(rounding: -.infinity) == Points(raw: -past.raw))
        #expect(Points(rounding: 1e300) == past)
        #expect(Points(rounding: Double(Int64.max)) == past)
        #expect(Points(rounding: EventLimits.offset.doubleValue) == EventLimits.offset)
        // Refused, not taken as zero (a tap on the first row) or as the bottom of the table.
        var state = TableState()
        try state.apply(.reload(sections: [SectionSpec(rows: 30)]))
        for value in [Double.nan, .infinity, -.infinity, 1e300] {
            #expect(throws: InvalidEvent.self) { try state.apply(TimedEvent(.tap(ViewportPoint(x: value, y: 10)))) }
            #expect(throws: InvalidEvent.self) {
                try state.apply(TimedEvent(.scroll(.to(Points(rounding: value)), phase: nil, target: nil)))
            }
        }
        #expect(state.selection.isEmpty)
        #expect(state.events == 1)
        // A tall table's offset keeps its value (a clamp to 1e9 pt would scroll elsewhere).
        let offset = Points(rounding: 3_456_789_012.5)
        #expect(offset == Points(raw: 3_456_789_012 * 64 + 32))
        try TimedEvent(.scroll(.to(offset), phase: nil, target: nil)).validate()
        // A length past 1e9 pt is rejected, not taken as 1e9.
        #expect(throws: InvalidEvent.self) { try TimedEvent(.tap(ViewportPoint(x: 2e9, y: 10))).validate() }
    }

    @Test("Points(rounding:) agrees with the script decoder on grid and half-grid values")
    func pointsAgreeWithScripts() throws {
        var g = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            let raw = Int64.random(in: -6_400_000...6_400_000, using: &g)
            let half = Bool.random(using: &g)
            let value = (Double(raw) + (half ? 0.5 : 0)) / 64          // exact in binary, exact in decimal
            let line = #"{"type": "scroll", "y": \#(value)}"#
            guard case .scroll(.to(let decoded), _, _)? = try EventDecoder.decode(line: Array(line.utf8))?.event else {
                Issue.record("\(line) did not decode as a scroll")
                continue
            }
            #expect(Points(rounding: value) == decoded, "\(line)")
        }
    }

    @Test("Micros(seconds:) rounds to the microsecond; seconds gives it back")
    func micros() {
        #expect(Micros(seconds: 0.016) == Micros(raw: 16_000))
        #expect(Micros(seconds: 1.0 / 60) == Micros(raw: 16_667))
        #expect(Micros(seconds: 2.5) == .milliseconds(2500))
        #expect(Micros(seconds: 0) == .zero)
        #expect(Micros(seconds: -0.25) == Micros(raw: -250_000))
        #expect(Micros(seconds: 12.345678).seconds == 12.345678)
        // Past the limit, infinite or NaN: 1 µs past the limit, which every event refuses.
        let past = Micros(raw: Micros.limit.raw + 1)
        #expect(Micros(seconds: .nan) == past)
        #expect(Micros(seconds: .infinity) == past)
        #expect(Micros(seconds: 1e300) == past)
        #expect(Micros(seconds: -.infinity) == Micros(raw: -past.raw))
        #expect(Micros(seconds: Micros.limit.seconds) == Micros.limit)
        #expect(throws: InvalidEvent.self) { try TimedEvent(.tick, t: Micros(seconds: .nan)).validate() }
    }

    @Test("row paths to and from (section, row) pairs")
    func pairs() {
        let p = RowPath((section: 2, row: 7))
        #expect(p == RowPath(2, 7))
        #expect(p.pair.section == 2 && p.pair.row == 7)
        #expect(RowPath(p.pair) == p)
    }

    @Test("viewport points and sizes from Doubles are rounded per coordinate")
    func viewportValues() {
        #expect(ViewportPoint(x: 20.0, y: 75.3) == ViewportPoint(x: Points(20), y: Points(rounding: 75.3)))
        #expect(ViewportSize(width: 390.0, height: 844.0 - 91 - 34) == ViewportSize(width: Points(390), height: Points(719)))
    }

    @Test("the defaults for rarely-set arguments are exactly the full events, and the engine takes them")
    func defaults() throws {
        let point = ViewportPoint(x: Points(20), y: Points(75))
        #expect(Event.panBegan(at: point) == .panBegan(point, fingers: 1))
        #expect(Event.panEnded(at: point) == .panEnded(point, targetOffset: nil))
        #expect(Event.scroll(to: Points(10)) == .scroll(.to(Points(10)), phase: nil, target: nil))
        #expect(Event.decelerate(toward: Points(300)) == .scroll(nil, phase: .decelerate, target: Points(300)))
        #expect(Event.viewport(ViewportSize(width: Points(390), height: Points(600))) == .viewport(width: Points(390), height: Points(600)))
        #expect(Event.insertRows(at: [RowPath(0, 1)]) == .insertRows(at: [RowPath(0, 1)], heights: nil))
        #expect(Event.reloadRows(at: [RowPath(0, 1)]) == .reloadRows(at: [RowPath(0, 1)], heights: nil))

        var table = TableState()
        try table.apply(.viewport(ViewportSize(width: 390.0, height: 600.0)))
        try table.apply(.reload(sections: [SectionSpec(rows: 100, rowHeight: Points(50))]))
        try table.apply(.scroll(to: Points(rounding: 120.4)))
        #expect(table.contentOffset == Points(rounding: 120.4))
        try table.apply(.panBegan(at: ViewportPoint(x: 200.0, y: 100.0)))
        try table.apply(.panEnded(at: ViewportPoint(x: 200.0, y: 40.0)))
        #expect(table.pan == nil)
    }

    /// A NaN or an infinity through a bridge is refused, as it should be, but the message
    /// showed only the stand-in's digits ("not 8000000000000.001"), which an app chasing a
    /// `0 / 0` cannot recognise (found by a review as an app developer).
    @Test("a NaN or an infinity through the bridges is refused with words that say what it may have been",
          arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNamed(_ value: Double) throws {
        var table = TableState()
        try table.apply(.reload(sections: [SectionSpec(rows: 3)]))
        let before = table
        for event in [TimedEvent(.tick, t: Micros(seconds: value)), TimedEvent(.tap(ViewportPoint(x: value, y: 10.0)))] {
            let error = #expect(throws: InvalidEvent.self) { try table.apply(event) }
            #expect(error?.reason.contains("gives for NaN, an infinity or a value past the range") == true, "\(String(describing: error))")
            #expect(table == before)
        }
        // A value merely out of range is not said to be one.
        let plain = #expect(throws: InvalidEvent.self) { try table.apply(.tap(ViewportPoint(x: 2e9, y: 10.0))) }
        #expect(plain?.reason.contains("NaN") == false, "\(String(describing: plain))")
    }
}
