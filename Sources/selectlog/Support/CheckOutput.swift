#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SelectLog
import SelectLogStore

/// The text and JSON forms of a `CheckReport` (`check`), and the JSON error objects of
/// `check`, `replay` and `inspect`.
enum CheckOutput {
    static func hex(_ v: UInt64?) -> String { ReportText.hex16(v) }

    static func text(_ r: CheckReport, log: String) -> String {
        var lines: [String] = []
        let fingerprints = r.fingerprints
        // Controls escaped, as in every message: a newline in the name forges no line.
        let shown = log.escapingControls
        guard let d = r.divergence else {
            let named = log.logArgument
            if r.comparedNothing {
                lines.append("\(shown): nothing to compare: \(r.compared)")
                lines.append(fingerprints)
                lines.append("\(r.nothingToCompare); `selectlog upgrade \(named)` re-records it with this build on purpose")
                return lines.joined(separator: "\n")
            }
            lines.append("\(shown): same behaviour: \(r.compared)")
            lines.append(fingerprints)
            if r.events > 0, r.gesturesCompared == 0, r.checkpointsCompared == 0, r.recordedBehaviour == r.behaviour {
                // Not `comparedNothing`: the same fingerprint says this build behaves as the
                // recording's on the corpus, but no state of this log was compared.
                lines.append("the log holds no gesture end or checkpoint: only the behaviour fingerprints were compared")
            }
            if r.recordedBehaviour != r.behaviour {
                // The same states, but readers of this build do not trust its checkpoints.
                lines.append("the fingerprints differ, so this build's readers replay \(shown) from its start; `selectlog upgrade \(named)` re-records it with this build, whose readers then use its checkpoints")
            }
            return lines.joined(separator: "\n")
        }
        // Events numbered from 1, as everywhere on the command line (the report's are 0-based).
        lines.append("\(shown): diverged at the \(d.headline)")
        lines.append(fingerprints)
        if r.recordedBehaviour == r.behaviour {
            // The corpus behind the fingerprint cannot cover every behaviour, and a log can
            // be changed after it was written: say both, and how to tell.
            let named = log.logArgument
            let subject = log == "-" ? "the log" : shown
            lines.append("the fingerprints agree: either this build changed behaviour the fingerprint does not cover, or \(subject) was changed "
                         + "after it was written (`selectlog verify --deep \(named)` replays it: it calls the log damaged at the first event this build rejects, or the first checkpoint or gesture fingerprint that disagrees with the replay, and `verify --deep --repair` cuts it there)")
        }
        return (lines + d.checkpointLines).joined(separator: "\n")
    }

    /// The JSON form of a log that could not be opened (the reason is on stderr): `same`
    /// null, and `error` of kind "io" (exit 74), "usage" (64) or "notALog" (65: piped input
    /// that is no log, or too large to hold), with what is known of why.
    static func json(unopened log: String, exit: ExitCode) -> String {
        let (error, kind) = unopened(log, exit: exit)
        return json(error: error, log: log, kind: kind)
    }

    /// Why `log` could not be opened, as an error and its kind in JSON.
    private static func unopened(_ log: String, exit: ExitCode) -> (LogError, String) {
        let reason = whyUnopened(log) ?? Complaints.text.map { reasonAlone($0, file: log) } ?? "cannot be read as a log"
        let kind = exit == Exit.io ? "io" : exit == Exit.usage ? "usage" : "notALog"
        return (LogError(exit == Exit.io ? .io : .notALog, reason, path: log), kind)
    }

    /// `verify --json`'s verdict: `intact`, the intact prefix's events, records and bytes
    /// (`bytes` the file's size), the checkpoints a replay confirmed (`--deep`; null
    /// without it, and when a problem stopped the replay), the first `problem` (null when
    /// intact; its kind "damaged", "tornTail", "newer" or "notALog", its byte offset and
    /// reason) and the notes. `piped`: the log came through a pipe, whose copy stops at a
    /// file header this build refuses, so its size is not known then (`bytes` null).
    static func json(_ r: VerifyReport, verifying log: String, deep: Bool, piped: Bool) -> String {
        var o = ObjectWriter()
        o.string("log", log)
        o.bool("intact", r.isIntact)
        o.raw("events", String(r.intactEvents))
        o.raw("records", String(r.records))
        // Piped input whose file header was refused (no log, a damaged header or magic, a
        // newer build's) is copied no further than its first 64 bytes: its size is unknown.
        let refusedHeader = r.records == 0 && r.problem.map { !$0.isTornTail && $0.offset < LogFormat.fileHeaderSize } == true
        o.raw("bytes", piped && refusedHeader ? "null" : String(r.fileSize))
        o.raw("intactBytes", String(r.intactBytes))
        o.raw("checkpointsConfirmed", deep && r.problem == nil ? String(r.checkpointsReplayed) : "null")
        o.raw("gesturesConfirmed", deep && r.problem == nil ? String(r.gesturesReplayed) : "null")
        if let p = r.problem {
            var po = ObjectWriter()
            po.string("kind", p.isNewer ? "newer" : p.isNotALog ? "notALog" : p.isTornTail ? "tornTail" : "damaged")
            po.raw("offset", String(p.offset))
            po.string("reason", p.reason)
            po.bool("indexOnly", p.isIndexOnly)
            o.raw("problem", po.text)
        } else {
            o.raw("problem", "null")
        }
        o.raw("notes", "[" + r.notes.map(JSONText.quote).joined(separator: ", ") + "]")
        return o.text
    }

    /// `verify --json` when the log could not be verified: `intact` null and `error` (its
    /// kind, byte offset, event and message). `truncated`, the note of a log cut while it
    /// was read (`LOG: the file was truncated …`), replaces the message, without the log's
    /// name, and the offset and event, which no longer hold.
    static func json(verifying log: String, failedWith error: LogError, truncated: String? = nil) -> String {
        var error = error
        if let truncated {
            error.message = truncated.hasPrefix(log + ": ") ? String(truncated.dropFirst(log.count + 2)) : truncated
            error.offset = nil
            error.eventIndex = nil
        }
        return json(verifying: log, error: error, kind: nil)
    }

    /// `verify --json` for a log that could not be opened (the reason is on stderr).
    static func json(verifying log: String, unopened exit: ExitCode) -> String {
        let (error, kind) = unopened(log, exit: exit)
        return json(verifying: log, error: error, kind: kind)
    }

    /// `verify --json` for a mistake in its options (`message`, said on stderr too): the
    /// log is not read.
    static func json(verifying log: String, usage message: String) -> String {
        json(verifying: log, error: LogError(.invalidOptions, message, path: log), kind: "usage")
    }

    private static func json(verifying log: String, error: LogError, kind: String?) -> String {
        var o = ObjectWriter()
        o.string("log", log)
        o.raw("intact", "null")
        o.raw("error", object(error, kind: kind))
        return o.text
    }

    /// What `replay --json` and `inspect --json` print when FILE could not be read (the
    /// reason is on stderr, before anything went to standard output): `{"file": …,
    /// "error": {"kind", "cause", "offset", "event", "message", "rejected"}}`, the message
    /// what stderr said, of kind "io" (exit 74), "usage" (64: an expectation that does not
    /// parse, `--at` past the end, a mistake in an option's value, `validating`) or
    /// "invalidInput" (65: damaged, no log or script, an invalid line, a newer format), so
    /// that a CI job reading the JSON gets an object. `cause` tells those apart in
    /// `check`'s words (`kind(of:)`; "invalidEvent" for a refused script line). The offset
    /// and the event are those of the log's error on stderr (`ReadFailure.first`), null
    /// when it named none or the failure was no log's; `rejected` the refused line or
    /// event (`rejectedJSON`), null for any other failure: the same six keys as every
    /// error object.
    static func json(failedToRead file: String, exit: ExitCode) -> String {
        var o = ObjectWriter()
        o.string("file", file)
        var e = ObjectWriter()
        e.string("kind", exit == Exit.io ? "io" : exit == Exit.usage ? "usage" : "invalidInput")
        let error = exit == Exit.io ? nil : ReadFailure.first
        let refused = exit == Exit.invalidInput ? ReadFailure.refusedLine : nil
        // `check`'s kinds, so that one word means one thing in every command's error object.
        let cause: String? = switch exit {
        case Exit.io: "io"
        case Exit.usage: "usage"
        case Exit.invalidInput: refused != nil ? "invalidEvent" : error.map { kind(of: $0) }
        default: nil
        }
        e.raw("cause", cause.map(JSONText.quote) ?? "null")
        e.raw("offset", error?.offset.map { String($0) } ?? "null")
        e.raw("event", eventJSON(error))
        let said = Complaints.text.map { exit == Exit.io ? reasonAlone($0, file: file) : $0 }
        e.string("message", (exit == Exit.io ? whyUnopened(file) : nil) ?? said ?? "cannot be read")
        if let line = refused {
            e.raw("rejected", rejectedJSON(line.reason, line: line.line))
        } else {
            e.raw("rejected", rejectedJSON(exit == Exit.invalidInput ? error?.invalidEvent : nil))
        }
        o.raw("error", e.text)
        return o.text
    }

    /// What went wrong, in the words of `check --json`'s error kinds: `io`, `notALog`,
    /// `unsupported` (a newer format or feature), `invalidEvent`, `usage` (an event past
    /// the end), `damaged` (everything else, a log event the engine refuses included).
    static func kind(of error: LogError) -> String {
        switch error.code {
        case .io, .syncFailed: "io"
        case .notALog: "notALog"
        case .unsupported: "unsupported"
        case .invalidEvent: "invalidEvent"
        case .outOfRange: "usage"
        default: "damaged"
        }
    }

    /// The event refused behind an error, as JSON, so that a CI job can tell a recording
    /// the app built wrong from one whose table the engine's disagrees with without
    /// reading the message: `{"line", "type", "field", "rule", "reason"}`. `line` is the
    /// script's (1-based), null for a log's event (which the error's `event` names);
    /// `type` and `field` (a path into the event, `rows[0]`) are null when the refusal
    /// names none; `rule` is the kind of rule broken (`InvalidEvent.Kind`: `malformed`,
    /// `outOfRange`, `outOfOrder`, `notAllowedNow`, `overLimit`); `reason` is the
    /// sentence after the type in the message. Null when no event was refused.
    static func rejectedJSON(_ refusal: InvalidEvent?, line: Int? = nil) -> String {
        guard let refusal else { return "null" }
        var o = ObjectWriter()
        o.raw("line", line.map { String($0) } ?? "null")
        // Clipped as the message clips them: a script chose the type and the names.
        o.raw("type", refusal.type.map { JSONText.quote(Quoted.clipValues(in: $0)) } ?? "null")
        o.raw("field", refusal.field.map { JSONText.quote(Quoted.clipValues(in: $0)) } ?? "null")
        o.string("rule", refusal.kind.rawValue)
        o.string("reason", Quoted.clipValues(in: refusal.reason))
        return o.text
    }

    /// An error's event in JSON: 1-based (as `LogError.description` numbers it, without
    /// overflow at `Int.max`), null when it names none. An out-of-range error's index is
    /// the count asked for, not an event.
    private static func eventJSON(_ error: LogError?) -> String {
        guard let error, error.code != .outOfRange, let index = error.eventIndex, index >= 0 else { return "null" }
        return String(UInt(index) + 1)
    }

    /// Runs a command's checks of its options, which `validate()` leaves to `run()` with
    /// `--json`: ArgumentParser prints a mistake found in `validate()` with the usage and
    /// nothing on standard output, where a CI job reading the JSON needs an object. A
    /// mistake here is said on stderr and ends in `json(failedToRead:exit:)` (kind
    /// "usage", exit 64), as a mistake found later does.
    static func validating(_ file: String, _ check: () throws -> Void) throws {
        do {
            try check()
        } catch let error as ValidationError {
            complain(error.message)
            print(json(failedToRead: file, exit: Exit.usage))
            throw Exit.usage
        }
    }

    /// `body`, the reading of `file` before anything is printed; when it fails and `asJSON`,
    /// `json(failedToRead:exit:)` goes to standard output first.
    static func reading<T>(_ file: String, asJSON: Bool, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let exit as ExitCode where asJSON {
            print(json(failedToRead: file, exit: exit))
            throw exit
        }
    }

    /// `said` without the input's name before its first line (`ro.slog: cannot open:
    /// Permission denied` is `cannot open: Permission denied`): an `io` error object's
    /// message is the reason alone, as `whyUnopened` gives it, and `file` names the input.
    static func reasonAlone(_ said: String, file: String) -> String {
        let name = "\(file): ".shownInMessage
        return said.hasPrefix(name) ? String(said.dropFirst(name.count)) : said
    }

    /// Why `path` names no file a log can be read from, as far as `stat` tells: no such
    /// file, a directory, a device; nil when it is a file (or a pipe) after all.
    static func whyUnopened(_ path: String) -> String? {
        guard path != "-" else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot open: \(systemReason())" }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return "is a directory"
        case S_IFCHR, S_IFBLK:
            return path == "/dev/stdin" || path.hasPrefix("/dev/fd/") ? nil : "is a device, not a log file"
        default: return nil
        }
    }

    /// The JSON form of a log that could not be checked: `same` null, and `error` with
    /// its kind, byte offset and event (1-based; null when it names none).
    static func json(error: LogError, log: String, tornTail: LogProblem? = nil, kind given: String? = nil) -> String {
        var o = ObjectWriter()
        o.string("log", log)
        o.raw("same", "null")
        o.raw("error", object(error, kind: given))
        o.raw("tornTail", TornTailJSON.object(tornTail))
        return o.text
    }

    /// `error` as an object: its kind, byte offset, event (1-based; null when it names
    /// none), message and refused event (`rejectedJSON`; null when it is no refusal).
    static func object(_ error: LogError, kind given: String? = nil) -> String {
        var e = ObjectWriter()
        let kind = given ?? kind(of: error)
        e.string("kind", kind)
        e.string("cause", kind)
        e.raw("offset", error.offset.map { String($0) } ?? "null")
        e.raw("event", eventJSON(error))
        e.string("message", error.message)
        e.raw("rejected", rejectedJSON(error.invalidEvent))
        return e.text
    }

    /// What `inspect --json` prints when a view fails after the log was opened (damage
    /// found by the read that reaches it): `{"file": …, "error": {kind, offset, event,
    /// message}}`, on a line of its own. A view that lists events as JSON Lines
    /// (`--events`) ends with it, after the events read before the damage.
    static func json(file: String, failedWith error: LogError) -> String {
        var o = ObjectWriter()
        o.string("file", file)
        o.raw("error", object(error))
        return o.text
    }

    /// The JSON form of `r`; `tornTail` (offset and reason, or null, as `inspect --json`
    /// gives it) says the events checked stop before a torn tail.
    static func json(_ r: CheckReport, log: String, tornTail: LogProblem? = nil) -> String {
        var o = ObjectWriter()
        o.string("log", log)
        o.bool("same", r.isSame)
        o.string("recordedBehaviour", r.recordedBehaviour.map { hex($0) })
        o.string("behaviour", hex(r.behaviour))
        o.raw("events", String(r.events))
        o.raw("gesturesCompared", String(r.gesturesCompared))
        o.raw("checkpointsCompared", String(r.checkpointsCompared))
        o.bool("comparedNothing", r.comparedNothing)
        if let d = r.divergence {
            var dv = ObjectWriter()
            dv.raw("first", String(d.events.lowerBound + 1))
            dv.raw("last", String(d.events.upperBound + 1))
            dv.string("kind", d.kind)
            dv.string("reason", d.reason)
            dv.raw("checkpoint", d.checkpoint.map { String($0) } ?? "null")
            let changes = d.changes.map { c in
                var co = ObjectWriter()
                co.string("field", c.field)
                co.string("recorded", c.before)
                co.string("thisBuild", c.after)
                if let added = c.added { co.raw("added", StateChange.jsonRanges(added)) }
                if let removed = c.removed { co.raw("removed", StateChange.jsonRanges(removed)) }
                return co.text
            }
            dv.raw("changes", "[" + changes.joined(separator: ", ") + "]")
            o.raw("divergence", dv.text)
        } else {
            o.raw("divergence", "null")
        }
        o.raw("tornTail", TornTailJSON.object(tornTail))
        return o.text
    }
}

/// A torn tail in `--json` (`check`, `inspect`): its offset and reason, or null.
enum TornTailJSON {
    static func object(_ tail: LogProblem?) -> String {
        tail.map { "{\"offset\": \($0.offset), \"reason\": \(JSONText.quote($0.reason))}" } ?? "null"
    }
}
