import ArgumentParser
import SelectLog

/// The exit codes of spec 7.
enum Exit {
    static let damaged = ExitCode(1)
    static let usage = ExitCode(64)
    static let invalidInput = ExitCode(65)
    static let io = ExitCode(74)
}

/// Says on stderr that `path` exists and `--force` replaces it, and returns the exit
/// code to throw (64): every command that writes a new file refuses one so.
func alreadyExists(_ path: String) -> ExitCode {
    complain("\(path): already exists; pass --force to replace it")
    return Exit.usage
}

/// Prints `message` on stderr, prefixed with the program name, as one line: any value it
/// quotes (and any long word) is clipped to 80 characters, since inputs choose them, and
/// every scalar a terminal could act on, a line break too, is written as `\u{1B}`
/// (`escapingControls`). Values a message quotes are escaped where they are put in
/// (`Quoted.value`), but a path is not quoted, and a file name may hold an escape
/// sequence or a newline (`selectlog: forged` on a line of its own) like any other byte.
func complain(_ message: String) {
    var stderr = StandardError()
    let clipped = message.shownInMessage
    Complaints.note(clipped)
    print("selectlog: \(clipped)", to: &stderr)
}

extension String {
    /// A line of a message as every message shows it: each value it quotes and each long
    /// word clipped (`Quoted.clipValues`), then every scalar a terminal could act on, a
    /// line break too, written as `\u{1B}` (`escapingControls`).
    var shownInMessage: String { Quoted.clipValues(in: self).escapingControls }
}

/// What `complain` has said so far, for the JSON error objects (`replay`, `inspect`,
/// `check` and `verify` with `--json`): their `message` is what stderr said, not a
/// pointer to it.
enum Complaints {
    // The command runs on one thread: the library's work it waits for calls back on it.
    nonisolated(unsafe) private static var lines: [String] = []
    nonisolated(unsafe) private static var length = 0
    nonisolated(unsafe) private static var notes = ""

    /// The first 8 messages, and no more than 4,000 characters of them, are kept; notes
    /// (`note: …`, `LOG: note: …`: a torn tail ignored, an index passed over), which are not
    /// why a command failed, only when nothing else was said.
    static func note(_ message: String) {
        if message.hasPrefix("note: ") || message.contains(": note: ") {
            if lines.isEmpty, notes.isEmpty { notes = String(message.prefix(4_000)) }
            return
        }
        guard lines.count < 8, length < 4_000 else { return }
        let kept = String(message.prefix(4_000 - length))
        lines.append(kept)
        length += kept.count
    }

    /// The messages so far, a line each (the first note when there is nothing else); nil
    /// when there are none.
    static var text: String? { lines.isEmpty ? (notes.isEmpty ? nil : notes) : lines.joined(separator: "\n") }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandleWriter.writeStderr(string)
    }
}

extension String {
    /// The path as one word of a command a user can paste into a shell: as it is when it
    /// holds only characters no shell treats specially, else in single quotes (a quote
    /// inside written `'\''`); a relative path that begins with `-` gets `./` first, so
    /// that the command does not take it for an option. A path with a scalar a terminal
    /// could act on (`isUnsafeToShow`: a newline, an escape, a bidi control) is written
    /// `$'…'` with that scalar as `\n`, `\x1B` or `\xE2\x80\xAE`, which bash and zsh read
    /// back as the path: printed raw it could forge a line, and escaped inside plain quotes
    /// (as every message escapes it) it would name another file.
    var shellWord: String {
        let path = hasPrefix("-") ? "./" + self : self
        if path.unicodeScalars.contains(where: \.isUnsafeToShow) { return path.dollarQuoted }
        let plain = !path.isEmpty && path.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_./:@%+=,-".unicodeScalars.contains($0))
        }
        return plain ? path : "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The text in ANSI-C quotes, `$'…'`: a backslash and a quote escaped, and every
    /// scalar that `isUnsafeToShow` written as an escape, so that the word holds none.
    private var dollarQuoted: String {
        var out = "$'"
        for u in unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where u.isUnsafeToShow:
                // Its UTF-8 bytes as `\xHH`, which every shell with `$'…'` reads in any
                // locale (bash 3.2 has no `\u`).
                for byte in String(u).utf8 {
                    let hex = String(byte, radix: 16, uppercase: true)
                    out += "\\x" + (hex.count == 1 ? "0" : "") + hex
                }
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "'"
    }

    /// The log named on the command line as a suggested command's argument: `shellWord`,
    /// or `LOG` for standard input (`-`), which the command has read.
    var logArgument: String { self == "-" ? "LOG" : shellWord }
}
