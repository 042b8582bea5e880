import Foundation

/// A value that is reachable only while its lock is held, with a condition to wait on.
///
/// The shape of swift-nio's `NIOLockedValueBox`: the state lives inside the box and
/// `withLockedValue` is the way to it, so the compiler, not a comment, keeps every
/// access under the lock. Waiting happens before the body runs, never while it
/// holds the value, and `wake()` tells waiters to look again. (The recorder's engine
/// lock, which nothing waits on and every append takes, is the cheaper `EngineLock`.)
final class LockedBox<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only between `pthread_mutex_lock` and
    // `pthread_mutex_unlock`, in the methods below. The lock is what makes access
    // exclusive; memory behind a pointer has no runtime exclusivity check (which cost
    // a third of the recorder's own cost per append when the value was a stored
    // property).
    //
    // A pthread mutex and condition held directly (at fixed addresses, as POSIX wants):
    // `NSCondition` costs about twice as much per lock and unlock.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// The value, at a fixed address.
    private let value: UnsafeMutablePointer<Value>
    /// How many threads wait on the condition, read and written under the mutex: a thread
    /// that changed what they wait for can skip the wake-up (a system call) when none does.
    private let waiting: UnsafeMutablePointer<Int>

    init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        waiting = .allocate(capacity: 1)
        waiting.initialize(to: 0)
        // Default attributes cannot fail to initialize short of memory exhaustion.
        _ = pthread_mutex_init(mutex, nil)
        #if canImport(Darwin)
        _ = pthread_cond_init(condition, nil)
        #else
        // Deadlines on the monotonic clock: a wall clock set back would stretch a timed
        // wait (the recorder's writer waits 1 ms, or the flush interval) by as much.
        var attributes = pthread_condattr_t()
        _ = pthread_condattr_init(&attributes)
        _ = pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        _ = pthread_cond_init(condition, &attributes)
        _ = pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        _ = pthread_cond_destroy(condition)
        _ = pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        waiting.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value, under the lock. Always inlined, so that the body runs
    /// on the concrete value in place (the writer thread's state at every round, the
    /// publishing appends), not through a generic closure that moved it.
    @inline(__always)
    func withLockedValue<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// Waits (releasing the lock) until `ready` holds or `timeout` has passed, then runs
    /// `body` under the lock; `body`'s second argument says whether `ready` held.
    func withLockedValue<T, E: Error>(waitingFor ready: (Value) -> Bool, timeout: Duration? = nil,
                                      _ body: (inout Value, Bool) throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let end = timeout.map { ContinuousClock.now + $0 }
        while !ready(value.pointee) {
            waiting.pointee += 1
            defer { waiting.pointee -= 1 }
            if let end {
                if waitTimedOut(before: end) { break }
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        return try body(&value.pointee, ready(value.pointee))
    }

    /// Wakes every thread waiting in `withLockedValue(waitingFor:)` to test its condition again.
    func wake() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Whether a thread waits in `withLockedValue(waitingFor:)`. Only for the holder of
    /// the lock (in a `withLockedValue` body).
    @inline(__always)
    var hasWaitersWhileLocked: Bool { waiting.pointee > 0 }

    /// Wakes every waiting thread without taking the lock. For a thread that changed what
    /// they wait for under the lock, saw `hasWaitersWhileLocked` there, and has unlocked
    /// since: a waiter either saw the change before it waited or is already waiting (it
    /// registers, and waits, without ever releasing the lock in between), so no wake-up is
    /// lost, and a thread that starts waiting later checks first.
    @inline(__always)
    func wakeUnlocked() {
        pthread_cond_broadcast(condition)
    }

    /// Waits on the condition (the lock held) until woken or `end`; true when `end` passed.
    /// Measured on a monotonic clock, never the wall clock.
    private func waitTimedOut(before end: ContinuousClock.Instant) -> Bool {
        let remaining = end - ContinuousClock.now
        guard remaining > .zero else { return true }
        #if canImport(Darwin)
        var relative = Self.adding(remaining, to: timespec())
        return pthread_cond_timedwait_relative_np(condition, mutex, &relative) == ETIMEDOUT
        #else
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        var deadline = Self.adding(remaining, to: now)
        return pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT
        #endif
    }

    /// `start` plus `duration` (positive), as a `timespec`.
    private static func adding(_ duration: Duration, to start: timespec) -> timespec {
        let (s, atto) = duration.components
        let nanos = Int64(start.tv_nsec) + atto / 1_000_000_000
        let seconds = Int64(start.tv_sec) + s + nanos / 1_000_000_000
        return timespec(tv_sec: .init(seconds), tv_nsec: .init(nanos % 1_000_000_000))
    }
}

extension Duration {
    /// The duration in whole microseconds, rounded down.
    var wholeMicroseconds: Int64 {
        let (s, atto) = components
        return s * 1_000_000 + atto / 1_000_000_000_000
    }
}
