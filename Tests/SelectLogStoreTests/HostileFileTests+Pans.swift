import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

extension HostileFileTests {
    @Test("a checkpoint whose pan changed rows the table lacks is damage at its offset, not a state that breaks at the pan's end")
    func checkpointPanRowsOutsideTable() throws {
        // A strip pan in a 10-row table that selected rows 0-3, row 7 selected before it.
        var settings = ConfigurationPatch()
        settings.allowsMultipleSelection = true
        var strip = StripPatch()
        strip.enabled = true
        settings.scrollAndSelect = strip
        let pan: [TimedEvent] = [
            TimedEvent(.configure(settings), t: .zero),
            TimedEvent(.viewport(width: Points(390), height: Points(600))),
            TimedEvent(.reload(sections: [SectionSpec(rows: 10)])),
            TimedEvent(.select(rows: [RowPath(0, 7)])),
            TimedEvent(.panBegan(ViewportPoint(x: Points(10), y: Points(22)), fingers: 1), t: .milliseconds(1)),
            TimedEvent(.panMoved(ViewportPoint(x: Points(10), y: Points(140))), t: .milliseconds(2)),
        ]
        var state = TableState()
        for e in pan.dropLast() { try state.apply(e) }
        let beforeLast = state
        try state.apply(pan[5])
        guard case .running(var running) = state.gesture.state else {
            Issue.record("the pan is not running: \(state.gesture.state)")
            return
        }
        // The checkpoint says the pan changed row 50 too, which the table does not have.
        running.changedRows.insert(RowPath(0, 50))
        var forged = state
        forged.gesture.enter(.running(running), kind: running.kind)
        var f = Forge(interval: 6)
        f.batch(pan, first: 0, baseTime: 0)
        let at = f.record("C", forged.snapshot(), first: 6, baseTime: state.t.raw)
        f.batch([TimedEvent(.panEnded(nil, targetOffset: nil), t: .milliseconds(3)), TimedEvent(.undo, t: .milliseconds(4))],
                first: 6, baseTime: state.t.raw)
        f.index()
        let (dir, p) = try path("pan-rows.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let report = try LogReader.verify(path: p)
        #expect(report.problem?.offset == at)
        #expect(report.problem?.reason.contains("[0, 50] does not exist") == true)
        let log = try LogReader(path: p)
        #expect { try log.state(at: 8) } throws: { e in
            guard let e = e as? LogError else { return false }
            return e.code == .damaged && e.offset == at
        }
        // The events before the checkpoint still read.
        #expect(try log.state(at: 5) == beforeLast)
    }
}
