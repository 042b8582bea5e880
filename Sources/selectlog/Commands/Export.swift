import ArgumentParser
import SelectLog
import SelectLogStore

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a log as a JSON Lines script.",
        discussion: "`record` of the output replays to the same hash.")

    @Argument(help: "A selectlog log.")
    var log: String

    func run() throws {
        let reader = try Input.openLog(log)
        var out = OutputBuffer()
        do {
            try reader.forEachEvent { _, event in
                out.line(EventEncoder.line(event))
                return true
            }
        } catch {
            out.flush()
            complain("\(error)")
            throw Exit.invalidInput
        }
        out.flush()
    }
}
