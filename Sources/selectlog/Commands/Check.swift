import ArgumentParser
import SelectLog
import SelectLogStore

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a log with this build and report whether its engine behaves as the recording's did.",
        discussion: """
            Compares the state at the end of every pan and swipe with the fingerprint the log recorded \
            there, and every checkpoint with the replayed state (other events, taps among them, are \
            compared through the checkpoints after them). Exits 0 when this build behaves the same, 1 when \
            it diverges: prints the first gesture that differs (its events and kind) and, field by \
            field, the recorded state at the nearest checkpoint after it against this build's. A damaged \
            log exits 65, as a replay of it does (`selectlog verify` says where); a torn tail is \
            noted on stderr (and as tornTail in --json) and its complete events are checked. Another \
            build's log with no gesture end or checkpoint has nothing to compare: it says so and exits 0 \
            (nothing diverged; --json says comparedNothing: true), and `compact` refuses it.
            """)

    @Argument(help: "A selectlog log; - reads standard input.")
    var log: String

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    func run() throws {
        // This command reports the fingerprints itself, and is what the notice suggests.
        BehaviourNotice.silence()
        var opened = false
        let (report, tail): (CheckReport, LogProblem?)
        do {
            (report, tail) = try Input.withLogPath(log) { mapped, _ in
                opened = true
                return try check(mapped)
            }
        } catch let exit as ExitCode where json && !opened {
            // Not opened (no such file, a directory, a device): the reason is on stderr, and
            // a CI job reading the JSON gets an error object too.
            print(CheckOutput.json(unopened: log, exit: exit))
            throw exit
        }
        print(json ? CheckOutput.json(report, log: log, tornTail: tail) : CheckOutput.text(report, log: log))
        if !report.isSame { throw Exit.damaged }
    }

    /// The report of the log at `mapped` (the log, or a copy of piped input), and its torn tail.
    private func check(_ mapped: String) throws -> (CheckReport, LogProblem?) {
            var tail: LogProblem?
            do throws(LogError) {
                let reader = try LogReader(path: mapped)
                ReadFailure.noteRejectedIndex(reader, of: log)
                tail = reader.tail
                if let tail {
                    ReadFailure.noteTornTail(tail, of: log, counted(reader.eventCount, "complete event", "complete events"))
                }
                return (try reader.check(), tail)
            } catch {
                // Exit 1 is this build diverging; a log it cannot read is bad input, as for
                // `replay`. Reported here, while a copy of piped input still exists for the
                // report to look into (whether it is a script, say).
                ReadFailure.report(error, log: log, mapped: mapped)
                // A CI job reading the JSON gets the error there too.
                if json { print(CheckOutput.json(error: error, log: log, tornTail: tail)) }
                throw error.code == .io ? Exit.io : Exit.invalidInput
            }
    }
}
