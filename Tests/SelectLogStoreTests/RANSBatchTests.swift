import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// The rANS format's batches (in progress): events coded as rANS symbols under a window's
/// tables decode to themselves, whether the tables were counted over the window before
/// (a recorder) or the window itself (`compact`), and bytes no encoder wrote are refused.
@Suite("rANS batches (a later format, in progress)")
struct RANSBatchTests {
    enum Item: Equatable {
        case event(TimedEvent)
        case fingerprint(UInt32)
    }

    /// `batches` (each a list of items) coded as one window under `tables`: each batch's
    /// bytes, and the symbols the window counted.
    static func encode(_ batches: [[Item]], tables: RANSTables, baseTime: Micros = .zero) -> (sealed: [[UInt8]], counts: [UInt32]) {
        var encoder = RANSEventEncoder(baseTime: baseTime)
        var sealed: [[UInt8]] = []
        for batch in batches {
            for item in batch {
                switch item {
                case .event(let e): encoder.append(e)
                case .fingerprint(let v): encoder.appendFingerprint(v)
                }
            }
            sealed.append(encoder.seal(with: tables))
        }
        return (sealed, encoder.takeCounts())
    }

    /// `batches` coded as one window under `tables`, and decoded.
    static func roundTrip(_ batches: [[Item]], tables: RANSTables, baseTime: Micros = .zero) throws -> [[Item]] {
        try decode(encode(batches, tables: tables, baseTime: baseTime).sealed, tables: tables, baseTime: baseTime)
    }

    /// A window's batches `sealed` under `tables`, decoded.
    static func decode(_ sealed: [[UInt8]], tables: RANSTables, baseTime: Micros = .zero) throws -> [[Item]] {
        let decoding = RANSDecodingTables()
        decoding.load(tables)
        var decoder = RANSEventDecoder(tables: decoding, baseTime: baseTime)
        var fields = BinaryEventDecoder([], baseTime: .zero, version: 3)
        var back: [[Item]] = []
        for bytes in sealed {
            try decoder.start(bytes)
            var items: [Item] = []
            while true {
                if let e = try decoder.next() {
                    items.append(.event(e))
                    continue
                }
                switch decoder.marker {
                case .end: break
                case .fingerprint(let v):
                    items.append(.fingerprint(v))
                    continue
                case .cold(let tag, let t, let body):
                    var r = BinaryReader(body)
                    items.append(.event(TimedEvent(try fields.decodeFields(tag, &r), t: t)))
                    #expect(r.isAtEnd)
                    continue
                }
                break
            }
            #expect(decoder.isAtEnd)
            back.append(items)
        }
        return back
    }

    /// Events cut into batches of `size`, a fingerprint after every 7th event.
    static func batches(_ events: [TimedEvent], size: Int) -> [[Item]] {
        var out: [[Item]] = []
        var k = 0
        while k < events.count {
            var batch: [Item] = []
            for (i, e) in events[k..<min(k + size, events.count)].enumerated() {
                batch.append(.event(e))
                if (k + i) % 7 == 6 { batch.append(.fingerprint(UInt32(truncatingIfNeeded: (k + i) &* 0x9E37_79B9))) }
            }
            out.append(batch)
            k += size
        }
        return out
    }

    /// The counts of the symbols `items` code to.
    static func counts(_ batches: [[Item]]) -> [UInt32] { encode(batches, tables: .empty).counts }

    @Test("every event type, with and without times, fields at the codec's limits, decodes to itself under every kind of table")
    func everyEvent() throws {
        let batches = Self.batches(CodecTests.sampleEvents(), size: 13)
        let own = RANSTables(counts: Self.counts(batches))
        #expect(try Self.roundTrip(batches, tables: own) == batches)
        #expect(try Self.roundTrip(batches, tables: .empty) == batches, "every symbol escaped")
        let other = RANSTables(counts: Self.counts(Self.batches(Array(SyntheticSession(seed: 3, count: 2_000)), size: 50)))
        #expect(try Self.roundTrip(batches, tables: other) == batches)
    }

    @Test("the synthetic sessions decode to themselves, with tables from the window before and from their own",
          arguments: ["standard", "random-walk", "random-walk-3x"])
    func sessions(generator: String) throws {
        let events: [TimedEvent] = switch generator {
        case "standard": Array(SyntheticSession(seed: 2, count: 16_384))
        case "random-walk": Array(RandomWalkSession(seed: 2, count: 16_384))
        default: Array(RandomWalkSession(seed: 2, count: 16_384, screenScale: 3))
        }
        let first = Self.batches(Array(events[..<8_192]), size: 100)
        let second = Self.batches(Array(events[8_192...]), size: 100)
        let before = RANSTables(counts: Self.counts(first))
        #expect(try Self.roundTrip(second, tables: before, baseTime: events[8_191].t ?? .zero) == second)
        #expect(try Self.roundTrip(first, tables: before) == first)
    }

    @Test("extreme values decode to themselves", arguments: [1, 2] as [UInt64])
    func extremes(seed: UInt64) throws {
        let batches = Self.batches(CodedBatchTests.extremeEvents(seed: seed), size: 300)
        #expect(try Self.roundTrip(batches, tables: RANSTables(counts: Self.counts(batches))) == batches)
    }

    @Test("tables read back from their bytes are the tables written; truncated or random bytes are not tables")
    func tableBlock() {
        let tables = RANSTables(counts: Self.counts(Self.batches(Array(RandomWalkSession(seed: 4, count: 8_192)), size: 100)))
        let bytes = tables.encoded()
        #expect(RANSTables(decoding: bytes)?.tables == tables.tables)
        #expect(RANSTables(decoding: Array(bytes.dropLast(bytes.count / 2))) == nil)
        var g = SplitMix64(seed: 8)
        var accepted = 0
        for n in 1..<400 {
            let noise = (0..<n).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            if let t = RANSTables(decoding: noise) {
                accepted += 1
                for table in t.tables { #expect(table.entries.reduce(0) { $0 + ($1 & 0xFFFF) } == RANS.total) }
            }
        }
        #expect(accepted < 40)
    }

    @Test("a batch with any byte changed, cut short or lengthened is refused or decodes without trapping")
    func damagedBatches() throws {
        let events = Array(RandomWalkSession(seed: 5, count: 2_000))
        let batches = Self.batches(events, size: 2_000)
        let tables = RANSTables(counts: Self.counts(batches))
        var encoder = RANSEventEncoder(baseTime: .zero)
        for case .event(let e) in batches[0] { encoder.append(e) }
        let bytes = encoder.seal(with: tables)
        let decoding = RANSDecodingTables()
        decoding.load(tables)
        func refuses(_ b: [UInt8]) -> Bool {
            var decoder = RANSEventDecoder(tables: decoding, baseTime: .zero)
            do {
                try decoder.start(b)
                var n = 0
                while try decoder.next() != nil || !decoder.isAtEnd {
                    n += 1
                    if n > 10_000 { return false }
                }
                return false
            } catch {
                return true
            }
        }
        #expect(!refuses(bytes))
        // Cut, lengthened, or changed in the rANS stream: a stream ends with both states
        // back where the encoder began, so almost every such change is caught.
        var r = BinaryReader(bytes)
        let streamEnd = r.offset + Int(try r.varint())
        var g = SplitMix64(seed: 6)
        var damaged: [[UInt8]] = [Array(bytes.dropLast()), bytes + [0], Array(bytes.dropLast(bytes.count / 2)), [], [0x80]]
        for _ in 0..<200 {
            var b = bytes
            b[1 + Int(g.next() % UInt64(streamEnd - 1))] ^= UInt8(truncatingIfNeeded: 1 | g.next())
            damaged.append(b)
        }
        let refused = damaged.filter(refuses).count
        #expect(refused >= damaged.count - 4, "\(refused) of \(damaged.count) refused")
        // A change in the raw bits changes a value's low bits, which only the record's
        // checksum catches: it must decode without trapping.
        for _ in 0..<200 {
            var b = bytes
            b[streamEnd + Int(g.next() % UInt64(bytes.count - streamEnd))] ^= UInt8(truncatingIfNeeded: 1 | g.next())
            _ = refuses(b)
        }
    }
}
