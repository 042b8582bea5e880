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

/// Prints `message` on stderr, prefixed with the program name; any value it quotes
/// (and any long word) is clipped to 80 characters, since inputs choose them.
func complain(_ message: String) {
    var stderr = StandardError()
    print("selectlog: \(Quoted.clipValues(in: message))", to: &stderr)
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
    /// that the command does not take it for an option. (Controls are escaped where the
    /// message is printed, as everywhere.)
    var shellWord: String {
        let path = hasPrefix("-") ? "./" + self : self
        let plain = !path.isEmpty && path.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_./:@%+=,-".unicodeScalars.contains($0))
        }
        return plain ? path : "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The log named on the command line as a suggested command's argument: `shellWord`,
    /// or `LOG` for standard input (`-`), which the command has read.
    var logArgument: String { self == "-" ? "LOG" : shellWord }
}
