/// FNV-1a over bytes, finished with SplitMix64's mixer: fixed, simple, and the same
/// on every platform and build.
struct CanonicalHasher {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func bytes(_ data: [UInt8]) {
        for b in data {
            state ^= UInt64(b)
            state = state &* 0x0000_0100_0000_01b3
        }
    }

    var digest: UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

extension TableState {
    /// A stable 64-bit digest of the whole state except `events` and `t` (spec 6): the
    /// hash of the canonical encoding that snapshots also use.
    public var hashValue64: UInt64 {
        // Hashed as it is written, 64 KiB at a time (`BinaryWriter.spill()`): a state
        // whose undo steps hold large lists encoded to hundreds of megabytes first.
        var w = BinaryWriter(capacity: 1024)
        w.hasher = CanonicalHasher()
        writeCanonical(into: &w)
        var h = w.hasher ?? CanonicalHasher()
        h.bytes(w.bytes)
        return h.digest
    }

    /// `hashValue64` as 16 lower-case hex digits.
    public var hashHex: String { Self.hex(hashValue64) }

    /// A 64-bit value as `hashHex` writes a hash: 16 lower-case hex digits (the reports
    /// write fingerprints so too).
    package static func hex(_ hash: UInt64) -> String {
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
