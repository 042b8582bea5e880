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

    /// Whether this build replays every gesture and checkpoint as recorded.
    public var isSame: Bool { divergence == nil }

    /// Where this build first disagrees with the recording.
    public struct Divergence: Sendable {
        /// The events of the gesture (or the span since the previous checkpoint) that differs.
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
    }
}

extension LogReader {
    /// Replays the whole log with this build's engine, comparing the state after every
    /// gesture end with the fingerprint recorded there, and every checkpoint with the
    /// replayed state; reports the first difference and the field-by-field difference
    /// at the nearest checkpoint after it.
    public func check() throws(LogError) -> CheckReport {
        var report = CheckReport(recordedBehaviour: header.behaviour, behaviour: engine.fingerprint)
        var state = TableState()
        var gestureStart = 0
        var gestureKind = "gesture"
        var lastCheckpoint = 0
        // One decoder, restarted at each window and carried on through continued batches.
        var decoder: BinaryEventDecoder?
        try forEachRecord { (record) throws(LogError) -> Bool in
            if let d = report.divergence, d.checkpoint != nil { return false }
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
                                                  reason: "the state after \(position) events differs from the recorded checkpoint")
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
                            report.divergence = .init(events: gestureStart...Swift.max(gestureStart, index - 1), kind: gestureKind,
                                                      reason: "the state at the gesture's end differs (recorded fingerprint \(hex8(recorded)), this build \(hex8(replayed)))")
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

/// Eight hex digits.
func hex8(_ v: UInt32) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: 8 - s.count) + s
}
