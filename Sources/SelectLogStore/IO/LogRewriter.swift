import SelectLog

/// Writes a log in one go, on the caller's thread, as a recorder of the given engine
/// would: batches sealed at gesture ends and at `batchEvents`, a gesture fingerprint
/// at every gesture end, a checkpoint every `checkpointInterval` events, the engine's
/// behaviour fingerprint in the header, and the seek index on `close()`.
///
/// `selectlog upgrade` uses it to re-record a version 1 log, or a log another engine
/// wrote, with this build; tests use it to write the log a build with a different
/// engine would have written.
package final class LogRewriter {
    private let file: LogFile
    private let engine: EngineBehaviour
    private let compressor: ZstdCompressor?
    private let checkpointInterval: Int
    private let batchEvents: Int
    private var encoder: BinaryEventEncoder
    private var batchFirst = 0
    private var batchBaseTime = Micros.zero
    private var batchCount = 0
    private var batchContinues = false
    private var checkpoints: CheckpointPolicy
    /// The state after every event appended.
    package private(set) var state = TableState()

    /// Creates (or replaces) the log at `path`.
    package init(path: String, engine: EngineBehaviour = .standard, checkpointInterval: Int = 8192, batchEvents: Int = 4096,
                 salt: UInt64 = 0x5E1E_C7ED, zstd: Bool = true, putsOffLargeCheckpoints: Bool = true) throws(LogError) {
        file = try LogFile.create(path: path, checkpointInterval: checkpointInterval, salt: salt, zstd: zstd,
                                  behaviour: engine.fingerprint)
        self.engine = engine
        self.compressor = zstd && Zstd.isAvailable ? ZstdCompressor(level: 6) : nil
        self.checkpointInterval = checkpointInterval
        checkpoints = CheckpointPolicy(interval: checkpointInterval, putsOff: putsOffLargeCheckpoints)
        self.batchEvents = Swift.max(1, batchEvents)
        encoder = BinaryEventEncoder(baseTime: .zero)
    }

    /// Applies `event` with the engine and adds it to the log.
    package func append(_ event: TimedEvent) throws(LogError) {
        let before = state.t
        let changes: TableChanges
        do throws(InvalidEvent) {
            changes = try engine.apply(event, to: &state)
        } catch {
            throw LogError(.invalidEvent, "this build rejects event \(state.events + 1): \(error)", path: file.path,
                           eventIndex: state.events, invalidEvent: error)
        }
        if batchCount == 0 {
            batchContinues = encoder.startBatch(baseTime: before)
            batchFirst = state.events - 1
            batchBaseTime = before
        }
        encoder.append(event, after: state, changes: changes)
        batchCount += 1
        if checkpoints.noted(eventAt: state.events), case let snapshot = state.snapshot(),
           checkpoints.wants(snapshot, pending: encoder.byteCount) {
            try seal()
            checkpoints.written()
            try file.append(.checkpoint, payload: snapshot, firstEvent: state.events, eventCount: 0,
                            baseTime: state.t, compressor: compressor)
            encoder.endWindow()
        } else if batchCount >= batchEvents || GestureBoundary.endsGesture(changes) {
            try seal()
        }
    }

    private func seal() throws(LogError) {
        guard batchCount > 0 else { return }
        let raw = encoder.seal(events: batchCount)
        checkpoints.noted(batchBytes: raw.count)
        try file.append(.batch, payload: raw, firstEvent: batchFirst, eventCount: batchCount,
                        baseTime: batchBaseTime, continues: batchContinues, compressor: compressor)
        batchCount = 0
    }

    /// Writes the last batch and the index, syncs and closes the file.
    package func close() throws(LogError) {
        try seal()
        try file.close(writingIndex: true, sync: true)
    }
}
