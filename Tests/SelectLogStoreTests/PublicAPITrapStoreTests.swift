import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// The store's public calls with arguments an app may pass that trapped or hung (an
/// audit of the public API, 2026-11-27).
@Suite("The store's public calls answer any arguments")
struct PublicAPITrapStoreTests {
    @Test("an error at the last possible event index describes itself")
    func errorAtIntMax() {
        #expect(LogError(.io, "x", eventIndex: .max).description == "event 9223372036854775808: x")
        #expect(LogError(.io, "x", eventIndex: -1).description == "event 0: x")
        #expect(LogError(.io, "x", eventIndex: 4).description == "event 5: x")
    }

    @Test("replay to a count outside the log, or behind the state, is out of range and leaves the state")
    func replayBounds() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.slog").path
        let events = Array(SyntheticSession(seed: 4, count: 300))
        _ = try writeLog(events, to: path)
        let reader = try LogReader(path: path)
        var state = try reader.state(at: 10)
        let before = state
        for n in [Int.min, -1, 9, reader.eventCount + 1, reader.eventCount + 1_000_000_000, Int.max] {
            #expect(throws: LogError.self, "to \(n)") { try reader.replay(into: &state, to: n) }
            #expect(state == before)
            do {
                try reader.replay(into: &state, to: n)
            } catch {
                #expect(error.code == .outOfRange, "\(error)")
            }
        }
        try reader.replay(into: &state, to: reader.eventCount)
        #expect(state == (try reader.state(at: reader.eventCount)))
    }
}
