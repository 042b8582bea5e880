import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// Format version 6: values on a 3x screen's pixels (thirds of a point, as the 1/64 pt
/// grid rounds them) are coded in thirds (docs/LOG-FORMAT.md, "Channels").
@Suite("Thirds of a point (format 6)")
struct ThirdsGridTests {
    @Test("third and sixtyFourths: the grid is round(64k / 3), and third takes each of its points back to k")
    func grid() {
        // Every value within 20 points either way of a few places, against the definition:
        // v is on the grid when some k has v = floor(64k / 3 + 1/2).
        for centre in [0, 1_000_000, -1_000_000, 3 * 64 * 1_000_000_000] as [Int64] {
            var onGrid = Set<Int64>()
            for k in (centre * 3 / 64 - 70)...(centre * 3 / 64 + 70) {
                let v = ThirdsGrid.sixtyFourths(third: k)
                #expect(Double(v) == (Double(k) * 64 / 3 + 0.5).rounded(.down), "k \(k)")
                #expect(ThirdsGrid.third(v) == k, "k \(k)")
                onGrid.insert(v)
            }
            for v in (centre - 1_280)...(centre + 1_280) {
                #expect(ThirdsGrid.isThird(v) == onGrid.contains(v), "v \(v)")
            }
        }
        // Whole points and the 3x positions a finger reports are on it; half points are not.
        #expect(ThirdsGrid.isThird(64 * 187) && ThirdsGrid.isThird(ThirdsGrid.sixtyFourths(third: 563)))
        #expect(!ThirdsGrid.isThird(32 * 375))
        // Wrapping, never a trap, at the extremes a damaged batch can reach.
        for v in [Int64.min, Int64.max, Int64.min + 1, Int64.max - 1] {
            _ = ThirdsGrid.isThird(v)
            _ = ThirdsGrid.sixtyFourths(third: v)
        }
    }

    @Test("The encoder's test by remainder agrees with isThird, near zero, near 2^60 where it hands over, and at the extremes")
    func encoderRemainderTest() {
        let edge: Int64 = 1 << 60
        for centre in [0, 1_000_000, -1_000_000, Points.contentLimit.raw, -Points.contentLimit.raw,
                       edge, -edge, Int64.max - 2_000, Int64.min + 2_000] as [Int64] {
            for v in (centre - 1_280)...(centre + 1_280) {
                #expect(RangeEncoder.isThird(v) == ThirdsGrid.isThird(v), "v \(v)")
            }
        }
    }

    /// Fingers, scroll deltas, targets and swipes on thirds, with values off that grid
    /// (half points, odd 1/64 pt) mixed in, and negative values.
    static func mixedEvents(seed: UInt64) -> [TimedEvent] {
        var rng = SplitMix64(seed: seed)
        var events: [TimedEvent] = []
        var x: Int64 = 3_200, y: Int64 = 9_600
        func onGrid(_ v: Int64, _ kind: UInt64) -> Int64 {
            switch kind % 13 {
            case 0: v | 1                                        // off every grid
            case 1: v / 32 * 32                                  // half points
            default: ThirdsGrid.sixtyFourths(third: ThirdsGrid.third(v))
            }
        }
        for k in 0..<3_000 {
            x += Int64(rng.next() % 1_537) - 768
            y += Int64(rng.next() % 1_537) - 768
            let t = Micros(raw: Int64(k) * 8_333)
            let gx = onGrid(x, rng.next()), gy = onGrid(y, rng.next())
            switch k % 6 {
            case 3: events.append(TimedEvent(.scroll(.by(Points(raw: onGrid(gy / 7 - 700, rng.next()))), phase: nil, target: nil), t: t))
            case 4: events.append(TimedEvent(.scroll(.to(Points(raw: onGrid(gy, rng.next()))), phase: .decelerate,
                                                     target: Points(raw: onGrid(gy + 5_000, rng.next()))), t: t))
            case 5: events.append(TimedEvent(.swipeMoved(offset: Points(raw: onGrid(-gx / 5, rng.next()))), t: t))
            default: events.append(TimedEvent(.panMoved(ViewportPoint(x: Points(raw: gx), y: Points(raw: gy))), t: t))
            }
        }
        return events
    }

    @Test("values on and off the grid of thirds round-trip exactly in every coded version", arguments: [1, 2, 3] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        let events = Self.mixedEvents(seed: seed)
        for version in [3, 4, 5, 6] as [UInt16] {
            #expect(try batchRoundTrip(events, version: version) == events, "seed \(seed), version \(version)")
        }
    }

    @Test("a random walk on a 3x screen: version 6 stays within 2.0 bytes an event, a quarter below version 5; versions 4 and 5 still read")
    func sizeOnThirds() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(RandomWalkSession(seed: 4, count: 60_000, screenScale: 3))
        var sizes: [UInt16: Int] = [:]
        var states: [UInt16: TableState] = [:]
        for version in [4, 5, 6] as [UInt16] {
            let path = dir.appendingPathComponent("v\(version).slog").path
            var o = Recorder.Options()
            o.durability = .none
            o.salt = 0x3
            o.formatVersion = version
            states[version] = try writeLog(events, to: path, options: o)
            let log = try LogReader(path: path)
            #expect(log.header.version == version)
            #expect(try log.events() == events, "version \(version)")
            #expect(try log.state(at: 31_337) == replayed(Array(events.prefix(31_337))), "version \(version)")
            #expect(try LogReader.verify(path: path, replaying: true).isIntact, "version \(version)")
            sizes[version] = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        }
        #expect(states[4] == states[6] && states[5] == states[6])
        let v6 = try #require(sizes[6]), v5 = try #require(sizes[5])
        #expect(Double(v6) / Double(events.count) <= 2.0, "\(v6) bytes")
        #expect(Double(v6) <= 0.75 * Double(v5), "\(v6) against \(v5)")
    }

    @Test("the same walk on a 2x screen (half points) costs what it did in version 5, within 1%")
    func halfPointsUnchanged() throws {
        let events = Array(RandomWalkSession(seed: 4, count: 20_000))
        var sizes: [Int] = []
        for version in [5, 6] as [UInt16] {
            var encoder = BinaryEventEncoder(baseTime: .zero, version: version)
            for e in events { encoder.append(e) }
            sizes.append(encoder.out.bytes.count)
        }
        #expect(Double(sizes[1]) <= 1.01 * Double(sizes[0]), "\(sizes)")
    }
}
