#if !canImport(Darwin)
import CBias
import Foundation
import Synchronization

/// The engine lock's bias to the thread that appends: that thread (the *owner*) enters
/// and leaves with plain stores and loads, and any other thread that takes the lock makes
/// both sides' memory barriers itself.
///
/// The owner enters by storing `busy = 1` and then loading `revoking`; if that reads 0 it
/// holds the lock, with no atomic read-modify-write (which waits for every earlier store
/// to complete: the 4 ns an append the exchange cost). Another thread first takes the
/// lock's word, so there is at most one such thread, then *revokes* the bias for its
/// section: it stores `revoking = 1`, makes every core of the process run a full memory
/// barrier (`membarrier(2)`, `selectlog_heavy_barrier()`), and waits until `busy` is 0.
/// After the barrier either the owner's `busy = 1` is visible to it, and it waits for
/// the owner's section to end, or the owner's load of `revoking` comes later and sees 1,
/// and the owner leaves `busy` at 0 and takes the word like any other thread (the
/// asymmetric form of Dekker's algorithm, as in liburcu and folly). Ending its section
/// the other thread stores `revoking = 0` with release ordering, which the owner's next
/// acquiring load of it orders after that section.
///
/// The owner is the first thread that takes the lock to append, chosen while it holds
/// the word. A thread that is not the owner pays a system call and a wait for each
/// section, which suits the writer thread (after a flush interval with nothing
/// published, at a failure, and `close()`) and an occasional `state` read elsewhere,
/// but not a second thread that
/// appends: after `abandonAfter` appends by other threads the bias is given up for the
/// lock's life (`never`), and every thread takes the word, as before the bias. An owner
/// is never replaced: two owners, one of them late, would share `busy`.
///
/// Where `membarrier(2)`'s private expedited command is missing, no thread is made the
/// owner. The three words share a cache line, which only the owner's core writes as a
/// rule. The owner must not take the lock in a signal handler that interrupted it
/// between its store and its load (nor may anyone append there: an append allocates).
struct LockBias {
    /// `owner` when nobody is, or ever will be, the owner.
    static let never: UInt = 1

    /// The owner's thread identity (`selectlog_thread_id()`); 0 until the first append.
    private let owner: UnsafeMutablePointer<Atomic<UInt>>
    /// 1 while the owner holds the lock, or is about to find out that it may not.
    private let busy: UnsafeMutablePointer<Atomic<UInt32>>
    /// 1 while another thread holds the lock; 1 for good once the bias is given up.
    private let revoking: UnsafeMutablePointer<Atomic<UInt32>>

    /// How many appends by threads other than the owner give the bias up.
    static let abandonAfter = 64

    /// Whether this process may revoke a bias (`membarrier(2)` registered, once).
    static let available: Bool = selectlog_heavy_barrier_register() == 1

    /// The words at `line`, 16 bytes of it, zeroed: no owner yet.
    init(at line: UnsafeMutableRawPointer) {
        owner = line.bindMemory(to: Atomic<UInt>.self, capacity: 1)
        owner.initialize(to: Atomic(0))
        busy = (line + 8).bindMemory(to: Atomic<UInt32>.self, capacity: 2)
        busy.initialize(to: Atomic(0))
        revoking = busy + 1
        revoking.initialize(to: Atomic(0))
    }

    func deinitialize() {
        revoking.deinitialize(count: 1)
        busy.deinitialize(count: 1)
        owner.deinitialize(count: 1)
    }

    /// Takes the lock for the owner, if this thread is the owner and no other thread
    /// holds it; false otherwise (`busy` left at 0).
    @inline(__always)
    func enter() -> Bool {
        guard owner.pointee.load(ordering: .relaxed) == selectlog_thread_id() else { return false }
        busy.pointee.store(1, ordering: .relaxed)
        // Neither the compiler nor the core may run the load before the store; the core is
        // made to by a revoking thread's barrier, which makes both visible in order.
        selectlog_compiler_barrier()
        if revoking.pointee.load(ordering: .acquiring) == 0 { return true }
        busy.pointee.store(0, ordering: .releasing)
        return false
    }

    /// Releases the lock if `enter()` took it (this thread is the owner and `busy` is its
    /// own 1); false otherwise.
    @inline(__always)
    func leave() -> Bool {
        guard owner.pointee.load(ordering: .relaxed) == selectlog_thread_id(),
              busy.pointee.load(ordering: .relaxed) == 1 else { return false }
        busy.pointee.store(0, ordering: .releasing)
        return true
    }

    /// With the lock's word held by this thread: makes it the owner (the first append),
    /// or keeps the owner out until `restore()`. Returns whether it did the latter.
    /// `foreignAppends` counts the appends made so by other threads, under the word.
    func hold(appending: Bool, foreignAppends: inout Int) -> Bool {
        let current = owner.pointee.load(ordering: .relaxed)
        let me = selectlog_thread_id()
        if current == me || current == Self.never { return false }
        if current == 0 {
            if appending { owner.pointee.store(Self.available ? me : Self.never, ordering: .relaxed) }
            return false
        }
        revoking.pointee.store(1, ordering: .relaxed)
        // It fails only for a process not registered (membarrier(2)), and registering
        // made one (`selectlog_heavy_barrier_register`). Should it fail all the same, it
        // is tried again: a sleep would not be a barrier.
        while selectlog_heavy_barrier() != 1 { sched_yield() }
        var polls = 0
        while busy.pointee.load(ordering: .acquiring) != 0 {
            polls += 1
            pauseWhilePolling(after: polls)
        }
        if appending {
            foreignAppends += 1
            if foreignAppends >= Self.abandonAfter {
                // `revoking` stays 1: the old owner never enters again, and nobody waits
                // for its `busy`.
                owner.pointee.store(Self.never, ordering: .relaxed)
                return false
            }
        }
        return true
    }

    /// Lets the owner in again, after a section that `hold` kept it out of.
    func restore() {
        revoking.pointee.store(0, ordering: .releasing)
    }

    /// Whether a thread is the owner, and which (for tests): nil before the first append,
    /// 0 once the bias is given up or could not be had.
    var ownerForTesting: UInt? {
        switch owner.pointee.load(ordering: .relaxed) {
        case 0: nil
        case Self.never: 0
        case let thread: thread
        }
    }
}
#endif
