import ArgumentParser
import SelectLog
import SelectLogStore

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Look inside a log: a summary, events, the table at any event, differences, and why a row changed.",
        discussion: """
            Without options, prints a summary. Events are numbered from 1: event N is the N-th \
            event of the log, and --at N is the state right after it (--at 0: before the first). \
            Ranges A..B name the states after A and after B events: --events A..B lists events \
            A+1 through B (the events between those states), and --diff A..B compares the two \
            states. Either end may be left out (A.. or ..B). \
            Every view has a --json form (see the README's "Inspect JSON" section).
            """)

    @Argument(help: ArgumentHelp("A selectlog log or a JSON Lines script; - reads standard input.", valueName: "file"))
    var log: String

    @Option(help: "List events A+1 through B (numbered from 1), one line each, with what each changed.")
    var events: String?

    @Option(help: "Draw the table after N events (with --why or --history: the row's path after N events).")
    var at: Int?

    @Option(help: "What differs between the states after A and after B events, field by field.")
    var diff: String?

    @Option(help: ArgumentHelp("The event that last changed a row's selection (S,R, S:R or [S, R]), or optionOpen, swipe, editor or contentOffset; and its gesture.", valueName: "row-or-field"))
    var why: String?

    @Option(help: ArgumentHelp("Every change of a row's selection over the log, following the row through edits (S,R, S:R or [S, R]).", valueName: "row"))
    var history: String?

    @Option(help: ArgumentHelp("The first event after which an expectation holds (0: before any), its gesture, and the table before and after; given more than once, after which all of them hold.", valueName: "expr"))
    var first: [String] = []

    @Flag(help: "Machine-readable output (a failure ends it with {\"file\", \"error\": {kind, message, …}}).")
    var json = false

    func validate() throws {
        // With --json, in `run()`, so that a mistake ends in the JSON error object.
        if !json { try checkOptions() }
    }

    private func checkOptions() throws {
        let views = [events != nil, diff != nil, why != nil, !first.isEmpty, history != nil, at != nil && why == nil && history == nil].filter { $0 }.count
        if views > 1 {
            throw ValidationError("choose one of --events, --at, --diff, --why, --history and --first (--at also goes with --why or --history: the moment they look back from)")
        }
        if let at, at < 0 { throw ValidationError("--at takes a number of events, 0 or more") }
        // The shape of each argument is checked here, so that a mistake shows inspect's usage.
        if let events { _ = try InspectRange.bounds(events, option: "--events") }
        if let diff { _ = try InspectRange.bounds(diff, option: "--diff") }
        if let why, !Inspect.whyFields.contains(why) { _ = try Inspect.parseRow(why, option: "--why") }
        if let history { _ = try Inspect.parseRow(history, option: "--history") }
    }

    func run() throws {
        if json { try CheckOutput.validating(log, checkOptions) }
        // The events a view needs, where it names its end: a script's invalid line after
        // them does not stop it (Session.open).
        // (`--why` and `--history` with `--at N` look back from the state after N events.)
        let needed: Int? = if let events { try InspectRange.bounds(events, option: "--events").to }
            else if let diff { try InspectRange.bounds(diff, option: "--diff").to }
            else if let at { at }
            else { nil }
        // `--first` needs the events up to its answer, which it finds as it reads: a
        // stream is read no further than the first state where the expectation holds.
        // Its expectation is parsed first: a mistake in it is found at once (64), however
        // long (or endless) the input.
        // Nothing printed yet: a CI job reading the JSON gets an error object on a failure.
        let (expectation, reader, isScript, badLine, whole) = try CheckOutput.reading(log, asJSON: json) {
            let expectation = try first.isEmpty ? nil : Replay.parse(all: first, option: "--first")
            let answered = expectation.map { expectation -> (TableState) -> Bool in
                var watch = ExpectationWatch(expectation)
                return { watch.holds(in: $0) }
            }
            // `--events` too: the events before a script's bad line are listed before it
            // fails, as a log's events before its damage are.
            let (reader, isScript, badLine, whole) = try Session.open(log, upTo: needed, until: answered,
                                                                      deferringBadLine: !first.isEmpty || events != nil)
            return (expectation, reader, isScript, badLine, whole)
        }
        do {
            if let events {
                if let badLine {
                    let ends = try InspectRange.bounds(events, option: "--events")
                    if (ends.to ?? Int.max) > reader.eventCount {
                        // The range reaches the bad line: the events before it, then the error.
                        let from = ends.from ?? 0
                        if from < reader.eventCount {
                            try listEvents(reader, InspectRange(from: from, to: reader.eventCount))
                        }
                        badLine.report()
                        throw Exit.invalidInput
                    }
                    Input.noteBadLine(badLine, eventsBefore: reader.eventCount)
                }
                let range = try InspectRange(events, option: "--events", log: log, count: reader.eventCount)
                // A..B lists the events between the states after A and after B: A..A none.
                if range.from == range.to {
                    let alone = range.from < reader.eventCount ? "; event \(range.from + 1) alone is \(range.from)..\(range.from + 1)" : ""
                    complain("--events \(events): lists no event (A..B lists events A+1 through B\(alone))")
                }
                try listEvents(reader, range)
            } else if let diff {
                try showDiff(reader, try InspectRange(diff, option: "--diff", log: log, count: reader.eventCount))
            } else if let history {
                try self.history(reader, history, whole: whole)
            } else if let expectation {
                try self.first(reader, expectation, badLine: badLine, whole: whole)
            } else if let why {
                try explain(reader, what: why, whole: whole)
            } else if let at {
                guard at <= reader.eventCount else {
                    complain("--at \(at): \(log) has only \(counted(reader.eventCount, "event", "events"))")
                    throw Exit.usage
                }
                let state = try reader.state(at: at)
                if json {
                    state.writeJSON { print($0, terminator: "") }
                    print()
                } else {
                    print(TablePicture(state).text)
                }
            } else {
                try summarize(reader, isScript: isScript)
            }
        } catch let error as LogError {
            ReadFailure.report(error, log: log, mapped: reader.path, isLog: !isScript)
            if json { print(CheckOutput.json(file: log, failedWith: error)) }
            throw error.code == .outOfRange ? Exit.usage : Exit.invalidInput
        } catch let exit as ExitCode where json && exit != Exit.damaged {
            // A view that refused before printing (`--at` or a range past the end, a
            // script's bad line the answer needs); exit 1 is an answer, printed already.
            print(CheckOutput.json(failedToRead: log, exit: exit))
            throw exit
        }
    }

    /// A row named as `S,R`, `S:R` or `[S, R]` (as the state's JSON and the picture print
    /// it): two whole numbers, 0 or more, spaces around them allowed, and nothing else.
    static func parseRow(_ text: String, option: String) throws -> RowPath {
        var body = Substring(text)
        if body.first == "[", body.last == "]", body.count >= 2 { body = body.dropFirst().dropLast() }
        let parts = body.split(separator: body.contains(":") ? ":" : ",", omittingEmptySubsequences: false)
        let numbers = parts.map { part in
            // Spaces around the number, none inside it.
            let words = part.split(separator: " ")
            return words.count == 1 && words[0].allSatisfy({ $0.isASCII && $0.isNumber }) ? Int(words[0]) : nil
        }
        guard numbers.count == 2, let section = numbers[0], let row = numbers[1] else {
            let fields = option == "--why" ? ", or one of \(Inspect.whyFields.sorted().joined(separator: ", "))" : ""
            let close = option == "--why" ? NameSuggestion.closest(to: text, among: Inspect.whyFields) : nil
            let hint = close.map { " (did you mean \"\($0)\"?)" } ?? ""
            throw ValidationError("\(option) takes a row as S,R, S:R or [S, R] (section and row, 0 or more)\(fields); not \(Quoted.value(text))\(hint)")
        }
        return RowPath(section, row)
    }
}

/// A range `A..B` of states (events after A and after B), with open ends.
struct InspectRange {
    var from: Int
    var to: Int

    /// The ends of `A..B` (nil where left out), or a usage error naming `option`.
    static func bounds(_ text: String, option: String) throws -> (from: Int?, to: Int?) {
        let parts = text.components(separatedBy: "..")
        func number(_ part: String) -> Int?? {
            if part.isEmpty { return .some(nil) }
            guard part.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(part) else { return nil }
            return .some(n)
        }
        let usage = "\(option) takes a range A..B of event numbers with 0 <= A <= B (either end may be left out)"
        guard parts.count == 2, let a = number(parts[0]), let b = number(parts[1]) else {
            // Digits that overflow are a number too large, not a malformed range.
            let digits = parts.count == 2 && parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
            throw ValidationError("\(usage), not \(Quoted.value(text))\(digits ? " (a number past \(Int.max))" : "")")
        }
        guard (a ?? 0) <= (b ?? Int.max) else { throw ValidationError("\(usage), not \(Quoted.value(text))") }
        return (a, b)
    }

    /// Events `from + 1` through `to`, already within the input's.
    init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// The range `text` of `option` in `log`, of `count` events; a range past the end
    /// is a usage error naming all three, as `replay --at` says it.
    init(_ text: String, option: String, log: String, count: Int) throws {
        let ends = try InspectRange.bounds(text, option: option)
        let a = ends.from ?? 0, b = ends.to ?? count
        // `A..` with A past the end is past the end, as `A..B` is (not a reversed range).
        guard a <= count, b <= count else {
            complain("\(option) \(text): \(log) has only \(counted(count, "event", "events"))")
            throw Exit.usage
        }
        self.init(from: a, to: b)
    }
}

func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }

/// `x` with two decimals, rounded half away from zero, without Foundation.
func decimal(_ x: Double) -> String {
    let hundredths = Int((x * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let m = abs(hundredths)
    return "\(sign)\(m / 100).\(m % 100 < 10 ? "0" : "")\(m % 100)"
}

func percent(_ part: Int, _ whole: Int) -> String {
    let tenths = (part * 1000 + max(whole, 1) / 2) / max(whole, 1)
    return pad("\(tenths / 10).\(tenths % 10)%", 6)
}
