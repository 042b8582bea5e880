import SelectLog
import SelectLogStore

/// A script or a log, told apart by content: a log begins with the magic "SELECTLG".
enum Input {
    static func isLog(_ path: String) throws -> Bool {
        let head = try readPrefix(path, count: 8)
        return !head.isEmpty && head == Array(LogFormat.magic.prefix(head.count))
    }

    /// The state after `at` events (default all) of a script or a log; exits 65 on bad input.
    static func state(of path: String, at: Int?, fromStart: Bool = false) throws -> TableState {
        if try isLog(path) {
            let log = try openLog(path)
            if let at, at > log.eventCount {
                complain("--at \(at): \(path) has only \(log.eventCount) events")
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
                complain("\(error)")
                throw Exit.invalidInput
            }
        }
        let script = try loadScript(path)
        if let at, at > script.entries.count {
            complain("--at \(at): \(path) has only \(script.entries.count) events")
            throw Exit.usage
        }
        var state = TableState()
        do {
            try script.replay(upTo: at, into: &state)
        } catch {
            complain("\(path): \(error)")
            throw Exit.invalidInput
        }
        return state
    }

    static func loadScript(_ path: String) throws -> Script {
        let bytes = try readFile(path)
        do {
            return try Script(bytes: bytes)
        } catch {
            complain("\(path): \(error)")
            throw Exit.invalidInput
        }
    }

    /// Opens a log for reading; a torn tail is reported on stderr, damage exits 65.
    static func openLog(_ path: String) throws -> LogReader {
        do {
            let log = try LogReader(path: path)
            if let tail = log.tail {
                complain("\(path): note: ignoring a torn tail at byte offset \(tail.offset) (\(tail.reason)); \(log.eventCount) complete events")
            }
            return log
        } catch {
            complain("\(error)")
            if error.code == .io { throw Exit.io }
            if error.code == .damaged { complain("run `selectlog verify --repair \(path)` to cut the log back to its intact prefix") }
            throw Exit.invalidInput
        }
    }
}
