import Testing
@testable import SelectLog

@Suite("1. Units and determinism")
struct GridTests {
    func number(_ text: String) throws -> JSONNumber {
        guard case .number(let n) = try JSONParser.parse(Array(text.utf8)) else { throw InvalidEvent(.malformed, nil, "not a number") }
        return n
    }

    @Test("lengths round to the nearest 1/64 pt, half-way cases to even")
    func lengthsRoundHalfToEven() throws {
        // 0.5/64 = 0.0078125 lies half-way between 0 and 1/64: even is 0.
        #expect(try number("0.0078125").scaled(by: 64, limit: .max) == 0)
        // 1.5/64 = 0.0234375: half-way between 1 and 2: even is 2.
        #expect(try number("0.0234375").scaled(by: 64, limit: .max) == 2)
        // 2.5/64 = 0.0390625: even is 2.
        #expect(try number("0.0390625").scaled(by: 64, limit: .max) == 2)
        // Just above half-way rounds up.
        #expect(try number("0.00781250001").scaled(by: 64, limit: .max) == 1)
        #expect(try number("-0.0234375").scaled(by: 64, limit: .max) == -2)
        #expect(try number("12.5").scaled(by: 64, limit: .max) == 800)
        #expect(try number("1e2").scaled(by: 64, limit: .max) == 6400)
        #expect(try number("1.5E-1").scaled(by: 64, limit: .max) == 10) // 9.6 → 10
    }

    @Test("times round to the nearest microsecond, half-way cases to even")
    func timesRoundHalfToEven() throws {
        #expect(try number("0.0005").scaled(by: 1000, limit: .max) == 0)
        #expect(try number("0.0015").scaled(by: 1000, limit: .max) == 2)
        #expect(try number("16.6667").scaled(by: 1000, limit: .max) == 16667)
        #expect(try number("0.00150000000000000000001").scaled(by: 1000, limit: .max) == 2)
    }

    @Test("whole-number lengths and times saturate past 64 bits instead of trapping, and such values are refused as out of range")
    func wholeNumbersSaturate() throws {
        #expect(Points(Int.max / 2).raw == .max)
        #expect(Points(Int.min / 2).raw == .min)
        #expect(Points(1 << 57 - 1).raw == (1 << 57 - 1) * 64)
        #expect(Micros.milliseconds(Int.max / 2).raw == .max)
        #expect(Micros.milliseconds(-(Int.max / 2)).raw == .min)
        #expect(Micros.milliseconds(16).raw == 16_000)
        var s = TableState()
        #expect(throws: InvalidEvent.self) { try s.apply(TimedEvent(.viewport(width: Points(Int.max / 2), height: nil))) }
        #expect(throws: InvalidEvent.self) { try s.apply(TimedEvent(.tick, t: .milliseconds(Int.max / 2))) }
        #expect(s == TableState())
    }

    @Test("a tap's coordinates land on the grid before hit testing")
    func tapCoordinatesAreRounded() throws {
        // Row 0 spans [0, 50). y = 49.9921875 is 3199.5/64: half-way, and the even
        // neighbour is 3200/64 = 50 pt, the top of row 1.
        var s = try play(multipleTable)
        try apply(&s, #"{"type": "tap", "x": 10, "y": 49.9921875}"#)
        #expect(s.selected == [p(0, 1)])
    }

    @Test("a missing t means the previous event's t")
    func missingTimeIsPrevious() throws {
        let s = try play(multipleTable + "\n" + #"{"type": "tap", "x": 1, "y": 1, "t": 250}"# + "\n" + #"{"type": "tap", "x": 1, "y": 60}"#)
        #expect(s.t == Micros(raw: 250_000))
        #expect(s.events == 5)
    }

    @Test("a t smaller than the previous one is invalid")
    func decreasingTimeIsInvalid() throws {
        var s = try play(multipleTable + "\n" + #"{"type": "tick", "t": 100}"#)
        let reason = reject(&s, #"{"type": "tap", "x": 1, "y": 1, "t": 99}"#)
        #expect(reason.contains("earlier"))
    }

    @Test("the same events give the same hash; events and t are not hashed")
    func hashIsDeterministic() throws {
        let a = try play(multipleTable + "\n" + #"{"type": "tap", "x": 1, "y": 1, "t": 5}"#)
        let b = try play(multipleTable + "\n" + #"{"type": "tap", "x": 1, "y": 1, "t": 900}"#)
        let c = try play(multipleTable + "\n" + #"{"type": "tap", "x": 1, "y": 51}"#)
        #expect(a.hashHex == b.hashHex)
        #expect(a.hashHex != c.hashHex)
        #expect(a.hashHex.count == 16)
        #expect(a.hashHex.allSatisfy { "0123456789abcdef".contains($0) })
    }
}
