/// Why a line is not JSON, with the byte column (1-based) where it went wrong.
package struct JSONSyntaxError: Error, Equatable, Sendable {
    /// The 1-based byte column of the first byte that is wrong.
    package var column: Int
    /// What is wrong there, in words.
    package var reason: String
}

/// A strict JSON (RFC 8259) parser over UTF-8 bytes, for one script line at a time.
///
/// Parsing is one linear pass that checks the whole text (syntax, escapes, UTF-8,
/// duplicate field names through a hash set once an object grows past a few
/// members, nesting at most `maxDepth`). The value it returns is a view of the
/// checked text: numbers and arrays are ranges of it, read on demand, so the
/// memory a parsed line holds is the line itself plus a few words per value a
/// caller actually looks at.
///
/// ```swift
/// guard case .object(let members) = try JSONParser.parse(Array(line)) else { … }
/// ```
package struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    package static let maxDepth = 64
    /// The longest text accepted: values address it with 32-bit offsets.
    package static let maxLength = Int(Int32.max)

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0

    /// Parses one complete JSON value from `bytes`; trailing white space is allowed.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        if bytes.count > maxLength { throw JSONSyntaxError(column: 1, reason: "longer than \(maxLength) bytes") }
        var parser = JSONParser(bytes: bytes)
        parser.skipSpace()
        let start = parser.i
        try parser.value()
        parser.skipSpace()
        if parser.i < bytes.count { throw parser.error("unexpected text after the JSON value") }
        return CheckedJSON(bytes).value(at: start)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(column: i + 1, reason: reason) }

    private mutating func skipSpace() {
        while i < bytes.count, CheckedJSON.isSpace(bytes[i]) { i += 1 }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard i + count <= bytes.count else { throw error("invalid literal") }
        let matches = word.withUTF8Buffer { w in (0..<count).allSatisfy { bytes[i + $0] == w[$0] } }
        guard matches else { throw error("invalid literal") }
        i += count
    }

    /// Checks the value at `i` and moves past it.
    private mutating func value() throws(JSONSyntaxError) {
        guard i < bytes.count else { throw error("unexpected end of line") }
        switch bytes[i] {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): _ = try string(decoding: false)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw error("unexpected character")
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        i += 1
    }

    private mutating func object() throws(JSONSyntaxError) {
        try enter()
        defer { depth -= 1 }
        var names = FieldNames()
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            return
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a field name") }
            let keyColumn = i
            let key = try string(decoding: true) ?? ""
            if !names.insert(key) {
                throw JSONSyntaxError(column: keyColumn + 1, reason: "duplicate field \(Quoted.value(key))")
            }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
            i += 1
            skipSpace()
            try value()
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of line in an object") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func array() throws(JSONSyntaxError) {
        try enter()
        defer { depth -= 1 }
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            return
        }
        while true {
            skipSpace()
            try value()
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of line in an array") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("truncated \\u escape") }
        guard let v = CheckedJSON.hex4(bytes, at: i) else { throw error("bad \\u escape") }
        i += 4
        return v
    }

    /// Checks the string at `i` (escapes, surrogate pairs, UTF-8) and moves past it;
    /// returns its text when `decoding`.
    private mutating func string(decoding: Bool) throws(JSONSyntaxError) -> String? {
        let start = i
        i += 1
        var escaped = false
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { break }
            if c < 0x20 { throw error("control character in a string") }
            if c < 0x80 && c != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            if c >= 0x80 {
                guard let end = CheckedJSON.utf8Scalar(bytes, at: i) else {
                    throw error("invalid UTF-8 in a string")
                }
                i = end
                continue
            }
            escaped = true
            i += 1
            guard i < bytes.count else { throw error("unterminated escape") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                 UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                break
            case UInt8(ascii: "u"):
                let scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 2 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("unpaired surrogate")
                }
            default: throw error("bad escape")
            }
        }
        i += 1
        guard decoding else { return nil }
        return CheckedJSON(bytes).string(from: start + 1, to: i - 1, escaped: escaped)
    }

    /// Checks a number; its value is read later, from the text, by `JSONNumber`.
    private mutating func number() throws(JSONSyntaxError) {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func isDigit(_ k: Int) -> Bool { k < bytes.count && bytes[k] >= 0x30 && bytes[k] <= 0x39 }
        guard isDigit(i) else { throw error("expected a digit") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if isDigit(i) { throw error("leading zero in a number") }
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { throw error("expected a digit after '.'") }
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(i) else { throw error("expected a digit in the exponent") }
            while isDigit(i) { i += 1 }
        }
        let parts = JSONNumber.Parts(bytes, start..<i)
        if parts.magnitude > JSONNumber.maxMagnitude {
            i = start
            throw error("number out of range")
        }
    }
}

/// The field names of one object, for the duplicate check: a short list while the
/// object is small (events have a few fields), a hash set once it grows, so the
/// check stays linear in the line however many fields arrive.
private struct FieldNames {
    private var few: [String] = []
    private var many: Set<String>?

    /// Adds `name`; false when it was already there.
    mutating func insert(_ name: String) -> Bool {
        if var set = many {
            many = nil
            defer { many = set }
            return set.insert(name).inserted
        }
        if few.contains(name) { return false }
        few.append(name)
        if few.count > 16 {
            many = Set(few)
            few = []
        }
        return true
    }
}
