import Foundation
import SelectLog

extension Recorder {
    /// The bytes of lists and strings (`Event.fieldBytes`) `compact` appends between two
    /// flushes.
    static let compactFlushWeight = 1 << 20

    /// Rewrites the log at `source` as a new zstd-compressed log at `destination`: the
    /// same events, so the same final state and hash (checked before returning).
    ///
    /// A log an app recorded without zstd (an iPhone's, its checkpoints range-coded) gets
    /// its checkpoints zstd-compressed: a few percent smaller (its batches are range-coded
    /// in every build, and zstd does not shrink them). The complete events are copied through the
    /// public writer, so the new log is validated event by event; a torn tail of the
    /// source is left behind. Keeps the source's checkpoint interval, and a checkpoint at
    /// every multiple of it when the source has every one.
    ///
    /// The new log is recorded by this build, with its behaviour fingerprint, gesture
    /// fingerprints and checkpoints. So the source is first checked against this build
    /// (`LogReader.check()`): one this build replays differently (another engine's, or
    /// one whose checkpoints or gesture fingerprints disagree with its events) is refused
    /// with `.diverged` (its `eventIndex` the first event of the gesture that differs),
    /// since compacting it would silently replace the behaviour it recorded with this
    /// build's; so is another build's log (or a version 1 log) that holds no gesture end
    /// or checkpoint, which nothing shows this build replays as recorded
    /// (`CheckReport.comparedNothing`; no `eventIndex`). Re-recording such a log on
    /// purpose is an upgrade's.
    ///
    /// Throws `.unsupported` in a build without zstd, `.alreadyExists` when `destination`
    /// exists and `replacingExisting` is false, `.diverged`, and the reader's or writer's
    /// errors.
    ///
    /// - Returns: The state after every event, equal for both logs.
    @discardableResult
    public static func compact(_ source: String, into destination: String, replacingExisting: Bool = false) throws(LogError) -> TableState {
        // Both paths first: the system reads a path up to a NUL, so that one would pass
        // for the other's file below, and the destination's fail only after the whole read.
        try FileIO.checkPath(source)
        try FileIO.checkPath(destination)
        guard Zstd.isAvailable else {
            throw LogError(.unsupported, "this build has no zstd, so it cannot compact a log; use a build with libzstd", path: source)
        }
        if sameFile(source, destination) {
            throw LogError(.io, "compacting a log into itself would overwrite it while it is read; write to another path, then rename", path: destination)
        }
        // No notice for another build's log: the check below decides, and says why.
        let log = try LogReader(path: source, engine: .standard, notice: { _ in })
        let check = try log.check()
        if let d = check.divergence {
            throw LogError(.diverged, "this build replays it differently from the build that recorded it, from the \(d.kind) of \(ReportText.events(d.events)) (\(d.reason)), so compacting would re-record it as this build behaves",
                           path: source, eventIndex: d.events.lowerBound)
        }
        // Another build's log (or a version 1 log, which names no build) that holds no
        // gesture end or checkpoint: nothing shows that this build replays it as recorded.
        if check.comparedNothing {
            throw LogError(.diverged, log.header.behaviour == nil
                ? "a version 1 log names no build, and this one holds no gesture end or checkpoint to show that this build replays it as recorded, so compacting would pass it off as this build's"
                : "another build recorded it (behaviour fingerprint \(TableState.hex(log.header.behaviour ?? 0)), this build \(TableState.hex(log.engine.fingerprint))), and it holds no gesture end or checkpoint to show that this build replays it as recorded, so compacting would pass it off as this build's",
                path: source)
        }
        var options = Options()
        // A header that names no interval (0; a crafted file) gets the default, as `upgrade` does.
        if log.header.checkpointInterval > 0 { options.checkpointInterval = Int(log.header.checkpointInterval) }
        // Every checkpoint where the source has every one (its exact interval).
        options.putsOffLargeCheckpoints = !(try log.checkpointsAtEveryInterval())
        options.durability = .none
        options.flushIntervalMilliseconds = 60_000
        // The copy is as private as its source from its first byte (a 0600 log's compacted
        // copy, written beside it before it is renamed over it, is never 0644 meanwhile).
        if let bits = FileIO.readWriteBits(of: source) { options.filePermissions = UInt16(bits) }
        let expected = try copy(log, into: destination, options: options, replacingExisting: replacingExisting)
        let written = try LogReader(path: destination).state(at: log.eventCount)
        guard written == expected, written.hashHex == expected.hashHex else {
            throw LogError(.damaged, "the compacted log does not replay to the source's state (hash \(written.hashHex), expected \(expected.hashHex))", path: destination)
        }
        return written
    }

    /// Appends every event of `log` to a new log at `destination`; returns the state after
    /// them, which `check()` showed the source's own. In a function of its own, so that the
    /// recorder and its engine are gone before the new log is replayed to compare (three
    /// states of a million sections held 850 MB).
    private static func copy(_ log: LogReader, into destination: String, options: Options,
                             replacingExisting: Bool) throws(LogError) -> TableState {
        let recorder = try Recorder(creating: destination, options: options, replacingExisting: replacingExisting)
        do throws(LogError) {
            // The recorder's queue holds up to `queueCapacity` events until its writer takes
            // them (at gesture ends, or every `batchEvents`): events with large lists are
            // flushed every `compactFlushWeight` bytes of them, so that they are not held
            // (50 editors of a million options each took 813 MB to compact).
            var weight = 0
            try log.forEachEvent { _, event throws(LogError) in
                weight += event.event.fieldBytes ?? 0
                try recorder.append(event)
                if weight >= Self.compactFlushWeight {
                    try recorder.flush()
                    weight = 0
                }
                return true
            }
            try recorder.close()
        } catch {
            try? recorder.close()
            throw error
        }
        return recorder.state
    }
}

/// Whether two paths name the same existing file (same device and inode).
func sameFile(_ a: String, _ b: String) -> Bool {
    var x = stat(), y = stat()
    guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
    return x.st_dev == y.st_dev && x.st_ino == y.st_ino
}
