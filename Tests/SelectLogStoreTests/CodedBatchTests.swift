import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// Format version 3's coded batches (docs/LOG-FORMAT.md, "Coded batches").
@Suite("Coded batches (format version 3)")
struct CodedBatchTests {
    static func roundTrip(_ events: [TimedEvent], fingerprintEvery: Int = 0) throws -> [BinaryEventDecoder.Item] {
        var encoder = BinaryEventEncoder(baseTime: .zero, version: 3)
        for (k, e) in events.enumerated() {
            encoder.append(e)
            if fingerprintEvery > 0 && k % fingerprintEvery == 0 { encoder.appendGestureFingerprint(UInt32(truncatingIfNeeded: k &* 0x9E37_79B9)) }
        }
        var decoder = BinaryEventDecoder(encoder.out.bytes, baseTime: .zero, version: 3)
        var back: [BinaryEventDecoder.Item] = []
        while let item = try decoder.nextItem() { back.append(item) }
        #expect(decoder.isAtEnd)
        return back
    }

    @Test("every event type, with or without t, fields at the codec's limits, decodes to itself with the fingerprints between")
    func roundTripAll() throws {
        let events = CodecTests.sampleEvents()
        let back = try CodedBatchTests.roundTrip(events, fingerprintEvery: 7)
        var expected: [BinaryEventDecoder.Item] = []
        for (k, e) in events.enumerated() {
            expected.append(.event(e))
            if k % 7 == 0 { expected.append(.gestureFingerprint(UInt32(truncatingIfNeeded: k &* 0x9E37_79B9))) }
        }
        #expect(back == expected)
    }

    /// Events of every coded kind with fields at the codec's extremes: lengths at
    /// ±`Points.limit` and 2^35, times 0, `Micros.limit` and jumps between them, and
    /// some without a time. Times go back and forth: the codec does not care.
    static func extremeEvents(seed: UInt64, count: Int = 3_000) -> [TimedEvent] {
        var rng = SplitMix64(seed: seed)
        let lengths: [Int64] = [0, 1, -1, 32, -32, Points.limit.raw, -Points.limit.raw, Points.limit.raw - 1, 1 << 35, -(1 << 35) + 7]
        let times: [Int64] = [0, 1, Micros.limit.raw, Micros.limit.raw - 1, 1 << 40]
        var events: [TimedEvent] = []
        var t: Int64 = 0
        for _ in 0..<count {
            func length() -> Points { Points(raw: lengths[Int(rng.next() % UInt64(lengths.count))]) }
            let p = ViewportPoint(x: length(), y: length())
            let event: Event
            switch rng.next() % 8 {
            case 0: event = .tap(p)
            case 1: event = .panMoved(p)
            case 2: event = .panBegan(p, fingers: Int(rng.next() % 3) == 0 ? Int(Int32.max) : 1)
            case 3: event = .panEnded(rng.next() % 2 == 0 ? p : nil, targetOffset: rng.next() % 2 == 0 ? length() : nil)
            case 4: event = .scroll(rng.next() % 2 == 0 ? .by(length()) : .to(length()), phase: rng.next() % 2 == 0 ? nil : .idle, target: rng.next() % 2 == 0 ? length() : nil)
            case 5: event = .swipeMoved(offset: length())
            case 6: event = .swipeEnded(velocity: rng.next() % 2 == 0 ? length() : nil)
            default: event = .tick
            }
            if rng.next() % 4 != 0 { t = times[Int(rng.next() % UInt64(times.count))] }
            events.append(TimedEvent(event, t: rng.next() % 5 == 0 ? nil : Micros(raw: t)))
        }
        return events
    }

    @Test("extreme values: lengths at ±Points.limit, times 0 and Micros.limit, jumps between them", arguments: [1, 2, 3, 4] as [UInt64])
    func extremes(seed: UInt64) throws {
        let events = Self.extremeEvents(seed: seed)
        let back = try CodedBatchTests.roundTrip(events)
        #expect(back == events.map { .event($0) }, "seed \(seed)")
    }

    @Test("an empty batch is a few bytes and decodes to nothing")
    func empty() throws {
        let encoder = BinaryEventEncoder(baseTime: Micros(raw: 5), version: 3)
        #expect(encoder.out.bytes.count <= 4)
        var decoder = BinaryEventDecoder(encoder.out.bytes, baseTime: Micros(raw: 5), version: 3)
        #expect(try decoder.nextItem() == nil)
    }

    @Test("an encoder reset for a new batch codes it as if fresh")
    func reset() throws {
        let events = Array(CodecTests.sampleEvents().prefix(300))
        var reused = BinaryEventEncoder(baseTime: .zero, version: 3)
        for e in events.prefix(100) { reused.append(e) }
        reused.reset(baseTime: Micros(raw: 77))
        var fresh = BinaryEventEncoder(baseTime: Micros(raw: 77), version: 3)
        for e in events.suffix(200) {
            reused.append(e)
            fresh.append(e)
        }
        #expect(reused.out.bytes == fresh.out.bytes)
    }

    @Test("a random-walk pan costs under 2.5 bytes an event, a steady one under 1")
    func compactness() {
        var rng = SplitMix64(seed: 11)
        var walk = BinaryEventEncoder(baseTime: .zero, version: 3)
        var steady = BinaryEventEncoder(baseTime: .zero, version: 3)
        var x: Int64 = 6_400, y: Int64 = 20_000, t: Int64 = 0
        for k in 0..<1_000 {
            t += k % 3 == 0 ? 8_334 : 8_333
            x = (x + Int64(rng.next() % 513) - 256) / 32 * 32
            y = (y + Int64(rng.next() % 1_537) - 768) / 32 * 32
            walk.append(TimedEvent(.panMoved(ViewportPoint(x: Points(raw: x), y: Points(raw: y))), t: Micros(raw: t)))
            steady.append(TimedEvent(.panMoved(ViewportPoint(x: Points(20), y: Points(raw: Int64(k) * 256))), t: Micros(raw: t)))
        }
        #expect(walk.out.bytes.count < 2_500, "\(walk.out.bytes.count)")
        #expect(steady.out.bytes.count < 1_000, "\(steady.out.bytes.count)")
    }

    @Test("truncated or garbled batches are errors or other valid events, never crashes or hangs")
    func garbage() {
        let events = Array(CodecTests.sampleEvents().prefix(300))
        var encoder = BinaryEventEncoder(baseTime: .zero, version: 3)
        for e in events { encoder.append(e) }
        let bytes = encoder.out.bytes
        var rng = SeededRandom(seed: 6)
        var errors = 0
        for _ in 0..<1_000 {
            var damaged = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            if !damaged.isEmpty && Bool.random(using: &rng) {
                damaged[Int.random(in: 0..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            if !decodesSoundly(damaged, byItem: false) { errors += 1 }
        }
        #expect(errors > 0)
    }

    /// Decodes `bytes` as a version 3 batch to its end or its first error, through
    /// `nextItem()` or `next()`; every event must be valid and the count bounded.
    /// Whether it decoded without an error.
    private func decodesSoundly(_ bytes: [UInt8], byItem: Bool) -> Bool {
        var decoder = BinaryEventDecoder(bytes, baseTime: .zero, version: 3)
        var n = 0
        defer { #expect(n <= LogFormat.Limits.batchEvents * 2) }
        do {
            if byItem {
                while let item = try decoder.nextItem() {
                    if case .event(let e) = item { #expect(throws: Never.self) { try e.validate() } }
                    n += 1
                }
            } else {
                while let e = try decoder.next() {
                    #expect(throws: Never.self) { try e.validate() }
                    n += 1
                }
            }
            return true
        } catch {
            return false
        }
    }

    @Test("the coded models fit their table, and every index is masked into it")
    func modelTable() {
        #expect(CodedModels.size <= CodedModels.capacity)
        #expect(CodedModels.capacity & (CodedModels.capacity - 1) == 0)
        let models = CodedModels()
        #expect(models.table.mask == CodedModels.capacity - 1)
        for i in [-1, Int.min, Int.max, CodedModels.size, CodedModels.capacity, 123_456_789] {
            let p = models.table.at(i)
            #expect(p >= models.table.base && p < models.table.base + CodedModels.capacity, "index \(i)")
        }
        // A version 2 decoder's unused table is one model, and every index lands on it.
        let empty = CodedModels(empty: true)
        #expect(empty.table.at(CodedModels.byteBase) == empty.table.base)
    }

    @Test("random bytes as a coded batch give errors or valid items, through items and events alike")
    func randomBatches() {
        var rng = SeededRandom(seed: 11)
        var errors = 0
        for round in 0..<500 {
            let bytes = (0..<Int.random(in: 0...400, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if !decodesSoundly(bytes, byItem: round % 2 == 0) { errors += 1 }
        }
        #expect(errors > 0)
    }

    @Test("an item symbol this reader does not know is refused as written by a newer selectlog")
    func newerRefused() {
        var encoder = RangeEncoder()
        let models = CodedModels()
        encoder.encode(false, models.table, CodedModels.sameKindBase)   // not the same symbol as before the batch (0)
        encoder.encodeSymbol(40, bits: 6, models.table, CodedModels.kindBase)
        var decoder = BinaryEventDecoder(encoder.finished(), baseTime: .zero, version: 3)
        #expect { try decoder.next() } throws: { ($0 as? BinaryError)?.reason.contains("written by a newer selectlog") == true }
        #expect(decoder.isNewer)
    }

    @Test("the range coder round-trips decisions at extreme probabilities and direct bits of every width")
    func rangeCoder() {
        var rng = SplitMix64(seed: 3)
        var e = RangeEncoder()
        var p = [UInt32](repeating: RangeCoder.fresh, count: 4)
        var script: [(Int, UInt64, Int)] = []   // (model or -1 for direct, value, width)
        for k in 0..<20_000 {
            if k % 5 == 0 {
                let width = Int(rng.next() % 65)
                let v = width == 64 ? rng.next() : rng.next() & ((1 << UInt64(width)) &- 1)
                e.encodeDirect(v, count: width)
                script.append((-1, v, width))
            } else {
                let model = Int(rng.next() % 4)
                // Model 0 always says 0, model 1 nearly always 1, the others are random.
                let bit: UInt64 = model == 0 ? 0 : (model == 1 ? (rng.next() % 1000 == 0 ? 0 : 1) : rng.next() % 2)
                e.encode(bit == 1, &p[model])
                script.append((model, bit, 1))
            }
        }
        var d = RangeDecoder(e.finished())
        var q = [UInt32](repeating: RangeCoder.fresh, count: 4)
        for (k, (model, v, width)) in script.enumerated() {
            let got: UInt64 = model < 0 ? d.decodeDirect(count: width) : (d.decode(&q[model]) ? 1 : 0)
            if got != v {
                Issue.record("decision \(k) decoded \(got), expected \(v)")
                return
            }
        }
        #expect(!d.overran)
    }

    @Test("a version 2 log still reads, and appending to it writes version 2 batches; a new log is the current version", arguments: [false, true])
    func versionTwoLogs(withIndex: Bool) throws {
        let events = Array(RandomWalkSession(seed: 4, count: 600))
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var f = Forge(interval: 0, version: 2)
        f.batch(Array(events[0..<300]), first: 0, baseTime: 0)
        if withIndex { f.index() }
        let old = dir.appendingPathComponent("v2.slog").path
        try f.write(to: old)
        #expect(try LogReader(path: old).events() == Array(events[0..<300]))
        let recorder = try Recorder(appendingTo: old, options: smallBatches())
        for e in events[300...] { try recorder.append(e) }
        try recorder.close()
        let appended = try LogReader(path: old)
        #expect(appended.header.version == 2)
        #expect(try appended.events() == events)
        #expect(try LogReader.verify(path: old, replaying: true).isIntact)

        let new = dir.appendingPathComponent("v3.slog").path
        let state = try writeLog(events, to: new, options: smallBatches())
        let log = try LogReader(path: new)
        #expect(log.header.version == LogFormat.version)
        #expect(try log.events() == events)
        #expect(try log.state(at: events.count) == state)
        #expect(try LogReader.verify(path: new, replaying: true).isIntact)
    }
}
