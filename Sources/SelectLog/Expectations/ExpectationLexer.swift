/// A mistake in an expectation's text: the column (1-based, in characters) and what
/// was expected there.
public struct ExpectationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based column of the offending character or token.
    public var column: Int
    /// What went wrong, e.g. `expected a field, a literal, "count(" or "(", found "=="`.
    public var message: String

    /// An error at `column` saying `message`.
    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }

    /// `column N: message`.
    public var description: String { "column \(column): \(message)" }
}

/// One token of an expectation, with its 1-based column.
struct ExpectationToken: Sendable {
    enum Kind: Equatable, Sendable {
        case name(String)
        case number(ExpectationNumber)
        case string(String)
        case symbol(String)
        case end
    }
    var kind: Kind
    var column: Int

    /// The token as a message quotes it.
    var quoted: String {
        switch kind {
        case .name(let n): "\"\(n)\""
        case .number(let n): n.description
        case .string(let s): JSONText.quote(s)
        case .symbol(let s): "\"\(s)\""
        case .end: "the end of the expression"
        }
    }
}

extension ExpectationNumber: Equatable {
    /// The same representation (raw, scale and literal-ness); see `compare` for value order.
    public static func == (a: ExpectationNumber, b: ExpectationNumber) -> Bool {
        a.raw == b.raw && a.scale == b.scale && a.isLiteral == b.isLiteral
    }
}

/// Splits an expectation into tokens.
enum ExpectationLexer {
    static func tokens(_ text: String) throws(ExpectationError) -> [ExpectationToken] {
        let chars = Array(text)
        var out: [ExpectationToken] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let column = i + 1
            // "\r\n" is one Character, equal to neither of its scalars.
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" {
                i += 1
            } else if c.isLetter || c == "_" {
                var j = i
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
                out.append(ExpectationToken(kind: .name(String(chars[i..<j])), column: column))
                i = j
            } else if c.isASCII && (c.isNumber || (c == "-" && i + 1 < chars.count && chars[i + 1].isASCII && chars[i + 1].isNumber)) {
                var j = i + 1
                while j < chars.count, chars[j].isASCII, chars[j].isNumber || chars[j] == "." { j += 1 }
                // `1e3`, `2E-1`: JSON's exponent, which this language does not take.
                if isExponent(chars, at: j) {
                    var k = j + 1
                    while k < chars.count, chars[k].isASCII, chars[k].isNumber || chars[k] == "-" || chars[k] == "+" { k += 1 }
                    throw ExpectationError(column: column, message: "\"\(String(chars[i..<k]))\" has an exponent, which numbers here do not take: write its digits (1e3 as 1000)")
                }
                out.append(ExpectationToken(kind: .number(try number(String(chars[i..<j]), column: column)), column: column))
                i = j
            } else if c == "\"" {
                var j = i + 1
                var s = ""
                while true {
                    guard j < chars.count else {
                        throw ExpectationError(column: column, message: "a string that is never closed: expected a closing \"")
                    }
                    if chars[j] == "\"" { break }
                    if chars[j] == "\\", j + 1 < chars.count {
                        // The escape is the next Character's first scalar; marks that join it
                        // (a combining acute after an escaped backslash) follow as they are.
                        let next = chars[j + 1].unicodeScalars
                        switch next.first {
                        case "n": s.append("\n")
                        case "t": s.append("\t")
                        case let quoted? where quoted == "\"" || quoted == "\\": s.unicodeScalars.append(quoted)
                        default: throw ExpectationError(column: j + 1, message: "unknown escape \\\(chars[j + 1]): expected \\\", \\\\, \\n or \\t")
                        }
                        s.unicodeScalars.append(contentsOf: next.dropFirst())
                        j += 2
                    } else {
                        s.append(chars[j])
                        j += 1
                    }
                }
                out.append(ExpectationToken(kind: .string(s), column: column))
                i = j + 1
            } else {
                let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
                if ["==", "!=", "<=", ">="].contains(two) {
                    out.append(ExpectationToken(kind: .symbol(two), column: column))
                    i += 2
                } else if "<>()[],.".contains(c) {
                    out.append(ExpectationToken(kind: .symbol(String(c)), column: column))
                    i += 1
                } else if c == "=" || c == "!" {
                    // `=>` and `=<` are `>=` and `<=` written the other way round.
                    let next = i + 1 < chars.count ? chars[i + 1] : " "
                    let meant = c == "!" ? "!= (or not before a condition)" : next == ">" || next == "<" ? "\(next)=" : "=="
                    throw ExpectationError(column: column, message: "unexpected \"\(c)\": did you mean \(meant)?")
                } else {
                    // Other languages' spellings: said in this one's.
                    let meant = c == "&" ? " (and is written and)" : c == "|" ? " (or is written or)"
                        : c == "'" ? " (a string takes double quotes)" : ""
                    throw ExpectationError(column: column, message: "unexpected character \(Quoted.value(String(c)))\(meant): expected a field, a literal, an operator or a parenthesis")
                }
            }
        }
        out.append(ExpectationToken(kind: .end, column: chars.count + 1))
        return out
    }

    /// Whether `chars` has an exponent at `j`: `e` or `E`, an optional sign, a digit.
    static func isExponent(_ chars: [Character], at j: Int) -> Bool {
        guard j < chars.count, chars[j] == "e" || chars[j] == "E" else { return false }
        var k = j + 1
        if k < chars.count, chars[k] == "-" || chars[k] == "+" { k += 1 }
        return k < chars.count && chars[k].isASCII && chars[k].isNumber
    }

    /// A decimal literal, exact: at most 18 digits and 9 after the point.
    static func number(_ text: String, column: Int) throws(ExpectationError) -> ExpectationNumber {
        let negative = text.hasPrefix("-")
        let body = negative ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty, parts.count == 1 || !parts[1].isEmpty else {
            throw ExpectationError(column: column, message: "\"\(text)\" is not a number: expected digits with at most one decimal point")
        }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard parts[0].count + fraction.count <= 18, fraction.count <= 9, let value = Int64(parts[0] + fraction) else {
            throw ExpectationError(column: column, message: "\"\(text)\" is too long: expected at most 18 digits, 9 of them after the point")
        }
        var scale: Int64 = 1
        for _ in 0..<fraction.count { scale *= 10 }
        return ExpectationNumber(literal: negative ? -value : value, scale: scale)
    }
}
