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
}
