/// CRC-32C (Castagnoli), slicing-by-8, as used by LevelDB, ext4 and iSCSI.
/// Every checksum in a log is salted: the file's salt is hashed first, so a record
/// copied from another file (another salt) does not verify.
package enum CRC32C {
    /// The eight slicing tables, one after another (8 x 256 entries), in one allocation
    /// that lives as long as the process: `update` reads them through a pointer, with
    /// no array bounds checks or reference counting in its loop. Written once, by the
    /// lazy initializer, and only read after (hence `nonisolated(unsafe)`).
    nonisolated(unsafe) private static let table: UnsafePointer<UInt32> = {
        let t = UnsafeMutablePointer<UInt32>.allocate(capacity: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            t[i] = c
        }
        for k in 1..<8 {
            for i in 0..<256 {
                let prev = t[(k - 1) * 256 + i]
                t[k * 256 + i] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return UnsafePointer(t)
    }()

    /// Continues a checksum `crc` (0 to start) over `bytes`.
    package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c = ~crc
        guard let base = bytes.baseAddress else { return crc }
        let n = bytes.count
        let t = table
        var i = 0
        // Eight bytes a step, loaded at once (little-endian, whatever the alignment).
        while n &- i >= 8 {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let lo = c ^ UInt32(truncatingIfNeeded: word)
            let hi = UInt32(truncatingIfNeeded: word &>> 32)
            c = t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo &>> 8) & 0xFF)]
                ^ t[5 * 256 + Int((lo &>> 16) & 0xFF)] ^ t[4 * 256 + Int(lo &>> 24)]
                ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi &>> 8) & 0xFF)]
                ^ t[1 * 256 + Int((hi &>> 16) & 0xFF)] ^ t[Int(hi &>> 24)]
            i &+= 8
        }
        while i < n {
            c = t[Int((c ^ UInt32(base.load(fromByteOffset: i, as: UInt8.self))) & 0xFF)] ^ (c &>> 8)
            i &+= 1
        }
        return ~c
    }

    /// The checksum of `salt` (8 bytes, little-endian) followed by `bytes`.
    package static func checksum(_ bytes: UnsafeRawBufferPointer, salt: UInt64) -> UInt32 {
        var s = salt.littleEndian
        let seeded = withUnsafeBytes(of: &s) { update(0, $0) }
        return update(seeded, bytes)
    }

    package static func checksum(_ bytes: [UInt8], salt: UInt64) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, salt: salt) }
    }
}
