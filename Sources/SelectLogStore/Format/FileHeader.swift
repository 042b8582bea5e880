import SelectLog

/// The file header: 40 bytes (32 in version 1).
package struct FileHeader: Sendable, Equatable {
    /// The format version: 1 to 7.
    package var version: UInt16
    /// Feature flags (`LogFormat.featureZstd`, `featureCheckpoints`; bits 16-31 required).
    package var features: UInt32
    /// Random per file; seeds every checksum, so records from another file do not verify.
    package var salt: UInt64
    /// A checkpoint every this many events (0: none).
    package var checkpointInterval: UInt32
    /// The behaviour fingerprint of the engine that wrote the log (version 2; nil in
    /// version 1 logs, which did not record it).
    package var behaviour: UInt64?

    /// A header of `version` (by default, the one this build's new logs get).
    package init(features: UInt32, salt: UInt64, checkpointInterval: UInt32, behaviour: UInt64,
                 version: UInt16 = LogFormat.version) {
        self.version = version
        self.features = features
        self.salt = salt
        self.checkpointInterval = checkpointInterval
        self.behaviour = behaviour
    }

    init(version: UInt16, features: UInt32, salt: UInt64, checkpointInterval: UInt32, behaviour: UInt64?) {
        self.version = version
        self.features = features
        self.salt = salt
        self.checkpointInterval = checkpointInterval
        self.behaviour = behaviour
    }

    /// The header's length in the file: where the first record starts.
    package var size: Int { version == 1 ? LogFormat.fileHeaderSizeV1 : LogFormat.fileHeaderSize }

    package func encoded() -> [UInt8] {
        var w = BinaryWriter(capacity: size)
        w.append(LogFormat.magic)
        w.u8(UInt8(version & 0xFF))
        w.u8(UInt8(version >> 8))
        w.u8(UInt8(size))
        w.u8(0)
        w.u32(features)
        w.u64(salt)
        w.u32(checkpointInterval)
        if version >= 2 { w.u64(behaviour ?? 0) }
        w.u32(CRC32C.checksum(w.bytes, salt: 0))
        return w.bytes
    }

    /// Reads a header of version 1 (32 bytes) or 2 to 5 (40 bytes) from the start of `bytes`.
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> Result<FileHeader, LogError> {
        guard bytes.count >= LogFormat.fileHeaderSizeV1 else {
            return .failure(LogError(.damaged, "file header is incomplete", offset: 0))
        }
        guard Array(bytes[0..<8]) == LogFormat.magic else {
            if onlyMagicDamaged(bytes) {
                return .failure(LogError(.damaged, damagedMagic, offset: 0))
            }
            return .failure(LogError(.notALog, "not a selectlog log (bad magic)", offset: 0))
        }
        let version = UInt16(bytes[8]) | UInt16(bytes[9]) << 8
        guard version >= 1 && version <= LogFormat.newestVersion else {
            // A newer format may lay its header out otherwise; but a header in this layout
            // whose checksum does not match is damaged, whatever its version says (a flipped
            // bit there must not send the user looking for a newer build).
            if bytes.count >= LogFormat.fileHeaderSize, Int(bytes[10]) == LogFormat.fileHeaderSize,
               !checksumMatches(bytes, size: LogFormat.fileHeaderSize) {
                return .failure(LogError(.damaged, "file header checksum mismatch (its format version reads \(version))", offset: 0))
            }
            if version == 0 {
                return .failure(LogError(.damaged, "format version 0 does not exist (this reader knows versions 1 to \(LogFormat.newestVersion))", offset: 8))
            }
            // Formats are numbered one after another: a version past 255 is text or noise
            // after the magic, not a newer selectlog's.
            if version > 255 {
                return .failure(LogError(.damaged, "format version \(version) is not one a selectlog writes (this reader knows versions 1 to \(LogFormat.newestVersion))", offset: 8))
            }
            return .failure(LogError(.unsupported, "format version \(version) is not supported: written by a newer selectlog (this reader knows versions 1 to \(LogFormat.newestVersion))", offset: 8))
        }
        let size = version == 1 ? LogFormat.fileHeaderSizeV1 : LogFormat.fileHeaderSize
        guard bytes.count >= size else { return .failure(LogError(.damaged, "file header is incomplete", offset: 0)) }
        guard Int(bytes[10]) == size else {
            return .failure(LogError(.damaged, "file header length \(bytes[10]) does not match version \(version) (\(size))", offset: 10))
        }
        guard checksumMatches(bytes, size: size) else {
            return .failure(LogError(.damaged, "file header checksum mismatch", offset: 0))
        }
        var r = BinaryReader(Array(bytes[12..<(size - 4)]))
        do throws(BinaryError) {
            let features = try r.u32()
            let salt = try r.u64()
            let interval = try r.u32()
            let behaviour: UInt64? = version >= 2 ? try r.u64() : nil
            let unknown = features & LogFormat.requiredFeatures & ~LogFormat.knownRequiredFeatures
            guard unknown == 0 else {
                return .failure(LogError(.unsupported, "the log needs features this reader does not know (\(Self.named(unknown)))", offset: 12))
            }
            return .success(FileHeader(version: version, features: features, salt: salt, checkpointInterval: interval, behaviour: behaviour))
        } catch {
            return .failure(LogError(.damaged, "file header: \(error)", offset: 0))
        }
    }
}

extension FileHeader {
    /// Feature bits as the header holds them and by number, "0x00100000: bit 20", so that
    /// they can be looked up in LOG-FORMAT.md (the bits shifted down named another bit).
    static func named(_ bits: UInt32) -> String {
        let hex = String(bits, radix: 16)
        let numbers = (0..<32).filter { bits >> $0 & 1 == 1 }.map(String.init)
        return "0x\(String(repeating: "0", count: max(0, 8 - hex.count)))\(hex): bit\(numbers.count == 1 ? "" : "s") \(numbers.joined(separator: ", "))"
    }

    /// The reason given for a header whose magic alone is damaged (`onlyMagicDamaged`).
    package static let damagedMagic = "its magic (bytes 0-7) is damaged; the rest of its file header checks out"

    /// Whether `bytes` begins with a log's file header but for its first 8 bytes: one that
    /// decodes, checksum and all, once "SELECTLG" is put there. The header's checksum
    /// covers the magic, so other bytes pass this by chance once in 2^32: such a file is a
    /// log whose magic was overwritten, which `LogRepair.repair` writes again.
    package static func onlyMagicDamaged(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= LogFormat.fileHeaderSizeV1, !bytes.prefix(8).elementsEqual(LogFormat.magic) else { return false }
        var patched = Array(bytes.prefix(LogFormat.fileHeaderSize))
        patched.replaceSubrange(0..<8, with: LogFormat.magic)
        return patched.withUnsafeBytes { (try? decode($0).get()) != nil }
    }

    /// Whether a header of `size` bytes at the start of `bytes` (at least that many)
    /// ends with the CRC-32C of the bytes before it, as `encoded()` writes it.
    private static func checksumMatches(_ bytes: UnsafeRawBufferPointer, size: Int) -> Bool {
        let crc = UInt32(bytes[size - 4]) | UInt32(bytes[size - 3]) << 8 | UInt32(bytes[size - 2]) << 16 | UInt32(bytes[size - 1]) << 24
        return CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<(size - 4)]), salt: 0) == crc
    }
}
