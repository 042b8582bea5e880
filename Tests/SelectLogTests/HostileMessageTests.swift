import Testing
@testable import SelectLog

/// Errors quote what a hostile script chose (a title, a type, a field name): never more
/// than a clipped value, and never a scalar a terminal would act on.
@Suite("Messages that quote hostile text")
struct HostileMessageTests {
    /// Control and bidi scalars a terminal or an editor acts on, and a quote mark.
    static let hostile = "\u{1B}[2J\u{1B}]8;;http://x/\u{7}\r\n\u{7F}\u{9B}31m\u{202E}\u{2028}\""

    @Test("a path in a message is kept whole up to 400 characters; another long word is clipped at 80")
    func pathsAreKept() {
        let path = "/home/runner/work/myproject/myproject/attachments/issue-12345-selection-bug/run-2024-06-01/user-session-recording.slog"
        let message = Quoted.clipValues(in: "\(path): byte offset 4875: record payload checksum mismatch")
        #expect(message.hasPrefix(path + ":"), "\(message)")
        let word = String(repeating: "w", count: 120)
        #expect(Quoted.clipValues(in: "unknown \(word) here").contains(String(repeating: "w", count: 80) + "… (40 more characters)"))
        // A path past the path limit is clipped too, and the message stays within its own.
        let long = "/" + String(repeating: "p", count: 2_000)
        let clipped = Quoted.clipValues(in: "\(long): cannot open")
        // (The word is the path and its colon.)
        #expect(clipped.contains("… (\(long.count + 1 - Quoted.pathLimit) more characters)") && clipped.count <= Quoted.messageLimit + 40, "\(clipped)")
    }

    @Test("a value is clipped by scalars too: one letter carrying 100,000 combining marks is one character, and is cut")
    func combiningMarksAreClipped() {
        let heavy = "e" + String(repeating: "\u{301}", count: 100_000)
        for text in [heavy, "ab" + heavy + "cd", String(repeating: "x", count: 79) + heavy] {
            let clipped = Quoted.clip(text)
            #expect(clipped.unicodeScalars.count <= Quoted.limit * 8 + 40, "\(clipped.unicodeScalars.count) scalars")
            #expect(clipped.hasSuffix(" more characters)") || clipped.hasSuffix(" more character)"))
            #expect(text.unicodeScalars.starts(with: clipped.unicodeScalars.prefix(Quoted.limit * 8)))
        }
        // A message quoting it, as an error would, stays within the message limit in scalars.
        let message = Quoted.clipValues(in: "title \(Quoted.value(heavy)) is not a section")
        #expect(message.unicodeScalars.count <= Quoted.messageLimit * 8)
        // Text within both limits is left as it is; one plain character over is clipped as before.
        let plain = String(repeating: "a", count: Quoted.limit)
        #expect(Quoted.clip(plain) == plain)
        #expect(Quoted.clip(plain + "b") == plain + "… (1 more character)")
        #expect(Quoted.clip(plain + "bc") == plain + "… (2 more characters)")
        let accented = String(repeating: "e\u{301}", count: Quoted.limit)
        #expect(Quoted.clip(accented) == accented)
    }

    /// The error of the script's first bad line.
    func error(_ script: String) -> String {
        do {
            var table = TableState()
            try Script(bytes: Array(script.utf8)).replay(into: &table)
            return ""
        } catch {
            return error.description
        }
    }

    func expectHarmless(_ message: String, _ note: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!message.isEmpty, note, sourceLocation: sourceLocation)
        #expect(message.count <= Quoted.messageLimit + 40, "\(message.count) characters: \(note)", sourceLocation: sourceLocation)
        #expect(!message.unicodeScalars.contains { $0.isUnsafeToShow }, "\(message.prefix(200).debugDescription)", sourceLocation: sourceLocation)
    }

    /// `text` as a JSON string literal's body.
    func json(_ text: String) -> String { String(JSONText.quote(text).dropFirst().dropLast()) }

    @Test("a title that names no section: quoted, clipped and escaped, however long and whatever it holds")
    func unknownTitle() {
        let title = Self.hostile + String(repeating: " ab \"", count: 200_000)
        let message = error("{\"type\": \"jumpToSection\", \"title\": \"\(json(title))\"}")
        expectHarmless(message, "jumpToSection")
        #expect(message.contains("no section has the title \"\\u001b[2J"), "\(message.prefix(120))")
        #expect(message.contains("more characters)"))
    }

    @Test("an unknown event type, a field name and a duplicate field: quoted, clipped and escaped")
    func unknownNames() {
        let name = json(Self.hostile + String(repeating: " ab", count: 300_000))
        let type = error("{\"type\": \"\(name)\"}")
        expectHarmless(type, "type")
        #expect(type.contains("unknown event type"), "the reason is kept: \(type.suffix(80))")
        expectHarmless(error("{\"type\": \"tap\", \"x\": 1, \"y\": 2, \"\(name)\": 3}"), "field")
        expectHarmless(error("{\"type\": \"tap\", \"\(name)\": 1, \"\(name)\": 2}"), "duplicate field")
        // A known type stays as it is.
        #expect(error(#"{"type": "tap", "x": "1", "y": 2}"#).hasPrefix("line 1: tap: "))
    }

    @Test("JSON text escapes DEL, C1 controls, line separators and bidi controls, and reads back the same")
    func jsonEscapes() throws {
        let title = "a\u{7F}b\u{85}c\u{2028}d\u{202E}e\u{2066}f\u{1F600}é"
        let quoted = JSONText.quote(title)
        #expect(quoted == #""a\u007fb\u0085c\u2028d\u202ee\u2066f😀é""#)
        let event = TimedEvent(.jumpToSection(.title(title)))
        let line = EventEncoder.line(event)
        #expect(!line.unicodeScalars.contains { $0.isUnsafeToShow })
        #expect(try EventDecoder.decode(line: Array(line.utf8)) == event)
    }
}
