/// A list of JSON entries kept as UTF-8 in chunks of about 1 MiB, separated by `,\n`.
///
/// A viewer page holds up to 32 MB of entries (`ViewerData.byteBudget`). Kept as one
/// `String` each, the many large entries of a page at its budget (a selection of
/// thousands of ranges at every event) left the heap full of holes between them, and
/// `view` peaked at 70 MB. In chunks, the entries take their own bytes and little more,
/// and a page is written chunk by chunk without copying them.
struct ViewerText {
    /// The size a chunk is filled to before the next one starts.
    static let chunkBytes = 1 << 20

    /// The entries' bytes, separators included, in order.
    private(set) var chunks: [[UInt8]] = []
    /// How many entries were started.
    private(set) var count = 0
    /// The bytes held, separators included.
    private(set) var byteCount = 0

    /// Starts the next entry (after a separator when it is not the first); its text is
    /// what `append` adds until the next call.
    mutating func startEntry() {
        if count > 0 { append(",\n") }
        count += 1
    }

    /// Adds `text` to the entry being written.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Adds `bytes` to the entry being written, filling the last chunk before starting another.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        var rest = bytes[...]
        byteCount += bytes.count
        while !rest.isEmpty {
            if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.chunkBytes {
                var chunk: [UInt8] = []
                chunk.reserveCapacity(Self.chunkBytes)
                chunks.append(chunk)
            }
            let last = chunks.count - 1
            let room = Self.chunkBytes - chunks[last].count
            let piece = rest.prefix(room)
            chunks[last].append(contentsOf: piece)
            rest = rest.dropFirst(piece.count)
        }
    }
}
