import Foundation
import SelectLog
@testable import selectlog
import Testing

/// The viewer builds each event's frame from the previous one and writes hashes and the
/// page with its own loops; none of that may change a byte of the page.
@Suite("selectlog view: frames built from the previous frame, hashes and embedding as before")
struct ViewerReuseTests {
    @Test("a frame built from the previous frame equals one built afresh, at every event of every example and of synthetic sessions")
    func framesFromPreviousEqualFresh() throws {
        var sessions: [(String, [TimedEvent])] = []
        for name in ViewerCommandTests.examples {
            let script = try Script(bytes: Array(try Data(contentsOf: CLI.root.appendingPathComponent("Examples/\(name).jsonl"))))
            sessions.append((name, script.entries.map(\.event)))
        }
        sessions.append(("synthetic seed 3", Array(SyntheticSession(seed: 3, count: 3000))))
        for (name, events) in sessions {
            var state = TableState()
            let shape = ViewerFrame.Shape(state)
            var previous = ViewerFrame(state, shape: shape)
            for (i, e) in events.enumerated() {
                guard (try? state.apply(e)) != nil else { continue }
                let reused = ViewerFrame(state, shape: shape, previous: previous)
                let fresh = ViewerFrame(state, shape: shape)
                #expect(reused.values == fresh.values, "\(name), event \(i + 1)")
                previous = reused
            }
        }
    }

    @Test("the viewer's hex digits are hashHex's", arguments: [UInt64(0), 1, 0xF, 0x10, 0xABC, 0x0123_4567_89AB_CDEF, 0x8000_0000_0000_0000, .max])
    func hexDigits(value: UInt64) {
        let radix = String(value, radix: 16)
        #expect(ViewerData.hex(value) == String(repeating: "0", count: 16 - radix.count) + radix)
    }

    @Test("the viewer's hash of a state is its hashHex")
    func hexOfStates() throws {
        var state = TableState()
        #expect(ViewerData.hex(state.hashValue64) == state.hashHex)
        for e in SyntheticSession(seed: 11, count: 500) {
            _ = try state.apply(e)
            #expect(ViewerData.hex(state.hashValue64) == state.hashHex)
        }
    }

    @Test("embedding escapes every < as \\u003c and nothing else", arguments: [
        "", "<", "a<b", "<<", "</script><script>alert(1)</script>", "é<ü ✓ <!-- \u{1F600}<", "no angle here",
    ])
    func embedding(text: String) {
        #expect(String(decoding: ViewerPage.embedded(text), as: UTF8.self) == text.replacingOccurrences(of: "<", with: "\\u003c"))
    }
}
