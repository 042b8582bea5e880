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
}
