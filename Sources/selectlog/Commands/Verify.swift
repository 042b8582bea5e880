#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SelectLogStore

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a log: every header, checksum, batch and checkpoint, and the seek index.",
        discussion: """
            Exits 0 when the log is intact. Otherwise prints the first bad byte offset and the count \
            of intact events, and exits 1; a log that a newer selectlog wrote (a format version or an \
            event this build does not know) is not damaged: it exits 65, and --repair cuts nothing. With --deep, also replays every event and compares each \
            checkpoint and each gesture end's state fingerprint with the replayed state (when the log \
            names this build's behaviour fingerprint; `selectlog check` compares another build's): an \
            event the engine rejects is damage from its batch, and a checkpoint or gesture fingerprint \
            that differs is damage from the batch holding the first event that no earlier fingerprint \
            or checkpoint confirmed (from the checkpoint itself when a fingerprint after the same \
            events agreed); only --deep finds such damage: without it, the events are decoded, not \
            replayed. A log that ends \
            at a record boundary without its seek index (still being written, or cut there) is intact: \
            its index is rebuilt by reading. With --repair, cuts the log back to its intact prefix, \
            saves the cut bytes beside it as LOG.cut-OFFSET (never deleting them, with the log's \
            permissions), and exits 0; a log whose magic (its first 8 bytes) alone is damaged gets \
            the magic written again first. It exits 1 for a file that is no log or whose file header is \
            otherwise damaged, 65 for a log a newer selectlog wrote, and 74 when the log or its directory cannot \
            be written (nothing is cut in each case, though a magic written stays written, and the \
            error says so); a failed repair can be run again. With --json, \
            prints the verdict as one JSON object (intact; the intact prefix's events, records and bytes; \
            the file's bytes; the checkpoints and gestures --deep confirmed; the problem's kind, byte offset and reason; \
            the notes), or an error object when the log cannot be read, with the same exit codes; \
            it does not combine with --repair (an error object of kind usage, exit 64).
            """)

    @Argument(help: "A selectlog log; - reads standard input.")
    var log: String

    @Flag(help: "Also replay every event and compare each checkpoint and gesture fingerprint with the replay.")
    var deep = false

    @Flag(help: "Cut the log back to its intact prefix; the cut bytes are kept beside it.")
    var repair = false

    @Flag(help: "Print the verdict as one JSON object.")
    var json = false

    func run() throws {
        // In `run()`, not `validate()`: a CI job reading the JSON gets an error object for
        // this mistake too, as for every other.
        if json && repair {
            let message = "--json reports a check and --repair a cut: verify with --json, then repair without it"
            complain(message)
            print(CheckOutput.json(verifying: log, usage: message))
            throw Exit.usage
        }
        var opened = false
        do {
            try Input.withLogPath(log) { mapped, realFile in
                opened = true
                try verify(mapped, realFile: realFile)
            }
        } catch let exit as ExitCode where json && !opened {
            // Not opened (no such file, a directory, a device, piped input that is no log):
            // the reason is on stderr, and a CI job reading the JSON gets an object too.
            print(CheckOutput.json(verifying: log, unopened: exit))
            throw exit
        }
    }

    /// Verifies (and with --repair, repairs) the log at `mapped`, named `log` in messages;
    /// `realFile`: `log` names the file itself, not a copy of piped input.
    private func verify(_ mapped: String, realFile: Bool) throws {
        if repair && !realFile {
            complain("\(log): --repair needs a regular file, not a pipe; save the log to a file first")
            throw Exit.usage
        }
        // The cut bytes are saved beside the name given: for /dev/stdin, /dev/fd/N or
        // /proc/self/fd/N (a log redirected in) that is /dev or /proc, where root could
        // write them (`namesAStream`; a log in /dev/shm is repaired as any other).
        if repair && namesAStream(log) {
            complain("\(log): --repair needs the log's own path, not a name of a stream in /dev or /proc (the cut bytes are saved beside the log)")
            throw Exit.usage
        }
        let report: VerifyReport
        do {
            report = try LogReader.verify(path: mapped, replaying: deep)
        } catch var error {
            // Cut while it was read (by another repair): checked again once no other
            // writer can cut it.
            if repair, ReadFailure.wasCut(mapped, log: log, error: error) { return try repairHolding(nil) }
            if error.path != nil { error.path = log }
            complain("\(error)")
            let note = ReadFailure.truncationNote(mapped, log: log, after: error)
            if let note { complain(note) }
            if json { print(CheckOutput.json(verifying: log, failedWith: error, truncated: note)) }
            throw error.code == .unsupported ? Exit.invalidInput : (error.code == .damaged ? Exit.damaged : Exit.io)
        }
        for note in report.notes { complain("\(log): \(note)") }
        if let note = ReadFailure.truncationNote(mapped, log: log) {
            if repair { return try repairHolding(nil) }
            // What was read is gone: neither its verdict nor a cut at its offset holds.
            complain(note)
            if json { print(CheckOutput.json(verifying: log, failedWith: LogError(.damaged, note, path: log), truncated: note)) }
            throw Exit.damaged
        }
        printVerdict(report, mapped, piped: !realFile)
        guard let problem = report.problem else { return }
        if problem.isNewer {
            // Not damage, and not to be cut: what this build cannot read, a newer one does.
            complain("\(log): check it with a newer selectlog\(repair ? "; nothing was cut" : "")")
            throw Exit.invalidInput
        }
        guard repair else {
            // The way on, which every other command's report of damage names, with the log
            // quoted for a shell as they quote it (on stderr: stdout keeps the verdict
            // alone), where a repair can do something: a copy of piped input has no file
            // to cut, and a log damaged inside its file header (but for its magic alone)
            // keeps nothing.
            let does = problem.isDamagedMagic ? "writes its magic again (and cuts any damage further on)"
                : report.intactBytes >= LogFormat.fileHeaderSizeV1 ? "keeps the intact part and moves the rest beside the log" : nil
            if !json, realFile, let does {
                complain("\(log): `selectlog verify\(deep ? " --deep" : "") --repair \(log.shellWord)` \(does)")
            }
            throw Exit.damaged
        }
        try repairHolding(report)
    }

    /// The log's path as the verdicts on standard output name it: controls escaped, as
    /// every message escapes them, so that a newline in a file's name cannot forge a
    /// verdict line for a script that reads them.
    private var shownLog: String { log.escapingControls }

    /// Prints `report`'s verdict: intact, or where the damage or torn tail starts; `again`,
    /// a verdict of the log checked a second time, after it changed; `piped`, of a copy of
    /// piped input.
    private func printVerdict(_ report: VerifyReport, _ mapped: String, again: Bool = false, piped: Bool = false) {
        print(json ? CheckOutput.json(report, verifying: log, deep: deep, piped: piped)
                   : "\(shownLog): \(again ? "checked again, " : "")\(report.verdict(replayed: deep))")
        if let problem = report.problem, !problem.isNewer, !problem.isDamagedMagic, problem.offset == 0, report.records == 0,
           let hint = ReadFailure.notALogHint(mapped, log: log) { complain(hint) }
    }

    /// Cuts the log back to its intact prefix, holding it as its one writer from the check
    /// to the cut (`LogRepair.repair`): a recorder or another repair (another
    /// `verify --repair` of the same log at once) is waited for. `checked` is the report of
    /// the check made before, unheld; when the log has another size now (another repair cut
    /// it, a recorder appended and closed), or there is none (the log was cut while it was
    /// read), it is checked again.
    private func repairHolding(_ checked: VerifyReport?) throws {
        let outcome: LogRepair.Outcome
        do {
            outcome = try LogRepair.repair(log, replaying: deep, checked: checked, waiting: {
                complain("\(log): another writer has it open (a recorder, until it closes, or another repair); waiting for it to finish (Ctrl-C stops waiting; nothing is cut)")
            })
        } catch {
            switch error.errnoCode {
            case _ where error.code == .inUse: complain("\(error)")
            case EACCES?, EPERM?, EROFS?: complain("\(error); a repair writes the log and its directory: run it where both can be written")
            case ENOSPC?, EDQUOT?: complain("\(error); free some space and run the repair again")
            default: complain("\(error); the repair can be run again")
            }
            throw error.code == .unsupported ? Exit.invalidInput : (error.code == .damaged ? Exit.damaged : Exit.io)
        }
        let report = outcome.report
        if let restored = outcome.restored {
            // What it did first; then the log as it reads now, and what was done about that.
            print("\(shownLog): \(restored)")
            guard report.problem != nil else { return print("\(shownLog): checked again, intact now") }
        }
        guard let problem = report.problem else {
            print("\(shownLog): checked again, intact now (cut by another repair, or its tail completed by its writer, since it was checked); nothing to cut")
            return
        }
        if outcome.checkedWhileHeld { printVerdict(report, log, again: true) }
        guard outcome.cut != nil else {
            complain("\(log): \(outcome.action)\(problem.isNewer ? "; check it with a newer selectlog" : "")")
            throw problem.isNewer ? Exit.invalidInput : Exit.damaged
        }
        print("\(shownLog): \(outcome.action)")
    }
}
