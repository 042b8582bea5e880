import ArgumentParser
import SelectLog

struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a time-travel viewer: one self-contained HTML page over a window of events.",
        discussion: """
            FILE is a script or a log. The page needs no network and no server: a slider over the events \
            with gestures and undo steps marked, the table drawn at each event, the events and what each \
            changed, the state JSON, a diff between two marked points, and the state hash at each event.

            Events are numbered from 1; the page shows the states after --from through after --to events \
            (default: the last 50,000 events, or 50,000 centred on --at), at most 50,000 at once. A page \
            holds at most 32 MB of states: past that it ends early and says where (with --at alone, the \
            window then starts nearer --at, so that the page holds it). The state it starts from and its \
            first event are held whatever they take; a page past its budget says so.
            """)

    @Argument(help: "A JSON Lines script or a selectlog log; - reads standard input.")
    var file: String

    @Option(name: .shortAndLong, help: "The HTML file to write (- for standard output).", transform: OutputPath.nonEmpty)
    var output: String

    @Flag(help: "Replace the file at -o even when view did not write it (notes, a page of your own); never a selectlog log, a script or the input.")
    var force = false

    @Option(help: "The window's first state: after this many events (--from 6: the state after event 6, so the page lists events 7 on; export --from 6 starts at event 6).")
    var from: Int?

    @Option(help: "The window's last state: after this many events.")
    var to: Int?

    @Option(help: "Open the page at the state after N events (the window is centred on it unless --from/--to say otherwise).")
    var at: Int?

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to), ("--at", at)] {
            if let value, value < 0 { throw ValidationError("\(name) takes a number of events, 0 or more") }
        }
        if let from, let to, from > to { throw ValidationError("--from \(from) is after --to \(to)") }
    }

    func run() throws {
        try refuseOutputOverInput(output, input: file)
        // Before the work: a mistyped -o fails at once.
        try checkOutput(output, input: file, replacingScript: false, ownOutput: force ? nil : ViewerPage.opening,
                        ownOutputShown: "are HTML pages titled \"selectlog view — …\"")
        let source = try ViewerSource.open(file, from: from, to: to, at: at)
        let window: ViewerWindow
        do throws(ViewerWindow.Problem) {
            window = try ViewerWindow(total: source.eventCount, from: from, to: to, at: at)
        } catch {
            if let past = error.pastEnd {
                complain("\(past.option) \(past.value): \(file) has only \(counted(past.events, "event", "events"))")
            } else {
                complain("\(file): \(error.message)")
            }
            throw Exit.usage
        }
        var data = try collect(source, window)
        if data.stoppedEarly, let at, from == nil, to == nil, at > data.to {
            // The states before --at took the page's bytes (each one large): start the
            // window nearer it (`ViewerWindow.nearer`).
            for nearer in window.nearer(fitted: data.to - window.from) {
                // The page that did not hold --at is let go before the next is collected:
                // two pages at their budget at once took 116 MB.
                data = ViewerData(file: file, total: data.total, from: nearer.from, to: nearer.from, start: nearer.from)
                data = try collect(source, nearer)
                if !data.stoppedEarly || data.to >= at { break }
            }
        }
        // Said on standard error and on the page, which is what gets attached to a report.
        data.notes = data.budgetNotes(windowEnd: window.to, at: at)
        for note in data.notes { complain("note: " + note) }
        // Written a piece at a time: the page's data (up to 32 MB) is held once, by `data`.
        var pageBytes = 0
        try writeFile(output) { write in
            pageBytes = try ViewerPage.write(title: file, data: data, to: write)
        }
        // A pipe read no further than the window needs has no count to give (`inspect --first`
        // says the same).
        let events = switch (data.from == data.to, source.isWhole) {
        case (true, true): "the state after \(data.to) of \(counted(source.eventCount, "event", "events"))"
        case (true, false): "the state after \(counted(data.to, "event", "events")) (the input read no further)"
        case (false, true): "events \(data.from + 1)..\(data.to) of \(source.eventCount)"
        case (false, false): "events \(data.from + 1)..\(data.to) (the input read no further)"
        }
        let wrote = "wrote \(outputName(output)): \(events), \(pageBytes) bytes"
        // On standard error when the page went to standard output, which stays the page alone.
        if namesStandardOutput(output) { FileHandleWriter.writeStderr(wrote + "\n") } else { print(wrote) }
    }

    /// The states of `window` from `source`, up to the page's byte budget.
    private func collect(_ source: ViewerSource, _ window: ViewerWindow) throws -> ViewerData {
        var data = ViewerData(file: file, total: source.isWhole ? source.eventCount : nil, from: window.from, to: window.to, start: window.start)
        try source.walk(from: window.from, to: window.to,
                        start: { data.begin($0) },
                        body: { data.add($0, $1, before: $2, after: $3) })
        return data
    }
}
