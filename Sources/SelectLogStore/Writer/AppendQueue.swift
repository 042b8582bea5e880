import CPrefetch

/// The events a recorder's callers have applied and its writer thread has not yet
/// encoded: a ring of preallocated slots, filled by one caller at a time and emptied by
/// the writer thread.
///
/// The ring has no lock and no atomics of its own: the recorder's two locks order every
/// access. A caller writes the slot of the event it appends while it holds the engine
/// lock; the writer thread reads a slot only once a position past it was published in
/// `Recorder.WriterState` (by a caller or `flush()` under the writer lock, after the slot
/// was written) or read from the engine under the engine lock; and a caller reuses a
/// slot only once the writer has published, under the writer lock, that it took it. So
/// an append touches only the engine lock, except at the events that publish (a gesture
/// end, a checkpoint offer, every `batchEvents` events).
final class AppendQueue: @unchecked Sendable {
    // @unchecked: as above, every slot access is ordered by one of the recorder's locks.

    /// Slots in the ring: a power of two, so that a position's slot is `position & mask`.
    let capacity: Int
    private let mask: Int
    private let slots: UnsafeMutablePointer<Recorder.Appended>

    /// A ring of at least `capacity` slots (rounded up to a power of two).
    init(capacity: Int) {
        var size = 1
        while size < max(capacity, 2) { size <<= 1 }
        self.capacity = size
        mask = size - 1
        slots = .allocate(capacity: size)
    }

    deinit {
        slots.deallocate()
    }

    /// Destroys the items from `start` up to `end` that were written and never taken (a
    /// recorder whose writer stopped after a failure); by the recorder's `deinit`, after
    /// its writer thread has stopped (which touches no slot after that).
    func destroy(from start: Int, to end: Int) {
        var position = start
        while position < end {
            (slots + (position & mask)).deinitialize(count: 1)
            position += 1
        }
    }

    /// The slot at `position`, for the caller holding the engine lock to initialize
    /// (it must be free: the writer has taken the item `capacity` positions before it).
    ///
    /// A caller writes it before the engine applies the event rather than after: the
    /// slot's cache lines were last read by the writer thread, so the first store to them
    /// waits for the other core to give them up, and the engine's work hides that wait
    /// (stored after it, the wait fell on the engine lock's unlock, which cannot complete
    /// before every earlier store has).
    @inline(__always)
    func slot(at position: Int) -> UnsafeMutablePointer<Recorder.Appended> {
        slots + (position & mask)
    }

    /// Slots ahead of the one being written that `prefetch(after:)` asks for.
    static let lookahead = 8

    /// Asks for the cache lines of the slot `lookahead` positions past `position` for
    /// writing, by the caller holding the engine lock as it writes `position`'s. The
    /// writer thread read those lines last, on the other core: a caller that first
    /// stores to one waits for that core to give it up, and as stores complete in order,
    /// every later store (the engine's) and the next append's lock wait behind it (perf:
    /// half the append's own time on the lock's exchange, more when the cores are far
    /// apart). Asked for early, the line is the caller's by the time it writes it. A hint
    /// only: a slot the writer has not yet taken is read by it as before.
    @inline(__always)
    func prefetch(after position: Int) {
        let slot = UnsafeRawPointer(slots + ((position &+ Self.lookahead) & mask))
        // Every line a slot spans: its first byte's and the one 64 bytes on (or its
        // last byte, for a slot shorter than a line). Slots are contiguous, so the lines
        // asked for at successive positions leave none out while a slot is at most 128 bytes.
        selectlog_prefetch_write(slot)
        selectlog_prefetch_write(slot + min(64, MemoryLayout<Recorder.Appended>.stride - 1))
    }

    /// Runs `body` on the item at `position` (published, not yet taken) in its slot, then
    /// destroys it there (on the writer thread). Borrowed in place with an exclusive
    /// access: read through the pointer, the compiler copied the item first. An item whose
    /// event owns nothing (`Recorder.ownsNothing`; its other fields are plain numbers) has
    /// nothing to destroy, and is left as it is, to be overwritten.
    @inline(__always)
    func consume(at position: Int, _ body: (inout Recorder.Appended) -> Void) {
        let slot = slots + (position & mask)
        body(&slot.pointee)
        if !Recorder.ownsNothing(slot.pointee.event.event) { slot.deinitialize(count: 1) }
    }
}
