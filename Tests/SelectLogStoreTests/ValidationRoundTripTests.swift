import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// Events from every type with values at and past the limits of `EventLimits`, over a
/// small table (so that many are accepted) that sometimes becomes a huge one.
struct ExtremeEvents {
    var rng: SeededRandom
    var t = Micros.zero

    mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }

    /// A length: ordinary, at a bound, or (rarely) past it.
    mutating func length() -> Points {
        let limit = EventLimits.length.raw
        if chance(25) { return Points(raw: [limit + 1, -limit - 1, .max, .min].randomElement(using: &rng) ?? .max) }
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return Points(raw: [0, 1, -1, limit, -limit, limit - 1, -limit + 1].randomElement(using: &rng) ?? 0)
        case 1: return Points(raw: Int64.random(in: -limit...limit, using: &rng))
        default: return Points(raw: Int64.random(in: -50 * 64...700 * 64, using: &rng))
        }
    }

    /// A content offset: a length, or (sometimes) past a length's limit, at or past its own.
    mutating func offset() -> Points {
        guard chance(4) else { return length() }
        let limit = EventLimits.offset.raw
        return Points(raw: [limit, -limit, limit + 1, -limit - 1, limit - 1, EventLimits.length.raw + 1,
                            Int64.random(in: -limit...limit, using: &rng)].randomElement(using: &rng) ?? limit)
    }

    /// A size: not negative, except rarely.
    mutating func size() -> Points {
        let p = length()
        if chance(20) { return p }
        return p.raw.magnitude <= EventLimits.length.raw.magnitude ? Points(raw: abs(p.raw)) : p
    }

    mutating func optional<T>(_ make: (inout ExtremeEvents) -> T) -> T? { Bool.random(using: &rng) ? make(&self) : nil }

    /// An index: mostly within a small table, sometimes at or past the limits.
    mutating func index(_ small: Int) -> Int {
        if chance(15) { return [-1, EventLimits.index, EventLimits.index + 1, -5].randomElement(using: &rng) ?? -1 }
        return Int.random(in: 0...small, using: &rng)
    }

    mutating func path() -> RowPath { RowPath(index(2), index(20)) }
    mutating func paths(_ n: Int) -> [RowPath] { (0..<Int.random(in: 0...n, using: &rng)).map { _ in path() } }
    mutating func point() -> ViewportPoint { ViewportPoint(x: length(), y: length()) }
    mutating func heights() -> [Points]? { optional { g in (0..<Int.random(in: 1...3, using: &g.rng)).map { _ in g.size() } } }

    mutating func section() -> SectionSpec {
        // Past the row limit, or negative (invalid); a section at the limit itself is
        // `ValidationTests.limits`' (edits in it are slow in a debug build).
        let odd = chance(10)
        return SectionSpec(rows: odd ? ([EventLimits.sectionRows + 1, -1, 1000].randomElement(using: &rng) ?? 0) : Int.random(in: 0...20, using: &rng),
                           rowHeight: optional { $0.size() }, rowHeights: chance(3) ? (0..<3).map { _ in size() } : nil,
                           header: optional { $0.size() }, footer: optional { $0.size() },
                           title: optional { g in ["A", "B", "Ωmega", ""].randomElement(using: &g.rng) ?? "A" })
    }

    mutating func event() -> Event {
        let type = EventType.allCases.randomElement(using: &rng) ?? .tick
        switch type {
        case .configure:
            var p = ConfigurationPatch()
            p.allowsMultipleSelection = optional { Bool.random(using: &$0.rng) }
            p.allowsMultipleSelectionDuringEditing = optional { Bool.random(using: &$0.rng) }
            p.multiSelectInteraction = optional { Bool.random(using: &$0.rng) }
            p.optionWidth = optional { $0.size() }
            p.editorHeight = optional { $0.size() }
            p.undoLimit = optional { g in [0, 1, 5, EventLimits.index, -1].randomElement(using: &g.rng) ?? 0 }
            if Bool.random(using: &rng) {
                var s = StripPatch()
                s.enabled = optional { Bool.random(using: &$0.rng) }
                s.edge = optional { Bool.random(using: &$0.rng) ? .leading : .trailing }
                s.stripWidth = optional { $0.size() }
                s.topAnchor = optional { $0.length() }
                s.bottomAnchor = optional { $0.length() }
                s.rowsPerSecond = optional { $0.size() }
                s.reversal = optional { Bool.random(using: &$0.rng) ? .flip : .restore }
                s.jitter = optional { $0.size() }
                p.scrollAndSelect = s
            }
            return .configure(p)
        case .viewport: return .viewport(width: optional { $0.size() }, height: optional { $0.size() })
        case .reload: return .reload(sections: (0..<Int.random(in: 0...3, using: &rng)).map { _ in section() })
        case .setEditing: return .setEditing(Bool.random(using: &rng))
        case .tap: return .tap(point())
        case .panBegan: return .panBegan(point(), fingers: [1, 1, 2, 0, -5, EventLimits.index].randomElement(using: &rng) ?? 1)
        case .panMoved: return .panMoved(point())
        case .panEnded: return .panEnded(optional { $0.point() }, targetOffset: optional { $0.offset() })
        case .panCancelled: return .panCancelled
        case .scroll:
            let motion: ScrollMotion? = [ScrollMotion.to(offset()), .by(length()), nil].randomElement(using: &rng) ?? nil
            return .scroll(motion, phase: [ScrollPhase.decelerate, .idle, nil].randomElement(using: &rng) ?? nil, target: optional { $0.offset() })
        case .jumpToSection: return .jumpToSection(Bool.random(using: &rng) ? .index(index(3)) : .title("A"))
        case .swipeBegan: return .swipeBegan(row: path())
        case .swipeMoved: return .swipeMoved(offset: length())
        case .swipeEnded: return .swipeEnded(velocity: optional { $0.length() })
        case .setOptionVisible: return .setOptionVisible(row: path(), visible: Bool.random(using: &rng))
        case .toggleEditor:
            let multiple = Bool.random(using: &rng)
            return .toggleEditor(row: path(), options: ["a", "b", "c"], multiple: multiple, chosen: multiple ? [index(2)] : [])
        case .choose: return .choose(option: index(3))
        case .tick: return .tick
        case .insertRows: return .insertRows(at: paths(2), heights: heights())
        case .deleteRows: return .deleteRows(at: paths(2))
        case .moveRow: return .moveRow(from: path(), to: path())
        case .reloadRows: return .reloadRows(at: paths(2), heights: heights())
        case .batch:
            return .batch(BatchUpdate(deletes: paths(1), inserts: paths(1), insertHeights: heights(),
                                      moves: chance(2) ? [.init(from: path(), to: path())] : [], reloads: paths(1), reloadHeights: heights()))
        case .insertSections: return .insertSections(at: [index(3)], sections: [section()])
        case .deleteSections: return .deleteSections(at: [index(3)])
        case .select: return .select(rows: paths(2))
        case .deselect: return .deselect(rows: paths(2))
        case .selectAll: return .selectAll
        case .deselectAll: return .deselectAll
        case .undo: return .undo
        case .redo: return .redo
        }
    }

    /// A time: mostly forward, sometimes none, rarely at or past the limits.
    mutating func time() -> Micros? {
        if chance(60) { return [EventLimits.time, Micros(raw: EventLimits.time.raw + 1), Micros(raw: .max), Micros(raw: -1)].randomElement(using: &rng) }
        if chance(5) { return nil }
        return Micros(raw: t.raw + Int64.random(in: 0...40_000, using: &rng))
    }

    mutating func next() -> TimedEvent {
        let e = TimedEvent(event(), t: time())
        if let t = e.t, t.raw >= 0, t <= EventLimits.time, self.t < t { self.t = t }
        return e
    }
}

@Suite("Events validated once, through the log")
struct ValidationRoundTripTests {
    /// Issue 8's reproducers, each with the field its error must name.
    static let reproducers: [(TimedEvent, String)] = {
        var undo = ConfigurationPatch()
        undo.undoLimit = -1
        var strip = StripPatch()
        strip.rowsPerSecond = Points(-20)
        var rps = ConfigurationPatch()
        rps.scrollAndSelect = strip
        let finger = ViewportPoint(x: Points(10), y: Points(10))
        let events: [(Event, String)] = [
            (.reload(sections: [SectionSpec(rows: -5)]), "sections[0].rows"),
            (.insertSections(at: [0], sections: [SectionSpec(rows: -1)]), "sections[0].rows"),
            (.configure(undo), "undoLimit"),
            (.insertRows(at: [RowPath(0, -1)], heights: nil), "at[0][1]"),
            (.insertSections(at: [-1], sections: [SectionSpec(rows: 1)]), "at[0]"),
            (.deleteSections(at: [-1]), "at[0]"),
            (.configure(rps), "scrollAndSelect.rowsPerSecond"),
            (.viewport(width: Points(raw: .max), height: nil), "width"),
            (.reload(sections: [SectionSpec(rows: 3, rowHeight: Points(raw: (1 << 54) * 64))]), "sections[0].rowHeight"),
            (.panBegan(finger, fingers: -5), "fingers"),
            (.viewport(width: Points(-390), height: nil), "width"),
            (.reload(sections: [SectionSpec(rows: 3, rowHeights: [Points(-1)])]), "sections[0].rowHeights[0]"),
            (.choose(option: -1), "option"),
            (.jumpToSection(.index(-1)), "section"),
        ]
        return events.map { (TimedEvent($0.0), $0.1) } + [(TimedEvent(.tick, t: Micros(raw: .max)), "t")]
    }()

    @Test("issue 8's reproducers are rejected by Recorder.append, naming the field; the state and the log are unchanged")
    func throughRecorder() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.slog").path
        let recorder = try Recorder(creating: path, options: smallBatches(checkpointInterval: 7))
        var accepted: [TimedEvent] = [
            TimedEvent(.configure({ var c = ConfigurationPatch(); c.allowsMultipleSelection = true; return c }())),
            TimedEvent(.viewport(width: Points(390), height: Points(600))),
            TimedEvent(.reload(sections: [SectionSpec(rows: 100, rowHeight: Points(50))])),
            TimedEvent(.tap(ViewportPoint(x: Points(10), y: Points(75))), t: Micros.milliseconds(10)),
            TimedEvent(.toggleEditor(row: RowPath(0, 4), options: ["a"], multiple: false, chosen: [])),
        ]
        for e in accepted { try recorder.append(e) }
        for (k, (event, field)) in ValidationRoundTripTests.reproducers.enumerated() {
            let before = recorder.state, count = recorder.eventCount
            do {
                try recorder.append(event)
                Issue.record("\(event) was accepted")
            } catch {
                #expect(error.code == .invalidEvent)
                #expect(error.invalidEvent?.field == field, "\(error)")
                #expect(error.invalidEvent?.type == event.event.typeName)
            }
            #expect(recorder.state == before)
            #expect(recorder.eventCount == count)
            // The recorder goes on: the next valid event is logged after the rejected one.
            let tick = TimedEvent(.tick, t: Micros.milliseconds(20 + k))
            try recorder.append(tick)
            accepted.append(tick)
        }
        let expected = recorder.state
        try recorder.close()
        let report = try LogReader.verify(path: path)
        #expect(report.isIntact && report.intactEvents == accepted.count)
        let log = try LogReader(path: path)
        #expect(try log.events() == accepted)
        #expect(try log.state(at: accepted.count).hashHex == expected.hashHex)
    }

    @Test("values at every limit are accepted, logged, read back and exported to the same state")
    func limitsSurviveTheLog() throws {
        let big = EventLimits.length, small = -EventLimits.length
        var strip = StripPatch()
        strip.enabled = true
        strip.stripWidth = big
        strip.topAnchor = small
        strip.bottomAnchor = big
        strip.rowsPerSecond = big
        strip.jitter = Points.zero
        var config = ConfigurationPatch()
        config.allowsMultipleSelection = true
        config.undoLimit = EventLimits.index
        config.optionWidth = big
        config.editorHeight = big
        config.scrollAndSelect = strip
        let events: [TimedEvent] = [
            TimedEvent(.configure(config), t: .zero),
            TimedEvent(.viewport(width: big, height: big)),
            TimedEvent(.reload(sections: [SectionSpec(rows: 3, rowHeight: big, rowHeights: [big, .zero], header: big, footer: big, title: "Ω"),
                                          SectionSpec(rows: 1000, rowHeight: Points(raw: 1))])),
            TimedEvent(.scroll(.to(big), phase: .decelerate, target: small)),
            TimedEvent(.scroll(.by(small), phase: nil, target: big)),
            TimedEvent(.scroll(.to(EventLimits.offset), phase: .decelerate, target: -EventLimits.offset)),
            TimedEvent(.scroll(nil, phase: .decelerate, target: EventLimits.offset)),
            TimedEvent(.scroll(.to(-EventLimits.offset), phase: .idle, target: nil)),
            TimedEvent(.tap(ViewportPoint(x: small, y: big))),
            TimedEvent(.select(rows: [RowPath(1, 999)])),
            TimedEvent(.panBegan(ViewportPoint(x: big, y: small), fingers: EventLimits.index)),
            TimedEvent(.panMoved(ViewportPoint(x: small, y: big)), t: Micros(raw: 1)),
            TimedEvent(.panEnded(ViewportPoint(x: big, y: big), targetOffset: small)),
            TimedEvent(.panBegan(ViewportPoint(x: Points(1), y: Points(1)), fingers: 1)),
            TimedEvent(.panEnded(nil, targetOffset: EventLimits.offset)),
            TimedEvent(.panBegan(ViewportPoint(x: Points(1), y: Points(1)), fingers: 1)),
            TimedEvent(.panEnded(nil, targetOffset: -EventLimits.offset)),
            TimedEvent(.panBegan(ViewportPoint(x: Points(1), y: Points(1)), fingers: 1)),
            TimedEvent(.panMoved(ViewportPoint(x: Points(1), y: small))),
            TimedEvent(.tick, t: Micros(raw: EventLimits.time.raw - 1)),
            TimedEvent(.panEnded(nil, targetOffset: nil)),
            TimedEvent(.swipeBegan(row: RowPath(0, 1))),
            TimedEvent(.swipeMoved(offset: small)),
            TimedEvent(.swipeEnded(velocity: big)),
            TimedEvent(.toggleEditor(row: RowPath(0, 2), options: ["", "Ω"], multiple: true, chosen: [1, 0])),
            TimedEvent(.choose(option: 1)),
            TimedEvent(.tick, t: EventLimits.time),
            TimedEvent(.undo),
        ]
        let expected = try replayed(events)
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("limits.slog").path
        let written = try writeLog(events, to: path, options: smallBatches(checkpointInterval: 4))
        #expect(written.hashHex == expected.hashHex)
        #expect(try LogReader.verify(path: path).intactEvents == events.count)
        let log = try LogReader(path: path)
        #expect(try log.events() == events)
        for n in [4, 8, 12, events.count] {
            #expect(try log.state(at: n).hashHex == replayed(Array(events.prefix(n))).hashHex, "n = \(n)")
        }
        let exported = try log.events().map(EventEncoder.line).joined(separator: "\n")
        #expect(try Script(bytes: Array(exported.utf8)).events == events)
    }

    @Test("content offsets past 1e9 pt, up to the tallest content, round-trip through the batches of every version and a recorded log of versions 4 to 6")
    func offsetsThroughEveryVersion() throws {
        let limit = EventLimits.offset.raw, length = EventLimits.length.raw
        // At the limits, just past a length's, on the grid of thirds and off every grid,
        // in steps that no predictor foresees, and back and forth.
        let values: [Int64] = [limit, -limit, length + 1, -length - 1, 0, limit - 1, ThirdsGrid.sixtyFourths(third: 300_000_000_001),
                               3_456_789_012 * 64 + 17, -limit, limit, 77, limit / 3, -(limit / 7) - 5]
        var events: [TimedEvent] = [TimedEvent(.viewport(width: Points(390), height: Points(600)), t: .zero),
                                    TimedEvent(.reload(sections: [SectionSpec(rows: 50_000_000, rowHeight: Points(44)),
                                                                  SectionSpec(rows: 50_000_000, rowHeight: Points(37))]))]
        var t: Int64 = 0
        for (k, v) in values.enumerated() {
            t += 8_333
            let y = Points(raw: v), other = Points(raw: values[(k + 5) % values.count])
            events.append(TimedEvent(.scroll(.to(y), phase: k % 3 == 0 ? .decelerate : nil, target: k % 2 == 0 ? other : nil), t: Micros(raw: t)))
            events.append(TimedEvent(.scroll(.by(Points(raw: 1 + Int64(k))), phase: nil, target: nil), t: Micros(raw: t + 1)))
            events.append(TimedEvent(.scroll(nil, phase: .decelerate, target: y)))
            events.append(TimedEvent(.panBegan(ViewportPoint(x: Points(10), y: Points(20)), fingers: 1), t: Micros(raw: t + 2)))
            events.append(TimedEvent(.panEnded(nil, targetOffset: y), t: Micros(raw: t + 3)))
        }
        events.append(TimedEvent(.scroll(.to(Points(3_000_000_000)), phase: .decelerate, target: Points(3_500_000_000)), t: Micros(raw: t + 4)))
        let expected = try replayed(events)
        #expect(expected.contentOffset == Points(3_000_000_000) && expected.target == Points(3_500_000_000))
        for version in 1...LogFormat.newestVersion {
            #expect(try batchRoundTrip(events, version: version) == events, "version \(version)")
        }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for version in [4, 5, 6] as [UInt16] {
            let path = dir.appendingPathComponent("v\(version).slog").path
            var o = smallBatches(checkpointInterval: 9)
            o.formatVersion = version
            #expect(try writeLog(events, to: path, options: o) == expected)
            let log = try LogReader(path: path)
            #expect(try log.events() == events, "version \(version)")
            #expect(try LogReader.verify(path: path, replaying: true).isIntact, "version \(version)")
            for n in [20, 37, events.count] {
                #expect(try log.state(at: n) == replayed(Array(events.prefix(n))), "version \(version), n = \(n)")
            }
        }
    }

    @Test("any event apply accepts round-trips through the JSON and binary codecs to the same state; the decoders reject what validation rejects",
          arguments: [UInt64(1), 2, 3, 4])
    func property(seed: UInt64) throws {
        var generator = ExtremeEvents(rng: SeededRandom(seed: seed))
        var state = TableState()
        try state.apply(.viewport(width: Points(390), height: Points(600)))
        try state.apply(.reload(sections: [SectionSpec(rows: 20, rowHeight: Points(40), title: "A"), SectionSpec(rows: 5)]))
        var accepted: [TimedEvent] = [TimedEvent(.viewport(width: Points(390), height: Points(600))),
                                      TimedEvent(.reload(sections: [SectionSpec(rows: 20, rowHeight: Points(40), title: "A"), SectionSpec(rows: 5)]))]
        var rejectedByValidation = 0
        for step in 0..<800 {
            let e = generator.next()
            let valid = (try? e.validate()) != nil
            // The JSON decoder rejects exactly what validation rejects.
            let line = EventEncoder.line(e)
            let decoded = try? EventDecoder.decode(line: Array(line.utf8))
            #expect((decoded != nil) == valid, "seed \(seed) step \(step): \(line)")
            if valid { #expect(decoded == e, "seed \(seed) step \(step): \(line)") }
            // The binary decoder never hands back an invalid event.
            if !valid {
                rejectedByValidation += 1
                var encoder = BinaryEventEncoder(baseTime: .zero)
                encoder.append(e)
                var decoder = BinaryEventDecoder(encoder.out.bytes, baseTime: .zero)
                let back = try? decoder.next()
                #expect(back.map { $0 != e } ?? true, "seed \(seed) step \(step): binary decoded an invalid \(line)")
            }
            let before = state
            do {
                try state.apply(e)
                #expect(valid, "seed \(seed) step \(step): apply accepted what validation rejects: \(line)")
                accepted.append(e)
            } catch {
                #expect(state == before, "seed \(seed) step \(step)")
            }
        }
        #expect(rejectedByValidation > 20 && accepted.count > 150, "seed \(seed): \(rejectedByValidation) invalid, \(accepted.count) accepted")

        // JSON: export, then record the script again.
        let script = accepted.map(EventEncoder.line).joined(separator: "\n")
        let recorded = try Script(bytes: Array(script.utf8))
        #expect(recorded.events == accepted, "seed \(seed)")
        #expect(try replayed(recorded.events).hashHex == state.hashHex, "seed \(seed)")

        // Binary: through a real log, in small batches with checkpoints.
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("p.slog").path
        let written = try writeLog(accepted, to: path, options: smallBatches(checkpointInterval: 50))
        #expect(written.hashHex == state.hashHex, "seed \(seed)")
        let report = try LogReader.verify(path: path)
        #expect(report.isIntact && report.intactEvents == accepted.count, "seed \(seed): \(report)")
        let log = try LogReader(path: path)
        #expect(try log.events() == accepted, "seed \(seed)")
        #expect(try log.state(at: accepted.count).hashHex == state.hashHex, "seed \(seed)")
    }
}
