#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    private var assembler: LogAssembler
    private var records: [LogAssembler.Record] = []
    /// The state after every event appended.
    package private(set) var state = TableState()

    /// Creates (or replaces) the log at `path`; with `exclusive`, only creates it (see
    /// `LogFile.create`), with the permission bits `mode` (less the umask).
    package init(path: String, engine: EngineBehaviour = .standard, checkpointInterval: Int = 8192, batchEvents: Int = 4096,
                 salt: UInt64 = 0x5E1E_C7ED, zstd: Bool = true, putsOffLargeCheckpoints: Bool = true,
                 exclusive: Bool = false, mode: mode_t = 0o644) throws(LogError) {
        file = try LogFile.create(path: path, checkpointInterval: checkpointInterval, salt: salt, zstd: zstd,
                                  behaviour: engine.fingerprint, exclusive: exclusive, mode: mode)
        self.engine = engine
        self.compressor = zstd && Zstd.isAvailable ? ZstdCompressor(level: 6) : nil
        self.checkpointInterval = checkpointInterval
        assembler = LogAssembler(events: 0, time: .zero, version: file.header.version, checkpointInterval: checkpointInterval,
                                 putsOffLargeCheckpoints: putsOffLargeCheckpoints, batchEvents: batchEvents)
    }

    /// Applies `event` with the engine and adds it to the log.
    package func append(_ event: TimedEvent) throws(LogError) {
        let before = state.t
        let changes: TableChanges
        do throws(InvalidEvent) {
            changes = try engine.apply(event, to: &state)
        } catch {
            // The description says "event N: " before the message.
            throw LogError(.invalidEvent, "this build rejects it: \(error)", path: file.path,
                           eventIndex: state.events, invalidEvent: error)
        }
        let offers = LogAssembler.offersCheckpoint(after: state.events, interval: checkpointInterval)
        assembler.add(event, before: before,
                      gestureFingerprint: changes.endsGesture ? state.gestureFingerprint : nil,
                      offered: offers ? state : nil, into: &records)
        try write()
    }

    private func write() throws(LogError) {
        try file.append(records, compressor: compressor)
        records.removeAll(keepingCapacity: true)
    }

    /// Writes the last batch and the index, syncs and closes the file.
    package func close() throws(LogError) {
        assembler.seal(into: &records)
        try write()
        try file.close(writingIndex: true, sync: true)
    }
}
