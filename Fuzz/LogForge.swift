// The one place that knows where a log's checksums are (docs/LOG-FORMAT.md,
// versions 1 to 7; version 5's codec 2, version 6's thirds and version 7's delta checkpoints change no layout), so that mutated logs get
// past them and reach the code behind (range-coded payloads included).
// When the format changes, change this function.
@testable import SelectLogStore

/// Recomputes the file header's checksum and every record's header and payload
/// checksums in place, walking records by their own header sizes and stored lengths
/// until they run out: the file header is 32 bytes in version 1 and 40 after, its
/// checksum its last 4 bytes; a record header is 48 bytes (CRC-32C of bytes 0-3 and
/// 8-47 at 4, payload CRC at 8, stored length at 12), but in version 4 a continued
/// batch (kind "b") has 16 (a 16-bit check of bytes 0-3 and 6-15 at 4, payload CRC at
/// 6, stored length as a u24 at 10). An index record that ends the file gets its
/// trailer's offset set to its own.
func forgeChecksums(_ b: inout [UInt8]) {
    func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * $1) } }
    func put32(_ v: UInt32, _ at: Int) { for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) } }
    guard b.count >= 32 else { return }
    let version = Int(b[8]) | Int(b[9]) << 8
    let fileHeader = version == 1 ? 32 : 40
    guard b.count >= fileHeader else { return }
    // The header says its own length at byte 10; the reader wants the version's.
    b[10] = UInt8(fileHeader)
    put32(CRC32C.checksum(Array(b[0..<(fileHeader - 4)]), salt: 0), fileHeader - 4)
    let salt = (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[16 + $1]) << (8 * $1) }
    let continued = version >= 4
    var at = fileHeader
    while at + 4 <= b.count {
        if continued && b[at + 3] == 0x62 {
            let header = 16
            guard at + header <= b.count else { return }
            let stored = Int(b[at + 10]) | Int(b[at + 11]) << 8 | Int(b[at + 12]) << 16
            guard stored <= b.count - at - header else { return }
            put32(CRC32C.checksum(Array(b[(at + header)..<(at + header + stored)]), salt: salt), at + 6)
            let check = CRC32C.checksum(Array(b[at..<(at + 4)] + b[(at + 6)..<(at + header)]), salt: salt)
            b[at + 4] = UInt8(truncatingIfNeeded: check)
            b[at + 5] = UInt8(truncatingIfNeeded: check >> 8)
            at += header + stored
        } else {
            let header = 48
            guard at + header <= b.count else { return }
            let stored = Int(u32(at + 12))
            guard stored <= b.count - at - header else { return }
            // An index record that ends the file: its trailer names its own offset.
            if b[at + 3] == 0x49, at + header + stored == b.count, stored >= 16,
               Array(b[(b.count - 8)...]) == Array("SLINDEX1".utf8) {
                for k in 0..<8 { b[b.count - 16 + k] = UInt8(truncatingIfNeeded: UInt64(at) >> (8 * k)) }
            }
            put32(CRC32C.checksum(Array(b[(at + header)..<(at + header + stored)]), salt: salt), at + 8)
            put32(CRC32C.checksum(Array(b[at..<(at + 4)] + b[(at + 8)..<(at + header)]), salt: salt), at + 4)
            at += header + stored
        }
    }
}
