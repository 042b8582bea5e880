/// A JSON text that `JSONParser` has checked, and the walks over it that build
/// values on demand. Every walk here assumes a checked text, yet stays within its
/// bounds whatever it is given: a wrong offset gives a wrong value, never a trap.
struct CheckedJSON: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    func skipSpace(_ i: Int) -> Int {
        var i = i
        while i < bytes.count, CheckedJSON.isSpace(bytes[i]) { i += 1 }
        return i
    }

    /// Four hex digits at `i`, or nil.
    static func hex4(_ bytes: [UInt8], at i: Int) -> UInt32? {
        guard i >= 0, i + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for k in i..<i + 4 {
            let c = bytes[k]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            v = v * 16 + d
        }
        return v
    }

    /// The end of the well-formed multi-byte UTF-8 scalar that starts at `i`, or nil
    /// (overlong forms, surrogates and values past U+10FFFF are not well formed).
    static func utf8Scalar(_ bytes: [UInt8], at i: Int) -> Int? {
        func continuation(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            k < bytes.count && range.contains(bytes[k])
        }
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case 0xC2...0xDF:
            return continuation(i + 1) ? i + 2 : nil
        case 0xE0:
            return continuation(i + 1, 0xA0...0xBF) && continuation(i + 2) ? i + 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(i + 1) && continuation(i + 2) ? i + 3 : nil
        case 0xED:
            return continuation(i + 1, 0x80...0x9F) && continuation(i + 2) ? i + 3 : nil
        case 0xF0:
            return continuation(i + 1, 0x90...0xBF) && continuation(i + 2) && continuation(i + 3) ? i + 4 : nil
        case 0xF1...0xF3:
            return continuation(i + 1) && continuation(i + 2) && continuation(i + 3) ? i + 4 : nil
        case 0xF4:
            return continuation(i + 1, 0x80...0x8F) && continuation(i + 2) && continuation(i + 3) ? i + 4 : nil
        default:
            return nil
        }
    }

    /// The offset just past the value that starts at `i`.
    func skipValue(_ i: Int) -> Int {
        guard i < bytes.count else { return bytes.count }
        switch bytes[i] {
        case UInt8(ascii: "\""):
            return skipString(i)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var k = i
            while k < bytes.count {
                switch bytes[k] {
                case UInt8(ascii: "\""):
                    k = skipString(k)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return k + 1 }
                default:
                    break
                }
                k += 1
            }
            return bytes.count
        default:
            // A number or a literal: up to the next delimiter.
            var k = i
            while k < bytes.count {
                let c = bytes[k]
                if c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || CheckedJSON.isSpace(c) { break }
                k += 1
            }
            return k
        }
    }

    /// The offset just past the string whose opening quote is at `i`.
    func skipString(_ i: Int) -> Int {
        var k = i + 1
        while k < bytes.count {
            let c = bytes[k]
            if c == UInt8(ascii: "\"") { return k + 1 }
            k += c == UInt8(ascii: "\\") ? 2 : 1
        }
        return bytes.count
    }

    /// The value that starts at `i`: arrays and numbers stay views of the text,
    /// strings are decoded, objects list their members.
    func value(at i: Int) -> JSONValue { valueAndEnd(at: i).value }

    /// The value at `i` and the offset just past it, so that an object's members are
    /// walked once however deeply objects nest.
    func valueAndEnd(at i: Int) -> (value: JSONValue, end: Int) {
        guard i < bytes.count else { return (.null, bytes.count) }
        switch bytes[i] {
        case UInt8(ascii: "{"): return members(at: i)
        case UInt8(ascii: "["):
            let end = skipValue(i)
            return (.array(JSONArray(text: self, open: i, close: end - 1)), end)
        case UInt8(ascii: "\""):
            let end = skipString(i)
            let escaped = bytes[(i + 1)..<max(end - 1, i + 1)].contains(UInt8(ascii: "\\"))
            return (.string(string(from: i + 1, to: end - 1, escaped: escaped)), end)
        case UInt8(ascii: "t"): return (.bool(true), i + 4)
        case UInt8(ascii: "f"): return (.bool(false), i + 5)
        case UInt8(ascii: "n"): return (.null, i + 4)
        default:
            let end = skipValue(i)
            return (.number(JSONNumber(text: self, range: i..<end)), end)
        }
    }

    /// The members of the object whose `{` is at `i`, in order, and the offset past its `}`.
    func members(at i: Int) -> (value: JSONValue, end: Int) {
        var out: [(key: String, value: JSONValue)] = []
        var k = skipSpace(i + 1)
        while k < bytes.count, bytes[k] == UInt8(ascii: "\"") {
            let keyEnd = skipString(k)
            let escaped = bytes[(k + 1)..<max(keyEnd - 1, k + 1)].contains(UInt8(ascii: "\\"))
            let key = string(from: k + 1, to: keyEnd - 1, escaped: escaped)
            k = skipSpace(keyEnd)
            guard k < bytes.count, bytes[k] == UInt8(ascii: ":") else { break }
            let (value, end) = valueAndEnd(at: skipSpace(k + 1))
            out.append((key, value))
            k = skipSpace(end)
            guard k < bytes.count, bytes[k] == UInt8(ascii: ",") else { break }
            k = skipSpace(k + 1)
        }
        if k < bytes.count, bytes[k] == UInt8(ascii: "}") { k += 1 }
        return (.object(out), min(k, bytes.count))
    }

    /// The text of a checked string's contents, `start..<end` (without the quotes).
    func string(from start: Int, to end: Int, escaped: Bool) -> String {
        let end = min(max(end, start), bytes.count)
        guard start < end else { return "" }
        guard escaped else { return String(decoding: bytes[start..<end], as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var k = start
        while k < end {
            let c = bytes[k]
            guard c == UInt8(ascii: "\\"), k + 1 < end else {
                out.append(c)
                k += 1
                continue
            }
            let e = bytes[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = CheckedJSON.hex4(bytes, at: k) ?? 0xFFFD
                k += 4
                if (0xD800...0xDBFF).contains(scalar), k + 1 < end, bytes[k] == UInt8(ascii: "\\"),
                   let low = CheckedJSON.hex4(bytes, at: k + 2), (0xDC00...0xDFFF).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    k += 6
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            default: out.append(e)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
