import ArgumentParser
import SelectLog

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a script and print the state after it.",
        discussion: "Without --json, prints a summary and a text picture of the visible rows.")

    @Argument(help: "A JSON Lines script.")
    var file: String

    @Option(help: "Stop after this many events (default: all).")
    var at: Int?

    @Flag(help: "Print the state as the JSON object of EVENTS.md section 6.")
    var json = false

    func validate() throws {
        if let at, at < 0 { throw ValidationError("--at takes a number of events, 0 or more") }
    }

    func run() throws {
        let bytes = try readFile(file)
        let script: Script
        do {
            script = try Script(bytes: bytes)
        } catch {
            complain("\(file): \(error)")
            throw Exit.invalidInput
        }
        if let at, at > script.entries.count {
            complain("--at \(at): \(file) has only \(script.entries.count) events")
            throw Exit.usage
        }
        var state = TableState()
        do {
            try script.replay(upTo: at, into: &state)
        } catch {
            complain("\(file): \(error)")
            throw Exit.invalidInput
        }
        print(json ? state.json : TablePicture(state).text)
    }
}
