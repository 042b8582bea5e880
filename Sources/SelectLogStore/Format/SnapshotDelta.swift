import SelectLog

/// A checkpoint stored as the changes from the checkpoint before it (version 7).
///
/// Two checkpoints a few thousand events apart hold nearly the same state: the same row
/// heights, most of the same undo stack, the same editor options. Stored whole, a
/// checkpoint of a table of random row heights took 0.2–0.3 bytes/event of a log (of
/// sessions from generators the project did not tune on), and the writer put most of
/// them off to keep that down. Stored as the bytes that changed, it takes about a tenth.
///
/// The payload (before its codec: zstd or range-coded, as any checkpoint's) is:
///
///     marker 0xD7 · depth u8 (1...15) · base: varint, the events before the base
///     checkpoint · length: varint, the snapshot's (1...maxBytes) · operations
///
/// and each operation is a varint `n`: for an even `n`, `n / 2` bytes (at least one)
/// follow, copied into the snapshot as they are; for an odd `n`, `n / 2` bytes (at least
/// one) are copied from the base's snapshot, starting a zigzag varint's distance from
/// where the last copy from it ended (0 before the first). The base is the checkpoint
/// record just before this one in the log; it must hold the state after `base` events
/// and have depth `depth − 1` (a whole snapshot has depth 0), so that a reader resolves
/// any checkpoint from at most 15 records before it. A snapshot's own first byte is its
/// version (`TableState.snapshotVersion`, 4), never 0xD7.
enum SnapshotDelta {
    /// A delta checkpoint's first byte.
    static let marker: UInt8 = 0xD7
    /// The deepest chain of deltas: a writer stores a whole snapshot at least every 16
    /// checkpoints.
    static let maxDepth = 15
    /// The longest snapshot a delta describes, and the longest base it reads: a reader
    /// holds at most two of them and a chain's deltas at once.
    static let maxBytes = 4 << 20
    /// The longest delta payload (raw) a reader takes; a writer stores a longer one whole.
    static let maxDeltaBytes = 256 << 10
    /// A copy shorter than this is stored as its bytes.
    static let minimumMatch = 8

    /// What a delta payload's first bytes say.
    struct Header: Equatable {
        var depth: Int
        /// The events before the base checkpoint.
        var baseEvents: Int
        /// The snapshot's length.
        var length: Int
        /// Where the operations start.
        var operationsStart: Int
    }

    /// A checkpoint's snapshot, resolved, with its depth and the events before it.
    struct Resolved: Sendable {
        var offset: Int
        var events: Int
        var depth: Int
        var bytes: [UInt8]

        /// Checkpoint `info`, whose payload `snapshot` is a whole snapshot (depth 0).
        static func whole(_ snapshot: [UInt8], of info: RecordInfo) -> Resolved {
            Resolved(offset: info.offset, events: info.header.firstEvent, depth: 0, bytes: snapshot)
        }
    }

    static func isDelta(_ payload: [UInt8]) -> Bool { payload.first == marker }

    /// The header of delta payload `raw` (whose first byte is `marker`).
    static func header(_ raw: [UInt8]) throws(BinaryError) -> Header {
        guard raw.count <= maxDeltaBytes else {
            throw BinaryError(offset: 0, reason: "delta checkpoint of \(raw.count) bytes, more than the \(maxDeltaBytes) a delta may hold")
        }
        var r = BinaryReader(raw)
        guard try r.u8() == marker else { throw BinaryError(offset: 0, reason: "not a delta checkpoint") }
        let depth = Int(try r.u8())
        guard depth >= 1, depth <= maxDepth else {
            throw BinaryError(offset: 1, reason: "delta checkpoint of depth \(depth), not 1 to \(maxDepth)")
        }
        let base = try r.count(limit: Int.max)
        let start = r.offset
        let length = try r.count(limit: maxBytes)
        guard length > 0 else { throw BinaryError(offset: start, reason: "delta checkpoint of an empty snapshot") }
        return Header(depth: depth, baseEvents: base, length: length, operationsStart: r.offset)
    }

    /// The snapshot `raw` (with header `h`) describes, applied to its base's snapshot.
    /// Every operation is checked against the base and the snapshot's length.
    static func apply(_ raw: [UInt8], _ h: Header, to base: [UInt8]) throws(BinaryError) -> [UInt8] {
        guard base.count <= maxBytes else {
            throw BinaryError(offset: 0, reason: "the base snapshot has \(base.count) bytes, more than the \(maxBytes) a delta may read")
        }
        var out: [UInt8] = []
        out.reserveCapacity(h.length)
        var r = BinaryReader(raw, from: h.operationsStart)
        var expected = 0
        while !r.isAtEnd {
            let start = r.offset
            let n = try r.varint()
            let count = Int(n >> 1)
            guard count > 0, count <= h.length - out.count else {
                throw BinaryError(offset: start, reason: count == 0 ? "an empty operation"
                                  : "an operation of \(count) bytes past the snapshot's \(h.length)")
            }
            if n & 1 == 0 {
                guard count <= r.remaining else { throw BinaryError(offset: start, reason: "bytes run past the end of the delta") }
                out.append(contentsOf: raw[r.offset..<r.offset + count])
                r.offset += count
            } else {
                let distance = try r.signed()
                let (from, overflow) = Int64(expected).addingReportingOverflow(distance)
                guard !overflow, from >= 0, from <= Int64(base.count - count) else {
                    throw BinaryError(offset: start, reason: "a copy of \(count) bytes from outside the base's \(base.count)")
                }
                out.append(contentsOf: base[Int(from)..<Int(from) + count])
                expected = Int(from) + count
            }
        }
        guard out.count == h.length else {
            throw BinaryError(offset: r.offset, reason: "the delta gives \(out.count) bytes, its header says \(h.length)")
        }
        return out
    }
}

extension SnapshotDelta {
    /// Checkpoint `info`'s snapshot, from its payload `raw` in a log of format `version`:
    /// `raw` itself when it is a whole snapshot, else delta `raw` applied to `base`, the
    /// checkpoint just before it in the log, resolved (nil: there is none). A delta whose
    /// base is missing, holds other events, has another depth, or does not give its
    /// snapshot is damage, named at the checkpoint's offset.
    static func resolve(_ raw: [UInt8], of info: RecordInfo, version: UInt16, base: Resolved?) throws(LogError) -> Resolved {
        guard version >= LogFormat.deltaCheckpointsVersion, isDelta(raw) else { return .whole(raw, of: info) }
        return try resolve(raw, try header(raw, of: info), of: info, base: base)
    }

    /// Delta `raw` of checkpoint `info`, whose header `h` is read already, applied to
    /// `base` (as `resolve(_:of:version:base:)` says).
    static func resolve(_ raw: [UInt8], _ h: Header, of info: RecordInfo, base: Resolved?) throws(LogError) -> Resolved {
        guard let base else {
            throw damaged("a delta checkpoint with no checkpoint before it", info)
        }
        try check(h, of: info, base: base.events, depth: base.depth)
        do throws(BinaryError) {
            let bytes = try apply(raw, h, to: base.bytes)
            return Resolved(offset: info.offset, events: info.header.firstEvent, depth: h.depth, bytes: bytes)
        } catch {
            throw damaged("delta checkpoint: \(error)", info)
        }
    }

    /// The header of checkpoint `info`'s delta payload `raw`.
    static func header(_ raw: [UInt8], of info: RecordInfo) throws(LogError) -> Header {
        do throws(BinaryError) { return try header(raw) } catch { throw damaged("delta checkpoint: \(error)", info) }
    }

    /// Checks that the checkpoint before delta checkpoint `info` (header `h`), after
    /// `events` events and of depth `depth`, is its base.
    static func check(_ h: Header, of info: RecordInfo, base events: Int, depth: Int) throws(LogError) {
        guard events == h.baseEvents else {
            throw damaged("a delta checkpoint on the checkpoint after \(h.baseEvents) events, but the one before it is after \(events)", info)
        }
        guard depth == h.depth - 1 else {
            throw damaged("a delta checkpoint of depth \(h.depth) on a checkpoint of depth \(depth) (it must be \(h.depth - 1))", info)
        }
    }

    private static func damaged(_ why: String, _ info: RecordInfo) -> LogError {
        LogError(.damaged, why, offset: info.offset, eventIndex: info.header.firstEvent)
    }
}
