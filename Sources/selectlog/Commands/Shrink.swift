import ArgumentParser
import SelectLog
import SelectLogStore

struct Shrink: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Cut a session down to a minimal script that still ends with an expectation holding.",
        discussion: """
            EXPR must hold after some event of FILE, and every event of FILE must be valid (one \
            that is not exits 65 naming its line, wherever it is). The output replays from an empty table, ends with \
            EXPR holding, and is 1-minimal: deleting any one event makes EXPR false or an event invalid. \
            The shrink removes whole gestures and runs of ticks and scrolls first, then collapses pan \
            samples to their turning points, merges set-up events, replaces runs of scrolls by one, \
            and removes single events. Last, in a script of at most 1,000 events, it simplifies the \
            set-up (a reload's later sections and last rows, titles and default heights; configure \
            settings nothing needs), keeping a change only when every later event lands as it did \
            and the script stays 1-minimal. \
            Progress goes to stderr. A session the shrink cannot reduce takes time that grows \
            with the square of its length; --max-replays bounds it, and the script written \
            then still replays with EXPR holding but may not be minimal (the output says so).
            """)

    @Argument(help: "A JSON Lines script or a selectlog log; - reads standard input.")
    var file: String

    @Option(help: ArgumentHelp("What must hold at the end, e.g. 'selected contains [3, 60]'; given more than once, all of them, joined with `and`.", valueName: "expr"))
    var expect: [String]

    @Option(name: .shortAndLong, help: "Where to write the shrunk script (JSON Lines; - for standard output). An existing file is replaced only when shrink wrote it (it begins with \"# shrunk by selectlog\") or with --force.", transform: OutputPath.nonEmpty)
    var output: String

    @Flag(help: "Replace the file at -o even when shrink did not write it (a script, notes); never a selectlog log nor the input.")
    var force = false

    @Option(help: ArgumentHelp("Stop after this many candidate replays and write the smallest script so far (default: no limit).", valueName: "n"))
    var maxReplays: Int?

    func validate() throws {
        if let maxReplays, maxReplays < 0 { throw ValidationError("--max-replays must be 0 or more, not \(maxReplays)") }
    }

    /// How every script shrink writes begins: a file at -o that begins so is its own
    /// earlier output, replaced without --force.
    static let header = "# shrunk by selectlog"

    /// The most events `shrink` takes: it holds them all (about 90 bytes each, 900 MB at
    /// the limit), and its replays grow with them.
    static let eventLimit = 10_000_000

    func run() throws {
        try refuseOutputOverInput(output, input: file)
        // Before the work: a mistyped -o fails at once.
        try checkOutput(output, input: file, ownOutput: force ? nil : Shrink.header)
        let expectation = try Replay.parse(all: expect)
        let (events, lines) = try Session.events(of: file, command: "shrink", limit: Shrink.eventLimit, bytesEach: 90)
        // Every event checked, as every line was decoded: an event the engine refuses after
        // the moment EXPR holds is an error too, as a line that is not JSON there is.
        // Kept: what the expectation reads after the last event, for the error if it never
        // holds; not the state itself, through the shrink.
        let finalReads: [String] = try {
            let final = try Session.state(after: events, lines: lines, of: file)
            guard !expectation.holds(in: final) else { return [] }
            return Replay.readLines(expectation, in: final)
        }()
        let started = ContinuousClock.now
        let progress = StageProgress(total: events.count)
        let result: ShrinkResult
        do {
            result = try Shrinker(expectation: expectation, maxTests: maxReplays).shrink(events) { progress.update($0) }
        } catch {
            progress.finish()
            if case .invalidEvent(let index, let reason) = error, lines != nil {
                // A script's event named by its line, as `replay` names it.
                complain("\(file): \(Session.place(ofEvent: index, lines: lines)): \(reason)")
            } else {
                complain("\(file): \(error)")
                // What it read after the last event, as `replay --expect` and `testgen` show it.
                if case .expectationNeverHolds = error {
                    for read in finalReads { complain("  after the last event: \(read)") }
                }
            }
            throw error == .expectationNeverHolds(events: events.count) ? Exit.damaged : Exit.invalidInput
        }
        progress.finish()
        // Controls escaped: a line break in the file's name or in EXPR would start a line
        // that is not a comment, and the script would not replay.
        var text = "\(Shrink.header) from \(counted(events.count, "event", "events")) of \(file.escapingControls)\n# expect: \(expectation.text.escapingControls)\n"
        if !result.isMinimal, let maxReplays { text += "# may not be minimal: stopped at --max-replays \(maxReplays)\n" }
        for e in result.events { text += EventEncoder.line(e) + "\n" }
        try writeFile(output, Array(text.utf8))
        let elapsed = ContinuousClock.now - started
        let ms = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        let stopped = result.isMinimal ? "" : " (stopped at --max-replays: the script may not be minimal)"
        complain("shrunk \(counted(events.count, "event", "events")) to \(result.events.count) in \(counted(result.tests, "replay", "replays")), \(ms) ms\(stopped); wrote \(outputName(output))")
    }
}

/// Shrink progress on stderr, on a terminal: the stage and the events left.
final class StageProgress {
    private let progress: Progress
    init(total: Int) { progress = Progress("shrink", total: total) }
    func update(_ p: ShrinkProgress) { progress.update(p.events, note: "\(p.stage), \(counted(p.tests, "replay", "replays"))") }
    func finish() { progress.finish() }
}
