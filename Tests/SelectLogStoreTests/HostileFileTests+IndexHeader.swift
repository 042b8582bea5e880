import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

extension HostileFileTests {
    /// The index record's header holds the log's event count, 0 events and base time 0
    /// (LOG-FORMAT.md; other than 0 events breaks the limits, damage to every reader). A
    /// reader never uses the first and the last, so it reads such a log whole from its
    /// index; but a file with other values there is not what a writer writes, and
    /// `verify` called it intact (found by the independent reader's index check).
    @Test("an index record whose header claims other events before it or a base time: read whole, but verify reports it at the index's offset, and a repair keeps every event",
          arguments: [(13, Int64(0)), (11, 0), (0, 0), (12, 5)])
    func indexRecordHeaderFields(first: Int, baseTime: Int64) throws {
        var f = soundLog()
        let indexAt = f.bytes.count
        f.index(header: (first, 0, baseTime))
        let (dir, p) = try path("index-header.slog")
        defer { try? FileManager.default.removeItem(at: dir) }
        try f.write(to: p)
        let log = try LogReader(path: p)
        #expect(try log.events() == events)
        #expect(try log.state(at: 12) == states()[12])
        let report = try LogReader.verify(path: p)
        #expect(report.problem?.offset == indexAt, "\(String(describing: report.problem))")
        #expect(report.problem?.reason.contains("index record header") == true, "\(String(describing: report.problem))")
        #expect(report.intactEvents == 12)
        let outcome = try LogRepair.repair(p)
        #expect(outcome.isIntact)
        #expect(try LogReader.verify(path: p).isIntact)
        #expect(try LogReader(path: p).events() == events)
    }
}
