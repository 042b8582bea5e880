import Foundation
#if !canImport(Darwin)
import Synchronization
#endif

/// A value that is reachable only while its lock is held, with no condition to wait on:
/// the recorder's engine lock, which every append takes once.
///
/// Every atomic read-modify-write waits until the stores before it have completed, so
/// each one on the append path costs what the engine's last stores still owe (a cache
/// line another core holds). A pthread mutex takes two: one to lock and one to unlock.
/// On Linux this lock is one atomic word, taken by an atomic exchange and released by a
/// plain release store, which waits for nothing; an append then costs about 10 ns less
/// (103–105 ns against 113–116 ns, alternating, on the standard session).
///
/// A store wakes nobody, so a thread that finds the lock held polls: it spins on the
/// word for a while (a holder keeps it for about 100 ns), then yields its core, then
/// sleeps 20 µs at a time, so a holder that was preempted gets the core back. Polling
/// never loses a wake-up, and the recorder's other users of the lock (`close()`,
/// `flush()`, the writer thread) take it rarely. On Apple platforms, where a thread that
/// spins or sleeps for a lock defeats priority donation, it is a pthread mutex, as in
/// `LockedBox`.
final class EngineLock<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only between `lock()` and `unlock()` (or
    // in `withLockedValue`), and the lock makes those sections exclusive.

    /// The value, at a fixed address so that `lock()` can hand it out.
    private let value: UnsafeMutablePointer<Value>
    #if canImport(Darwin)
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #else
    /// 0 free, 1 held; on a cache line of its own, so that the writer thread's work on
    /// nearby memory does not take it from the appending core.
    private let word: UnsafeMutablePointer<Atomic<UInt32>>
    #endif

    init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        #if canImport(Darwin)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        _ = pthread_mutex_init(mutex, nil)
        #else
        word = UnsafeMutableRawPointer.allocate(byteCount: Self.lineSize, alignment: Self.lineSize)
            .bindMemory(to: Atomic<UInt32>.self, capacity: 1)
        word.initialize(to: Atomic(0))
        #endif
    }

    deinit {
        #if canImport(Darwin)
        _ = pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        #else
        word.deinitialize(count: 1)
        UnsafeMutableRawPointer(word).deallocate()
        #endif
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Takes the lock and returns the value's address, for the recorder's append path,
    /// which cannot run in a closure. The caller touches the value only until it calls
    /// `unlock()`, which it must do on every path out.
    @inline(__always)
    func lock() -> UnsafeMutablePointer<Value> {
        #if canImport(Darwin)
        pthread_mutex_lock(mutex)
        #else
        if word.pointee.exchange(1, ordering: .acquiring) != 0 { lockWhenFree() }
        #endif
        return value
    }

    /// Releases the lock `lock()` took.
    @inline(__always)
    func unlock() {
        #if canImport(Darwin)
        pthread_mutex_unlock(mutex)
        #else
        word.pointee.store(0, ordering: .releasing)
        #endif
    }

    /// Runs `body` with the value, under the lock.
    @inline(__always)
    func withLockedValue<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        let value = lock()
        defer { unlock() }
        return try body(&value.pointee)
    }

    #if !canImport(Darwin)
    /// A cache line and the one beside it, which x86 cores fetch in pairs.
    private static var lineSize: Int { 128 }

    /// Polls until the lock is free and takes it: spins, then yields, then sleeps.
    @inline(never)
    private func lockWhenFree() {
        var attempts = 0
        while true {
            if word.pointee.load(ordering: .relaxed) == 0, word.pointee.exchange(1, ordering: .acquiring) == 0 {
                return
            }
            attempts += 1
            if attempts < 200 {
                continue
            } else if attempts < 220 {
                sched_yield()
            } else {
                usleep(20)
            }
        }
    }
    #endif
}
