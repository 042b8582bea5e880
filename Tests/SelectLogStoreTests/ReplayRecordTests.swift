import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// A replay reads most events as plain records (`BinaryEventDecoder.next(into:)`); every
/// other read makes `TimedEvent`s (`next()`). The two must read the same events from any
/// bytes, and fail at the same place with the same error.
@Suite("Replay records")
struct ReplayRecordTests {
    /// What a batch decodes to, read one way: its events, then its error (nil at its end).
    struct Reading: Equatable {
        var events: [TimedEvent] = []
        var error: BinaryError?
        var isNewer = false
    }

    static func read(_ bytes: [UInt8], version: UInt16 = 3, records: Bool) -> Reading {
        var decoder = BinaryEventDecoder(bytes, baseTime: Micros(raw: 1_000), version: version)
        var reading = Reading()
        var record = ReplayRecord()
        do {
            while reading.events.count <= LogFormat.Limits.batchEvents * 2 {
                if records {
                    if let e = try decoder.next(into: &record) {
                        #expect(record.kind == .other)
                        reading.events.append(e)
                    } else if let e = record.event {
                        reading.events.append(e)
                    } else {
                        break
                    }
                } else {
                    guard let e = try decoder.next() else { break }
                    reading.events.append(e)
                }
            }
        } catch {
            reading.error = error
        }
        reading.isNewer = decoder.isNewer
        return reading
    }

    /// Events of every kind a record holds, and others, with fields and times at and past
    /// the limits (a time past `EventLimits.time` is read as an event and fails its check).
    static func events(seed: UInt64, count: Int) -> [TimedEvent] {
        var rng = SplitMix64(seed: seed)
        let lengths: [Int64] = [0, 1, -1, 64, -96, 3 * 64 + 1, Points.limit.raw, -Points.limit.raw, 1 << 30]
        var t: Int64 = 0
        return (0..<count).map { _ in
            func length() -> Points { Points(raw: lengths[Int(rng.next() % UInt64(lengths.count))]) }
            let p = ViewportPoint(x: length(), y: length())
            let event: Event
            switch rng.next() % 9 {
            case 0: event = .tap(p)
            case 1, 2: event = .panMoved(p)
            case 3: event = .scroll(rng.next() % 3 == 0 ? nil : (rng.next() % 2 == 0 ? .by(length()) : .to(length())),
                                    phase: [nil, .decelerate, .idle][Int(rng.next() % 3)], target: rng.next() % 2 == 0 ? length() : nil)
            case 4: event = .swipeMoved(offset: length())
            case 5: event = .panEnded(rng.next() % 2 == 0 ? p : nil, targetOffset: nil)
            case 6: event = .selectAll
            default: event = .tick
            }
            t += Int64(rng.next() % 20_000)
            return TimedEvent(event, t: rng.next() % 5 == 0 ? nil : Micros(raw: t))
        }
    }

    @Test("a coded batch reads as the same events through records as through next()", arguments: [1, 2, 3] as [UInt64])
    func sameEvents(seed: UInt64) {
        var encoder = BinaryEventEncoder(baseTime: Micros(raw: 1_000), version: 3)
        let events = Self.events(seed: seed, count: 2_000)
        for e in events { encoder.append(e) }
        let bytes = encoder.out.bytes
        let plain = Self.read(bytes, records: false)
        #expect(plain.events == events && plain.error == nil)
        #expect(Self.read(bytes, records: true) == plain)
    }

    @Test("damaged coded batches fail through records where and as they fail through next()")
    func sameErrors() {
        var encoder = BinaryEventEncoder(baseTime: Micros(raw: 1_000), version: 3)
        for e in Self.events(seed: 9, count: 600) { encoder.append(e) }
        let bytes = encoder.out.bytes
        var rng = SeededRandom(seed: 12)
        var errors = 0
        for k in 0..<1_500 {
            var damaged = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            for _ in 0..<Int.random(in: 0...3, using: &rng) where !damaged.isEmpty {
                damaged[Int.random(in: 0..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            let plain = Self.read(damaged, records: false)
            if plain.error != nil { errors += 1 }
            #expect(Self.read(damaged, records: true) == plain, "damage \(k)")
        }
        #expect(errors > 100)
    }

    @Test("a version 2 batch reads through records as through next() (every event as an event)")
    func versionTwo() {
        var encoder = BinaryEventEncoder(baseTime: Micros(raw: 1_000), version: 2)
        let events = Self.events(seed: 4, count: 500).filter { (try? $0.validate()) != nil }
        for e in events { encoder.append(e) }
        let bytes = encoder.out.bytes
        let plain = Self.read(bytes, version: 2, records: false)
        #expect(plain.events == events)
        #expect(Self.read(bytes, version: 2, records: true) == plain)
    }
}
