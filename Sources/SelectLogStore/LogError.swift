import SelectLog

/// An error from the log: what went wrong, and where (path, byte offset, event index).
public struct LogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Code: Sendable, Equatable {
        /// A system call failed.
        case io
        /// The file is not a selectlog log.
        case notALog
        /// A newer format or a feature this reader does not know.
        case unsupported
        /// Corruption: a record that cannot be trusted, before the end of the file.
        case damaged
        /// The event was rejected by the engine and never reached the log.
        case invalidEvent
        /// An fsync failed; the recorder stops appending (fsync failures are not retried).
        case syncFailed
        /// The recorder was closed, or stopped by an earlier error.
        case closed
        /// An event index past the end of the log.
        case outOfRange
        /// A file is already where a new log was to be created (and replacing it was not asked for).
        case alreadyExists
        /// A `Recorder.Options` value out of its range (the message names it); nothing was created or opened.
        case invalidOptions
        /// This build's engine replays the log differently from the build that recorded it
        /// (`LogReader.check()` says where), or another build's log holds nothing that
        /// shows it does not, so a rewrite by this build (`Recorder.compact`) would
        /// replace the recorded behaviour with its own; nothing was written.
        case diverged
        /// Another writer has the log open: a recorder, in this process or another, or a
        /// `selectlog` command that replaces or repairs it. A log has one writer at a
        /// time; nothing was changed. Open it again once that writer is closed.
        case inUse
    }

    /// What kind of failure.
    public var code: Code
    /// What went wrong, in a sentence a user can act on.
    public var message: String
    /// The log concerned, where it applies.
    public var path: String?
    /// Byte offset in the file, where it applies.
    public var offset: Int?
    /// Index of the event concerned (0-based), where it applies. `description` numbers
    /// events from 1, as the CLI does: index 4 is "event 5", the fifth event. For
    /// `.outOfRange` it is what was asked for: a count of events for `state(at:)`,
    /// `replay(into:to:)` and `lastChange(of:at:)`, an index for `gesture(containing:)`.
    public var eventIndex: Int?
    /// The engine's reason, for `.invalidEvent`.
    public var invalidEvent: InvalidEvent?
    /// The system's error number (`errno`) when a system call failed (`.io`,
    /// `.syncFailed`); nil otherwise. `ENOENT` when opening a log found no file at its
    /// path (`Recorder(appendingTo:)`, `LogReader(path:)`), so that a caller can make a
    /// new log then without reading the message:
    ///
    /// ```swift
    /// func recorder(continuing path: String) throws(LogError) -> Recorder {
    ///     do { return try Recorder(appendingTo: path) }
    ///     catch where error.errnoCode == ENOENT { return try Recorder(creating: path) }
    /// }
    /// ```
    public var errnoCode: Int32?

    /// An error of `code` saying `message`, with where it happened.
    public init(_ code: Code, _ message: String, path: String? = nil, offset: Int? = nil, eventIndex: Int? = nil,
                invalidEvent: InvalidEvent? = nil, errnoCode: Int32? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.offset = offset
        self.eventIndex = eventIndex
        self.invalidEvent = invalidEvent
        self.errnoCode = errnoCode
    }

    /// Path, byte offset, event number (1-based) and message, joined by ": ". An
    /// out-of-range error names the number in its message, so it gets no event part.
    public var description: String {
        var parts: [String] = []
        if let path { parts.append(path) }
        if let offset { parts.append("byte offset \(offset)") }
        // Counted as UInt: `Int.max + 1` is a number too, not a trap.
        if let eventIndex, code != .outOfRange { parts.append("event \(ReportText.number(eventIndex))") }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}
