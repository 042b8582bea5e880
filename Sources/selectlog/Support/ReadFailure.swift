#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SelectLog
import SelectLogStore

/// How every command reports an error met while reading a log.
///
/// A log without a sound index is checked whole at open, but a cleanly closed log's
/// records are checked on first use (LOG-FORMAT.md, "Reading, verifying, recovering"),
/// so damage can surface at open or at any later read: `replay`, `export`,
/// `inspect --at`, `view`. Each of those reads reports its error here, once, so the
/// message and the hint to repair are the same wherever the damage was found. An
/// error met at open has already been reported when the command sees it (as an
/// `ExitCode`, not a `LogError`), so it is never reported twice.
enum ReadFailure {
    /// The first error `report` printed (none after a read found the log cut short), for
    /// the `offset` and `event` of a JSON error object printed after it
    /// (`CheckOutput.json(failedToRead:exit:)`).
    // The command runs on one thread: the library's work it waits for calls back on it.
    nonisolated(unsafe) private(set) static var first: LogError?

    /// The first script line refused for good (one that does not decode, or an event
    /// the engine rejects, that the command could not answer without), for the
    /// `rejected` object of a JSON error (`CheckOutput.rejectedJSON`). A log's refused
    /// event is in `first` (its `invalidEvent`).
    nonisolated(unsafe) private(set) static var refusedLine: ScriptError?

    /// Keeps `error` as `first` unless one is kept already, without printing it: for a
    /// failure the command said in its own words (an input that is neither log nor
    /// script, a log whose magic alone is damaged), so that a JSON error object still
    /// gets its cause and offset.
    static func keep(_ error: LogError) {
        if first == nil { first = error }
    }

    /// Keeps `error` as `refusedLine` unless one is kept already.
    static func noteRefused(_ error: ScriptError) {
        if refusedLine == nil { refusedLine = error }
    }

    /// Prints `error` on stderr, naming the log as the user did (`name`, not the
    /// temporary copy `mapped` that a piped log is read from), then, for damage in the
    /// log's bytes after its file header, the `verify --repair` command that cuts the
    /// log back to its intact prefix. `isLog` is false when `name` is a script that was
    /// recorded into a temporary log: there is nothing to repair then.
    static func report(_ error: LogError, log name: String, mapped: String? = nil, isLog: Bool = true) {
        var error = error
        if let mapped, error.path == mapped { error.path = name }
        complain("\(error)")
        if LogTruncationGuard.faults > 0 {
            // The bytes read are gone, not damaged: nothing to repair, and no offset or
            // event for a JSON error object (`first`).
            if let note = truncationNote(mapped ?? name, log: name, after: error) { complain(note) }
            return
        }
        if first == nil { first = error }
        if error.code == .notALog, let hint = notALogHint(mapped ?? name, log: name) { complain(hint) }
        guard isLog, let hint = repairHint(for: error, log: name, piped: mapped.map { $0 != name } ?? false) else { return }
        complain(hint)
    }

    /// When a read of a mapped log found its pages gone (`LogTruncationGuard`): that the
    /// file at `path`, named `name`, was cut short while it was read, so an error found
    /// after it is no damage of the log as it is now. Nil when no read did, or when
    /// `error` (already printed) says so itself: the reader's own check found the cut.
    static func truncationNote(_ path: String, log name: String, after error: LogError? = nil) -> String? {
        guard LogTruncationGuard.faults > 0, error?.message.hasPrefix(LogTruncationGuard.cutReason) != true else {
            return nil
        }
        var info = stat()
        return "\(name): " + LogTruncationGuard.message(size: stat(path, &info) == 0 ? Int(info.st_size) : nil)
    }

    /// Whether the log at `path` was cut short while it was read: `error` says so, or a
    /// read found its pages gone (`truncationNote(_:log:after:)`).
    static func wasCut(_ path: String, log name: String, error: LogError) -> Bool {
        error.message.hasPrefix(LogTruncationGuard.cutReason) || truncationNote(path, log: name, after: error) != nil
    }

    /// For a file that is not a log but reads as a JSON Lines script (`Input.looksLikeScript`:
    /// its first line that is no comment begins with `{`): how to make a log of it.
    /// Commands that take only logs (`verify`, `check`, `upgrade`, `compact`) are often
    /// given the script. A Markdown file also begins with `#`, and `record` refused it.
    static func scriptHint(_ path: String, log name: String) -> String? {
        // Of piped input only its first 64 bytes are kept (`InputFile.spool`), which a
        // comment may fill: comments alone count there.
        guard Input.looksLikeScript(path, requiringEvent: name != "-") else { return nil }
        // Standard input (`-`): the same input piped to `record -`, not a file named `-`.
        let input = name == "-" ? "the input looks like a JSON Lines script, not a log: piped to `selectlog record - -o LOG`, it"
            : "\(name) looks like a JSON Lines script, not a log: `selectlog record \(name.shellWord) -o LOG`"
        return "\(input) makes a log of it"
    }

    /// For a file that is no log: how to make one of it (`scriptHint`), or how to
    /// decompress it (`compressedHint`); nil when neither applies.
    static func notALogHint(_ path: String, log name: String) -> String? {
        scriptHint(path, log: name) ?? (try? readPrefix(path, count: 8)).flatMap { compressedHint($0, name: name) }
    }

    /// For a file that is neither a log nor a script because it is compressed (a log or
    /// a script attached to a bug report as `session.slog.gz`): what it is and the command
    /// that gives the file back. Nil for other bytes.
    static func compressedHint(_ head: some Collection<UInt8>, name: String) -> String? {
        // The command for a file with the format's suffix (which the tool needs to name
        // what it writes), the filter for piped input or a file without it.
        let kinds: [(magic: [UInt8], format: String, suffix: String, file: String, filter: String)] = [
            ([0x1F, 0x8B], "gzip", ".gz", "gunzip -k", "gzip -dc"), ([0x28, 0xB5, 0x2F, 0xFD], "zstd", ".zst", "zstd -d", "zstd -dc"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz", ".xz", "unxz -k", "xz -dc"), (Array("BZh".utf8), "bzip2", ".bz2", "bunzip2 -k", "bzip2 -dc"),
            ([0x50, 0x4B, 0x03, 0x04], "zip", ".zip", "unzip", "unzip -p"),
        ]
        guard let kind = kinds.first(where: { head.starts(with: $0.magic) }) else { return nil }
        if name == "-" {
            // unzip reads no pipe: the archive is saved first.
            return kind.format == "zip" ? "the input is a zip archive: save it to a file and `unzip` it first"
                : "the input is \(kind.format)-compressed: pipe it through `\(kind.filter)` first"
        }
        let command = name.hasSuffix(kind.suffix) ? "`\(kind.file) \(name.shellWord)`" : "`\(kind.filter) \(name.shellWord) > FILE`"
        return "\(name) is \(kind.format)-compressed: decompress it first: \(command)"
    }

    /// Says on stderr that the log named `name` was read from its records because its seek
    /// index fails its checks (`LogReader.storedIndexRejected`): every event is there, and
    /// only `verify` would otherwise tell (a CI job's `check` passes).
    static func noteRejectedIndex(_ reader: LogReader, of name: String) {
        guard reader.storedIndexRejected else { return }
        complain("\(name): note: its seek index fails its checks, so it was read from its records instead (every event is there); "
                 + "`selectlog verify \(name == "-" ? "FILE" : name.shellWord)` says where, and `verify --repair` cuts the index off")
    }

    /// Says on stderr that the torn tail of the log named `name` is ignored, then `rest`
    /// (what is read or written instead): every command that reads a log says it so.
    static func noteTornTail(_ tail: LogProblem, of name: String, _ rest: String) {
        complain("\(name): note: ignoring a torn tail at byte offset \(tail.offset) (\(tail.reason)); \(rest)")
    }

    /// `report(_:log:mapped:isLog:)` for an error of any type: a `LogError` as there,
    /// anything else printed as it is.
    static func report(_ error: any Error, log name: String, mapped: String? = nil, isLog: Bool = true) {
        if let error = error as? LogError {
            report(error, log: name, mapped: mapped, isLog: isLog)
        } else {
            complain("\(error)")
        }
    }

    /// What to run for `error`, or nil when `verify --repair` cannot help: the error is
    /// not damage at a byte offset (an event the engine rejects, say, which `verify`
    /// finds intact), the damage is in the file header (which `verify --repair` refuses
    /// to cut) other than its magic alone (which it writes again), or the error is about
    /// another file (a command's output).
    static func repairHint(for error: LogError, log name: String, piped: Bool) -> String? {
        if error.code == .damaged, error.offset == nil, let index = error.eventIndex, error.message.hasPrefix(LogReader.rejectedByEngine),
           error.path == nil || error.path == name {
            // The log records this build's behaviour, whose engine never logs an event it
            // rejects: damage a replay finds, and only a repair that replays.
            let file = piped ? "FILE` (the log saved to a file)" : "\(name.shellWord)`"
            return "only a replay finds this damage: `selectlog verify --deep --repair \(file) cuts the log back to before event \(index + 1)'s record, "
                + "saving the rest beside it (`selectlog check` tells a build that behaves differently)"
        }
        if error.code == .damaged, error.offset == 0, error.message.hasPrefix(FileHeader.damagedMagic), error.path == nil || error.path == name {
            return piped ? "save the log to a file and run `selectlog verify --repair FILE` to write its magic again"
                : "run `selectlog verify --repair \(name.shellWord)` to write its magic again"
        }
        guard error.code == .damaged, let offset = error.offset, offset >= LogFormat.fileHeaderSizeV1,
              error.path == nil || error.path == name else { return nil }
        if piped {
            return "save the log to a file and run `selectlog verify --repair FILE` to cut it back to its intact prefix"
        }
        return "run `selectlog verify --repair \(name.shellWord)` to cut the log back to its intact prefix"
    }
}
