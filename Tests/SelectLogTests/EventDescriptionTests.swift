import Testing
@testable import SelectLog

@Suite("Events describe themselves as script lines")
struct EventDescriptionTests {
    @Test("a timed event's description is its script line, which reads back as the same event")
    func descriptionIsTheLine() throws {
        let timed = TimedEvent(.tap(ViewportPoint(x: Points(10), y: Points(30))), t: .milliseconds(12))
        #expect("\(timed)" == EventEncoder.line(timed))
        #expect("\(timed)".contains("\"tap\""), "\(timed)")
        #expect(try EventDecoder.decode(line: "\(timed)".utf8) == timed)
        #expect("\(timed.event)" == EventEncoder.line(TimedEvent(timed.event)))
        #expect(!"\(timed.event)".contains("\"t\""))
    }

    /// EVENTS.md section 4, "The canonical line": what a second implementation must
    /// write to match `selectlog export` byte for byte.
    @Test("the canonical line: key order, separators, exact decimals, fields always or never written, escapes", arguments: [
        (#"{"t": 8.3333, "fingers": 1, "y": 2, "x": 1.5, "type": "panBegan"}"#, #"{"type": "panBegan", "t": 8.333, "x": 1.5, "y": 2}"#),
        (#"{"type": "panBegan", "x": 0.015625, "y": 1e2, "fingers": 2}"#, #"{"type": "panBegan", "x": 0.015625, "y": 100, "fingers": 2}"#),
        (#"{"type": "toggleEditor", "row": [0, 0], "options": []}"#, #"{"type": "toggleEditor", "row": [0, 0], "options": [], "multiple": false, "chosen": []}"#),
        (#"{"type": "batch"}"#, #"{"type": "batch", "deletes": [], "inserts": [], "moves": [], "reloads": []}"#),
        (#"{"type": "reload", "sections": [{"title": "a\u0008b\u200E\"q\u00e9\t", "rows": 2}]}"#,
         #"{"type": "reload", "sections": [{"rows": 2, "title": "a\u0008b\u200e\"qé\t"}]}"#),
    ])
    func canonicalLine(script: String, canonical: String) throws {
        let event = try #require(try EventDecoder.decode(line: script))
        #expect(EventEncoder.line(event) == canonical)
        // The canonical line is a fixed point.
        #expect(EventEncoder.line(try #require(try EventDecoder.decode(line: canonical))) == canonical)
    }
}
