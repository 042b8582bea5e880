import SelectLog

/// When a writer puts a checkpoint in the log: at a multiple of the checkpoint interval
/// K, unless the snapshot would weigh on the log — a snapshot (raw bytes) larger than an
/// eighth of the coded event bytes since the last checkpoint is put off to the next
/// multiple of K, and never past `maxIntervals` × K. So checkpoints stay a small
/// part of any log (a table of thousands of random row heights snapshots to kilobytes),
/// while a reader still replays at most `maxIntervals` × K events to reach any state.
/// From format 7 most checkpoints are stored as the changes from the one before
/// (`SnapshotDelta`), but it still weighs the whole snapshot: a checkpoint ends the
/// coder's window, and one at every interval (shorter windows) made a replay from disk
/// 4% slower, where the positions of format 6 cost nothing more.
///
/// Deterministic: it depends only on the events and their coded bytes, so the same
/// events make the same log. Without `putsOff`, a checkpoint at every multiple of K.
struct CheckpointPolicy: Sendable {
    /// Multiples of K a checkpoint may be put off to.
    static let maxIntervals = 2

    let interval: Int
    let putsOff: Bool
    /// Coded event bytes and events since the last checkpoint (or the writer's start).
    private var bytes = 0
    private var events = 0

    /// `events` and `bytes`: what a log reopened for append holds after its last
    /// checkpoint (or from its start), so that a reopen does not reset the bound.
    init(interval: Int, putsOff: Bool = true, events: Int = 0, bytes: Int = 0) {
        self.interval = interval
        self.putsOff = putsOff
        self.events = events
        self.bytes = bytes
    }

    /// Notes a sealed batch of `bytes` coded bytes.
    mutating func noted(batchBytes: Int) { bytes += batchBytes }

    /// Notes an event; true when the state after it is at a multiple of K (then ask `wants`).
    mutating func noted(eventAt count: Int) -> Bool {
        events += 1
        return interval > 0 && count % interval == 0
    }

    /// Whether to write `snapshot` now, given `pending`, the coded bytes of the unsealed
    /// batch. When it does, the writer seals that batch and then calls `written()`.
    ///
    /// An eighth, not a half as before 2026-11-27: on sessions from a generator this
    /// project did not write (a feed of posts of varied heights, a photo picker with a
    /// thousand undo steps), checkpoints took 12–16% of a 1M-event log at a half; an
    /// eighth puts more of them off to 2K (4% smaller on the feed). The standard
    /// session's are put off to 2K either way, so its logs and seeks are unchanged.
    ///
    /// Never a snapshot over the format's record limit (`LogFormat.Limits.payloadBytes`),
    /// which no reader would take: a table of millions of distinct row heights or long
    /// titles can hold more. Its checkpoints are left out until the state is smaller
    /// again; a reader replays from the one before (readers do not rely on where
    /// checkpoints are).
    func wants(_ snapshot: [UInt8], pending: Int) -> Bool {
        guard snapshot.count <= LogFormat.Limits.payloadBytes else { return false }
        return !putsOff || snapshot.count <= (bytes + pending) / 8 || events >= Self.maxIntervals * interval
    }

    /// Notes a checkpoint written (after the batch before it was sealed and noted): the
    /// counts start again.
    mutating func written() {
        bytes = 0
        events = 0
    }
}
