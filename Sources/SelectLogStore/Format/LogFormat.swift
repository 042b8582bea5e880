import SelectLog

/// The on-disk layout; docs/LOG-FORMAT.md draws it byte by byte.
public enum LogFormat {
    public static let magic: [UInt8] = Array("SELECTLG".utf8)
    public static let version: UInt16 = 1
    public static let fileHeaderSize = 32
    public static let recordHeaderSize = 48
    static let recordMagic: [UInt8] = Array("SLR".utf8)
    static let indexTrailerMagic: [UInt8] = Array("SLINDEX1".utf8)

    /// Feature flags in the file header. Bits 0-15 are informational; bits 16-31 are
    /// required features: a reader that does not know one refuses the file.
    public static let featureZstd: UInt32 = 1 << 0
    public static let featureCheckpoints: UInt32 = 1 << 1
    static let knownRequiredFeatures: UInt32 = 0

    /// Record payload codecs.
    static let codecRaw: UInt8 = 0
    static let codecZstd: UInt8 = 1
}

/// The 32-byte file header.
public struct FileHeader: Sendable, Equatable {
    public var version: UInt16
    public var features: UInt32
    /// Random per file; seeds every checksum, so records from another file do not verify.
    public var salt: UInt64
    /// A checkpoint every this many events (0: none).
    public var checkpointInterval: UInt32

    func encoded() -> [UInt8] {
        var w = BinaryWriter(capacity: LogFormat.fileHeaderSize)
        w.append(LogFormat.magic)
        w.u8(UInt8(version & 0xFF))
        w.u8(UInt8(version >> 8))
        w.u8(UInt8(LogFormat.fileHeaderSize))
        w.u8(0)
        w.u32(features)
        w.u64(salt)
        w.u32(checkpointInterval)
        w.u32(CRC32C.checksum(w.bytes, salt: 0))
        return w.bytes
    }

    /// Reads a header from the first 32 bytes.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Result<FileHeader, LogError> {
        guard bytes.count >= LogFormat.fileHeaderSize else {
            return .failure(LogError(.damaged, "file header is incomplete", offset: 0))
        }
        guard Array(bytes[0..<8]) == LogFormat.magic else { return .failure(LogError(.notALog, "not a selectlog log (bad magic)", offset: 0)) }
        let crc = UInt32(bytes[28]) | UInt32(bytes[29]) << 8 | UInt32(bytes[30]) << 16 | UInt32(bytes[31]) << 24
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<28]), salt: 0) == crc else {
            return .failure(LogError(.damaged, "file header checksum mismatch", offset: 0))
        }
        var r = BinaryReader(Array(bytes[8..<28]))
        do throws(BinaryError) {
            let version = UInt16(try r.u8()) | UInt16(try r.u8()) << 8
            _ = try r.u8()
            _ = try r.u8()
            let features = try r.u32()
            let salt = try r.u64()
            let interval = try r.u32()
            guard version == LogFormat.version else {
                return .failure(LogError(.unsupported, "format version \(version) is not supported (this reader knows version \(LogFormat.version))", offset: 8))
            }
            let required = features >> 16
            guard required & ~LogFormat.knownRequiredFeatures == 0 else {
                return .failure(LogError(.unsupported, "the log needs features this reader does not know (0x\(String(required, radix: 16)))", offset: 12))
            }
            return .success(FileHeader(version: version, features: features, salt: salt, checkpointInterval: interval))
        } catch {
            return .failure(LogError(.damaged, "file header: \(error)", offset: 0))
        }
    }
}

/// What a record holds.
public enum RecordKind: UInt8, Sendable {
    /// Events, compressed.
    case batch = 0x42        // "B"
    /// A snapshot of the state after `firstEvent` events.
    case checkpoint = 0x43   // "C"
    /// The seek index, written on a clean close; always last.
    case index = 0x49        // "I"
}

/// The 48-byte header in front of every record.
public struct RecordHeader: Sendable, Equatable {
    public var kind: RecordKind
    public var storedLength: Int
    public var rawLength: Int
    public var eventCount: Int
    public var firstEvent: Int
    /// Batch: the time of the event before the first one. Checkpoint: the state's time.
    public var baseTime: Micros
    public var codec: UInt8

    /// The header followed by `stored` (the payload as stored), checksummed with `salt`.
    static func record(_ header: RecordHeader, payload stored: [UInt8], salt: UInt64) -> [UInt8] {
        var w = BinaryWriter(capacity: LogFormat.recordHeaderSize + stored.count)
        w.append(LogFormat.recordMagic)
        w.u8(header.kind.rawValue)
        w.u32(0)                                   // header checksum, patched below
        w.u32(CRC32C.checksum(stored, salt: salt)) // payload checksum
        w.u32(UInt32(header.storedLength))
        w.u32(UInt32(header.rawLength))
        w.u32(UInt32(header.eventCount))
        w.u64(UInt64(header.firstEvent))
        w.u64(UInt64(bitPattern: header.baseTime.raw))
        w.u8(header.codec)
        w.u8(0)
        w.u8(0)
        w.u8(0)
        w.u32(0)
        w.patchU32(headerChecksum(w.bytes, salt: salt), at: 4)
        w.append(stored)
        return w.bytes
    }

    /// The checksum over bytes 0-3 and 8-47 of a header (everything but itself).
    static func headerChecksum(_ bytes: some RandomAccessCollection<UInt8>, salt: UInt64) -> UInt32 {
        var covered = Array(bytes.prefix(4))
        covered.append(contentsOf: bytes.dropFirst(8).prefix(LogFormat.recordHeaderSize - 8))
        return CRC32C.checksum(covered, salt: salt)
    }

    enum Problem {
        case badMagic
        case badChecksum
        case badField(String)
    }

    /// Reads a header from exactly 48 bytes; returns it with its payload checksum.
    static func decode(_ b: UnsafeRawBufferPointer, salt: UInt64) -> Result<(RecordHeader, UInt32), ProblemBox> {
        guard b[0] == LogFormat.recordMagic[0], b[1] == LogFormat.recordMagic[1], b[2] == LogFormat.recordMagic[2] else {
            return .failure(ProblemBox(problem: .badMagic))
        }
        func u32(_ at: Int) -> UInt32 { UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24 }
        func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
        guard headerChecksum(b, salt: salt) == u32(4) else { return .failure(ProblemBox(problem: .badChecksum)) }
        guard let kind = RecordKind(rawValue: b[3]) else { return .failure(ProblemBox(problem: .badField("unknown record kind \(b[3])"))) }
        let codec = b[40]
        guard codec == LogFormat.codecRaw || codec == LogFormat.codecZstd else {
            return .failure(ProblemBox(problem: .badField("unknown codec \(codec)")))
        }
        let first = u64(24)
        guard first <= UInt64(Int32.max) * 64 else { return .failure(ProblemBox(problem: .badField("event index out of range"))) }
        let header = RecordHeader(kind: kind, storedLength: Int(u32(12)), rawLength: Int(u32(16)), eventCount: Int(u32(20)),
                                  firstEvent: Int(first), baseTime: Micros(raw: Int64(bitPattern: u64(32))), codec: codec)
        return .success((header, u32(8)))
    }

    struct ProblemBox: Error {
        var problem: Problem
    }
}
