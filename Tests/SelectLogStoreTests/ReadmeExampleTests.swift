import Foundation
import Testing
import SelectLog
import SelectLogStore

/// The README's two Swift examples, verbatim in substance, so the front door stays true.
@Suite("README examples")
struct ReadmeExampleTests {
    @Test("the embedding example does what the README says")
    func embedding() throws {
        var table = TableState()
        var config = ConfigurationPatch()
        config.allowsMultipleSelection = true
        try table.apply(.configure(config))
        try table.apply(.viewport(width: Points(390), height: Points(600)))
        try table.apply(.reload(sections: [SectionSpec(rows: 100, rowHeight: Points(50))]))
        try table.apply(TimedEvent(.tap(ViewportPoint(x: Points(200), y: Points(75))), t: .milliseconds(16)))
        let before = table
        do {
            try table.apply(.select(rows: [RowPath(0, 500)]))
            Issue.record("accepted an out-of-range row")
        } catch {
            #expect("\(error)" == "select: rows[0] [0, 500] is out of range (section 0 has 100 rows)")
        }
        #expect(table == before)
        #expect("\(table.selection.paths)" == "[[0, 1]]")
        #expect(table.hashHex.count == 16)
        #expect(table.json.hasPrefix("{\"events\": 4"))
    }

    @Test("the recorder example does what the README says")
    func recorder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("selectlog-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("session.slog").path
        var options = Recorder.Options()
        options.durability = .always
        let recorder = try Recorder(creating: path, options: options)
        try recorder.append(TimedEvent(.reload(sections: [SectionSpec(rows: 10)])))
        try recorder.append(TimedEvent(.tap(ViewportPoint(x: Points(20), y: Points(75))), t: .milliseconds(16)))
        try recorder.flush()
        #expect(recorder.acknowledged == 2)
        try recorder.close()
        let log = try LogReader(path: path)
        let state = try log.state(at: 2)
        #expect(state.selection.paths == [RowPath(0, 1)])
        let why = try log.lastChange(of: RowPath(0, 1), at: log.eventCount)
        #expect(why.kind == .changed && why.event == 1)
        var seen: [(Int, String)] = []
        try log.forEachEvent { index, timed in
            seen.append((index, "\(timed)"))
            return true
        }
        #expect(seen.map(\.0) == [0, 1])
        #expect(seen.first?.1.hasPrefix(#"{"type": "reload""#) == true, "\(seen)")
        #expect(seen.last?.1.contains(#""type": "tap""#) == true, "\(seen)")
    }
}
