/// Reads a JSON Lines script as its bytes arrive, one line or one event at a time,
/// with the line's number: no caller has to hold the whole script.
///
/// It does no I/O. Give it bytes with `append(_:)`, take lines or events until it
/// returns nil ("need more bytes"), and call `finish()` at the end of the input;
/// after that, nil means the script is done. It skips a UTF-8 byte-order mark at
/// the start, accepts LF and CRLF line ends, names a bare CR (one not followed by
/// LF) as an error, and refuses a line longer than `maxLineLength` before holding
/// more of it than that.
///
/// ```swift
/// var reader = ScriptReader()
/// reader.append(chunk)                       // as often as bytes arrive
/// while let (line, event) = try reader.nextEvent() { … }
/// reader.finish()                            // then drain nextEvent() once more
/// ```
public struct ScriptReader: Sendable {
    /// The longest line accepted by default: 64 MiB.
    public static let defaultMaxLineLength = 64 << 20

    /// The longest line accepted, in bytes, without its line end.
    public let maxLineLength: Int

    private var pending: [UInt8] = []
    private var chunk: [UInt8] = []
    private var position = 0
    private var number = 1
    private var atStart = true
    private var finished = false
    private var failed = false

    /// A reader that refuses lines longer than `maxLineLength` bytes.
    public init(maxLineLength: Int = ScriptReader.defaultMaxLineLength) {
        self.maxLineLength = max(maxLineLength, 1)
    }

    /// Adds the next bytes of the script.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if position < chunk.count {
            chunk.removeFirst(position)
            chunk.append(contentsOf: bytes)
        } else {
            chunk = Array(bytes)
        }
        position = 0
    }

    /// Marks the end of the script: the last line may have no line end.
    public mutating func finish() { finished = true }

    /// The number the next line will have.
    public var nextLineNumber: Int { number }

    /// The next line without its line end, or nil when more bytes are needed (or,
    /// after `finish()`, when the script is done).
    public mutating func nextLine() throws(ScriptError) -> (number: Int, bytes: [UInt8])? {
        guard !failed else { return nil }
        do throws(ScriptError) {
            return try readLine()
        } catch {
            failed = true
            throw error
        }
    }

    /// The next event with its line number, skipping blank lines and comments; nil
    /// as for `nextLine()`.
    public mutating func nextEvent() throws(ScriptError) -> (line: Int, event: TimedEvent)? {
        while let (line, bytes) = try nextLine() {
            do throws(InvalidEvent) {
                if let event = try EventDecoder.decode(line: bytes) { return (line, event) }
            } catch {
                failed = true
                throw ScriptError(line: line, reason: error)
            }
        }
        return nil
    }

    private func failure(_ kind: InvalidEvent.Kind, _ reason: String) -> ScriptError {
        ScriptError(line: number, reason: InvalidEvent(kind, nil, reason))
    }

    private var limitText: String {
        maxLineLength % (1 << 20) == 0 ? "\(maxLineLength >> 20) MiB" : "\(maxLineLength) byte\(maxLineLength == 1 ? "" : "s")"
    }

    /// A CR not followed by LF, at the end of `line` (the line's bytes up to it).
    private func bareCR<S: Collection<UInt8>>(endingAt line: S) -> ScriptError {
        failure(.malformed, "a bare carriage return (CR) at \(EventDecoder.columnText(byte: line.count, in: line)); lines end with LF or CRLF")
    }

    private mutating func readLine() throws(ScriptError) -> (number: Int, bytes: [UInt8])? {
        if atStart {
            if chunk.count - position < 3 && !finished { return nil }
            if chunk.count - position >= 3, chunk[position] == 0xEF, chunk[position + 1] == 0xBB, chunk[position + 2] == 0xBF {
                position += 3
            }
            atStart = false
        }
        // A CR at the end of the previous bytes: the next byte says whether it ends the line.
        if pending.last == 0x0D {
            if position < chunk.count {
                guard chunk[position] == 0x0A else { throw bareCR(endingAt: pending) }
                position += 1
                pending.removeLast()
                return takeLine(pending: true, upTo: position)
            }
            if finished { throw bareCR(endingAt: pending) }
            return nil
        }
        let k = chunk.withUnsafeBufferPointer { bytes in
            var k = position
            while k < bytes.count, bytes[k] != 0x0A, bytes[k] != 0x0D { k += 1 }
            return k
        }
        if pending.count + (k - position) > maxLineLength { throw failure(.overLimit, "longer than \(limitText)") }
        if k < chunk.count, chunk[k] == 0x0A {
            return takeLine(pending: !pending.isEmpty, upTo: k, skip: 1)
        }
        if k < chunk.count {
            // A CR: fine only when LF follows.
            if k + 1 < chunk.count {
                guard chunk[k + 1] == 0x0A else { throw bareCR(endingAt: pending + chunk[position...k]) }
                return takeLine(pending: !pending.isEmpty, upTo: k, skip: 2)
            }
            pending.append(contentsOf: chunk[position...k])
            position = chunk.count
            if finished { throw bareCR(endingAt: pending) }
            return nil
        }
        // No line end in these bytes.
        if finished {
            if pending.isEmpty && position == chunk.count { return nil }
            return takeLine(pending: !pending.isEmpty, upTo: k)
        }
        pending.append(contentsOf: chunk[position...])
        chunk = []
        position = 0
        return nil
    }

    /// The line made of `pending` (when set) and the chunk up to `end`; moves past
    /// `skip` line-end bytes.
    private mutating func takeLine(pending usePending: Bool, upTo end: Int, skip: Int = 0) -> (number: Int, bytes: [UInt8]) {
        let line: [UInt8]
        let start = min(position, end)
        if usePending {
            pending.append(contentsOf: chunk[start..<end])
            // Hand over an exactly sized copy when growth left much spare capacity.
            line = pending.capacity > pending.count + pending.count / 4 ? Array(pending[...]) : pending
            pending = []
        } else {
            line = Array(chunk[start..<end])
        }
        position = min(max(end + skip, position), chunk.count)
        defer { number += 1 }
        return (number, line)
    }
}
