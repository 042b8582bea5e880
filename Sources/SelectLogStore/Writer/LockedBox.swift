import Foundation

/// A value that is reachable only while its lock is held, with a condition to wait on.
///
/// The shape of swift-nio's `NIOLockedValueBox`: the state lives inside the box and
/// `withLockedValue` is the only way to it, so the compiler, not a comment, keeps
/// every access under the lock. Waiting happens before the body runs, never while it
/// holds the value, and `wake()` tells waiters to look again.
final class LockedBox<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only between `condition.lock()` and
    // `condition.unlock()`, in the two methods below. The lock is what makes access
    // exclusive, so the runtime's exclusivity check (a third of the recorder's own
    // cost per append) is off for it; the bodies get `value` inout, which the
    // compiler still checks statically.
    private let condition = NSCondition()
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock. Always inlined, so that the
    /// recorder's append runs on the concrete `State` in place (not through a
    /// generic closure that moved it).
    @inline(__always)
    func withLockedValue<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Waits (releasing the lock) until `ready` holds or `timeout` has passed, then runs
    /// `body` under the lock; `body`'s second argument says whether `ready` held.
    func withLockedValue<T, E: Error>(waitingFor ready: (Value) -> Bool, timeout: Duration? = nil,
                                      _ body: (inout Value, Bool) throws(E) -> T) throws(E) -> T {
        condition.lock()
        defer { condition.unlock() }
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0.seconds) }
        while !ready(value) {
            if let deadline {
                if !condition.wait(until: deadline) { break }
            } else {
                condition.wait()
            }
        }
        return try body(&value, ready(value))
    }

    /// Wakes every thread waiting in `withLockedValue(waitingFor:)` to test its condition again.
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}

extension Duration {
    /// The duration in seconds, for `Date`-based waits.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }

    /// The duration in whole microseconds, rounded down.
    var wholeMicroseconds: Int64 {
        let (s, atto) = components
        return s * 1_000_000 + atto / 1_000_000_000_000
    }
}
