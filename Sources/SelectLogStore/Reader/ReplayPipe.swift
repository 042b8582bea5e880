import SelectLog

/// What one decoding thread of a pipelined replay and the applying thread share.
struct ReplayPipe: Sendable {
    /// Events per chunk: small enough that a chunk's storage is reused, not mapped afresh.
    static let chunkEvents = 2048
    /// A chunk whose events carry this many bytes of lists and strings (`EventChunk.weight`)
    /// is handed over before it is full.
    static let chunkWeight = 64 << 10
    /// The most bytes of lists and strings waiting in a pipe: more waits until the applying
    /// thread takes what is there (one chunk is let through, whatever it weighs). Counting
    /// chunks alone, a 54 KB log of editors with 200,000 options each held 480 MB of them
    /// decoded ahead; a plain session's chunks weigh a few kilobytes.
    static let weightAhead = 256 << 10
    /// Items decoded ahead of the applying thread, at most.
    let ahead: Int

    /// What a decoding thread hands over, in order.
    enum Item: Sendable {
        case events(EventChunk)
        /// The end of a segment, with the error that ended it early.
        case end(LogError?)

        /// The bytes of lists and strings its events carry.
        var weight: Int {
            if case .events(let chunk) = self { return chunk.weight }
            return 0
        }
    }

    init(ahead: Int) { self.ahead = ahead }

    var ready: [Item] = []
    /// The weight of `ready`'s items.
    var readyWeight = 0
    /// The most weight that waited in this pipe at once (`LogReader.largestWeightAhead`).
    var largestWeight = 0
    /// A chunk the applying thread is done with, for its storage.
    var spare: EventChunk?
    var decoderDone = false
    /// Set when the applying thread stops (an event was rejected, an error, or the end).
    var cancelled = false

    /// Storage for the next chunk: the spare one, emptied, or a new one.
    static func storage(from pipe: LockedBox<ReplayPipe>) -> EventChunk {
        let spare = pipe.withLockedValue { p -> EventChunk? in
            defer { p.spare = nil }
            return p.spare
        }
        guard let spare else { return EventChunk() }
        spare.removeAll()
        return spare
    }

    /// Hands `item` over, waiting while `ahead` items wait; false once the applying
    /// thread has stopped.
    static func hand(_ item: Item, to pipe: LockedBox<ReplayPipe>) -> Bool {
        let weight = item.weight
        let going = pipe.withLockedValue(waitingFor: { p in
            p.cancelled || p.ready.count < p.ahead && (p.ready.isEmpty || p.readyWeight + weight <= weightAhead)
        }) { p, _ -> Bool in
            guard !p.cancelled else { return false }
            p.ready.append(item)
            p.readyWeight += weight
            p.largestWeight = Swift.max(p.largestWeight, p.readyWeight)
            return true
        }
        pipe.wake()
        return going
    }

    /// The next item, waiting for it; nil if the decoder finished without it (which only
    /// a cancelled decoder does, and only the applying thread cancels, after its last `next`).
    static func next(from pipe: LockedBox<ReplayPipe>) -> Item? {
        let item = pipe.withLockedValue(waitingFor: { !$0.ready.isEmpty || $0.decoderDone }) { p, _ -> Item? in
            guard !p.ready.isEmpty else { return nil }
            let item = p.ready.removeFirst()
            p.readyWeight -= item.weight
            return item
        }
        pipe.wake()
        return item
    }
}

/// Up to `ReplayPipe.chunkEvents` decoded events, moved in by a decoding thread and out
/// by the applying thread (an array would copy each event in and out, and destroy its
/// elements again through value witnesses). Most are plain records; an event that is not
/// (`ReplayRecord.Kind.other`) is the next of `events`. One thread at a time owns a chunk:
/// the decoding thread until it hands it over, then the applying thread until it hands it
/// back as the pipe's spare (both under the pipe's lock), so the unchecked `Sendable` holds.
///
/// What changes is in `fill`, an allocation of the chunk's own, not in stored `var`s: a
/// class's `var` is checked for exclusive access at run time (`swift_beginAccess`), and
/// the decoding loop's three accesses an event (`append`, `count`, `weight`) cost 229
/// instructions an event of a decoding thread's 1,278 (callgrind, 1M standard events).
final class EventChunk: @unchecked Sendable {
    /// The chunk's counts and the events' storage.
    private struct Fill {
        /// The events of the records of kind `.other`, in order, initialized at
        /// `0 ..< eventCount`. They are few (about one in twenty on the standard session),
        /// so the storage starts small and doubles when full: a chunk sized for a whole
        /// chunk of events beside its records kept 2 MB more resident in a 100M-event replay.
        var events: UnsafeMutablePointer<TimedEvent>
        var eventCapacity = 64
        var count = 0
        var eventCount = 0
        /// The bytes of lists and strings of the events (`Event.fieldBytes`; 0 for records).
        var weight = 0
    }

    /// The records, at `0 ..< count`.
    private let records: UnsafeMutablePointer<ReplayRecord>
    private let fill: UnsafeMutablePointer<Fill>

    var count: Int { fill.pointee.count }
    var weight: Int { fill.pointee.weight }
    /// Whether the chunk is to be handed over: it is full, or its events carry
    /// `ReplayPipe.chunkWeight` bytes of lists and strings.
    var isDue: Bool { count == ReplayPipe.chunkEvents || weight >= ReplayPipe.chunkWeight }

    init() {
        records = .allocate(capacity: ReplayPipe.chunkEvents)
        fill = .allocate(capacity: 1)
        fill.initialize(to: Fill(events: .allocate(capacity: 64)))
    }

    deinit {
        fill.pointee.events.deinitialize(count: fill.pointee.eventCount)
        fill.pointee.events.deallocate()
        fill.deinitialize(count: 1)
        fill.deallocate()
        records.deallocate()
    }

    /// Doubles the events' storage, moving them.
    private func growEvents() {
        let capacity = Swift.min(fill.pointee.eventCapacity * 2, ReplayPipe.chunkEvents)
        let larger = UnsafeMutablePointer<TimedEvent>.allocate(capacity: capacity)
        larger.moveInitialize(from: fill.pointee.events, count: fill.pointee.eventCount)
        fill.pointee.events.deallocate()
        fill.pointee.events = larger
        fill.pointee.eventCapacity = capacity
    }

    /// Adds a record of a kind other than `.other`; the chunk must not be full.
    @inline(__always)
    func append(_ r: ReplayRecord) {
        let count = fill.pointee.count
        precondition(count < ReplayPipe.chunkEvents, "a replay chunk overfilled")
        records[count] = r
        fill.pointee.count = count &+ 1
    }

    /// Where the next record goes, for a decoder that writes a run of them in place
    /// (`BinaryEventDecoder.next(run:_:limit:)`): up to `room` of them, then `commit`.
    var tail: UnsafeMutablePointer<ReplayRecord> { records + fill.pointee.count }
    var room: Int { ReplayPipe.chunkEvents - fill.pointee.count }

    /// Takes in the `n` records written at `tail`, all of a kind other than `.other`.
    func commit(_ n: Int) {
        precondition(n >= 0 && n <= room, "a replay chunk overfilled")
        fill.pointee.count += n
    }

    /// Moves `e` in; the chunk must not be full.
    func append(_ e: consuming TimedEvent) {
        precondition(fill.pointee.count < ReplayPipe.chunkEvents, "a replay chunk overfilled")
        fill.pointee.weight += e.event.fieldBytes ?? 0
        records[fill.pointee.count] = ReplayRecord()
        if fill.pointee.eventCount == fill.pointee.eventCapacity { growEvents() }
        (fill.pointee.events + fill.pointee.eventCount).initialize(to: e)
        fill.pointee.eventCount += 1
        fill.pointee.count += 1
    }

    /// Destroys the events, keeping the storage.
    func removeAll() {
        fill.pointee.events.deinitialize(count: fill.pointee.eventCount)
        fill.pointee.eventCount = 0
        fill.pointee.count = 0
        fill.pointee.weight = 0
    }

    /// Hands the records and events to `records` and `events`, in order, leaving the chunk
    /// empty, until a body returns false (then false); the events are moved out (a copy
    /// out of the storage would cost a copy and a destroy per event). When a body throws
    /// or stops, the events after the one it was given are destroyed.
    func drain(records body: (ReplayRecord) throws(LogError) -> Bool,
               events eventBody: (consuming TimedEvent) throws(LogError) -> Bool) throws(LogError) -> Bool {
        let n = fill.pointee.count, m = fill.pointee.eventCount, events = fill.pointee.events
        fill.pointee.count = 0
        fill.pointee.eventCount = 0
        fill.pointee.weight = 0
        var j = 0
        defer { if j < m { (events + j).deinitialize(count: m - j) } }
        for i in 0..<n {
            let r = records[i]
            if r.kind != .other {
                guard try body(r) else { return false }
            } else if j < m {
                let e = (events + j).move()
                j += 1
                guard try eventBody(e) else { return false }
            }
        }
        return true
    }
}
