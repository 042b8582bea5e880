import SelectLog
import SelectLogStore

/// A script or a log, walked event by event over a window for the viewer.
///
/// Both kinds are opened once through `Input` (told apart by content; pipes work), so
/// the viewer reads exactly what `replay` reads; errors name the file and the line or
/// event, and exit 65. A script is streamed: only the events a window can need are kept.
enum ViewerSource {
    case log(LogReader, path: String)
    /// `whole`: read to its end (or to a bad line), so that its count is the file's.
    case script(ScriptWindowBuffer, path: String, whole: Bool)

    /// Opens `path` as a log or a script, for a window chosen by `from`, `to` and `at`.
    static func open(_ path: String, from: Int?, to: Int?, at: Int?) throws -> ViewerSource {
        switch try Input.open(path) {
        case .log(let reader):
            return .log(reader, path: path)
        case .script(let file):
            var buffer = ScriptWindowBuffer(from: from, to: to, at: at)
            var failure: Input.BadLine?
            try Input.forEachScriptEvent(file, stopsAt: { error in
                failure = Input.BadLine(file.path, error)
                return true
            }, needsMore: { buffer.needsEvents(past: buffer.count) }) { line, event in
                do throws(ScriptError) {
                    try buffer.append(event, line: line)
                } catch {
                    failure = Input.BadLine(path, error)
                    return false
                }
                return true
            }
            if let failure {
                // A bad line after the events the window needs is noted, as `replay --at`
                // notes it; one the window needs exits 65 naming it.
                guard !buffer.needsEvents(past: buffer.count) else {
                    failure.report()
                    throw Exit.invalidInput
                }
                Input.noteBadLine(failure, eventsBefore: buffer.count)
            }
            // A pipe or a device is read no further than the window needs (`needsMore`):
            // then its count is of the events read, not of the input, which `view` says.
            let whole = file.kind == .regular || failure != nil || buffer.needsEvents(past: buffer.count)
            return .script(buffer, path: path, whole: whole)
        }
    }

    /// How many events the file holds, or, read no further than a window needs (a piped
    /// script, `isWhole` false), how many were read.
    var eventCount: Int {
        switch self {
        case .log(let reader, _): reader.eventCount
        case .script(let buffer, _, _): buffer.count
        }
    }

    /// Whether `eventCount` is the file's count: false for a pipe or a device read no
    /// further than the window needs (a piped log is read whole before it is opened).
    var isWhole: Bool {
        switch self {
        case .log: true
        case .script(_, _, let whole): whole
        }
    }

    /// Calls `start` with the state after `from` events, then `body` with each event
    /// `from + 1 ... to` (numbered from 1, spec 7), the state before it and the state after
    /// it, until `body` returns false.
    func walk(from: Int, to: Int,
              start: (TableState) -> Void,
              body: (_ number: Int, _ event: TimedEvent, _ before: TableState, _ after: TableState) -> Bool) throws {
        switch self {
        case .log(let reader, let path):
            do throws(LogError) {
                var state = try reader.state(at: from)
                start(state)
                try reader.forEachEvent(from: from, to: to) { (index, e) throws(LogError) -> Bool in
                    let before = state
                    try reader.apply(e, index: index, to: &state)
                    return body(index + 1, e, before, state)
                }
            } catch {
                ReadFailure.report(error, log: path, mapped: reader.path)
                throw error.code == .io ? Exit.io : Exit.invalidInput
            }
        case .script(let buffer, let path, _):
            guard buffer.covers(from: from, to: to) else {
                complain("\(path): events \(from + 1)..\(to) were not kept while reading; choose the window with --from and --to")
                throw Exit.usage
            }
            do throws(ScriptError) {
                try buffer.walk(from: from, to: to, start: start, body: body)
            } catch {
                complain("\(path): \(error)")
                throw Exit.invalidInput
            }
        }
    }
}

/// A script's events as they stream in, keeping only what the window can need: the
/// state before the earliest event a window may start after, and the events from there
/// to the last one a window may end at (at most twice the window's limit).
struct ScriptWindowBuffer {
    /// The state after `baseCount` events.
    private(set) var base = TableState()
    private(set) var baseCount = 0
    /// Events `baseCount + 1 ...`, with their lines; `head` of them are already in `base`.
    private var kept: [(line: Int, event: TimedEvent)] = []
    private var head = 0
    /// Valid events read so far, and the state after them.
    private(set) var count = 0
    private var latest = TableState()
    private let from: Int?, to: Int?, at: Int?, limit: Int

    init(from: Int?, to: Int?, at: Int?, limit: Int = ViewerWindow.limit) {
        self.from = from
        self.to = to
        self.at = at
        self.limit = limit
    }

    /// The earliest state a window may start at, knowing `count` events so far (it only grows).
    private var lowest: Int {
        if let from { return from }
        if let to { return max(0, to - limit) }
        if let at { return max(0, at - limit) }
        return max(0, count - limit)
    }

    /// The last event a window may end at (`ViewerWindow`), if bounded: `--to`; `limit`
    /// events after `--from`; the end of the `limit` events around `--at`. (Saturating:
    /// `--from` of `Int.max` is a window past the end, which `ViewerWindow` refuses, not a trap.)
    private var highest: Int? {
        func plusLimit(_ n: Int) -> Int { n > Int.max - limit ? Int.max : n + limit }
        if let to { return to }
        if let from { return plusLimit(from) }
        if let at { return plusLimit(max(0, at - limit / 2)) }
        return nil
    }

    /// Whether a window needs events past the first `count`: a bad line after them is
    /// noted and the page made from them, as `replay --at` answers; one the window needs
    /// is an error. The default window (the last events) needs every one; the others, up
    /// to `highest`: cut short at a bad line, `--from` or `--at` alone would quietly hold
    /// fewer events, or another centre.
    func needsEvents(past count: Int) -> Bool {
        guard let highest else { return true }
        return [from, to, at, highest].contains { ($0 ?? 0) > count }
    }

    /// Takes the next event of the script (read from `line`). Every event is checked as
    /// it comes (on `latest`), so that the count is of valid events and a bad line after
    /// the window is found, as `replay` finds it.
    mutating func append(_ event: TimedEvent, line: Int) throws(ScriptError) {
        do throws(InvalidEvent) {
            try latest.applyDiscardingChanges(event)
        } catch {
            throw ScriptError(line: line, reason: error)
        }
        count += 1
        if let highest, count > highest { return }
        // A window chosen by --from, --to or --at starts at a fixed state: the events
        // before it are checked (above) and not kept, and the state there is taken once
        // (applying them to `base` as well cost a second replay of everything before it).
        if from != nil || to != nil || at != nil, count <= lowest {
            if count == lowest {
                base = latest
                baseCount = count
            }
            return
        }
        kept.append((line, event))
        while baseCount < lowest, head < kept.count {
            let next = kept[head]
            do throws(InvalidEvent) {
                _ = try base.apply(next.event)
            } catch {
                throw ScriptError(line: next.line, reason: error)
            }
            head += 1
            baseCount += 1
        }
        if head > limit {
            kept.removeFirst(head)
            head = 0
        }
    }

    /// Whether the states after `from` through after `to` events can be walked.
    func covers(from: Int, to: Int) -> Bool {
        from >= baseCount && from <= to && to <= baseCount + kept.count - head
    }

    /// Replays up to `from`, then walks `from + 1 ... to` as `ViewerSource.walk` does.
    func walk(from: Int, to: Int,
              start: (TableState) -> Void,
              body: (Int, TimedEvent, TableState, TableState) -> Bool) throws(ScriptError) {
        var state = base
        for number in stride(from: baseCount + 1, through: to, by: 1) {
            let (line, event) = kept[head + number - baseCount - 1]
            let before = state
            do throws(InvalidEvent) {
                _ = try state.apply(event)
            } catch {
                throw ScriptError(line: line, reason: error)
            }
            if number == from + 1 { start(before) }
            if number > from, !body(number, event, before, state) { return }
        }
        if from == to { start(state) }
    }
}
