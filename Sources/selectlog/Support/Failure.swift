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
