import Foundation
#if !canImport(Darwin)
import CBias
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
/// (101–104 ns against 113–114 ns, alternating, in a driver appending the standard
/// session).
///
/// The exchange was still about 4 ns of an append (6 points of the recorder's throughput
/// against `apply`), so on Linux the lock is also *biased* to the thread that appends:
/// that thread (the *owner*, the first to take the lock to append) enters with a plain
/// store and a plain load, and any other thread pays for both sides. See `LockBias`.
///
/// A store wakes nobody, so a thread that finds the lock held polls: it spins on the
/// word for a while (a holder keeps it for about 100 ns), then yields its core, then
/// sleeps 20 µs at a time, so a holder that was preempted gets the core back. Polling
/// never loses a wake-up. But a thread that appends in a loop takes the lock back
/// within nanoseconds of releasing it, so a poll every 20 µs or more would rarely find
/// it free: a thread that has waited a while says so (`starving`), and then no other
/// thread takes the lock until one that says so has had it. The fast path pays one
/// load of a cache line that nobody writes then. On Apple platforms, where a thread
/// that spins or sleeps for a lock defeats priority donation, it is a pthread mutex, as
/// in `LockedBox`.
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
    /// How many threads have waited a while (spun, then yielded 20 times); while any
    /// has, only they take the lock. On the next line pair, written only then.
    private let starving: UnsafeMutablePointer<Atomic<UInt32>>
    /// The bias to the appending thread, on the line pair after that.
    private let bias: LockBias
    /// Whether the word's holder keeps the owner out (`LockBias.hold`); read and written
    /// only with the word held. (Unchecked: the word makes the accesses exclusive, and a
    /// dynamic check would cost every unlock by a thread other than the owner.)
    @exclusivity(unchecked) private var holderRevoked = false
    /// Appends by threads other than the owner (`LockBias.hold`); only with the word held.
    @exclusivity(unchecked) private var foreignAppends = 0
    #endif

    init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        #if canImport(Darwin)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        _ = pthread_mutex_init(mutex, nil)
        #else
        let lines = UnsafeMutableRawPointer.allocate(byteCount: 3 * Self.lineSize, alignment: Self.lineSize)
        word = lines.bindMemory(to: Atomic<UInt32>.self, capacity: 1)
        word.initialize(to: Atomic(0))
        starving = (lines + Self.lineSize).bindMemory(to: Atomic<UInt32>.self, capacity: 1)
        starving.initialize(to: Atomic(0))
        bias = LockBias(at: lines + 2 * Self.lineSize)
        // Registered now rather than in the first append, with the word held: on older
        // kernels registering waits for every core to pass a quiescent state.
        _ = LockBias.available
        #endif
    }

    deinit {
        #if canImport(Darwin)
        _ = pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        #else
        bias.deinitialize()
        starving.deinitialize(count: 1)
        word.deinitialize(count: 1)
        UnsafeMutableRawPointer(word).deallocate()
        #endif
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Takes the lock and returns the value's address, for the recorder's append path,
    /// which cannot run in a closure. The caller touches the value only until it calls
    /// `unlock()`, which it must do on every path out. `appending` says that the caller
    /// appends: the first thread to do so becomes the bias's owner.
    @inline(__always)
    func lock(appending: Bool = false) -> UnsafeMutablePointer<Value> {
        #if canImport(Darwin)
        pthread_mutex_lock(mutex)
        #else
        if !bias.enter() { lockWord(appending: appending) }
        #endif
        return value
    }

    /// Releases the lock `lock()` took.
    @inline(__always)
    func unlock() {
        #if canImport(Darwin)
        pthread_mutex_unlock(mutex)
        #else
        if bias.leave() { return }
        if holderRevoked {
            holderRevoked = false
            bias.restore()
        }
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

    /// Takes the lock when the bias did not: the word, then the bias's part
    /// (`LockBias.hold`).
    @inline(never)
    private func lockWord(appending: Bool) {
        if starving.pointee.load(ordering: .relaxed) != 0 || word.pointee.exchange(1, ordering: .acquiring) != 0 {
            lockWhenFree()
        }
        holderRevoked = bias.hold(appending: appending, foreignAppends: &foreignAppends)
    }

    /// Polls until the lock is free and takes it: spins, then yields, then sleeps.
    /// A thread that has yielded a while counts as starving; while another thread
    /// starves, a thread that does not never tries, so the starving ones have the lock
    /// first. They yield rather than sleep at first: the lock is free within a holder's
    /// turn (about 100 ns) and nobody else takes it, so a starving thread that slept
    /// 20 µs (often 70 µs, with the kernel's timer slack) would leave it idle that long,
    /// and the threads that defer to it waiting with it. (With two threads appending in
    /// a loop, a `count` took 0.11–0.14 ms on average and 0.55 ms at worst this way,
    /// against 0.11–0.19 ms and 1.3 ms when starving threads slept.)
    @inline(never)
    private func lockWhenFree() {
        var attempts = 0
        var starves = false
        defer { if starves { starving.pointee.subtract(1, ordering: .relaxed) } }
        while true {
            let defers = !starves && starving.pointee.load(ordering: .relaxed) != 0
            if !defers, word.pointee.load(ordering: .relaxed) == 0, word.pointee.exchange(1, ordering: .acquiring) == 0 {
                return
            }
            attempts += 1
            if !defers, !starves, attempts >= 220 {
                starves = true
                starving.pointee.add(1, ordering: .relaxed)
            }
            pauseWhilePolling(after: attempts)
        }
    }

    /// How many threads wait for the lock as starving (for tests).
    var starvingThreads: Int { Int(starving.pointee.load(ordering: .relaxed)) }

    /// The bias's owner (for tests): nil before the first append, 0 when there is none.
    var biasOwner: UInt? { bias.ownerForTesting }
    #endif
}

#if !canImport(Darwin)
/// How a thread polling the engine lock (for its word, or for the bias owner's `busy`)
/// waits after `polls` polls: not at all for the first 200 (a holder keeps the lock for
/// about 100 ns), then by yielding its core, then 20 µs at a time after 5,000, so that a
/// holder that was preempted gets the core back.
func pauseWhilePolling(after polls: Int) {
    if polls < 200 {
        return
    } else if polls < 5_000 {
        sched_yield()
    } else {
        usleep(20)
    }
}
#endif
