/// CRC-32C (Castagnoli), slicing-by-8, as used by LevelDB, ext4 and iSCSI.
/// Every checksum in a log is salted: the file's salt is hashed first, so a record
/// copied from another file (another salt) does not verify.
package enum CRC32C {
    static let tables: [[UInt32]] = {
        var t = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            t[0][i] = c
        }
        for i in 0..<256 {
            for k in 1..<8 { t[k][i] = (t[k - 1][i] >> 8) ^ t[0][Int(t[k - 1][i] & 0xFF)] }
        }
        return t
    }()

    /// Continues a checksum `crc` (0 to start) over `bytes`.
    package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c = ~crc
        var i = 0
        let n = bytes.count
        let t = tables
        t[0].withUnsafeBufferPointer { t0 in
        t[1].withUnsafeBufferPointer { t1 in
        t[2].withUnsafeBufferPointer { t2 in
        t[3].withUnsafeBufferPointer { t3 in
        t[4].withUnsafeBufferPointer { t4 in
        t[5].withUnsafeBufferPointer { t5 in
        t[6].withUnsafeBufferPointer { t6 in
        t[7].withUnsafeBufferPointer { t7 in
            while n - i >= 8 {
                let lo = c ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
                let hi = UInt32(bytes[i + 4]) | UInt32(bytes[i + 5]) << 8 | UInt32(bytes[i + 6]) << 16 | UInt32(bytes[i + 7]) << 24
                c = t7[Int(lo & 0xFF)] ^ t6[Int((lo >> 8) & 0xFF)] ^ t5[Int((lo >> 16) & 0xFF)] ^ t4[Int(lo >> 24)]
                    ^ t3[Int(hi & 0xFF)] ^ t2[Int((hi >> 8) & 0xFF)] ^ t1[Int((hi >> 16) & 0xFF)] ^ t0[Int(hi >> 24)]
                i += 8
            }
            while i < n {
                c = t0[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }}}}}}}}
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
