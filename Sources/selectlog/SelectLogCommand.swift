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
            a damaged log (verify, upgrade), an expectation that is false (replay --expect) or never holds (inspect --first), a log \
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
    static func main() {
        StandardStreams.prepare()
        LogTruncationGuard.install()
        do {
            try refuseUnknownCommand(CommandLine.arguments.dropFirst().first)
            var command = try parseAsRoot(try Input.arguments(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            exit(withError: error)
        }
        if LogTruncationGuard.unansweredFaults > 0 {
            complain("a log was truncated by another process while it was read, so the answer above may rest on bytes that are gone; read it again")
            exit(withError: Exit.invalidInput)
        }
        StandardStreams.finish()
    }

    /// A first argument that names no command (`selectlog replya s.slog`) is said to be one,
    /// with the closest command's name, rather than left to read as "unexpected arguments".
    private static func refuseUnknownCommand(_ first: String?) throws {
        guard let first, !first.hasPrefix("-") else { return }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(first) else { return }
        let close = NameSuggestion.closest(to: first, among: names).map { " (did you mean `selectlog \($0)`?)" } ?? ""
        complain("\(Quoted.clipValues(in: "\"\(first)\"")) is not a command\(close); `selectlog --help` lists them")
        throw Exit.usage
    }
}
