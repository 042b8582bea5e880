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
            (default: the last 50,000 events, or 50,000 centred on --at), at most 50,000 at once.
            """)

    @Argument(help: "A JSON Lines script or a selectlog log; - reads standard input.")
    var file: String

    @Option(name: .shortAndLong, help: "The HTML file to write (- for standard output).", transform: OutputPath.nonEmpty)
    var output: String

    @Option(help: "The window's first state: after this many events.")
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
        let source = try ViewerSource.open(file, from: from, to: to, at: at)
        let window: ViewerWindow
        do throws(ViewerWindow.Problem) {
            window = try ViewerWindow(total: source.eventCount, from: from, to: to, at: at)
        } catch {
            complain("\(file): \(error.message)")
            throw Exit.usage
        }
        var data = ViewerData(file: file, total: source.eventCount, from: window.from, to: window.to, start: window.start)
        try source.walk(from: window.from, to: window.to,
                        start: { data.begin($0) },
                        body: { data.add($0, $1, before: $2, after: $3) })
        if data.stoppedEarly {
            let opens = (at ?? 0) > data.to ? "; it opens there, not at --at \(at ?? 0)" : ""
            complain("note: the page ends after event \(data.to) of the window's \(window.to)\(opens): the events after it would take it past \(ViewerData.byteBudget >> 20) MB (a selection of very many ranges, a large editor or many headers in view change at each); view them with --from \(data.to)")
        }
        let page = ViewerPage.html(title: file, data: data.json())
        try writeFile(output, Array(page.utf8))
        let events = window.from == data.to ? "the state after \(data.to) of \(source.eventCount) events"
            : "events \(window.from + 1)...\(data.to) of \(source.eventCount)"
        let wrote = "wrote \(output): \(events), \(page.utf8.count) bytes"
        // On standard error when the page went to standard output, which stays the page alone.
        if namesStandardOutput(output) { FileHandleWriter.writeStderr(wrote + "\n") } else { print(wrote) }
    }
}
