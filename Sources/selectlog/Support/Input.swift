#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SelectLog
import SelectLogStore

/// A script or a log, told apart by content: a log begins with the magic "SELECTLG".
///
/// Every input is opened once (`InputFile`) and sniffed from that descriptor, so
/// pipes, FIFOs, `/dev/stdin` and `-` work like files. Scripts are streamed: no
/// command holds a whole script (`forEachScriptEvent`). A log that arrives through
/// a pipe is copied to a temporary file first (the log reader maps files), at most
/// `maxPipedLog` bytes.
enum Input {
    /// The most bytes of a log copied from a pipe: 4 GiB.
    static let maxPipedLog = 4 << 30

    /// An opened input, sniffed.
    enum Opened {
        case script(InputFile)
        case log(LogReader)
    }

    /// Opens `path` once and tells a script from a log by its first bytes.
    static func open(_ path: String) throws -> Opened {
        let file = try InputFile(path)
        let head = try file.peek(LogFormat.magic.count)
        if isLog(head: head) { return .log(try openLog(file)) }
        try checkScript(head, of: file, path: path)
        return .script(file)
    }

    /// Refuses an input that is not a log and no script either (65, saying why, from its
    /// first bytes), and notes an empty one on stderr: an empty script is valid (no
    /// events), but an empty input is more often a failed upload or a pipe whose writer
    /// failed, which a CI job's output should show.
    static func checkScript(_ head: [UInt8], of file: InputFile, path: String) throws {
        if head.isEmpty { complain("\(path): empty (0 bytes): read as a script of no events") }
        // A regular file is asked for a file header's worth whatever its first bytes: a
        // log whose magic was zeroed, or now begins with `{`, is a damaged log, not a
        // script. Other input only when its first bytes are close to the magic (not a
        // terminal someone types a script into, nor a pipe a script trickles through).
        let regular = file.kind == .regular && path != "-"
        if regular || !startsAsScript(head) && nearMagic(head), try file.peek(LogFormat.fileHeaderSize).withUnsafeBytes(FileHeader.onlyMagicDamaged) {
            complain("\(path): \(damagedMagic(head, path: path))")
            ReadFailure.keep(LogError(.damaged, "its magic (bytes 0-7) is damaged", path: path, offset: 0))
            throw Exit.invalidInput
        }
        if let problem = notAScript(head, path: path) {
            complain("\(path): \(problem)")
            ReadFailure.keep(LogError(.notALog, problem, path: path))
            throw Exit.invalidInput
        }
    }

    /// Why an input that is not a log is no script either, from its first bytes: a
    /// script's first line is JSON (`{`), a comment (`#`) or blank, after an optional
    /// byte-order mark. A random binary file, or a log whose magic was damaged, would
    /// otherwise be reported as "line 1: not valid JSON". (A log whose magic alone is
    /// damaged is told apart before, by `checkScript`.)
    static func notAScript(_ head: [UInt8], path: String) -> String? {
        guard !startsAsScript(head) else { return nil }
        let bytes = head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]
        let page = bytes.prefix(5).map { $0 | 0x20 } == Array("<!doc".utf8) || bytes.prefix(5).map { $0 | 0x20 } == Array("<html".utf8)
        let hint = nearMagic(head) ? " (close to a log's magic, but no log's file header follows)"
            : page ? ": an HTML page, such as `selectlog view` writes"
            : bytes.first == UInt8(ascii: "[") ? ": a JSON array, perhaps of events; a script holds one event object on each line (`jq -c '.[]' FILE` writes them so)"
            : ReadFailure.compressedHint(head, name: path).map { " (\($0))" } ?? ""
        return "neither a selectlog log (which begins with \"SELECTLG\") nor a JSON Lines script (whose first line is an object, a # comment or blank): it begins with bytes \(described(head))\(hint)"
    }

    /// Whether the file at `path` reads as a JSON Lines script: after a byte-order mark,
    /// blank lines and comment lines (`#`), a line that begins with `{`; or, unless
    /// `requiringEvent`, comments alone (a script of no events, as `replay` reads it) or
    /// comments past the first MiB, which is all that is read. A page (`<!DOCTYPE`), a
    /// Swift file (`import`, `//`, `#if` before them) or an empty file does not. Outputs
    /// are not written over such a file; the hint to `record` a log of it (which a file
    /// of Markdown headings alone would not be worth) requires an event.
    static func looksLikeScript(_ path: String, requiringEvent: Bool = false) -> Bool {
        let limit = 1 << 20
        guard let head = try? readPrefix(path, count: limit) else { return false }
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var comments = false
        while let first = bytes.first {
            switch first {
            case 0x20, 0x09, 0x0A, 0x0D: bytes = bytes.dropFirst()
            case UInt8(ascii: "#"):
                comments = true
                guard let end = bytes.firstIndex(of: 0x0A) else { return !requiringEvent }
                bytes = bytes[(end + 1)...]
            default: return first == UInt8(ascii: "{")
            }
        }
        return comments && !requiringEvent
    }

    /// Whether `head` begins as a script may: JSON (`{`), a comment (`#`) or blank, after
    /// an optional byte-order mark; an empty input too (a script of no events).
    private static func startsAsScript(_ head: [UInt8]) -> Bool {
        let bytes = head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]
        return bytes.first.map { "{# \t\r\n".utf8.contains($0) } ?? true
    }

    /// Whether at least half of the magic's bytes are in place in `head`.
    private static func nearMagic(_ head: [UInt8]) -> Bool { zip(head, LogFormat.magic).filter { $0 == $1 }.count >= 4 }

    /// The first 8 bytes of `head` in hex, and as text too when they are printable
    /// (`("<!DOCTYP")`), for a message naming what a file begins with.
    private static func described(_ head: [UInt8]) -> String {
        let text = head.prefix(8).allSatisfy { (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
            ? " (\"\(String(decoding: head.prefix(8), as: UTF8.self))\")" : ""
        return ReportText.bytes(head.prefix(8)) + text
    }

    /// What a log whose magic alone is damaged is, from its first bytes, and the repair
    /// (of a file: piped input is saved to one first).
    static func damagedMagic(_ head: [UInt8], path: String) -> String {
        let repair = path == "-" ? "saved to a file, `selectlog verify --repair FILE` writes the magic again"
            : "`selectlog verify --repair \(path.shellWord)` writes the magic again"
        return "a selectlog log whose magic (its first 8 bytes, which should read \"SELECTLG\") is damaged: they are \(described(head)); the rest of its file header checks out, and \(repair)"
    }

    /// Whether `path` holds a log. Reads from the path: for a pipe, use `open(_:)`.
    static func isLog(_ path: String) throws -> Bool {
        isLog(head: try readPrefix(path, count: LogFormat.magic.count))
    }

    /// Whether an input's first bytes (up to the magic's length) are a log's.
    static func isLog(head: [UInt8]) -> Bool {
        !head.isEmpty && head == Array(LogFormat.magic.prefix(head.count))
    }

    /// The state after `at` events (default all) of a script or a log; exits 65 on bad input.
    static func state(of path: String, at: Int?, fromStart: Bool = false) throws -> TableState {
        switch try open(path) {
        case .log(let log):
            if let at, at > log.eventCount {
                complain("--at \(at): \(path) has only \(counted(log.eventCount, "event", "events"))")
                throw Exit.usage
            }
            do {
                if fromStart {
                    var state = TableState()
                    try log.replay(into: &state, to: at ?? log.eventCount)
                    return state
                }
                return try log.state(at: at ?? log.eventCount)
            } catch {
                ReadFailure.report(error, log: path, mapped: log.path)
                throw Exit.invalidInput
            }
        case .script(let file):
            return try state(ofScript: file, at: at)
        }
    }

    /// Replays a script as it streams in, to its end or its first bad line (one that
    /// does not decode, or an event the engine rejects), keeping the state after `at`
    /// events. A bad line after those events is noted on standard error and the state
    /// is the answer, as `inspect` and `export` answer a view that ends before it; a bad
    /// line the answer needs (within `at` events, or anywhere without `at`) exits 65
    /// naming it. `at` past the script's end is a usage error. A pipe or a device is
    /// read only up to `at` events (`forEachScriptEvent`'s `needsMore`).
    static func state(ofScript file: InputFile, at: Int?) throws -> TableState {
        // 0 bytes was noted when the input was opened (`checkScript`).
        let empty = try file.peek(1).isEmpty
        var state = TableState()
        var answer: TableState? = at == 0 ? state : nil
        var count = 0
        var failure: BadLine?
        try forEachScriptEvent(file, stopsAt: { error in
            failure = BadLine(file.path, error)
            return true
        }, needsMore: { at.map { count < $0 } ?? true }) { line, event in
            do throws(InvalidEvent) {
                try state.applyDiscardingChanges(event)
            } catch {
                failure = BadLine(file.path, ScriptError(line: line, reason: error))
                return false
            }
            count += 1
            if count == at { answer = state }
            return true
        }
        if let failure {
            guard let answer else {
                failure.report()
                throw Exit.invalidInput
            }
            noteBadLine(failure, eventsBefore: count)
            return answer
        }
        if let at, at > count {
            complain("--at \(at): \(file.path) has only \(counted(count, "event", "events"))")
            throw Exit.usage
        }
        // As for 0 bytes: a CI job's output shows a file that was not the script meant.
        // A pipe read only up to `at` events has not been read to its end.
        if count == 0, !empty, at == nil || file.kind == .regular {
            complain("\(file.path): holds no events (only blank lines and # comments): the state is a new table's")
        }
        return answer ?? state
    }

    /// The note for a script's bad line after the events a view needs (`replay --at`,
    /// `inspect`, `export`), which answers from the `count` events before it.
    static func noteBadLine(_ failure: BadLine, eventsBefore count: Int) {
        complain("note: \(failure.message); reading the \(count) event\(count == 1 ? "" : "s") before it")
    }

    /// A script's invalid line: the message naming the file and the line, and the
    /// refusal, which a JSON error object gives as its `rejected` object.
    struct BadLine {
        /// `FILE: line N: type: reason`, as stderr says it.
        let message: String
        /// The line and the engine's reason; nil when the line failed for another cause
        /// (the temporary log a script is recorded to could not be written).
        let refused: ScriptError?
        /// What failed instead, when the line's event was not refused.
        let failure: LogError?

        /// Line `error.line` of the script named `file`.
        init(_ file: String, _ error: ScriptError) {
            message = "\(file): \(error)"
            refused = error
            failure = nil
        }

        /// A failure at a line that is no refusal of the line's event (`error`: the
        /// temporary log the script is recorded to could not take it).
        init(message: String, error: LogError) {
            self.message = message
            refused = nil
            failure = error
        }

        /// Says it on stderr as the error a command stops with, and keeps the refusal
        /// (`ReadFailure.refusedLine`) or the failure (`ReadFailure.first`) for the JSON
        /// error object.
        func report() {
            complain(message)
            if let refused { ReadFailure.noteRefused(refused) }
            if let failure { ReadFailure.keep(failure) }
        }
    }

    /// The streaming entry point: calls `body` with each event of the script at
    /// `path` and its line number, reading a chunk at a time, until the script ends
    /// or `body` returns false. A line that is not a valid event exits 65 naming it.
    static func forEachScriptEvent(_ path: String, _ body: (Int, TimedEvent) throws -> Bool) throws {
        try forEachScriptEvent(InputFile(path), body)
    }

    /// `forEachScriptEvent(_:_:)` on an input already open (and perhaps sniffed).
    /// `stopsAt`, given a line that is not a valid event (its error, naming the line),
    /// returns true to end the walk there without an error.
    ///
    /// `needsMore` says whether the caller's view needs another event. A regular file is
    /// read to its end whatever it says, so that a bad line after the events a view needs
    /// is noted; a pipe or a device is read no further once it says no (checked before
    /// every read and after every event), so that an endless stream (`tail -f`, a live
    /// app's output) is answered, and one that holds just those events is not waited on.
    static func forEachScriptEvent(_ file: InputFile, stopsAt: ((ScriptError) -> Bool)? = nil, needsMore: (() -> Bool)? = nil,
                                   _ body: (Int, TimedEvent) throws -> Bool) throws {
        var reader = ScriptReader()
        let done: () -> Bool = file.kind == .regular ? { false } : { needsMore.map { !$0() } ?? false }
        while true {
            if done() { return }
            let chunk = try file.read(upTo: 1 << 20)
            if let chunk { reader.append(chunk) } else { reader.finish() }
            do {
                while let (line, event) = try reader.nextEvent() {
                    if try !body(line, event) || done() { return }
                }
            } catch let error as ScriptError {
                if let stopsAt, stopsAt(error) { return }
                BadLine(file.path, error).report()
                throw Exit.invalidInput
            }
            if chunk == nil { return }
        }
    }

    /// A whole script in memory, for small inputs; commands stream with `forEachScriptEvent`.
    static func loadScript(_ path: String) throws -> Script {
        var entries: [(line: Int, event: TimedEvent)] = []
        try forEachScriptEvent(path) { line, event in
            entries.append((line, event))
            return true
        }
        var script = try Script(bytes: [UInt8]())
        script.entries = entries
        return script
    }

    /// Opens a log for reading; a torn tail is reported on stderr, damage exits 65
    /// (reported by `ReadFailure`, like damage that a later read finds).
    static func openLog(_ path: String) throws -> LogReader {
        try openLog(InputFile(path, expecting: "a log"))
    }

    /// Whether `head`, the first bytes of a piped input that begins with the magic, holds
    /// a file header this build reads: a damaged one, or a newer build's, is all the
    /// reader needs to refuse the log, so the rest is not copied (`SELECTLG` then
    /// gigabytes of anything).
    static func isSoundLogHeader(_ head: [UInt8]) -> Bool {
        head.withUnsafeBytes { if case .success = FileHeader.decode($0) { true } else { false } }
    }

    /// Calls `body` with a path where the log at `path` can be mapped: `path` itself for a
    /// regular file; for `-`, a pipe or a FIFO, a temporary copy (`SpooledCopy`, let go
    /// of afterwards), of its first bytes only when they are not a log's. `realFile` tells
    /// `body` which it got. A device (`/dev/zero`) is refused, exit 74.
    static func withLogPath<T>(_ path: String, _ body: (_ mapped: String, _ realFile: Bool) throws -> T) throws -> T {
        let file = try InputFile(path, expecting: "a log")
        if file.kind == .regular && file.path != "-" { return try body(path, true) }
        if file.kind == .device && file.path != "-" && file.path != "/dev/stdin" && !file.path.hasPrefix("/dev/fd/") {
            complain("\(path): is a device, not a log file")
            throw Exit.io
        }
        let copy = try file.spool(limit: maxPipedLog, magic: LogFormat.magic, soundHead: Input.isSoundLogHeader)
        defer { copy.remove() }
        return try body(copy.path, false)
    }

    /// Opens the log `file` holds: a regular file is mapped where it is (after
    /// checking that the path still names the file that was opened); anything else
    /// is copied to a temporary file first.
    static func openLog(_ file: InputFile) throws -> LogReader {
        var mapped = file.path
        var copy: SpooledCopy?
        if file.kind == .regular && file.path != "-" {
            guard FileIdentity(path: file.path) == file.identity else {
                complain("\(file.path): the file changed while it was being opened")
                throw Exit.io
            }
        } else {
            copy = try file.spool(limit: maxPipedLog, magic: LogFormat.magic, soundHead: Input.isSoundLogHeader)
            mapped = copy?.path ?? mapped
        }
        // The reader has mapped it by the time it returns.
        defer { copy?.remove() }
        do {
            let log = try LogReader(path: mapped, engine: .standard, shownAs: file.path)
            ReadFailure.noteRejectedIndex(log, of: file.path)
            if let tail = log.tail {
                ReadFailure.noteTornTail(tail, of: file.path, counted(log.eventCount, "complete event", "complete events"))
            }
            return log
        } catch {
            ReadFailure.report(error, log: file.path, mapped: mapped)
            throw error.code == .io ? Exit.io : Exit.invalidInput
        }
    }

    /// The command line with `--option -N` joined into `--option=-N`: a negative
    /// number (or a row or range that starts with one, `-1,0`) after an option is then
    /// judged by the option, with its own message,
    /// instead of being taken for an unknown option ("Missing value").
    ///
    /// An argument such as `-dash.log` that names an existing file is refused (exit 64)
    /// with the way to name it: the parser would take it for the short options `-d -a
    /// -s -h …`, and `-h` prints the help and exits 0, so `verify -dash.log` checked
    /// nothing and succeeded.
    static func arguments(_ arguments: [String]) throws -> [String] {
        var out: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" {
                out += arguments[i...]
                break
            }
            if a.hasPrefix("-"), !a.hasPrefix("--"), a.utf8.count > 2, access(a, F_OK) == 0 {
                complain("\(a): a file whose name starts with '-' is read as options; write ./\(a), or put -- before it")
                throw Exit.usage
            }
            if a.hasPrefix("--"), a.count > 2, !a.contains("="), i + 1 < arguments.count, isNegativeNumber(arguments[i + 1]) {
                out.append(a + "=" + arguments[i + 1])
                i += 2
                continue
            }
            out.append(a)
            i += 1
        }
        return out
    }

    private static func isNegativeNumber(_ s: String) -> Bool {
        let rest = s.utf8.dropFirst()
        return s.utf8.first == UInt8(ascii: "-") && !rest.isEmpty
            // Also a row (`-1,0`, `-1:0`) and a range (`-1..5`).
            && rest.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ":") }
            && rest.first.map { $0 >= 0x30 && $0 <= 0x39 } == true
    }
}
