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
        // Never closer than 8,192 events, whatever the header says: an interval of 1 (a
        // forged header's) kept a state after every event and replayed each event's window
        // from its start again, taking minutes and gigabytes.
        let interval = Swift.max(RebuiltCheckpoints.leastInterval, Int(header.checkpointInterval))
        var state = rebuilt.best(atOrBefore: n) ?? TableState()
        while state.events < n {
            let next = Swift.min(n, (state.events / interval + 1) * interval)
            try replay(into: &state, to: next)
            if next % interval == 0 { rebuilt.keep(state) }
        }
        return state
    }
}

/// States this build computed at checkpoint positions, kept in memory: at most
/// `capacity` of them, whose snapshots take at most `byteBudget` in all (a state's
/// snapshot is a fraction of its memory). When either is passed, every other one is
/// dropped, the latest kept, so the kept ones stay spread out; a state larger than the
/// budget is not kept.
/// Counted by states alone, 48 states of a 16 MB selection held 800 MB.
final class RebuiltCheckpoints: @unchecked Sendable {
    // @unchecked: `states` is only touched with `lock` held.
    private let lock = NSLock()
    private var states: [(state: TableState, bytes: Int)] = []
    private let capacity = 48
    /// The most bytes of snapshots kept.
    static let byteBudget = 4 << 20
    /// The fewest events between two kept states.
    static let leastInterval = 8192

    func best(atOrBefore n: Int) -> TableState? {
        lock.lock()
        defer { lock.unlock() }
        return states.last { $0.state.events <= n }?.state
    }

    /// The positions (events seen) of the states kept, in order.
    var positions: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return states.map(\.state.events)
    }

    /// The bytes of snapshots kept.
    var bytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return heldBytes
    }

    /// `bytes`, with `lock` held.
    private var heldBytes: Int { states.reduce(0) { $0 + $1.bytes } }

    func keep(_ state: TableState) {
        lock.lock()
        let known = states.contains { $0.state.events == state.events }
        lock.unlock()
        guard !known else { return }
        // Measured outside the lock: the snapshot is as large as the state's parts.
        let bytes = state.snapshot().count
        guard bytes <= Self.byteBudget else { return }
        lock.lock()
        defer { lock.unlock() }
        guard !states.contains(where: { $0.state.events == state.events }) else { return }
        states.append((state, bytes))
        states.sort { $0.state.events < $1.state.events }
        // Every other one let go, counting back from the latest, which stays: a replay
        // goes on from it, and the states before it are nearer the start.
        while states.count > capacity || states.count > 1 && heldBytes > Self.byteBudget {
            let last = states.count - 1
            states = states.enumerated().filter { (last - $0.offset) % 2 == 0 }.map(\.element)
        }
    }
}

/// What the log says to people when its behaviour fingerprint differs from this build's.
/// A fingerprint that differs is all a reader knows: the engines may behave alike (the
/// fingerprint's corpus changed) or not, which only `selectlog check` tells, so the
/// notices claim no more.
package enum BehaviourNotice {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var said = false

    /// The notice for a log whose checkpoints this build does not trust.
    package static func untrusted(path: String, recorded: UInt64?) -> String {
        let why = recorded.map { "\(path): its behaviour fingerprint \(TableState.hex($0)) differs from this build's \(TableState.hex(BehaviourFingerprint.current))" }
            ?? "\(path) was written by a version 1 selectlog, which did not record its engine's behaviour"
        return "selectlog: \(why); replaying from the start instead of using its checkpoints (`selectlog check` says whether this build replays it the same)"
    }

    /// Why appending to a log written by another engine is refused.
    static func appendRefusal(recorded: UInt64) -> String {
        "the log's behaviour fingerprint \(TableState.hex(recorded)) differs from this build's \(TableState.hex(BehaviourFingerprint.current)); start a new log, or run `selectlog upgrade` to re-record it with this build"
    }

    /// Keeps the notice unsaid for the rest of the process: `selectlog check`, which
    /// reports the fingerprints itself, would otherwise be told to run `selectlog check`.
    package static func silence() {
        lock.lock()
        said = true
        lock.unlock()
    }

    /// Writes `message` on stderr, once per process.
    package static func sayOnce(_ message: String) {
        lock.lock()
        let first = !said
        said = true
        lock.unlock()
        guard first else { return }
        let bytes = Array((message + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
