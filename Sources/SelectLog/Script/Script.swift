/// An invalid line in a script: which line (1-based), and why.
public struct ScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line of the script.
    public var line: Int
    /// Why the line was refused.
    public var reason: InvalidEvent
    /// An error for `line`.
    public init(line: Int, reason: InvalidEvent) {
        self.line = line
        self.reason = reason
    }
    /// `line N: reason`, with any value the reason quotes clipped to 80 characters.
    public var description: String { Quoted.clipValues(in: "line \(line): \(reason)") }
}

/// A JSON Lines script (spec 4): one event object a line; blank lines and lines
/// starting with `#` are skipped.
///
/// A convenience for small scripts held in memory: it reads through `ScriptReader`
/// (so the same limits, byte-order mark and line-end rules apply) and keeps every
/// event. Commands stream with `ScriptReader` instead.
public struct Script: Sendable {
    /// Each event with the line it came from.
    public var entries: [(line: Int, event: TimedEvent)]

    /// Parses every line; throws at the first line that is not a valid event.
    public init(bytes: some Collection<UInt8>) throws(ScriptError) {
        var entries: [(line: Int, event: TimedEvent)] = []
        var reader = ScriptReader()
        reader.append(bytes)
        reader.finish()
        while let entry = try reader.nextEvent() { entries.append(entry) }
        self.entries = entries
    }

    /// The events, without their lines.
    public var events: [TimedEvent] { entries.map(\.event) }

    /// Calls `body` with each line's number and bytes (without the newline) until it
    /// returns false. A plain split on LF: `ScriptReader` adds the limits and line-end rules.
    @inlinable
    public static func forEachLine<C: Collection<UInt8>>(in bytes: C, _ body: (Int, C.SubSequence) -> Bool) {
        var number = 1
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
            if !body(number, bytes[start..<end]) { return }
            number += 1
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
    }

    /// Replays the script from an empty table, stopping after `limit` events.
    /// Throws with the line of the first invalid event; the state is then the state before it.
    public func replay(upTo limit: Int? = nil, into state: inout TableState) throws(ScriptError) {
        for (line, event) in entries.prefix(Swift.max(0, limit ?? entries.count)) {
            do throws(InvalidEvent) {
                try state.apply(event)
            } catch {
                throw ScriptError(line: line, reason: error)
            }
        }
    }
}
