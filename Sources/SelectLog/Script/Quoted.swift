/// Shortens values quoted in messages: a hostile input can carry a 200 MB title,
/// and an error should name it, not repeat it.
package enum Quoted {
    /// The most characters of a value a message repeats.
    package static let limit = 80

    /// `text` when it is at most `limit` characters (and `limit * 8` scalars); else its
    /// first `limit` characters, an ellipsis, and how many were left out. One character
    /// can carry any number of combining marks (a letter with a million accents is one
    /// character): one of more scalars than are left is cut between its scalars, and
    /// counted as left out.
    package static func clip(_ text: some StringProtocol, limit: Int = Quoted.limit) -> String {
        let scalarLimit = limit * 8
        var end = text.startIndex
        var kept = 0, scalars = 0
        var inside: String.Index?
        while end != text.endIndex, kept < limit {
            let next = text.index(after: end)
            let n = text.unicodeScalars.distance(from: end, to: next)
            if scalars + n > scalarLimit {
                inside = text.unicodeScalars.index(end, offsetBy: scalarLimit - scalars)
                break
            }
            scalars += n
            kept += 1
            end = next
        }
        if end == text.endIndex { return String(text) }
        let tail = text[end...]
        let head = inside.map { String(String.UnicodeScalarView(text.unicodeScalars[..<$0])) } ?? String(text[..<end])
        // Already clipped (a message passed through twice): leave it.
        if inside == nil, tail.hasPrefix("… ("), tail.hasSuffix(" more characters)") || tail.hasSuffix(" more character)"), tail.count < 40 {
            return String(text)
        }
        return head + "… (\(tail.count) more \(tail.count == 1 ? "character" : "characters"))"
    }

    /// The longest message `clipValues` lets through, whatever it holds.
    package static let messageLimit = 1_000

    /// The most characters of a path (an unquoted word with a slash) a message keeps.
    package static let pathLimit = 400

    /// The most characters of a command in backquotes that a message keeps whole: a
    /// command it suggests (`selectlog verify --repair PATH`), with a path of up to
    /// `pathLimit` characters quoted for a shell.
    package static let commandLimit = pathLimit + 200

    /// `text` as a message shows a value a hostile input chose: clipped to `limit`
    /// characters, then JSON-quoted with every scalar a terminal could act on escaped
    /// (`JSONText.quote`), so that it cannot end the message's line or the quote early.
    package static func value(_ text: some StringProtocol) -> String {
        JSONText.quote(clip(text))
    }

    /// `message` with every quoted value and every long word clipped to `limit`
    /// characters (a path, a word with a slash, to `pathLimit`), for errors whose text a
    /// hostile input chose, and at most
    /// `messageLimit` characters in all. A span in backquotes of at most `commandLimit`
    /// characters is a command the message suggests and is kept whole: clipping a word of
    /// it, or pairing a quote mark inside its shell-quoted path, would leave a command
    /// that names another file. (The values a message quotes are clipped where
    /// they are put into it, with `value(_:)`: a value holding a quote mark defeats the
    /// pairing of quotes here, which is a second line of defence.)
    package static func clipValues(in message: String, limit: Int = Quoted.limit) -> String {
        guard message.utf8.count > limit else { return message }
        return clip(clipEach(in: message, limit: limit), limit: messageLimit)
    }

    /// `clipWords` between the commands in backquotes, which are kept whole (at most
    /// `commandLimit` characters each: a longer span is clipped as words are).
    private static func clipEach(in message: String, limit: Int) -> String {
        var out = ""
        var rest = message[...]
        while let open = rest.firstIndex(of: "`"),
              let close = rest[rest.index(after: open)...].firstIndex(of: "`") {
            let after = rest.index(after: close)
            let command = rest[open..<after]
            if command.count <= Self.commandLimit {
                out += clipWords(in: rest[..<open], limit: limit) + command
            } else {
                out += clipWords(in: rest[..<after], limit: limit)
            }
            rest = rest[after...]
        }
        return out + clipWords(in: rest, limit: limit)
    }

    private static func clipWords(in message: Substring, limit: Int) -> String {
        var out = ""
        var i = message.startIndex
        while i != message.endIndex {
            let c = message[i]
            if c == " " {
                out.append(c)
                i = message.index(after: i)
                continue
            }
            if c == "\"" {
                let open = message.index(after: i)
                let close = message[open...].firstIndex(of: "\"") ?? message.endIndex
                out += "\"" + clip(message[open..<close], limit: limit)
                if close != message.endIndex { out += "\"" }
                i = close == message.endIndex ? close : message.index(after: close)
                continue
            }
            let end = message[i...].firstIndex { $0 == " " || $0 == "\"" } ?? message.endIndex
            let word = message[i..<end]
            // A path (a word with a slash) is the file a user named, and a CI job's are long:
            // cut at 80 characters, the message named no file. Up to `pathLimit` is kept.
            let wordLimit = word.contains("/") ? Self.pathLimit : limit
            // A word clipped before ends in the ellipsis, one past the limit: leave it.
            out += word.last == "…" && word.count == wordLimit + 1 ? String(word) : clip(word, limit: wordLimit)
            i = end
        }
        return out
    }
}

extension Unicode.Scalar {
    /// Whether a terminal, or an editor showing the text, may act on the scalar instead
    /// of showing it: C0 and C1 controls, DEL, the line and paragraph separators, and the
    /// bidi marks, embeddings, overrides and isolates (which reorder the text around them).
    package var isUnsafeToShow: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
