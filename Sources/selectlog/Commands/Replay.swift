import ArgumentParser
import SelectLog

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a script or a log and print the state after it, or check an expectation.",
        discussion: """
            FILE is a JSON Lines script or a log written by `record`; they are told apart by content. \
            Without --json, prints a summary and a text picture of the visible rows. \
            With --expect, checks an expectation on the state (its grammar is in the README's \
            Expectations section; for example 'selected contains [0, 9] and pan == null'): exit 0 \
            when it holds, 1 when it does not (printing the values it read), 64 (usage) for an \
            expression that does not parse; with --json it prints {"expect", "at", "holds", "reads"} \
            instead of the state. Given more than once, --expect checks them all, as one \
            expectation joined with `and`.
            """)

    @Argument(help: "A JSON Lines script or a selectlog log; - reads standard input.")
    var file: String

    @Option(help: "The state after this many events (default: all). A script file is still read to its end, and a bad line after them is noted; a pipe or device only up to them.")
    var at: Int?

    @Flag(help: "Print the state as the JSON object of EVENTS.md section 6 ({\"file\", \"error\": {kind, message, …}} when FILE cannot be read).")
    var json = false

    @Flag(name: .customLong("from-start"), help: "For a log: replay every event from the start instead of the nearest checkpoint.")
    var fromStart = false

    @Option(help: ArgumentHelp("Check an expectation on the state, e.g. 'selected contains [3, 60]'; given more than once, all of them.", valueName: "expr"))
    var expect: [String] = []

    func validate() throws {
        // With --json, in `run()`, so that a mistake ends in the JSON error object.
        if !json { try checkOptions() }
    }

    private func checkOptions() throws {
        if let at, at < 0 { throw ValidationError("--at takes a number of events, 0 or more") }
    }

    func run() throws {
        if json { try CheckOutput.validating(file, checkOptions) }
        // Nothing printed yet: a CI job reading the JSON gets an error object on a failure.
        let (expectation, state) = try CheckOutput.reading(file, asJSON: json) {
            (try expect.isEmpty ? nil : Replay.parse(all: expect), try Input.state(of: file, at: at, fromStart: fromStart))
        }
        guard let expectation else {
            if json {
                state.writeJSON { print($0, terminator: "") }
                print()
            } else {
                print(TablePicture(state).text)
            }
            return
        }
        let holds = expectation.holds(in: state)
        if json {
            var o = ObjectWriter()
            o.string("expect", expectation.text)
            o.raw("at", String(state.events))
            o.raw("holds", String(holds))
            // The reads in pieces, as `--json` writes the state: a selection of millions
            // of rows is listed without being held.
            print(o.text(openingLast: "reads"), terminator: "")
            expectation.writeReads(in: state) { print($0, terminator: "") }
            print("}")
        } else {
            print("\(expectation.text) \(holds ? "holds" : "does not hold") after \(counted(state.events, "event", "events"))")
            for line in Replay.readLines(expectation, in: state) { print("  \(line)") }
        }
        if !holds { throw Exit.damaged }
    }

    /// The expectations of an option given `texts.count` times, as one that holds when all
    /// of them do (`StateExpectation(all:)`): ArgumentParser would keep only the last, and a
    /// CI job that wrote two `--expect`s would pass on the second alone. Each is parsed on
    /// its own, so that a mistake is shown at its column in what was typed.
    static func parse(all texts: [String], option: String = "--expect") throws -> StateExpectation {
        let parts = try texts.map { try parse($0, option: option) }
        do {
            return try StateExpectation(all: parts)
        } catch {
            // Only an `or` already 100 levels deep, which its parentheses take past the limit.
            complain("\(option): given \(texts.count) times, they are joined with `and`, which puts an `or` among them in parentheses, and then \(error.message): give that one with fewer levels")
            throw Exit.usage
        }
    }

    /// Parses an expectation; a mistake is the caller's, a usage error (exit 64), shown
    /// with the column and what was expected.
    /// `text` parsed, or its error on stderr naming `option` (`--expect`, `--first`).
    static func parse(_ text: String, option: String = "--expect") throws -> StateExpectation {
        do {
            return try StateExpectation(text)
        } catch {
            complain("\(option): \(error)")
            // Controls and bidi marks escaped first, so that the line shows what was typed
            // (an escape sequence cannot act, a newline cannot break it), the column moved
            // past the escapes before it; then a long expression is shown around the
            // column, short enough that stderr's clipping of long words leaves it whole
            // and the caret under its character.
            var escaped = "", column = error.column
            for (i, c) in text.enumerated() {
                let written = String(c).escapingControls
                escaped += written
                if i < error.column - 1 { column += written.count - 1 }
            }
            let shown = excerpt(escaped, column: column)
            complain("  \(shown.text)")
            complain("  \(String(repeating: " ", count: max(0, shown.caret - 1)))^")
            throw Exit.usage
        }
    }

    /// At most `width` characters of `text` around `column` (1-based, in characters), with
    /// "…" where it was cut, and the column's place in that excerpt.
    static func excerpt(_ text: String, column: Int, width: Int = 72) -> (text: String, caret: Int) {
        let characters = Array(text)
        guard characters.count > width else { return (text, column) }
        let at = min(max(column - 1, 0), characters.count)
        let end = min(characters.count, max(0, at - width / 2) + width)
        let start = max(0, end - width)
        let head = start > 0 ? "…" : "", tail = end < characters.count ? "…" : ""
        return (head + String(characters[start..<end]) + tail, at - start + head.count + 1)
    }

    /// The most selected rows a message lists.
    static let listedRows = 30

    /// What `expectation` reads in `state`, a line each as the messages print them:
    /// `selected = [[0, 5], [0, 6]]`, a selection cut at `listedRows`.
    static func readLines(_ expectation: StateExpectation, in state: TableState) -> [String] {
        expectation.reads(in: state, listingAtMost: listedRows).map { "\($0.path) = \(shown($0.value, more: $0.more))" }
    }

    /// A value read by an expectation, for a message: shortened, and saying how many rows
    /// of a selection it left out.
    static func shown(_ value: ExpectationValue, more: Int) -> String {
        shortened(value.description) + (more > 0 ? " (and \(more) more rows)" : "")
    }

    /// At most 300 characters of a long value, saying how much was left out.
    static func shortened(_ text: String) -> String {
        guard text.count > 300 else { return text }
        return String(text.prefix(300)) + "… (\(text.count - 300) more characters)"
    }
}
