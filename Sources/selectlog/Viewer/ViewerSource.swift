import SelectLog
import SelectLogStore

/// A script or a log, walked event by event over a window for the viewer.
///
/// Both kinds go through `Input` (told apart by content), so the viewer reads exactly
/// what `replay` reads; errors name the file and the line or event, and exit 65.
enum ViewerSource {
    case log(LogReader, path: String)
    case script(Script, path: String)

    /// Opens `path` as a log or a script.
    static func open(_ path: String) throws -> ViewerSource {
        if try Input.isLog(path) { return .log(try Input.openLog(path), path: path) }
        return .script(try Input.loadScript(path), path: path)
    }

    /// How many events the file holds.
    var eventCount: Int {
        switch self {
        case .log(let reader, _): reader.eventCount
        case .script(let script, _): script.entries.count
        }
    }

    /// Calls `body` with the state after `from` events, then with each event
    /// `from + 1 ... to` (numbered from 1, spec 7), the state before it and the state after it.
    func walk(from: Int, to: Int,
              start: (TableState) -> Void,
              body: (_ number: Int, _ event: TimedEvent, _ before: TableState, _ after: TableState) -> Void) throws {
        switch self {
        case .log(let reader, _):
            do throws(LogError) {
                var state = try reader.state(at: from)
                start(state)
                try reader.forEachEvent(from: from, to: to) { (index, e) throws(LogError) -> Bool in
                    let before = state
                    try reader.apply(e, index: index, to: &state)
                    body(index + 1, e, before, state)
                    return true
                }
            } catch {
                complain("\(error)")
                throw error.code == .io ? Exit.io : Exit.invalidInput
            }
        case .script(let script, let path):
            var state = TableState()
            do throws(ScriptError) {
                try script.replay(upTo: from, into: &state)
            } catch {
                complain("\(path): \(error)")
                throw Exit.invalidInput
            }
            start(state)
            for number in stride(from: from + 1, through: to, by: 1) {
                let (line, e) = script.entries[number - 1]
                let before = state
                do throws(InvalidEvent) {
                    _ = try state.apply(e)
                } catch {
                    complain("\(path): \(ScriptError(line: line, reason: error))")
                    throw Exit.invalidInput
                }
                body(number, e, before, state)
            }
        }
    }
}
