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

    @Test("a page's entries in chunks: the same text as the entries joined, chunks filled to their size, an entry larger than a chunk spread over several")
    func chunkedEntries() {
        var rng = SplitMix64(seed: 12)
        var text = ViewerText()
        var entries: [String] = []
        for i in 0..<300 {
            // Mostly small entries, some of several chunks, one that ends exactly at a chunk's end.
            let length = i % 97 == 5 ? 2 * ViewerText.chunkBytes + 17 : Int.random(in: 0..<40_000, using: &rng)
            let entry = String(repeating: Character(UnicodeScalar(UInt8(97 + i % 26))), count: length) + "é"
            entries.append(entry)
            text.startEntry()
            // In pieces, as the viewer appends an event's record.
            let cut = entry.utf8.count / 3
            text.append(String(decoding: entry.utf8.prefix(cut), as: UTF8.self))
            text.append(String(decoding: entry.utf8.dropFirst(cut), as: UTF8.self))
        }
        let joined = Array(entries.joined(separator: ",\n").utf8)
        #expect(text.count == entries.count)
        #expect(text.byteCount == joined.count)
        #expect(Array(text.chunks.joined()) == joined)
        #expect(text.chunks.dropLast().allSatisfy { $0.count == ViewerText.chunkBytes })
        #expect(text.chunks.count == (joined.count + ViewerText.chunkBytes - 1) / ViewerText.chunkBytes)
    }

    @Test("embedding escapes every < as \\u003c and nothing else", arguments: [
        "", "<", "a<b", "<<", "</script><script>alert(1)</script>", "é<ü ✓ <!-- \u{1F600}<", "no angle here",
    ])
    func embedding(text: String) {
        #expect(String(decoding: ViewerPage.embedded(Array(text.utf8)), as: UTF8.self) == text.replacingOccurrences(of: "<", with: "\\u003c"))
    }
}
