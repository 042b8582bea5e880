import ArgumentParser
import SelectLog

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a script or a log and print the state after it.",
        discussion: """
            FILE is a JSON Lines script or a log written by `record`; they are told apart by content.
            Without --json, prints a summary and a text picture of the visible rows.
            """)

    @Argument(help: "A JSON Lines script or a selectlog log.")
    var file: String

    @Option(help: "Stop after this many events (default: all).")
    var at: Int?

    @Flag(help: "Print the state as the JSON object of EVENTS.md section 6.")
    var json = false

    @Flag(name: .customLong("from-start"), help: "For a log: replay every event from the start instead of the nearest checkpoint.")
    var fromStart = false

    func validate() throws {
        if let at, at < 0 { throw ValidationError("--at takes a number of events, 0 or more") }
    }

    func run() throws {
        let state = try Input.state(of: file, at: at, fromStart: fromStart)
        print(json ? state.json : TablePicture(state).text)
    }
}
