import Foundation
import SelectLog
import SelectLogStore
import Testing

/// docs/INTEGRATION.md's resume of a session that ended mid-gesture, exactly as written
/// there: a pan is cancelled, a swipe snapped back (the contract has no `swipeCancelled`).
func resuming(_ url: URL) throws -> Recorder {
    let recorder = try Recorder(appendingTo: url)
    if recorder.state.pan != nil { try recorder.append(.panCancelled) }
    if recorder.state.options.swipe != nil {
        try recorder.append(.swipeMoved(offset: .zero))
        try recorder.append(.swipeEnded(velocity: nil))
    }
    return recorder
}

@Suite("docs/INTEGRATION.md's resume of a session that ended mid-gesture")
struct ResumeSnippetTests {
    static let table = [#"{"type": "configure", "allowsMultipleSelection": true, "optionWidth": 80}"#,
                        #"{"type": "viewport", "width": 390, "height": 500}"#,
                        #"{"type": "reload", "sections": [{"rows": 20, "rowHeight": 50}]}"#]

    /// A log of `lines` after the table, its recorder dropped as a process that dies drops it.
    func log(_ lines: [String], in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("s.slog")
        let recorder = try Recorder(creating: url)
        for line in Self.table + lines { try recorder.append(try #require(try EventDecoder.decode(line: line)).event) }
        try recorder.flush()
        return url
    }

    @Test("a swipe under way is snapped back and closed: the next swipe and tap are the new session's own",
          arguments: [[#"{"type": "swipeBegan", "row": [0, 3]}"#, #"{"type": "swipeMoved", "offset": 40}"#],
                      [#"{"type": "swipeBegan", "row": [0, 3]}"#, #"{"type": "swipeMoved", "offset": 90}"#],
                      [#"{"type": "panBegan", "x": 200, "y": 120}"#, #"{"type": "panMoved", "x": 200, "y": 300}"#]])
    func resumesMidGesture(lines: [String]) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try log(lines, in: dir)
        #expect(try LogReader(path: url.path).state(at: Self.table.count + lines.count).options.swipe != nil
                || LogReader(path: url.path).state(at: Self.table.count + lines.count).pan != nil)
        let recorder = try resuming(url)
        #expect(recorder.state.pan == nil)
        #expect(recorder.state.options.swipe == nil)
        // Snapped back, as UIKit does: no option view left open by the lost swipe.
        #expect(recorder.state.options.open == nil)
        // The new session's first gesture starts clean: a tap on row 5 selects it alone.
        try recorder.append(.tap(ViewportPoint(x: Points(200), y: Points(275))))
        #expect(recorder.state.selection.paths == [RowPath(0, 5)])
        try recorder.close()
        #expect(try LogReader.verify(path: url.path).isIntact)
    }
}
