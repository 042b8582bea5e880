#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SelectLog
import SelectLogStore

/// Sessions for the debugging commands: a log or a script alike, `-` for standard input.
enum Session {
    /// A log reader over the input: a log as it is; a script recorded into a temporary
    /// log first (let go of once mapped: `SpooledCopy`), so that every `inspect` view
    /// works on scripts.
    /// Also whether the input was a script (whose summary then describes the script,
    /// not the temporary log, and which has nothing to repair).
    ///
    /// A script with an invalid line is an error (exit 65) unless `upTo` events end
    /// before it: a view of the events before a script's bad line (`--at N`, a range
    /// `A..B`, `export --to B`) is what a user debugging that script wants, as `replay
    /// --at N` gives it. Then the reader holds those events, and a note on standard
    /// error names the line.
    ///
    /// With `deferringBadLine`, for a view that learns only as it reads how many events it
    /// needs (`inspect --first`), a script's invalid line is not an error but handed back
    /// as `badLine` (its message, naming the file and the line) with a reader of the
    /// events before it; the view notes it when it answers from them, and fails with it
    /// when not.
    ///
    /// A script from a pipe or a device is read only as far as the view needs, as `replay
    /// --at N` reads one, so that an endless stream is answered: `upTo` events, or up to
    /// the first state after which `answered` says true (`inspect --first`: its
    /// expectation holds). `whole` is false when reading stopped there, the rest unread:
    /// the reader's count of events is then no count of the input's.
    static func open(_ path: String, upTo needed: Int? = nil, until answered: ((TableState) -> Bool)? = nil,
                     deferringBadLine: Bool = false) throws
        -> (reader: LogReader, isScript: Bool, badLine: Input.BadLine?, whole: Bool) {
        switch try Input.open(path) {
        case .log(let reader):
            return (reader, false, nil, true)
        case .script(let file):
            let temporary = "\(temporaryDirectory())/selectlog-script-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).slog"
            var options = Recorder.Options()
            options.durability = .none
            // The script's events, in a file of this user's alone (as a piped input's copy is).
            options.filePermissions = 0o600
            let recorder: Recorder
            TemporaryFiles.add(temporary)
            do {
                recorder = try TemporaryFiles.creatingLog(at: temporary) { () throws(LogError) in
                    try Recorder(creating: temporary, options: options)
                }
            } catch {
                TemporaryFiles.forget(temporary)
                // The directory, not the temporary name (its process id and random digits
                // would make the message differ from run to run), as a piped log's copy says.
                let reason = error.errnoCode.map { String(cString: strerror($0)) } ?? error.message
                complain("\(path): cannot create a temporary log in \(temporaryDirectory()) (the script is recorded there to be read; set TMPDIR to a writable directory): \(reason)")
                throw Exit.io
            }
            // Unlinked now on Linux, read through `/proc/self/fd` (`SpooledCopy`): a
            // `kill -9` while an endless pipe is recorded leaves nothing in $TMPDIR.
            let kept = SpooledCopy.unlinking(temporary)
            defer {
                if let kept { kept.remove() } else { TemporaryFiles.delete(temporary) }
            }
            var failure: Input.BadLine?
            // Whether the view needs events past those recorded so far. Asked only of a
            // pipe or a device (`Input.forEachScriptEvent`), after every event.
            let needsMore = {
                (needed.map { recorder.eventCount < $0 } ?? true) && !(answered?(recorder.state) ?? false)
            }
            try Input.forEachScriptEvent(file, stopsAt: { error in
                guard deferringBadLine || !needsMore() else { return false }
                failure = Input.BadLine(file.path, error)
                return true
            }, needsMore: needsMore) { line, event in
                do throws(LogError) {
                    try recorder.append(event)
                    return true
                } catch {
                    failure = if let reason = error.invalidEvent {
                        Input.BadLine(file.path, ScriptError(line: line, reason: reason))
                    } else {
                        // Its code for the JSON's cause; no offset or event of the temporary log.
                        Input.BadLine(message: "\(file.path): line \(line): \(error)", error: LogError(error.code, error.message))
                    }
                    return false
                }
            }
            let whole = file.kind == .regular || needsMore()
            do {
                try recorder.close()
            } catch {
                complain("\(error) (the script's temporary log in $TMPDIR, \(temporaryDirectory()); set TMPDIR to a directory with room)")
                throw Exit.io
            }
            if let failure, !deferringBadLine {
                guard let needed, needed <= recorder.eventCount else {
                    failure.report()
                    throw Exit.invalidInput
                }
                Input.noteBadLine(failure, eventsBefore: recorder.eventCount)
            }
            do {
                return (try LogReader(path: kept?.path ?? temporary), true, deferringBadLine ? failure : nil, whole)
            } catch {
                complain("\(error)")
                throw Exit.io
            }
        }
    }

    /// Every event of a script or a log, and for a script the 1-based line of each event
    /// (nil for a log), so that an error names the line an editor shows, as `replay` does.
    ///
    /// The events are held, so a command that holds them (`shrink`, `testgen`) names its
    /// `limit`: an input of more events exits 65 before holding more than that many (a
    /// log before reading any, a script at the line past it), saying how to cut it, instead
    /// of growing without bound on an endless pipe.
    static func events(of path: String, command: String, limit: Int, bytesEach: Int) throws -> (events: [TimedEvent], lines: [Int]?) {
        let tooMany = "more than \(limit) events; \(command) holds every event (about \(bytesEach) bytes each): cut the session first (`selectlog export FILE --from A --to B`)"
        switch try Input.open(path) {
        case .log(let reader):
            guard reader.eventCount <= limit else {
                complain("\(path): \(reader.eventCount) events, \(tooMany)")
                throw Exit.invalidInput
            }
            do {
                return (try reader.events(), nil)
            } catch {
                ReadFailure.report(error, log: path, mapped: reader.path)
                throw Exit.invalidInput
            }
        case .script(let file):
            var events: [TimedEvent] = []
            var lines: [Int] = []
            var past: Int?
            try Input.forEachScriptEvent(file) { line, event in
                guard events.count < limit else {
                    past = line
                    return false
                }
                events.append(event)
                lines.append(line)
                return true
            }
            if let past {
                complain("\(path): line \(past): \(tooMany)")
                throw Exit.invalidInput
            }
            return (events, lines)
        }
    }

    /// The state after `events` (of `file`, from `events(of:)` with its `lines`), each one
    /// applied: one the engine refuses exits 65 naming its line, as a line that does not
    /// decode does.
    static func state(after events: [TimedEvent], lines: [Int]?, of file: String) throws -> TableState {
        var state = TableState()
        for (i, e) in events.enumerated() {
            do throws(InvalidEvent) {
                try state.applyDiscardingChanges(e)
            } catch {
                complain("\(file): \(place(ofEvent: i + 1, lines: lines)): \(error)")
                throw Exit.invalidInput
            }
        }
        return state
    }

    /// Where event `index` (1-based) of an input is: `line N` of a script (its `lines`
    /// from `events(of:)`), else `event N`.
    static func place(ofEvent index: Int, lines: [Int]?) -> String {
        guard let lines, lines.indices.contains(index - 1) else { return "event \(index)" }
        return "line \(lines[index - 1])"
    }
}
