#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SelectLog

extension LogReader {
    /// The state after `n` events computed by this build alone: from the nearest state
    /// it computed earlier at a checkpoint position (or from the start), never from the
    /// log's checkpoints, which another engine wrote.
    func rebuiltState(at n: Int) throws(LogError) -> TableState {
        let interval = header.checkpointInterval > 0 ? Int(header.checkpointInterval) : 8192
        var state = rebuilt.best(atOrBefore: n) ?? TableState()
        while state.events < n {
            let next = Swift.min(n, (state.events / interval + 1) * interval)
            try replay(into: &state, to: next)
            if next % interval == 0 { rebuilt.keep(state) }
        }
        return state
    }
}

/// States this build computed at checkpoint positions, kept in memory (at most
/// `capacity`; when full, every other one is dropped, so the kept ones stay spread out).
final class RebuiltCheckpoints: @unchecked Sendable {
    // @unchecked: `states` is only touched with `lock` held.
    private let lock = NSLock()
    private var states: [TableState] = []
    private let capacity = 48

    func best(atOrBefore n: Int) -> TableState? {
        lock.lock()
        defer { lock.unlock() }
        return states.last { $0.events <= n }
    }

    func keep(_ state: TableState) {
        lock.lock()
        defer { lock.unlock() }
        guard !states.contains(where: { $0.events == state.events }) else { return }
        states.append(state)
        states.sort { $0.events < $1.events }
        if states.count > capacity { states = states.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) }
    }
}

/// What the log says to people when this build's engine behaves differently from the
/// one that wrote a log.
package enum BehaviourNotice {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var said = false

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// The notice for a log whose checkpoints this build does not trust.
    package static func untrusted(path: String, recorded: UInt64?) -> String {
        let who = recorded.map { "an engine that behaves differently (behaviour fingerprint \(hex($0)), this build \(hex(BehaviourFingerprint.current)))" }
            ?? "a version 1 selectlog, which did not record its engine's behaviour"
        return "selectlog: \(path) was written by \(who); replaying from the start instead of using its checkpoints (`selectlog check` shows where the engines part ways)"
    }

    /// Why appending to a log written by another engine is refused.
    static func appendRefusal(recorded: UInt64) -> String {
        "the log was written by an engine that behaves differently (behaviour fingerprint \(hex(recorded)), this build \(hex(BehaviourFingerprint.current))); start a new log, or run `selectlog upgrade` to re-record it with this build"
    }

    /// Keeps the notice unsaid for the rest of the process: `selectlog check`, which
    /// reports the fingerprints itself, would otherwise be told to run `selectlog check`.
    package static func silence() {
        lock.lock()
        said = true
        lock.unlock()
    }

    /// Writes `message` on stderr, once per process.
    static func sayOnce(_ message: String) {
        lock.lock()
        let first = !said
        said = true
        lock.unlock()
        guard first else { return }
        let bytes = Array((message + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
