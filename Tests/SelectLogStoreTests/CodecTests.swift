import Testing
@testable import SelectLog
@testable import SelectLogStore

@Suite("Binary event encoding")
struct CodecTests {
    /// Every event type, with and without t, fields at their extremes.
    static func sampleEvents() -> [TimedEvent] {
        var rng = SeededRandom(seed: 99)
        var out: [TimedEvent] = []
        var t: Int64 = 0
        for k in 0..<5000 {
            let e = randomEvent(&rng)
            if k % 3 == 0 {
                out.append(TimedEvent(e))
            } else {
                t += Int64.random(in: 0...100_000, using: &rng)
                out.append(TimedEvent(e, t: Micros(raw: t)))
            }
        }
        return out
    }

    static func randomEvent(_ rng: inout SeededRandom) -> Event {
        func pts() -> Points { Points(raw: Int64.random(in: -Points.limit.raw...Points.limit.raw, using: &rng) / (Bool.random(using: &rng) ? 1 : 100_000)) }
        // Sizes and heights are never negative (the decoder rejects what apply rejects).
        func size() -> Points { Points(raw: abs(pts().raw)) }
        func path() -> RowPath { RowPath(Int.random(in: 0...5, using: &rng), Int.random(in: 0...100_000, using: &rng)) }
        var c = ConfigurationPatch()
        c.allowsSelection = [true, false, nil].randomElement(using: &rng) ?? nil
        c.editorHeight = Bool.random(using: &rng) ? size() : nil
        c.undoLimit = Bool.random(using: &rng) ? 7 : nil
        var strip = StripPatch()
        strip.edge = .trailing
        strip.reversal = .restore
        strip.jitter = size()
        c.scrollAndSelect = Bool.random(using: &rng) ? strip : nil
        let all: [Event] = [
            .configure(c), .viewport(width: size(), height: nil),
            .reload(sections: [SectionSpec(rows: 3, rowHeight: size(), rowHeights: [size(), size()], header: nil, footer: size(), title: "Ωmega")]),
            .setEditing(true), .tap(ViewportPoint(x: pts(), y: pts())), .panBegan(ViewportPoint(x: pts(), y: pts()), fingers: 2),
            .panMoved(ViewportPoint(x: pts(), y: pts())), .panEnded(nil, targetOffset: pts()), .panEnded(ViewportPoint(x: pts(), y: pts()), targetOffset: nil),
            .panCancelled, .scroll(.to(pts()), phase: .decelerate, target: pts()), .scroll(.by(pts()), phase: nil, target: nil),
            .scroll(nil, phase: .idle, target: nil), .jumpToSection(.index(3)), .jumpToSection(.title("B")),
            .swipeBegan(row: path()), .swipeMoved(offset: pts()), .swipeEnded(velocity: nil), .swipeEnded(velocity: pts()),
            .setOptionVisible(row: path(), visible: false),
            .toggleEditor(row: path(), options: ["a", ""], multiple: true, chosen: [1, 0]), .choose(option: 3), .tick,
            .insertRows(at: [path(), path()], heights: [size()]), .deleteRows(at: [path()]), .moveRow(from: path(), to: path()),
            .reloadRows(at: [path()], heights: nil),
            .batch(BatchUpdate(deletes: [path()], inserts: [path()], insertHeights: [size()], moves: [.init(from: path(), to: path())], reloads: [path()], reloadHeights: nil)),
            .insertSections(at: [0, 2], sections: [SectionSpec(rows: 1), SectionSpec(rows: 0, title: "x")]), .deleteSections(at: [1]),
            .select(rows: [path()]), .deselect(rows: []), .selectAll, .deselectAll, .undo, .redo,
        ]
        return all.randomElement(using: &rng) ?? .tick
    }

    @Test("every event, with or without t, decodes to itself")
    func roundTrip() throws {
        let events = CodecTests.sampleEvents()
        var encoder = BinaryEventEncoder(baseTime: .zero)
        for e in events { encoder.append(e) }
        var decoder = BinaryEventDecoder(encoder.out.bytes, baseTime: .zero)
        var back: [TimedEvent] = []
        while let e = try decoder.next() { back.append(e) }
        #expect(back == events)
    }

    @Test("Event.fieldBytes, which bounds an event's size, is the bytes the log's encoder writes for its fields")
    func fieldBytesMatchTheEncoder() {
        var rng = SeededRandom(seed: 0xF1E1D)
        var checked = 0
        for _ in 0..<3000 {
            var e = CodecTests.randomEvent(&rng)
            // Longer lists and titles, and numbers of every varint length.
            switch e {
            case .reload:
                let n = Int.random(in: 0...300, using: &rng)
                e = .reload(sections: (0..<n).map { k in
                    SectionSpec(rows: Int.random(in: 0...EventLimits.sectionRows, using: &rng),
                                rowHeights: Bool.random(using: &rng) ? nil : (0..<k % 40).map { _ in Points(raw: Int64.random(in: 0...EventLimits.length.raw, using: &rng)) },
                                header: k % 3 == 0 ? Points(raw: 64 * Int64(k)) : nil,
                                title: k % 2 == 0 ? String(repeating: "é", count: k * 50) : nil)
                })
            case .select:
                e = .select(rows: (0..<Int.random(in: 0...500, using: &rng)).map { _ in
                    RowPath(Int.random(in: 0...EventLimits.index, using: &rng), Int.random(in: 0...(1 << Int.random(in: 0...30, using: &rng)), using: &rng))
                })
            case .toggleEditor(let row, _, let multiple, _):
                let n = Int.random(in: 1...200, using: &rng)
                e = .toggleEditor(row: row, options: (0..<n).map { String(repeating: "o", count: $0 * 9) }, multiple: multiple,
                                  chosen: multiple ? Array(0..<n).filter { $0 % 7 == 0 } : [n - 1])
            default:
                break
            }
            guard let expected = e.fieldBytes else { continue }
            var encoder = BinaryEventEncoder(baseTime: .zero)
            encoder.body.removeAll()
            encoder.encodeFields(e)
            #expect(encoder.body.count == expected, "\(e.typeName)")
            checked += 1
        }
        #expect(checked > 800)
    }

    @Test("a 120 Hz pan sample and a 60 Hz tick encode in a handful of bytes")
    func compactness() {
        var encoder = BinaryEventEncoder(baseTime: .zero)
        var t: Int64 = 0
        var y: Int64 = 64 * 100
        for k in 0..<1200 {
            t += k % 3 == 0 ? 8334 : 8333
            y += 64 * 4
            encoder.append(TimedEvent(.panMoved(ViewportPoint(x: Points(20), y: Points(raw: y))), t: Micros(raw: t)))
        }
        #expect(encoder.byteCount <= 1200 * 6)
        let before = encoder.byteCount
        for k in 0..<600 {
            t += k % 3 == 0 ? 16_666 : 16_667
            encoder.append(TimedEvent(.tick, t: Micros(raw: t)))
        }
        #expect(encoder.byteCount - before <= 600 * 3 + 8)  // the first tick changes the interval
    }

    @Test("version 2: annotation frames (tags 64-127) are skipped; gesture fingerprints are read back")
    func annotationsSkipped() throws {
        var w = BinaryWriter()
        // An annotation frame this reader does not know.
        w.u8(100)
        w.varint(3)
        w.append([1, 2, 3])
        let tap = TimedEvent(.tap(ViewportPoint(x: Points(raw: 1), y: Points(raw: 2))))
        var encoder = BinaryEventEncoder(baseTime: .zero, version: 2)
        encoder.append(tap)
        w.append(encoder.out.bytes)
        w.u8(EventTag.gestureFingerprint)
        w.varint(4)
        w.u32(0xDEAD_BEEF)
        var decoder = BinaryEventDecoder(w.bytes, baseTime: .zero, version: 2)
        guard case .event(let e)? = try decoder.nextItem() else { Issue.record("no event"); return }
        #expect(e == tap)
        guard case .gestureFingerprint(let v)? = try decoder.nextItem() else { Issue.record("no fingerprint"); return }
        #expect(v == 0xDEAD_BEEF)
        #expect(try decoder.nextItem() == nil)
    }

    @Test("version 2: an unknown event type, or fields a reader does not know, is refused as written by a newer selectlog")
    func newerRefused() throws {
        // A tap with two extra trailing bytes in its body.
        var w = BinaryWriter()
        w.u8(EventTag.tap.rawValue)
        w.varint(4)
        w.append([0x02, 0x04, 0xFF, 0x01])
        var decoder = BinaryEventDecoder(w.bytes, baseTime: .zero, version: 2)
        #expect { try decoder.next() } throws: { ($0 as? BinaryError)?.reason.contains("written by a newer selectlog") == true }
        #expect(decoder.isNewer)
        // An event type after the last one this reader knows.
        var u = BinaryWriter()
        u.u8(EventTag.redo.rawValue + 1)
        u.varint(0)
        var unknown = BinaryEventDecoder(u.bytes, baseTime: .zero, version: 2)
        #expect { try unknown.next() } throws: { ($0 as? BinaryError)?.reason.contains("written by a newer selectlog") == true }
        #expect(unknown.isNewer)
    }

    @Test("version 2: truncated or garbled frames are errors, never crashes; the frames before the damage decode unchanged")
    func garbage() {
        let events = Array(CodecTests.sampleEvents().prefix(200))
        var encoder = BinaryEventEncoder(baseTime: .zero, version: 2)
        var ends: [Int] = []
        for e in events {
            encoder.append(e)
            ends.append(encoder.byteCount)
        }
        let bytes = encoder.out.bytes
        var rng = SeededRandom(seed: 5)
        var errors = 0
        for k in 0..<2000 {
            let cut = Int.random(in: 0...bytes.count, using: &rng)
            var damaged = Array(bytes.prefix(cut))
            var intact = cut
            if !damaged.isEmpty && Bool.random(using: &rng) {
                let at = Int.random(in: 0..<damaged.count, using: &rng)
                damaged[at] = UInt8.random(in: 0...255, using: &rng)
                if damaged[at] != bytes[at] { intact = at }
            }
            var decoder = BinaryEventDecoder(damaged, baseTime: .zero, version: 2)
            var back: [TimedEvent] = []
            var failed = false
            do {
                while let e = try decoder.next() { back.append(e) }
            } catch {
                failed = true
                errors += 1
            }
            // Every frame that ends before the first damaged byte decodes to its event.
            let whole = ends.prefix { $0 <= intact }.count
            #expect(back.count >= whole && Array(back.prefix(whole)) == Array(events.prefix(whole)), "sample \(k): cut \(cut), damage from \(intact)")
            if intact == cut {
                // Only truncated: a cut between frames is a clean end, a cut inside one an error.
                let betweenFrames = cut == 0 || ends.contains(cut)
                #expect(failed != betweenFrames, "sample \(k): cut \(cut)")
                #expect(back.count == whole, "sample \(k): cut \(cut)")
            }
        }
        #expect(errors > 0)
    }
}

@Suite("Finger and scroll prediction (format version 2)")
struct PredictionTests {
    @Test("random-walk fingers on a pixel grid, off-grid values and relative scrolls round-trip exactly", arguments: [1, 2, 3] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var events: [TimedEvent] = []
        var x: Int64 = 3_200, y: Int64 = 9_600
        for k in 0..<2_000 {
            let offGrid = rng.next() % 17 == 0
            x += Int64(rng.next() % 1_537) - 768
            y += Int64(rng.next() % 1_537) - 768
            let gx = offGrid ? x : x / 32 * 32, gy = offGrid ? y + 1 : y / 32 * 32
            switch k % 4 {
            case 3: events.append(TimedEvent(.scroll(.by(Points(raw: gy / 7)), phase: nil, target: nil), t: Micros(raw: Int64(k) * 8_333)))
            default: events.append(TimedEvent(.panMoved(ViewportPoint(x: Points(raw: gx), y: Points(raw: gy))), t: Micros(raw: Int64(k) * 8_333)))
            }
        }
        for version in [2, 3] as [UInt16] {
            #expect(try batchRoundTrip(events, version: version) == events, "seed \(seed), version \(version)")
        }
    }

    @Test("a random walk on a half-point grid costs less than the steady-motion predictor alone would")
    func randomWalkIsCheaper() {
        var rng = SplitMix64(seed: 7)
        var y: Int64 = 20_000
        var adaptive = Predictor(time: .zero, version: 2)
        var steady = Predictor(time: .zero, version: 1)
        var v2Bytes = BinaryWriter(), v1Bytes = BinaryWriter()
        for _ in 0..<1_000 {
            y = (y + Int64(rng.next() % 1_537) - 768) / 32 * 32
            let p = ViewportPoint(x: Points(100), y: Points(raw: y))
            let (ax, ay) = adaptive.pointResidual(p)
            v2Bytes.signed(ax)
            v2Bytes.signed(ay)
            let (rx, ry) = steady.pointResidual(p)
            v1Bytes.signed(rx)
            v1Bytes.signed(ry)
        }
        #expect(v2Bytes.count * 10 < v1Bytes.count * 7, "\(v2Bytes.count) vs \(v1Bytes.count)")
    }
}
