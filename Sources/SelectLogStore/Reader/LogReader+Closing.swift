import SelectLog

/// The reads of a `LogReader` in progress, and whether it was closed
/// (`LogReader.close()`).
final class ReaderUse: Sendable {
    private struct State {
        var active = 0
        var closed = false
    }
    private let state = LockedBox(State())

    /// Starts a read: false once the reader is closed.
    func begin() -> Bool {
        state.withLockedValue { s in
            guard !s.closed else { return false }
            s.active += 1
            return true
        }
    }

    /// Ends a read: whether it was the last of a closed reader's.
    func end() -> Bool {
        state.withLockedValue { s in
            s.active -= 1
            return s.closed && s.active == 0
        }
    }

    /// Closes the reader: whether no read is in progress.
    func close() -> Bool {
        state.withLockedValue { s in
            s.closed = true
            return s.active == 0
        }
    }
}

extension LogReader {
    /// Lets the log go before the reader itself goes: no read starts after it (each
    /// throws `.closed`), and once the reads in progress have ended, this process may cut
    /// or replace the log, which a reader in use refuses (`.inUse`:
    /// `Recorder(creating:replacingExisting:)`, `LogRepair.repair`). (A recorder appending
    /// to it may cut a torn tail or the seek index even so: they follow the last record,
    /// which is as far as a reader reads.) A read in progress, on this thread or another, may end with
    /// `.closed` where it would start another (`lastChange` asks `state(at:)`); none reads
    /// bytes the log no longer has. Closing never waits, and may be called from any
    /// thread, any number of times; the file's mapping goes with the reader.
    ///
    /// ```swift
    /// let log = try LogReader(path: path)
    /// let report = try log.check()
    /// log.close()
    /// let recorder = try Recorder(creating: path, replacingExisting: true)
    /// ```
    public func close() {
        if use.close() { file.limitReads(to: 0) }
    }

    /// Runs `body`, a read of the log, unless the reader is closed (`.closed`). The last
    /// read of a closed reader lets the log go (`close()`).
    func reading<T>(_ body: () throws(LogError) -> T) throws(LogError) -> T {
        guard use.begin() else { throw LogError(.closed, "the reader is closed", path: path) }
        defer { if use.end() { file.limitReads(to: 0) } }
        return try body()
    }
}
