import SelectLog

/// What `LogReader.check()` found: whether this build replays the log as the build
/// that wrote it did.
public struct CheckReport: Sendable {
    /// The behaviour fingerprint in the log (nil for a version 1 log).
    public var recordedBehaviour: UInt64?
    /// This build's behaviour fingerprint.
    public var behaviour: UInt64
    /// Events replayed.
    public var events = 0
    /// Gesture-end fingerprints compared.
    public var gesturesCompared = 0
    /// Checkpoints whose state was compared with the replay.
    public var checkpointsCompared = 0
    /// The first place this build parts ways with the log, or nil.
    public var divergence: Divergence?

    /// Whether this build replays every gesture and checkpoint as recorded (true, too,
    /// when there was nothing to compare: `comparedNothing`).
    public var isSame: Bool { divergence == nil }

    /// Whether nothing diverged only because nothing could be compared: another build (or
    /// a version 1 log, which names none) recorded events, and the log holds no gesture
    /// end or checkpoint to compare them with. Nothing then shows that this build replays
    /// the log as recorded, and `Recorder.compact` refuses it.
    public var comparedNothing: Bool {
        divergence == nil && recordedBehaviour != behaviour && events > 0 && gesturesCompared == 0 && checkpointsCompared == 0
    }

    /// Where this build first disagrees with the recording.
    public struct Divergence: Sendable {
        /// The events of the gesture (or the span since the previous checkpoint) that differs.
        /// The events between gestures (taps, edits, scrolls) have no fingerprint of their
        /// own: when some came after the last fingerprint or checkpoint that agreed, the
        /// reason names them.
        public var events: ClosedRange<Int>
        /// What kind of span: "pan", "two-finger pan", "swipe", an event type, or "checkpoint window".
        public var kind: String
        /// What differs, in words.
        public var reason: String
        /// The nearest recorded checkpoint at or after the divergence, if any: the number
        /// of events its state has seen.
        public var checkpoint: Int?
        /// Field by field, the recorded state at that checkpoint (`before`) against the
        /// state this build reaches there (`after`).
        public var changes: [StateChange] = []
        /// What in the log disagreed, for `verify --deep`, which calls it damage when the
        /// log names this build's behaviour and cuts it where the disagreement shows.
        package var seen = Seen.rejected

        /// What in the log disagreed with the replay. `agreed`: the events after the last
        /// fingerprint or checkpoint that matched (0 when none did).
        package enum Seen: Sendable, Equatable {
            /// The checkpoint record at `offset`.
            case checkpoint(offset: Int, agreed: Int)
            /// A gesture fingerprint recorded after `after` events.
            case fingerprint(agreed: Int, after: Int)
            /// An event this build rejects.
            case rejected
        }
    }
}

extension CheckReport: CustomStringConvertible {
    /// The verdict in the words of `selectlog check`, without the log's name: whether this
    /// build behaves as the recording did (how much was compared), the two behaviour
    /// fingerprints (16 hex digits; `none` for a version 1 log), and at a divergence, its
    /// events (numbered from 1) and the field-by-field difference at the nearest checkpoint
    /// after it, a line each.
    ///
    /// ```
    /// same behaviour: 3000 events replayed; 26 gestures and 5 checkpoints as recorded; behaviour fingerprint: recorded 532c98eed9f6c08e, this build 532c98eed9f6c08e
    /// ```
    public var description: String {
        guard let divergence else {
            if comparedNothing { return "nothing to compare: \(compared) (\(nothingToCompare)); \(fingerprints)" }
            let untrusted = recordedBehaviour == behaviour ? "" : " (they differ, so this build's readers replay the log from its start rather than use its checkpoints)"
            return "same behaviour: \(compared); \(fingerprints)\(untrusted)"
        }
        var lines = ["diverged at the \(divergence.headline)", fingerprints]
        if recordedBehaviour == behaviour {
            lines.append("the fingerprints agree: either this build changed behaviour the fingerprint does not cover, or the log was changed after it was written")
        }
        return (lines + divergence.checkpointLines).joined(separator: "\n")
    }

    /// `behaviour fingerprint: recorded 532c98eed9f6c08e, this build 532c98eed9f6c08e`
    /// (`none` for a version 1 log).
    package var fingerprints: String {
        "behaviour fingerprint: recorded \(ReportText.hex16(recordedBehaviour)), this build \(ReportText.hex16(behaviour))"
    }

    /// Why `comparedNothing` shows nothing.
    package var nothingToCompare: String {
        let recorder = recordedBehaviour == nil ? "it is a version 1 log, which names no build" : "another build recorded it"
        return "the log holds no gesture end or checkpoint, and \(recorder), so nothing shows that this build replays it as recorded"
    }

    /// `3000 events replayed; 26 gestures and 5 checkpoints as recorded`.
    package var compared: String {
        "\(ReportText.counted(events, "event", "events")) replayed; \(ReportText.counted(gesturesCompared, "gesture", "gestures")) and "
            + "\(ReportText.counted(checkpointsCompared, "checkpoint", "checkpoints")) as recorded"
    }
}

extension CheckReport.Divergence: CustomStringConvertible {
    /// The gesture (or span) that differs, its events numbered from 1 as `selectlog check`
    /// numbers them, and why; then the recorded state at the nearest checkpoint after it
    /// against this build's, a changed field a line.
    ///
    /// ```
    /// scroll pan of events 538-570: the state at the gesture's end differs (recorded fingerprint e1de5ef3, this build a9eb5585)
    /// at the checkpoint after 1024 events (recorded -> this build):
    ///   selected +0:57,0:59,0:63,0:68
    /// ```
    public var description: String { ([headline] + checkpointLines).joined(separator: "\n") }

    /// `scroll pan of events 538-570: why`.
    package var headline: String { "\(kind) of \(ReportText.events(events)): \(reason)" }

    /// The checkpoint's field-by-field difference, or that there is none after the divergence.
    package var checkpointLines: [String] {
        guard let checkpoint else { return ["no recorded checkpoint after the divergence"] }
        let fields = changes.isEmpty ? ["  no difference in the state's fields"] : changes.map { "  \($0)" }
        return ["at the checkpoint after \(ReportText.counted(checkpoint, "event", "events")) (recorded -> this build):"] + fields
    }
}

extension LogReader {
    /// Replays the whole log with this build's engine, comparing the state after every
    /// gesture end with the fingerprint recorded there, and every checkpoint with the
    /// replayed state; reports the first difference and the field-by-field difference
    /// at the nearest checkpoint after it.
    public func check() throws(LogError) -> CheckReport {
        try reading { () throws(LogError) in
            try check(pipelinedFrom: Self.pipelinedReplayEvents)
        }
    }

    /// `check()`: when at least `minimum` events are replayed and a second core exists, a
    /// first pass replays the log decoded on other threads (in segments of
    /// `segmentEvents`), comparing every gesture fingerprint and checkpoint; when all agree
    /// that is the report. At the first that does not, or at any error, `checkInTurn()`
    /// replays the log again on the caller's thread and describes the difference (or
    /// throws the error) exactly as before: a log this build replays as recorded, the
    /// common case, is checked at a pipelined replay's speed.
    ///
    /// With `throwingRejections`, an event this build rejects is thrown as `replay` throws
    /// it (`rejection(_:index:)`) rather than reported as a divergence: `verify --deep`
    /// calls it damage at its batch.
    func check(pipelinedFrom minimum: Int, segmentEvents: Int? = nil, throwingRejections: Bool = false) throws(LogError) -> CheckReport {
        if eventCount >= minimum, Self.hasSecondCore, tail == nil, let report = try? pipelinedCheck(segmentEvents: segmentEvents) {
            return report
        }
        return try checkInTurn(throwingRejections: throwingRejections)
    }

    /// The whole log replayed pipelined, each gesture fingerprint and checkpoint compared as
    /// the replay passes it: the report when every one agrees, nil at the first that does
    /// not (an error, too, leaves the description to `checkInTurn()`).
    func pipelinedCheck(segmentEvents: Int?, alignsToWindows: Bool = false) throws(LogError) -> CheckReport? {
        var observer = try CheckObserver(reader: self)
        var state = TableState()
        guard try pipelinedReplay(into: &state, to: eventCount, segmentEvents: segmentEvents, decoders: Self.replayDecoders,
                                  alignsToWindows: alignsToWindows, observing: &observer) == true,
              try observer.willApply(eventCount, state), observer.checkpoints.isDone else { return nil }
        var report = CheckReport(recordedBehaviour: header.behaviour, behaviour: engine.fingerprint)
        report.events = eventCount
        report.gesturesCompared = observer.gestures
        report.checkpointsCompared = observer.checkpoints.compared
        return report
    }

    /// `check()` on the caller's thread, record by record (`throwingRejections`: as
    /// `check(pipelinedFrom:segmentEvents:throwingRejections:)` says).
    func checkInTurn(throwingRejections: Bool = false) throws(LogError) -> CheckReport {
        var report = CheckReport(recordedBehaviour: header.behaviour, behaviour: engine.fingerprint)
        var state = TableState()
        var gestureStart = 0
        var gestureKind = "gesture"
        var lastCheckpoint = 0
        // The events after the last fingerprint or checkpoint that matched.
        var agreed = 0
        // One decoder, restarted at each window and carried on through continued batches.
        var decoder: BinaryEventDecoder?
        try forEachRecord { (record) throws(LogError) -> Bool in
            // `verify --deep` needs only the first difference; `check`, the checkpoint after it.
            if let d = report.divergence, d.checkpoint != nil || throwingRejections { return false }
            switch record.header.kind {
            case .index:
                return true
            case .checkpoint:
                let recorded = try checkpointState(record)
                let position = record.header.firstEvent
                if report.divergence == nil {
                    report.checkpointsCompared += 1
                    if recorded.hashValue64 != state.hashValue64 {
                        report.divergence = .init(events: lastCheckpoint...Swift.max(lastCheckpoint, position - 1), kind: "checkpoint window",
                                                  reason: "the state after \(ReportText.counted(position, "event", "events")) differs from the recorded "
                                                      + "checkpoint (recorded state \(recorded.hashHex), this build \(state.hashHex))")
                        report.divergence?.seen = .checkpoint(offset: record.offset, agreed: agreed)
                    } else {
                        agreed = position
                    }
                }
                if report.divergence != nil {
                    report.divergence?.checkpoint = position
                    report.divergence?.changes = state.changes(since: recorded)
                }
                lastCheckpoint = position
            case .batch:
                var index = record.header.firstEvent
                let raw = try payload(record)
                do throws(BinaryError) {
                    try BinaryEventDecoder.start(&decoder, raw, record.header, version: header.version)
                } catch {
                    throw LogError(.damaged, "batch does not decode: \(error)", path: path, offset: record.offset, eventIndex: index)
                }
                guard var d = decoder else { return true }
                defer { decoder = d }
                while true {
                    let item: BinaryEventDecoder.Item?
                    do throws(BinaryError) {
                        item = try d.nextItem()
                    } catch {
                        throw batchError(error, d, record, index)
                    }
                    guard let item else { break }
                    switch item {
                    case .event(let e):
                        guard index < record.header.firstEvent + record.header.eventCount else {
                            throw LogError(.damaged, "batch holds more than the \(record.header.eventCount) events its header says",
                                           path: path, offset: record.offset, eventIndex: index)
                        }
                        do throws(InvalidEvent) {
                            let changes = try engine.apply(e, to: &state)
                            if let kind = GestureBoundary.kind(began: changes) {
                                gestureStart = index
                                gestureKind = kind
                            }
                        } catch {
                            // Only the first difference: a replay gone another way may well
                            // meet events it rejects later.
                            if throwingRejections, report.divergence == nil { throw rejection(error, index: index) }
                            if report.divergence == nil {
                                report.divergence = .init(events: index...index, kind: e.event.typeName,
                                                          reason: "this build rejects the event: \(error)")
                            }
                        }
                        index += 1
                        report.events = index
                    case .gestureFingerprint(let recorded):
                        guard report.divergence == nil else { continue }
                        report.gesturesCompared += 1
                        let replayed = state.gestureFingerprint
                        if replayed != recorded {
                            var reason = "the state at the gesture's end differs (recorded fingerprint \(hex8(recorded)), this build \(hex8(replayed)))"
                            if agreed < gestureStart {
                                // A tap, an edit or a scroll between gestures has no fingerprint
                                // of its own: the one after the next gesture covers it.
                                reason += "; it last agreed with the log \(agreed == 0 ? "at its start" : "after event \(agreed)"), so "
                                    + "\(ReportText.events(agreed...(gestureStart - 1))) before the gesture may hold the cause"
                            }
                            report.divergence = .init(events: gestureStart...Swift.max(gestureStart, index - 1), kind: gestureKind, reason: reason)
                            report.divergence?.seen = .fingerprint(agreed: agreed, after: index)
                        } else {
                            agreed = index
                        }
                    }
                }
                guard index == record.header.firstEvent + record.header.eventCount else {
                    throw LogError(.damaged, "batch holds \(index - record.header.firstEvent) events, its header says \(record.header.eventCount)",
                                   path: path, offset: record.offset, eventIndex: index)
                }
            }
            return true
        }
        return report
    }
}

/// Every checkpoint of a log compared, during a pipelined replay, with the state the replay
/// reaches there (`check()`, and so `verify --deep`): whether one differs; the check in turn
/// then says which, and how.
struct CheckpointComparison {
    let reader: LogReader
    /// Every checkpoint of the log, in order, and the next to compare.
    let checkpoints: [(offset: Int, first: Int)]
    private var next = 0
    private(set) var compared = 0

    init(reader: LogReader) throws(LogError) {
        self.reader = reader
        checkpoints = try reader.checkpointList()
    }

    /// Whether every checkpoint was compared, and agreed (one that differs stays next).
    var isDone: Bool { next == checkpoints.count }

    /// Compares the checkpoints after `index` events with `state`; false at the first that
    /// differs (or that the replay passed without reaching, which only a damaged list has).
    @inline(__always)
    mutating func reach(_ index: Int, _ state: borrowing TableState) throws(LogError) -> Bool {
        guard next < checkpoints.count, checkpoints[next].first <= index else { return true }
        return try compare(index, state)
    }

    /// Out of line: one event in thousands has a checkpoint before it.
    @inline(never)
    private mutating func compare(_ index: Int, _ state: borrowing TableState) throws(LogError) -> Bool {
        while next < checkpoints.count, checkpoints[next].first <= index {
            let (offset, first) = checkpoints[next]
            guard first == index else { return false }
            let record = try reader.record(at: offset, events: first)
            let recorded = try reader.checkpointState(record)
            // The decoding threads have walked past it and released its pages; reading it
            // brought them back, so they go again (else a 100M-event check kept every
            // checkpoint's pages, 56 MB).
            reader.file.release(wholeBlocksOf: record.offset..<record.end)
            guard recorded.hashValue64 == state.hashValue64 else { return false }
            compared += 1
            next += 1
        }
        return true
    }
}

/// A check's comparisons during a pipelined replay: every checkpoint, and every gesture
/// fingerprint after the events before it. It stops the replay at the first difference.
private struct CheckObserver: ReplayObserver {
    var checkpoints: CheckpointComparison
    private(set) var gestures = 0
    /// Where the last fingerprint compared lies (its batch's offset and position there):
    /// the applying thread meets them in file order, so one at or before it is a second
    /// hand-over of one already compared (the next segment's decoder also hands over those
    /// after the segment before's last event, however many there are).
    private var lastFingerprint: (Int64, Int64)?

    init(reader: LogReader) throws(LogError) { checkpoints = try CheckpointComparison(reader: reader) }

    static var wantsFingerprints: Bool { true }

    @inline(__always)
    mutating func willApply(_ index: Int, _ state: borrowing TableState) throws(LogError) -> Bool {
        try checkpoints.reach(index, state)
    }

    mutating func fingerprint(_ record: ReplayRecord, after index: Int, _ state: borrowing TableState) -> Bool {
        if let last = lastFingerprint, (record.b, record.time) <= last { return true }
        lastFingerprint = (record.b, record.time)
        gestures += 1
        return UInt32(truncatingIfNeeded: record.a) == state.gestureFingerprint
    }
}

/// Eight hex digits.
func hex8(_ v: UInt32) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: 8 - s.count) + s
}
