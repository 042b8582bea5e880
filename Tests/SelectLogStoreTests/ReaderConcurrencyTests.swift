import Foundation
import SelectLog
import SelectLogStore
import Testing

@Suite("A LogReader shared between tasks")
struct ReaderConcurrencyTests {
    @Test("tasks reading states from one reader at once get exactly what a lone reader gets")
    func sharedReader() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("shared.slog").path
        let events = Array(SyntheticSession(seed: 11, count: 6_000))
        _ = try writeLog(events, to: path, options: smallBatches(checkpointInterval: 500))
        let reader = try LogReader(path: path)
        let positions = stride(from: 0, through: events.count, by: 373).map { $0 }
        let expected = try positions.map { try reader.state(at: $0).hashHex }
        // Four tasks, each reading every position in its own order, through the one reader.
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for task in 0..<4 {
                group.addTask {
                    let order = task % 2 == 0 ? positions : positions.reversed()
                    var hashes: [Int: String] = [:]
                    for n in order { hashes[n] = try reader.state(at: n).hashHex }
                    return positions.map { hashes[$0] ?? "" }
                }
            }
            var all: [[String]] = []
            for try await r in group { all.append(r) }
            return all
        }
        #expect(results.count == 4)
        for r in results { #expect(r == expected) }
    }
}
