import SelectLog

extension LogReader {
    /// Checks the whole file: headers, checksums, decompression, decoding, event order,
    /// checkpoints against their headers and invariants, and the stored seek index
    /// against the records walked. With `replaying`, also replays every event with this
    /// build and compares each checkpoint's state hash with the replayed state's (when the
    /// log was written by an engine that behaves like this build's; otherwise that part
    /// is skipped and a note says why).
    public static func verify(path: String, replaying: Bool = false) throws(LogError) -> VerifyReport {
        try verify(path: path, replaying: replaying, engine: .standard)
    }

    package static func verify(path: String, replaying: Bool, engine: EngineBehaviour) throws(LogError) -> VerifyReport {
        let file = try MappedFile(path: path)
        let bytes = file.bytes
        var scan = LogScan.scan(bytes, deep: true) { file.release(upTo: $0) }
        if scan.problem == nil, let index = scan.records.last, index.header.kind == .index {
            if let why = indexDisagreement(index, scan.records.dropLast(), bytes, salt: scan.header?.salt ?? 0) {
                scan.problem = LogProblem(offset: index.offset, reason: "the seek index disagrees with the records walked: \(why)", isTornTail: false)
                scan.goodEnd = index.offset
                scan.records.removeLast()
            }
        }
        var report = VerifyReport(fileSize: bytes.count, intactEvents: scan.eventCount,
                                  intactBytes: scan.problem == nil ? bytes.count : scan.goodEnd,
                                  records: scan.records.count, problem: scan.problem)
        guard replaying, scan.problem == nil else { return report }
        let reader = try LogReader(path: path, engine: engine)
        guard reader.checkpointsTrusted else {
            report.notes.append("checkpoints not compared with a replay: the log was written by an engine that behaves differently (see `selectlog check`)")
            return report
        }
        var state = TableState()
        for record in reader.records where record.header.kind == .checkpoint {
            try reader.replay(into: &state, to: record.header.firstEvent)
            let recorded = try reader.checkpointState(record)
            if recorded.hashValue64 != state.hashValue64 {
                report.problem = LogProblem(offset: record.offset,
                                            reason: "checkpoint after \(record.header.firstEvent) events holds state \(recorded.hashHex), replaying the events gives \(state.hashHex)",
                                            isTornTail: false)
                report.intactBytes = record.offset
                report.intactEvents = record.header.firstEvent
                return report
            }
            report.checkpointsReplayed += 1
        }
        try reader.replay(into: &state, to: reader.eventCount)
        return report
    }

    /// Why a stored index does not list exactly `walked`, or nil.
    private static func indexDisagreement(_ index: RecordInfo, _ walked: ArraySlice<RecordInfo>, _ bytes: UnsafeRawBufferPointer,
                                          salt: UInt64) -> String? {
        guard case .success(let raw) = LogScan.payload(index, bytes, salt: salt, nil),
              let listed = LogIndex.decode(raw, at: index.offset) else { return "it does not decode" }
        if listed.count != walked.count { return "it lists \(listed.count) records, the file holds \(walked.count)" }
        for (k, (a, b)) in zip(listed, walked).enumerated() where a != b {
            return "entry \(k) (byte offset \(a.offset)) differs from the record at byte offset \(b.offset)"
        }
        return nil
    }
}

/// What `verify` found.
public struct VerifyReport: Sendable, Equatable {
    /// The file's size in bytes.
    public var fileSize: Int
    /// Events in the intact prefix.
    public var intactEvents: Int
    /// Bytes in the intact prefix (the offset of the first bad byte when damaged).
    public var intactBytes: Int
    /// Records in the intact prefix.
    public var records: Int
    /// The first problem, if any.
    public var problem: LogProblem?
    /// Checkpoints whose state a replay confirmed (`replaying` only).
    public var checkpointsReplayed = 0
    /// Remarks that are not damage (for example, checkpoints that were not compared).
    public var notes: [String] = []
    /// Whether the log is intact.
    public var isIntact: Bool { problem == nil }
}
