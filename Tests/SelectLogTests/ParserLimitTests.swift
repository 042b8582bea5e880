#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import SelectLog

/// Issue 13, items 1 and 3: the parser stays linear and bounded on hostile lines,
/// and the script reader names what it refuses with the line.
@Suite("Parser and script limits")
struct ParserLimitTests {
    /// An object with `count` distinct fields, as one line.
    func wideObject(_ count: Int) -> [UInt8] {
        var s = "{\"type\": \"tick\""
        for k in 0..<count { s += ", \"f\(k)\": \(k)" }
        return Array((s + "}").utf8)
    }

    /// The CPU time this thread spends in `body`, in seconds. Not the wall clock: tests
    /// run in parallel on a loaded machine, where a thread can be descheduled for tens or
    /// hundreds of milliseconds in any run, which a wall clock counts and this does not.
    /// `body` runs on this thread to its end (it never suspends), so all of it is counted.
    func seconds(_ body: () throws -> Void) rethrows -> Double {
        func now() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        let start = now()
        try body()
        return now() - start
    }

    @Test("the duplicate-field check is linear: 10x the fields costs far less than 100x the time")
    func duplicateCheckIsLinear() throws {
        let small = wideObject(5_000), large = wideObject(50_000)
        _ = try JSONParser.parse(small)
        // The best of three runs of each: what a shared machine still adds to a thread's
        // own CPU time (caches another thread cooled, its page faults) only adds time.
        let a = try (0..<3).map { _ in try seconds { _ = try JSONParser.parse(small) } }.min() ?? 0
        let b = try (0..<3).map { _ in try seconds { _ = try JSONParser.parse(large) } }.min() ?? 0
        // Quadratic would be ~100x; linear ~10x. Leave room for a noisy machine.
        #expect(b < max(a, 0.001) * 40, "5k fields: \(a) s, 50k fields: \(b) s")
    }

    @Test("a duplicate field far from its first occurrence is still found, with its column")
    func distantDuplicate() {
        var line = wideObject(10_000)
        line.removeLast()
        line += Array(", \"f7\": 1}".utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(line) }
        do {
            _ = try JSONParser.parse(line)
        } catch {
            #expect(error.reason == "duplicate field \"f7\"")
            #expect(error.column == line.count - 7)
        }
    }

    @Test("a duplicate written with an escape is the same field")
    func escapedDuplicate() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(#"{"ab": 1, "a\u0062": 2}"#.utf8)) }
    }

    @Test("nesting of 64 is accepted, 65 is an error, a million is an error and not a stack overflow")
    func nestingLimit() throws {
        func nested(_ n: Int) -> [UInt8] { Array(String(repeating: "[", count: n) + String(repeating: "]", count: n)).map { $0.asciiValue ?? 0 } }
        _ = try JSONParser.parse(nested(64))
        for n in [65, 1_000_000] {
            do {
                _ = try JSONParser.parse(nested(n))
                Issue.record("nesting \(n) accepted")
            } catch {
                #expect(error.reason == "nesting deeper than 64")
                #expect(error.column == 65)
            }
        }
    }

    @Test("objects and arrays nested 64 deep read back to the innermost member")
    func nestedObjects() throws {
        let text = String(repeating: "{\"a\": ", count: 61) + "{\"a\": [1, {\"b\": \"x\"}], \"c\": true}" + String(repeating: "}", count: 61)
        var value = try JSONParser.parse(Array(text.utf8))
        for _ in 0..<61 {
            guard case .object(let m) = value, m.count == 1, m[0].key == "a" else { Issue.record("not an object"); return }
            value = m[0].value
        }
        guard case .object(let inner) = value, inner.count == 2, case .array(let list) = inner[0].value,
              case .object(let last) = list[1] else { Issue.record("innermost object"); return }
        #expect(inner[1].value == .bool(true))
        #expect(last[0].value == .string("x"))
    }

    @Test("a long array is a view of the line: its elements read back in order")
    func longArrayReadsBack() throws {
        let n = 20_000
        var s = "{\"type\": \"select\", \"rows\": ["
        s += (0..<n).map { "[0, \($0)]" }.joined(separator: ", ") + "]}"
        guard case .object(let members) = try JSONParser.parse(Array(s.utf8)),
              case .array(let rows)? = members.first(where: { $0.key == "rows" })?.value else {
            Issue.record("not an object with rows")
            return
        }
        #expect(rows.count == n)
        var k = 0
        for row in rows {
            guard case .array(let pair) = row, case .number(let r) = pair[1] else { Issue.record("row \(k)"); return }
            #expect(r.integer(limit: .max) == Int64(k))
            k += 1
        }
        #expect(k == n)
        #expect(rows[3] == (try JSONParser.parse(Array("[0, 3]".utf8))))
    }

    @Test("numbers are exact however long their literal: rounding sees a far non-zero digit")
    func longNumbersAreExact() throws {
        func number(_ text: String) throws -> JSONNumber {
            guard case .number(let n) = try JSONParser.parse(Array(text.utf8)) else { throw InvalidEvent(.malformed, nil, "not a number") }
            return n
        }
        let zeros = String(repeating: "0", count: 100_000)
        // 0.5/64 exactly is a tie (to even: 0); anything above it rounds up.
        #expect(try number("0.0078125" + zeros).scaled(by: 64, limit: .max) == 0)
        #expect(try number("0.0078125" + zeros + "1").scaled(by: 64, limit: .max) == 1)
        #expect(try number("1" + zeros + "e-100000").integer(limit: .max) == 1)
        #expect(try number("12345678901234567890").integer(limit: .max) == nil)
        #expect(try number("9223372036854775807").integer(limit: .max) == .max)
        #expect(try number("9223372036854775807.9").scaled(by: 1, limit: .max) == nil)
        #expect(try number("922337203685477580.7").scaled(by: 64, limit: .max) == nil)
        #expect(try number("-0.0").scaled(by: 64, limit: .max) == 0)
        #expect(try number("1.50") == number("15e-1"))
        #expect(try number("-2.5e3").text == "-25e2")
        #expect(try number("1e1000").scaled(by: 64, limit: .max) == nil)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array("1e1001".utf8)) }
        // Exponents past 100,000 that the digits' own position brings back (they were
        // clamped to ±100,000 first: 200 read as 0, and 2 refused as out of range).
        let more = String(repeating: "0", count: 150_000)
        #expect(try number("0." + more + "2e150003").integer(limit: .max) == 200)
        #expect(try number("2" + more + "e-150000").integer(limit: .max) == 2)
        #expect(try number("1e-99999999999999999999").scaled(by: 64, limit: .max) == 0)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array("1e99999999999999999999".utf8)) }
    }

    @Test("a line longer than the limit is an error naming the line, before more of it is held")
    func lineLengthLimit() throws {
        var reader = ScriptReader(maxLineLength: 1024)
        reader.append(Array("{\"type\": \"tick\"}\n\n".utf8))
        reader.append([UInt8](repeating: 0x61, count: 1000))
        #expect(try reader.nextEvent()?.line == 1)
        #expect(try reader.nextEvent() == nil)
        reader.append([UInt8](repeating: 0x61, count: 1000))
        #expect(throws: ScriptError(line: 3, reason: InvalidEvent(.overLimit, nil, "longer than 1024 bytes"))) { try reader.nextEvent() }
    }

    @Test("a limit of one byte is named in the singular")
    func oneByteLimit() {
        var reader = ScriptReader(maxLineLength: 1)
        reader.append(Array("{}\n".utf8))
        #expect(throws: ScriptError(line: 1, reason: InvalidEvent(.overLimit, nil, "longer than 1 byte"))) { try reader.nextEvent() }
    }

    @Test("the default limit is 64 MiB and says so")
    func defaultLimit() {
        var reader = ScriptReader()
        let chunk = [UInt8](repeating: 0x20, count: 1 << 20)
        do {
            for _ in 0...64 {
                reader.append(chunk)
                _ = try reader.nextLine()
            }
            Issue.record("a 65 MiB line was accepted")
        } catch {
            #expect(error.description == "line 1: longer than 64 MiB")
        }
    }

    @Test("a UTF-8 byte-order mark at the start is skipped")
    func byteOrderMark() throws {
        let script = try Script(bytes: [0xEF, 0xBB, 0xBF] + Array("{\"type\": \"tick\"}\n{\"type\": \"tick\"}".utf8))
        #expect(script.entries.map(\.line) == [1, 2])
        // Anywhere else it is not white space.
        #expect(throws: ScriptError.self) { try Script(bytes: Array("{\"type\": \"tick\"}\n".utf8) + [0xEF, 0xBB, 0xBF, 0x7B, 0x7D]) }
    }

    @Test("CRLF line ends are accepted; a bare CR is named with its line and column", arguments: [
        ("{\"type\": \"tick\"}\r{\"type\": \"tick\"}\n", 1, 17),
        ("{\"type\": \"tick\"}\r\n{\"type\": \"tick\"}\r", 2, 17),
        ("\r", 1, 1),
        ("# comment\nab\rcd\r", 2, 3),
    ])
    func bareCarriageReturn(text: String, line: Int, column: Int) {
        let expected = ScriptError(line: line, reason: InvalidEvent(.malformed, nil, "a bare carriage return (CR) at column \(column); lines end with LF or CRLF"))
        #expect(throws: expected) { try Script(bytes: Array(text.utf8)) }
    }

    @Test("a bare CR after non-ASCII text is named by character and by byte, whether or not the bytes arrive split")
    func bareCarriageReturnAfterNonASCII() throws {
        // "é" is one character in two bytes: the CR is character 4, byte 5 of line 2.
        let text = Array("# x\n# é\rz\n".utf8)
        let expected = ScriptError(line: 2, reason: InvalidEvent(.malformed, nil, "a bare carriage return (CR) at column 4 (byte 5); lines end with LF or CRLF"))
        #expect(throws: expected) { try Script(bytes: text) }
        for split in 1..<text.count {
            var reader = ScriptReader()
            #expect(throws: expected, "split at \(split)") {
                reader.append(text[..<split])
                while try reader.nextEvent() != nil {}
                reader.append(text[split...])
                reader.finish()
                while try reader.nextEvent() != nil {}
            }
        }
    }

    @Test("bytes split anywhere give the same events and the same errors")
    func chunkingDoesNotMatter() throws {
        let text = Array("\u{FEFF}# c\r\n{\"type\": \"tick\", \"t\": 1}\r\n\n{\"type\": \"tick\", \"t\": 2}\n{\"type\": \"tick\"}".utf8)
        let whole = try Script(bytes: text).entries.map { "\($0.line) \($0.event)" }
        #expect(whole.count == 3)
        var rng = SplitMix64(seed: 13)
        for _ in 0..<200 {
            var reader = ScriptReader()
            var got: [String] = []
            var rest = text[...]
            while !rest.isEmpty {
                let n = Int(rng.next() % 7) + 1
                reader.append(rest.prefix(n))
                rest = rest.dropFirst(n)
                while let e = try reader.nextEvent() { got.append("\(e.line) \(e.event)") }
            }
            reader.finish()
            while let e = try reader.nextEvent() { got.append("\(e.line) \(e.event)") }
            #expect(got == whole)
        }
    }

    @Test("a 100,000-character title is quoted in at most 80 characters")
    func longValuesAreClipped() throws {
        let title = String(repeating: "T", count: 100_000)
        let text = "{\"type\": \"reload\", \"sections\": [{\"rows\": 1}]}\n{\"type\": \"jumpToSection\", \"title\": \"\(title)\"}\n"
        var state = TableState()
        do {
            try Script(bytes: Array(text.utf8)).replay(into: &state)
            Issue.record("accepted")
        } catch {
            let message = error.description
            #expect(message.hasPrefix("line 2: jumpToSection: no section has the title \"" + String(repeating: "T", count: 80) + "… (99920 more characters)\""))
            #expect(message.count < 200)
        }
    }

    @Test("a 1,000-digit number in an error is clipped too, and clipping twice changes nothing")
    func longNumbersInErrorsAreClipped() {
        let digits = String(repeating: "7", count: 1000)
        do {
            _ = try Script(bytes: Array("{\"type\": \"select\", \"rows\": [[0, \(digits)]]}\n".utf8))
            Issue.record("accepted")
        } catch {
            let message = error.description
            #expect(message.contains(String(repeating: "7", count: 80) + "… (920 more characters)"), "\(message)")
            #expect(message.count < 250)
            #expect(Quoted.clipValues(in: message) == message)
        }
    }
}
