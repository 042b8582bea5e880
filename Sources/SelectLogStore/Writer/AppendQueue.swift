import Atomics
import Foundation

/// The events a recorder's callers have applied and its writer thread has not yet
/// encoded: a ring of preallocated slots with one producer at a time and one consumer.
///
/// The producer is whichever caller holds the recorder's engine lock (appends are
/// serialized there anyway, because the engine is one value), so the ring itself needs
/// no lock: an append writes a slot and publishes it with one releasing store, and the
/// writer thread takes every published slot with one acquiring load. Neither side
/// touches the other's lock on that path, which is what keeps an append close to the
/// cost of the engine's `apply` alone.
///
/// Two flags hand the sleeping side a wake-up without losing it (each side stores its
/// own flag, then a sequentially consistent fence, then reads the other's: at least one
/// of them sees the other). The wake-up itself goes through the recorder's writer
/// lock and condition, so a sleeper always tests again under that lock.
final class AppendQueue: @unchecked Sendable {
    // @unchecked: a slot is written only by the producer before `pushed` publishes it
    // (releasing) and read only by the consumer after loading `pushed` (acquiring), and
    // is written again only after the consumer has published `taken` past it. The
    // counters and flags are atomics.

    /// Slots in the ring: a power of two, so that a position's slot is `position & mask`.
    let capacity: Int
    private let mask: Int
    private let slots: UnsafeMutablePointer<Recorder.Appended>
    /// The atomics, each on a cache line of its own: `pushed` changes at every append,
    /// and sharing its line with what the writer thread stores would cost the caller a
    /// cache miss each time the writer stores.
    private let storage: UnsafeMutablePointer<UnsafeAtomic<Int>.Storage>
    private static let stride = 8

    /// Events published so far (the position of the next slot): stored by the producer.
    private var pushed: UnsafeAtomic<Int> { UnsafeAtomic(at: storage) }
    /// Events taken so far: stored by the consumer.
    private var taken: UnsafeAtomic<Int> { UnsafeAtomic(at: storage + Self.stride) }
    /// 1 while the writer thread is about to wait, or waits, for a wake-up.
    private var writerSleeping: UnsafeAtomic<Int> { UnsafeAtomic(at: storage + 2 * Self.stride) }
    /// 1 when the producer asked the writer to take what is published (a gesture
    /// ended, a checkpoint is offered, enough events wait).
    private var wakeRequested: UnsafeAtomic<Int> { UnsafeAtomic(at: storage + 3 * Self.stride) }
    /// 1 while a producer waits for a free slot.
    private var producerWaiting: UnsafeAtomic<Int> { UnsafeAtomic(at: storage + 4 * Self.stride) }
    /// 1 once the writer thread has failed for good.
    private var failedFlag: UnsafeAtomic<Int> { UnsafeAtomic(at: storage + 5 * Self.stride) }
    private static let atomics = 6

    /// A ring of at least `capacity` slots (rounded up to a power of two), starting at
    /// position `start` (the events a log already holds).
    init(capacity: Int, start: Int) {
        var size = 1
        while size < max(capacity, 2) { size <<= 1 }
        self.capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
        storage = .allocate(capacity: Self.atomics * Self.stride)
        storage.initialize(repeating: .init(0), count: Self.atomics * Self.stride)
        pushed.store(start, ordering: .relaxed)
        taken.store(start, ordering: .relaxed)
    }

    deinit {
        // The events published and never taken (a recorder dropped without `close()`
        // after its writer failed).
        var position = taken.load(ordering: .acquiring)
        let end = pushed.load(ordering: .acquiring)
        while position < end {
            (slots + (position & mask)).deinitialize(count: 1)
            position += 1
        }
        slots.deallocate()
        storage.deinitialize(count: Self.atomics * Self.stride)
        storage.deallocate()
    }

    // MARK: The producer (under the engine lock)

    /// The first position that is not free yet, as far as the consumer has published.
    @inline(__always)
    func freeEnd() -> Int { taken.load(ordering: .acquiring) &+ capacity }

    /// The slot at `position` (free: below `freeEnd()`), for the producer to initialize
    /// before it publishes it.
    ///
    /// The producer writes it before the engine applies the event rather than after: the
    /// slot's cache lines were last read by the writer thread, so the first store to them
    /// waits for the other core to give them up, and the engine's work hides that wait
    /// (stored after it, the wait fell on the engine lock's unlock, which cannot complete
    /// before every earlier store has).
    @inline(__always)
    func slot(at position: Int) -> UnsafeMutablePointer<Recorder.Appended> {
        slots + (position & mask)
    }

    /// Publishes the slot at `position`, initialized, with every position before it.
    @inline(__always)
    func publish(at position: Int) {
        pushed.store(position &+ 1, ordering: .releasing)
    }

    /// Asks the writer thread to take what is published; true when it may be asleep, and
    /// the caller must wake it (through the writer lock's condition) after its own unlock.
    @inline(__always)
    func requestWake() -> Bool {
        wakeRequested.store(1, ordering: .releasing)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        return writerSleeping.load(ordering: .relaxed) != 0
    }

    /// Tells the consumer that a producer is about to wait for a free slot; true when one
    /// has been freed meanwhile (the producer must not wait then). Called under the writer
    /// lock, as a waiting predicate.
    func announceProducerWaiting(at position: Int) -> Bool {
        producerWaiting.store(1, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        return position < freeEnd()
    }

    /// Whether the writer thread has failed (then every append throws).
    @inline(__always)
    var failed: Bool { failedFlag.load(ordering: .relaxed) != 0 }

    // MARK: The consumer (the writer thread)

    /// Marks the writer thread as failed.
    func markFailed() { failedFlag.store(1, ordering: .releasing) }

    /// The published end, with every slot below it readable.
    @inline(__always)
    func publishedEnd() -> Int { pushed.load(ordering: .acquiring) }

    /// The position the consumer takes next (only the consumer stores it).
    @inline(__always)
    func nextToTake() -> Int { taken.load(ordering: .relaxed) }

    /// Runs `body` on the item at `position` (published, not yet taken) in its slot, then
    /// destroys it there. Borrowed in place with an exclusive access: read through the
    /// pointer, the compiler copied the item first.
    @inline(__always)
    func consume(at position: Int, _ body: (inout Recorder.Appended) -> Void) {
        let slot = slots + (position & mask)
        body(&slot.pointee)
        slot.deinitialize(count: 1)
    }

    /// Frees every slot below `position` for the producer; true when a producer waits for
    /// one and must be woken (through the writer lock's condition).
    @inline(__always)
    func release(upTo position: Int) -> Bool {
        taken.store(position, ordering: .releasing)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        guard producerWaiting.load(ordering: .relaxed) != 0 else { return false }
        producerWaiting.store(0, ordering: .relaxed)
        return true
    }

    /// Tells the producer that the writer thread is about to wait for a wake-up; true when
    /// one was requested meanwhile (the writer must not wait then). Called under the
    /// writer lock, as a waiting predicate.
    func announceWriterSleeping() -> Bool {
        writerSleeping.store(1, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        return wakeRequested.load(ordering: .relaxed) != 0
    }

    /// Waits up to `microseconds` for a wake-up request, yielding the processor between
    /// looks, without announcing sleep: an append meanwhile sees the writer awake and
    /// makes no system call to wake it.
    func pollForWake(microseconds: Int) {
        guard wakeRequested.load(ordering: .relaxed) == 0 else { return }
        let deadline = ContinuousClock.now + .microseconds(microseconds)
        while wakeRequested.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline {
            sched_yield()
        }
    }

    /// The writer thread is awake: takes (clears) a pending wake-up request.
    @inline(__always)
    func awake() {
        writerSleeping.store(0, ordering: .relaxed)
        _ = wakeRequested.exchange(0, ordering: .acquiringAndReleasing)
    }
}
