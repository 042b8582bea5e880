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

    @Test("annotation frames (tags 64-127) and fields appended by later versions are skipped")
    func forwardCompatible() throws {
        var w = BinaryWriter()
        // An annotation frame an old reader does not know.
        w.u8(100)
        w.varint(3)
        w.append([1, 2, 3])
        // A tap with two extra trailing bytes in its body.
        w.u8(EventTag.tap.rawValue)
        w.varint(4)
        w.append([0x02, 0x04, 0xFF, 0x01])
        var decoder = BinaryEventDecoder(w.bytes, baseTime: .zero)
        let e = try decoder.next()
        #expect(e == TimedEvent(.tap(ViewportPoint(x: Points(raw: 1), y: Points(raw: 2)))))
        #expect(try decoder.next() == nil)
    }

    @Test("truncated or garbled frames are errors, never crashes; the frames before the damage decode unchanged")
    func garbage() {
        let events = Array(CodecTests.sampleEvents().prefix(200))
        var encoder = BinaryEventEncoder(baseTime: .zero)
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
            var decoder = BinaryEventDecoder(damaged, baseTime: .zero)
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
