import ArgumentParser
import SelectLog
import SelectLogStore

/// The version `selectlog --version` prints; the one place it is written.
let selectlogVersion = "0.2.0"

@main
struct SelectLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selectlog",
        abstract: "Record, replay and inspect the selection behaviour of table views.",
        discussion: """
            Events (taps, pans, scrolls, row edits) are JSON Lines scripts as described in \
            docs/EVENTS.md of the selectlog repository. Exit codes: 0 ok; 1 a negative answer: \
            a damaged log or a file that is no log (verify), a damaged log (upgrade), an expectation that is false (replay --expect) or never holds (inspect --first), a log \
            that diverges from this build (check), an expectation that does not hold for the input \
            (shrink, testgen); 64 usage; 65 invalid input (a damaged log for the other commands); \
            74 I/O.
            """,
        version: selectlogVersion,
        subcommands: [Record.self, Replay.self, Export.self, Inspect.self, View.self, Verify.self, Check.self,
                      Shrink.self, Testgen.self, Compact.self, Upgrade.self, Synthesize.self]
    )

    /// Runs with `--option -N` read as `--option=-N` (see `Input.arguments`), and with
    /// `LogTruncationGuard` installed: a log that another process cuts shorter while a
    /// command reads it is damage to report (`ReadFailure`), not a crash. A command that
    /// succeeds although a read met such a cut (every reader checks for one when it
    /// checks records, so none should) still fails: its answer may rest on zeros.
    ///
    /// Help and the version (the requests that end in 0) are printed here, through the
    /// standard output that `StandardStreams.finish()` checks: ArgumentParser's
    /// `exit(withError:)` prints them itself and exits 0 when they could not be written
    /// (`selectlog --help > /dev/full`), where every other output exits 74.
    static func main() {
        StandardStreams.prepare()
        LogTruncationGuard.install()
        StandardStreams.boundHelpWidth()
        do {
            try refuseArgumentsNotUTF8()
            try refuseUnknownCommand(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot(try Input.arguments(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch where exitCode(for: error) == .success {
            let text = fullMessage(for: error)
            if !text.isEmpty { print(text) }
        } catch {
            let text = shownSafely(fullMessage(for: error))
            if !text.isEmpty { FileHandleWriter.writeStderr(text + "\n") }
            exit(withError: exitCode(for: error))
        }
        if LogTruncationGuard.unansweredFaults > 0 {
            complain("a log was truncated by another process while it was read, so the answer above may rest on bytes that are gone; read it again")
            exit(withError: Exit.invalidInput)
        }
        StandardStreams.finish()
    }

    /// `message`, ArgumentParser's text for a command line it refused, as every message of
    /// ours is shown (`String.shownInMessage`): each value clipped and every scalar a
    /// terminal could act on escaped, a line at a time. Its messages repeat what was typed (`The value '…' is invalid`,
    /// `Unknown option '…'`) inside lines of their own making (the usage after the error),
    /// so the typed newlines cannot be told from its own. When an argument holds such a
    /// scalar, the message is made again from the arguments escaped
    /// (`String.escapingControls`), which fail to parse the same way; should they not, the
    /// whole message is shown as one line.
    private static func shownSafely(_ message: String) -> String {
        var text = message
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains(where: { $0.unicodeScalars.contains(where: \.isUnsafeToShow) }) {
            do {
                _ = try parseAsRoot(try Input.arguments(arguments.map(\.escapingControls)))
                return message.shownInMessage
            } catch {
                text = fullMessage(for: error)
            }
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).shownInMessage }.joined(separator: "\n")
    }

    /// A first argument that names no command (`selectlog replya s.slog`) is said to be one,
    /// with the closest command's name, rather than left to read as "unexpected arguments".
    /// So is a name after `help` (`selectlog help replya`), for which ArgumentParser would
    /// print the root's help and exit 0, as though it had been answered.
    private static func refuseUnknownCommand(_ arguments: [String]) throws {
        guard let first = arguments.first, !first.hasPrefix("-") else { return }
        try refuse(first, unless: configuration.subcommands.map { $0._commandName } + ["help"], under: "selectlog")
        guard first == "help" else { return }
        var commands = configuration.subcommands, path = "selectlog"
        for name in arguments.dropFirst().prefix(while: { !$0.hasPrefix("-") }) {
            try refuse(name, unless: commands.map { $0._commandName }, under: path)
            guard let command = commands.first(where: { $0._commandName == name }) else { return }
            commands = command.configuration.subcommands
            path += " \(name)"
        }
    }

    /// Refuses (64) an argument whose bytes are not UTF-8. `CommandLine.arguments` puts
    /// U+FFFD in place of such bytes, so a path typed with them (a name from a Latin-1
    /// file system, a shell's `$'\xff…'`) names another file, which `compact` or
    /// `verify --repair` would then rewrite.
    private static func refuseArgumentsNotUTF8() throws {
        for k in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[k], String(validatingCString: raw) == nil else { continue }
            complain("argument \(k), \(Quoted.value(String(cString: raw))) (\u{FFFD} for each byte that is not UTF-8), "
                     + "is not UTF-8 text: selectlog reads paths as UTF-8, so it would name another file; rename the file")
            throw Exit.usage
        }
    }

    /// Refuses (64) `name` when it is none of `names`, the commands of `path`.
    private static func refuse(_ name: String, unless names: [String], under path: String) throws {
        guard !names.contains(name) else { return }
        let close = NameSuggestion.closest(to: name, among: names).map { " (did you mean `\(path) \($0)`?)" } ?? ""
        let of = path == "selectlog" ? "" : " of `\(path)`\(names.isEmpty ? ", which has none" : "")"
        complain("\(Quoted.clipValues(in: "\"\(name)\"")) is not a command\(of)\(close); `selectlog --help` lists them")
        throw Exit.usage
    }
}
