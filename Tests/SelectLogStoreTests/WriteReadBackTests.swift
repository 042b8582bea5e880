import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// Nothing the engine accepts fails to be written and read back: sessions at the edges
/// of the format's limits that a recorder once wrote and its reader then refused.
@Suite("Written and read back")
struct WriteReadBackTests {
    /// Writes `events` with `options`, then checks that every read gives them back:
    /// verify (with its replay), every event, the state at several points.
    func roundTrip(_ events: [TimedEvent], _ options: Recorder.Options, points: [Int]) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("edge.slog").path
        let written = try writeLog(events, to: path, options: options)
        let report = try LogReader.verify(path: path, replaying: true)
        #expect(report.isIntact, "\(report.problem?.reason ?? "")")
        let log = try LogReader(path: path)
        #expect(try log.events() == events)
        #expect(try log.state(at: events.count) == written)
        for n in points { #expect(try log.state(at: n) == replayed(Array(events.prefix(n))), "state at \(n)") }
        #expect(try log.check().isSame)
    }

    func options(checkpointInterval: Int) -> Recorder.Options {
        var o = Recorder.Options()
        o.durability = .none
        o.checkpointInterval = checkpointInterval
        return o
    }

    @Test("thousands of ticks without a time, which code into a few bytes: the batch's density is within the format's limit",
          arguments: [4_096, 100_000])
    func denseTicks(count: Int) throws {
        let events = [TimedEvent(.reload(sections: [SectionSpec(rows: 30)]), t: nil)]
            + Array(repeating: TimedEvent(.tick, t: nil), count: count)
            + [TimedEvent(.tap(ViewportPoint(x: Points(10), y: Points(100))), t: nil)]
        // The whole run of ticks in one batch, and in a window of batches the recorder cuts.
        try roundTrip(events, options(checkpointInterval: 1 << 20), points: [1, count / 2, count])
        var o = options(checkpointInterval: 1 << 20)
        o.batchEvents = 1 << 20
        try roundTrip(events, o, points: [count + 1])
    }

    @Test("content offsets past 1e9 pt (relative scrolls add up to them) in checkpoints, a pan begun there and a deceleration")
    func offsetsPastTheEventLimit() throws {
        let billion = Points(1_000_000_000)
        var events: [TimedEvent] = [
            TimedEvent(.configure(ConfigurationPatch()), t: Micros(raw: 0)),
            TimedEvent(.reload(sections: [SectionSpec(rows: 50_000_000, rowHeight: Points(44)), SectionSpec(rows: 50_000_000)]), t: Micros(raw: 0)),
        ]
        var t: Int64 = 0
        func next(_ e: Event) {
            t += 8_333
            events.append(TimedEvent(e, t: Micros(raw: t)))
        }
        for _ in 0..<3 { next(.scroll(.by(billion), phase: nil, target: nil)) }
        // A drag scroll begun at an offset past the limit, its samples, and its end with a target.
        next(.panBegan(ViewportPoint(x: Points(200), y: Points(400)), fingers: 1))
        for k in 1...20 { next(.panMoved(ViewportPoint(x: Points(200), y: Points(400 - k * 7)))) }
        next(.panEnded(ViewportPoint(x: Points(200), y: Points(250)), targetOffset: Points(999_999_000)))
        for _ in 0..<5 { next(.tick) }
        next(.scroll(.by(billion), phase: .decelerate, target: billion))
        next(.scroll(nil, phase: .idle, target: nil))
        var state = TableState()
        for e in events { try state.apply(e) }
        #expect(state.contentOffset > billion)
        // A checkpoint after every event: each state is written and read back.
        try roundTrip(events, options(checkpointInterval: 1), points: [5, 6, 12, 27, events.count - 1])
    }

    /// A string of exactly `bytes` UTF-8 bytes of seeded scalars from one to four bytes
    /// long (ASCII, Latin, CJK, emoji), which the log's byte model cannot predict well.
    /// `ascii`: printable ASCII only, the most bits a byte (6.6).
    func scrambled(bytes: Int, seed: UInt64, ascii: Bool = false) -> String {
        var random = SeededRandom(seed: seed)
        var scalars = String.UnicodeScalarView()
        var left = bytes
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x7FF, 0x4E00...0x9FFF, 0x1F300...0x1F6FF]
        while left > 0 {
            let range = ranges[Int(random.next() % UInt64(left >= 4 && !ascii ? 4 : 1))]
            let value = range.lowerBound + UInt32(random.next() % UInt64(range.count))
            let length = value < 0x80 ? 1 : value < 0x800 ? 2 : value < 0x10000 ? 3 : 4
            guard let scalar = Unicode.Scalar(value), length <= left else { continue }
            scalars.append(scalar)
            left -= length
        }
        return String(scalars)
    }

    /// A `reload` of three rows whose one title makes the fields take `bytes` bytes.
    func reload(fieldBytes bytes: Int, seed: UInt64) throws -> Event {
        let base = try #require(Event.reload(sections: [SectionSpec(rows: 3, title: String(repeating: "a", count: 1 << 19))]).fieldBytes) - (1 << 19)
        return .reload(sections: [SectionSpec(rows: 3, title: scrambled(bytes: bytes - base, seed: seed))])
    }

    @Test("an event whose fields take exactly EventLimits.eventBytes is written and read back; one byte more is invalid on every way in, and the log keeps what came before")
    func largestEvent() throws {
        let atLimit = try reload(fieldBytes: EventLimits.eventBytes, seed: 7)
        #expect(atLimit.fieldBytes == EventLimits.eventBytes)
        guard case .reload(let sections) = atLimit, let title = sections[0].title else { return }
        let events = [TimedEvent(.viewport(width: Points(390), height: Points(600)), t: Micros(raw: 0)), TimedEvent(atLimit, t: Micros(raw: 10)),
                      TimedEvent(.tap(ViewportPoint(x: Points(10), y: Points(50))), t: Micros(raw: 20)),
                      TimedEvent(.jumpToSection(.title(title)), t: Micros(raw: 30))]
        try roundTrip(events, options(checkpointInterval: 2), points: [2, 3])

        let over = TimedEvent(try reload(fieldBytes: EventLimits.eventBytes + 1, seed: 7), t: Micros(raw: 40))
        #expect(over.event.fieldBytes == EventLimits.eventBytes + 1)
        #expect(throws: InvalidEvent.self) { try over.validate() }
        #expect(throws: InvalidEvent.self) { try EventDecoder.decode(line: Array(EventEncoder.line(over).utf8)) }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("over.slog").path
        let recorder = try Recorder(creating: path, options: options(checkpointInterval: 2))
        for e in events { try recorder.append(e) }
        let before = recorder.state
        do {
            try recorder.append(over)
            Issue.record("a recorder appended an event over the limit")
        } catch {
            #expect("\(error)".contains("more than the \(EventLimits.eventBytes) an event may take in the log"), "\(error)")
        }
        #expect(recorder.state == before)
        try recorder.close()
        #expect(try LogReader(path: path).events() == events)
    }

    @Test("a state whose snapshot is over the format's record limit (long titles) is left out of the checkpoints; batches stay within the limit whatever batchBytes says")
    func stateOverTheRecordLimit() throws {
        // 21 sections of titles of about 1 MiB: over 16 MiB of state at the checkpoint
        // offered after event 22, in events that code to about 0.82 MiB each with no
        // gesture end between them (without a cap, 17 MiB in one batch).
        var events = [TimedEvent(.viewport(width: Points(390), height: Points(600)), t: Micros(raw: 0))]
        for k in 0..<21 {
            let title = scrambled(bytes: EventLimits.eventBytes - 64, seed: UInt64(k), ascii: true)
            events.append(TimedEvent(.insertSections(at: [k], sections: [SectionSpec(rows: 2, title: title)]), t: Micros(raw: Int64(k + 1))))
        }
        events.append(TimedEvent(.tap(ViewportPoint(x: Points(10), y: Points(20))), t: Micros(raw: 100)))
        // The records as every writer lays them out (the recorder and `LogRewriter` alike;
        // the recorder's writer thread may also seal a batch when it catches up with the
        // caller): no batch over the limit, no checkpoint. (A whole round trip of these
        // 21 MB took 100 s of the suite; the reader's refusal of larger records is
        // tested with the damage tests.)
        var assembler = LogAssembler(events: 0, time: .zero, version: LogFormat.version, checkpointInterval: 22,
                                     putsOffLargeCheckpoints: false, batchEvents: 1 << 20, batchBytes: .max)
        var records: [LogAssembler.Record] = []
        var state = TableState()
        for e in events {
            let before = state.t
            try state.apply(e)
            assembler.add(e, before: before, gestureFingerprint: nil,
                          offered: LogAssembler.offersCheckpoint(after: state.events, interval: 22) ? state : nil, into: &records)
        }
        assembler.seal(into: &records)
        var batches = 0
        for case let .batch(raw, _, _, _, _) in records {
            batches += 1
            #expect(raw.count <= LogFormat.Limits.payloadBytes)
        }
        #expect(batches >= 5, "\(batches) batches: \(records.map { if case let .batch(raw, _, n, _, _) = $0 { "\(n) events \(raw.count) B" } else { "checkpoint" } })")
        for case .checkpoint in records { Issue.record("a checkpoint of a state over the record limit") }
        // The policy refuses such a snapshot whatever else it would say.
        let policy = CheckpointPolicy(interval: 1, putsOff: false)
        #expect(!policy.wants(Array(repeating: 0, count: LogFormat.Limits.payloadBytes + 1), pending: 0))
        #expect(policy.wants(Array(repeating: 0, count: LogFormat.Limits.payloadBytes), pending: 0))
    }

    @Test("an editor of over a million empty options: its snapshot packs beyond the ratios a reader allows, and is stored as it is")
    func millionEmptyOptions() throws {
        let titles = Array(repeating: "", count: 1_040_000)
        let editor = Event.toggleEditor(row: RowPath(0, 1), options: titles, multiple: true, chosen: [0, 1_039_999])
        #expect(try #require(editor.fieldBytes) <= EventLimits.eventBytes)
        var events = [TimedEvent(.reload(sections: [SectionSpec(rows: 20)]), t: Micros(raw: 0)), TimedEvent(editor, t: Micros(raw: 1))]
        for k in 0..<6 { events.append(TimedEvent(.choose(option: k * 1_000), t: Micros(raw: Int64(2 + k)))) }
        try roundTrip(events, options(checkpointInterval: 4), points: [5])
    }
}
