import Foundation
import SelectLog
import SelectLogStore
import Testing

/// docs/INTEGRATION.md's way to close a recorder from an `async` function without holding
/// one of the cooperative pool's threads, exactly as written there.
let closing = DispatchQueue(label: "selectlog.closing", qos: .utility)

func closed(_ recorder: Recorder) async throws {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
        closing.async {
            do throws(LogError) {
                try recorder.close()
                done.resume()
            } catch {
                done.resume(throwing: error)
            }
        }
    }
}

@Suite("docs/INTEGRATION.md's snippets for servers")
struct IntegrationSnippetTests {
    @Test("closed(_:) closes the log from an async function: every event is read back, and later appends are refused")
    func closedFromAsync() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("s.slog")
        let recorder = try Recorder(creating: url)
        let events = Array(SyntheticSession(seed: 4, count: 3_000))
        for e in events { try recorder.append(e) }
        try await closed(recorder)
        let reader = try LogReader(url: url)
        #expect(reader.eventCount == events.count)
        #expect(try reader.events() == events)
        let refused = #expect(throws: LogError.self) { try recorder.append(.tick) }
        #expect(refused?.code == .closed)
        // Closing again returns at once, with the first close's outcome.
        try await closed(recorder)
    }
}
