import SelectLog

/// The on-disk layout; docs/LOG-FORMAT.md draws it byte by byte.
package enum LogFormat {
    /// The file's first 8 bytes.
    package static let magic: [UInt8] = Array("SELECTLG".utf8)
    /// The newest version this build reads (it reads versions 1 to 7) and writes. Version
    /// 3 differs from 2 only in how a batch's events are encoded (coded batches); version 4
    /// adds continued batches (16-byte headers, models carried on from the batch before);
    /// version 5 adds codec 2, range-coded payloads (`ByteModelCoder`), for the
    /// checkpoints of a writer without zstd; version 6 codes values on a 3x screen's
    /// grid (thirds of a point) in thirds; version 7 stores a checkpoint as the changes
    /// from the checkpoint before it (`SnapshotDelta`).
    package static let newestVersion: UInt16 = 7
    /// The version a new log of this build gets, with or without zstd: 7.
    package static let version: UInt16 = deltaCheckpointsVersion
    /// The first version whose batches are range-coded (coded batches).
    package static let codedBatchesVersion: UInt16 = 3
    /// The first version with continued batches.
    package static let continuedBatchesVersion: UInt16 = 4
    /// The first version with range-coded payloads (codec 2).
    package static let rangeCodedVersion: UInt16 = 5
    /// The first version whose channels code values on the grid of thirds in thirds.
    package static let thirdsVersion: UInt16 = 6
    /// The first version whose checkpoints may be deltas (`SnapshotDelta`).
    package static let deltaCheckpointsVersion: UInt16 = 7
    /// The file header of versions 2 and 3 (40 bytes; version 1's was 32).
    package static let fileHeaderSize = 40
    /// The file header of version 1.
    package static let fileHeaderSizeV1 = 32
    /// The header of batches that start a window, checkpoints and the index.
    package static let recordHeaderSize = 48
    /// The header of a continued batch (version 4): kind "b".
    package static let continuedHeaderSize = 16
    /// A continued batch's kind byte.
    static let continuedKind: UInt8 = 0x62   // "b"
    static let recordMagic: [UInt8] = Array("SLR".utf8)
    static let indexTrailerMagic: [UInt8] = Array("SLINDEX1".utf8)

    /// Feature flags in the file header. Bits 0-15 are informational; bits 16-31 are
    /// required features: a reader that does not know one refuses the file.
    /// Batches may be zstd-compressed (clear in a log written without libzstd).
    package static let featureZstd: UInt32 = 1 << 0
    /// The log holds checkpoints.
    package static let featureCheckpoints: UInt32 = 1 << 1
    /// The required feature bits (16-31), where the header holds them.
    static let requiredFeatures: UInt32 = 0xFFFF_0000
    /// The required features this reader knows, where the header holds them: none yet.
    static let knownRequiredFeatures: UInt32 = 0

    /// Record payload codecs. "stored" payloads are the raw bytes, still checksummed
    /// (and, for batches, still delta-encoded): what a build without zstd writes.
    static let codecRaw: UInt8 = 0
    static let codecZstd: UInt8 = 1
    /// Range-coded bytes under an order-1 model (`ByteModelCoder`), version 5: what a
    /// writer without zstd does with a checkpoint's snapshot.
    static let codecRange: UInt8 = 2

    /// The format's limits. Every allocation a reader makes is bounded by these, never
    /// by what a header claims.
    package enum Limits {
        /// A record payload, stored or decompressed (the recorder's batches are 64 KiB).
        package static let payloadBytes = 16 << 20
        /// Events in one batch.
        package static let batchEvents = 1 << 20
        /// Records an index may list: at least one byte of file per record header.
        package static func indexEntries(fileSize: Int) -> Int { max(0, fileSize / 48) }
        /// Decompressed bytes per stored byte that a zstd payload may claim.
        package static let compressionRatio = 4096
        /// Decoded bytes per stored byte (plus 4: a finished stream leaves out up to four
        /// zero bytes) that a range-coded payload may claim: its coder's models never
        /// predict a bit better than 65472/65536, so a byte costs at least 0.011 bits and
        /// a stored byte decodes to at most about 710.
        package static let rangeCodedRatio = 1024
        /// Events a batch may claim per raw byte (plus 5: the range coder leaves out its
        /// first byte and up to four zero bytes). Every coded event takes at least one
        /// modelled decision, and no decision costs less than -log2(65472/65536), 0.0014
        /// bits, so a byte holds at most about 5,700 events: 4,096 ticks without a time
        /// code into 7 bytes. (Before, the limit was 256 a byte, which such a batch broke:
        /// a writer made logs its reader refused.)
        package static let eventsPerByte = 8192
    }
}

/// What a record holds.
package enum RecordKind: UInt8, Sendable {
    /// Events, compressed.
    case batch = 0x42        // "B"
    /// A snapshot of the state after `firstEvent` events.
    case checkpoint = 0x43   // "C"
    /// The seek index, written on a clean close; always last.
    case index = 0x49        // "I"
}

/// The header in front of every record: 48 bytes, or 16 for a continued batch.
package struct RecordHeader: Sendable, Equatable {
    /// What the record holds.
    package var kind: RecordKind
    /// A continued batch (version 4, kind "b", a 16-byte header): its coded events go on
    /// from the batch record just before it (models, predictions and time carry over),
    /// so it is decoded only after that one. Its first event and base time are not
    /// stored: they follow from the records before it.
    package var continues = false
    /// Payload bytes in the file.
    package var storedLength: Int
    /// Payload bytes once decompressed (equal to `storedLength` when stored).
    package var rawLength: Int
    /// Events in a batch; 0 otherwise.
    package var eventCount: Int
    /// Batch: the index of its first event. Checkpoint: events the state has seen.
    package var firstEvent: Int
    /// Batch: the time of the event before the first one. Checkpoint: the state's time.
    package var baseTime: Micros
    /// 0 stored, 1 zstd, 2 range-coded (version 5).
    package var codec: UInt8

    /// The header's length in the file.
    package var size: Int { continues ? LogFormat.continuedHeaderSize : LogFormat.recordHeaderSize }

    /// Appends the header and then `stored` (the payload as stored, whose salted CRC-32C
    /// is `checksum`, computed once by the caller, which keeps it for the index) to `out`,
    /// checksummed with `salt`. Written in place at the end of `out`, so that a writer
    /// lays several records out in one buffer and writes them at once.
    static func write(_ header: RecordHeader, payload stored: [UInt8], checksum: UInt32, salt: UInt64,
                      into out: inout BinaryWriter) {
        let start = out.count
        if header.continues {
            writeContinued(header, payload: stored, checksum: checksum, salt: salt, into: &out)
            return
        }
        out.append(LogFormat.recordMagic)
        out.u8(header.kind.rawValue)
        out.u32(0)                                 // header checksum, patched below
        out.u32(checksum)                          // payload checksum
        out.u32(UInt32(header.storedLength))
        out.u32(UInt32(header.rawLength))
        out.u32(UInt32(header.eventCount))
        out.u64(UInt64(header.firstEvent))
        out.u64(UInt64(bitPattern: header.baseTime.raw))
        out.u8(header.codec)
        out.u8(0)
        out.u8(0)
        out.u8(0)
        out.u32(0)
        let check = out.bytes.withUnsafeBytes { b in
            headerChecksum(UnsafeRawBufferPointer(rebasing: b[start..<(start + LogFormat.recordHeaderSize)]), salt: salt)
        }
        out.patchU32(check, at: start + 4)
        out.append(stored)
    }

    /// A continued batch: "SLR" "b", a 16-bit header check (the low half of the salted
    /// CRC-32C of bytes 0-3 and 6-15), the payload's CRC, the stored length (u24) and the
    /// event count (u24). The payload is stored (codec 0).
    private static func writeContinued(_ header: RecordHeader, payload stored: [UInt8], checksum: UInt32, salt: UInt64,
                                       into out: inout BinaryWriter) {
        let start = out.count
        out.append(LogFormat.recordMagic)
        out.u8(LogFormat.continuedKind)
        out.u8(0)
        out.u8(0)
        out.u32(checksum)
        for v in [stored.count, header.eventCount] {
            out.u8(UInt8(truncatingIfNeeded: v))
            out.u8(UInt8(truncatingIfNeeded: v >> 8))
            out.u8(UInt8(truncatingIfNeeded: v >> 16))
        }
        let check = out.bytes.withUnsafeBytes { b in
            continuedHeaderCheck(UnsafeRawBufferPointer(rebasing: b[start..<(start + LogFormat.continuedHeaderSize)]), salt: salt)
        }
        out.bytes[start + 4] = UInt8(truncatingIfNeeded: check)
        out.bytes[start + 5] = UInt8(truncatingIfNeeded: check >> 8)
        out.append(stored)
    }

    /// The check of a continued batch's header: the low 16 bits of the salted CRC-32C of
    /// bytes 0-3 and 6-15, read in place (no copy: every continued batch a reader walks
    /// passes here).
    static func continuedHeaderCheck(_ b: UnsafeRawBufferPointer, salt: UInt64) -> UInt16 {
        var crc = CRC32C.checksum(UnsafeRawBufferPointer(start: nil, count: 0), salt: salt)
        crc = CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: b[0..<4]))
        crc = CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: b[6..<LogFormat.continuedHeaderSize]))
        return UInt16(truncatingIfNeeded: crc)
    }

    /// The checksum over bytes 0-3 and 8-47 of a header (everything but itself), read in
    /// place (no copy: every record a reader walks passes here).
    static func headerChecksum(_ b: UnsafeRawBufferPointer, salt: UInt64) -> UInt32 {
        var crc = CRC32C.checksum(UnsafeRawBufferPointer(start: nil, count: 0), salt: salt)
        crc = CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: b[0..<4]))
        return CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: b[8..<LogFormat.recordHeaderSize]))
    }

    enum Problem {
        /// Fewer bytes are left than the header's kind needs.
        case incomplete
        case badMagic
        case badChecksum
        case badField(String)
    }

    /// Reads the header at `offset` in `bytes`, which must lie before `end`; returns it with
    /// its payload checksum. A continued batch (kind "b", only when `continued`: version 4)
    /// gets `events`, the events before it, as its first event.
    static func decode(in bytes: UnsafeRawBufferPointer, at offset: Int, end: Int, salt: UInt64, events: Int,
                       continued: Bool) -> Result<(RecordHeader, UInt32), ProblemBox> {
        guard offset >= 0, end <= bytes.count, end - offset >= 4 else { return .failure(ProblemBox(problem: .incomplete)) }
        if continued && bytes[offset + 3] == LogFormat.continuedKind {
            guard end - offset >= LogFormat.continuedHeaderSize else { return .failure(ProblemBox(problem: .incomplete)) }
            return decodeContinued(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + LogFormat.continuedHeaderSize]),
                                   salt: salt, events: events)
        }
        guard end - offset >= LogFormat.recordHeaderSize else { return .failure(ProblemBox(problem: .incomplete)) }
        return decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + LogFormat.recordHeaderSize]), salt: salt)
    }

    private static func decodeContinued(_ b: UnsafeRawBufferPointer, salt: UInt64, events: Int) -> Result<(RecordHeader, UInt32), ProblemBox> {
        guard b[0] == LogFormat.recordMagic[0], b[1] == LogFormat.recordMagic[1], b[2] == LogFormat.recordMagic[2] else {
            return .failure(ProblemBox(problem: .badMagic))
        }
        guard continuedHeaderCheck(b, salt: salt) == UInt16(b[4]) | UInt16(b[5]) << 8 else { return .failure(ProblemBox(problem: .badChecksum)) }
        func u24(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 }
        let checksum = UInt32(b[6]) | UInt32(b[7]) << 8 | UInt32(b[8]) << 16 | UInt32(b[9]) << 24
        let stored = u24(10)
        var header = RecordHeader(kind: .batch, storedLength: stored, rawLength: stored, eventCount: u24(13),
                                  firstEvent: events, baseTime: .zero, codec: LogFormat.codecRaw)
        header.continues = true
        if header.eventCount == 0 { return .failure(ProblemBox(problem: .badField("empty batch"))) }
        if let why = header.limitViolation { return .failure(ProblemBox(problem: .badField(why))) }
        return .success((header, checksum))
    }

    /// Reads a 48-byte header from exactly 48 bytes; returns it with its payload checksum.
    static func decode(_ b: UnsafeRawBufferPointer, salt: UInt64) -> Result<(RecordHeader, UInt32), ProblemBox> {
        guard b[0] == LogFormat.recordMagic[0], b[1] == LogFormat.recordMagic[1], b[2] == LogFormat.recordMagic[2] else {
            return .failure(ProblemBox(problem: .badMagic))
        }
        func u32(_ at: Int) -> UInt32 { UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24 }
        func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
        guard headerChecksum(b, salt: salt) == u32(4) else { return .failure(ProblemBox(problem: .badChecksum)) }
        guard let kind = RecordKind(rawValue: b[3]) else { return .failure(ProblemBox(problem: .badField("unknown record kind \(b[3])"))) }
        let codec = b[40]
        guard codec == LogFormat.codecRaw || codec == LogFormat.codecZstd || codec == LogFormat.codecRange else {
            return .failure(ProblemBox(problem: .badField("unknown codec \(codec)")))
        }
        let first = u64(24)
        guard first <= UInt64(Int32.max) * 64 else { return .failure(ProblemBox(problem: .badField("event index out of range"))) }
        let header = RecordHeader(kind: kind, storedLength: Int(u32(12)), rawLength: Int(u32(16)), eventCount: Int(u32(20)),
                                  firstEvent: Int(first), baseTime: Micros(raw: Int64(bitPattern: u64(32))), codec: codec)
        if let why = header.limitViolation { return .failure(ProblemBox(problem: .badField(why))) }
        return .success((header, u32(8)))
    }

    /// Why this header breaks the format's limits, or nil: lengths within
    /// `LogFormat.Limits`, a stored payload exactly as long as its raw one, a zstd payload
    /// that claims no more than `compressionRatio` times its stored length (a range-coded
    /// one `rangeCodedRatio` times, and never an index), events only
    /// in batches, and base times in the engine's range.
    var limitViolation: String? {
        let limit = LogFormat.Limits.payloadBytes
        if storedLength > limit { return "record payload of \(storedLength) bytes exceeds the format's limit of \(limit)" }
        if rawLength > limit { return "record claims \(rawLength) bytes uncompressed, over the format's limit of \(limit)" }
        if codec == LogFormat.codecRaw && rawLength != storedLength {
            return "stored record claims \(rawLength) raw bytes but stores \(storedLength)"
        }
        if codec == LogFormat.codecZstd && rawLength > storedLength * LogFormat.Limits.compressionRatio {
            return "zstd record claims \(rawLength) raw bytes from \(storedLength)"
        }
        if codec == LogFormat.codecRange {
            if rawLength > (storedLength + 4) * LogFormat.Limits.rangeCodedRatio {
                return "range-coded record claims \(rawLength) raw bytes from \(storedLength)"
            }
            if kind == .index { return "an index record must be stored (codec 0), not range-coded" }
        }
        switch kind {
        case .batch:
            if eventCount > LogFormat.Limits.batchEvents { return "batch claims \(eventCount) events, over the format's limit" }
            // A coded event (version 3) can take a small fraction of a byte, never 1/8192.
            if eventCount > (Swift.max(rawLength, 0) + 5) * LogFormat.Limits.eventsPerByte {
                return "batch claims \(eventCount) events in \(rawLength) bytes"
            }
        case .checkpoint, .index:
            if eventCount != 0 { return "\(kind) record claims \(eventCount) events" }
        }
        if baseTime.raw < 0 || baseTime > Micros.limit { return "base time \(baseTime.raw) out of range" }
        return nil
    }

    struct ProblemBox: Error {
        var problem: Problem
    }
}
