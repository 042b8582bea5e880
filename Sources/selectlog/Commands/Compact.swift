#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SelectLog
import SelectLogStore

struct Compact: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rewrite a log with zstd: the same events, the same hash, its checkpoints smaller.",
        discussion: """
            For logs recorded by a build without zstd (an iOS app's, whose checkpoints are range-coded \
            rather than zstd-compressed). Every build range-codes the batches, which zstd does not \
            shrink: zstd takes the checkpoints, and the events are cut into batches as this build's \
            recorder cuts them. Under 3% smaller on the synthetic sessions; a log already \
            written with zstd comes out about as large as it was. The compacted copy is written beside the output (LOG itself without -o) and \
            replaces it only once it is complete and replays to the same state; a failure leaves both \
            as they were. A damaged LOG exits 65; a torn tail is left out with a note when writing to -o, \
            and refused in place (exit 65: `selectlog verify --repair` cuts it and keeps its bytes). \
            A build without zstd cannot compact (exit 65). The copy is recorded by this build, so a LOG \
            that this build replays differently from the build that recorded it (see `selectlog check`) \
            is refused (exit 65): `selectlog upgrade` re-records it with this build on purpose. An \
            existing -o output other than LOG is replaced only with --force (exit 64 otherwise).
            """)

    @Argument(help: "A selectlog log (or - for standard input, with -o).")
    var log: String

    @Option(name: .shortAndLong, help: "Where to write the compacted log (default: replace LOG; LOG itself under any name is the same).", transform: OutputPath.nonEmpty)
    var output: String?

    @Flag(help: "Replace the -o output if it exists.")
    var force = false

    func run() throws {
        // Where the new log goes, settled before LOG is read (standard input is refused
        // in place before it is copied). Another log at -o is replaced only with --force,
        // as `upgrade`, `record` and `synthesize` replace a log.
        let target = try Rewrite.target(log: log, output: output, suffix: "compact", command: "compact")
        if !target.inPlace, target.replaces, !force {
            throw alreadyExists(target.shown)
        }
        try Input.withLogPath(log) { mapped, _ in
            try compact(mapped, into: target)
        }
    }

    /// Compacts beside the output and puts it in place once it is complete and replays
    /// to the source's state (`Rewrite`), so that a failure leaves the output as it was.
    private func compact(_ mapped: String, into target: Rewrite) throws {
        let before = try fileSize(mapped, naming: log)
        func fail(_ error: LogError) -> ExitCode {
            target.discard(after: error)
            if !target.complainAboutCopy(error, of: log, copy: "compacted") {
                ReadFailure.report(error, log: log, mapped: mapped)
            }
            if error.code == .diverged {
                let named = log.logArgument
                if error.eventIndex == nil {
                    // Nothing diverged: nothing could be compared (`check` says so too).
                    complain("`selectlog upgrade \(named)` re-records it with this build on purpose")
                } else {
                    complain("`selectlog check \(named)` shows where the two builds part ways; `selectlog upgrade \(named)` re-records it with this build on purpose (a log this build recorded that diverges is damaged: `selectlog verify --deep \(named)` says where)")
                }
            }
            // A recorder stops (`.closed`) only after a write failed.
            return [.io, .syncFailed, .closed, .alreadyExists].contains(error.code) ? Exit.io : Exit.invalidInput
        }
        let tail: LogProblem?
        // Whether another build's log replays the same is `Recorder.compact`'s to say (it
        // refuses one that does not), so no notice here.
        do throws(LogError) { tail = try LogReader(path: mapped, engine: .standard, notice: { _ in }).tail } catch { throw fail(error) }
        try target.checkTornTail(tail, of: log, command: "compact", doing: "compacting", refusal: Exit.invalidInput,
                                 "compacting the complete events into \(target.shown)")
        let state: TableState
        target.removeIfInterrupted()
        do throws(LogError) {
            state = try TemporaryFiles.creatingLog(at: target.partial) { () throws(LogError) in
                try Recorder.compact(mapped, into: target.partial)
            }
        } catch { throw fail(error) }
        try target.commit()
        let after = try fileSize(target.path, naming: target.shown)
        print("\(target.shown.escapingControls): \(counted(state.events, "event", "events")), \(before) -> \(after) bytes, hash \(state.hashHex)")
    }

    /// The size of a file in bytes, or exits 74 naming it as `name`.
    private func fileSize(_ path: String, naming name: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            complain("\(name): cannot stat: \(systemReason())")
            throw Exit.io
        }
        return Int(info.st_size)
    }
}
