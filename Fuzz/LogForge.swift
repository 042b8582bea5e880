// The one place that knows where a log's checksums are (docs/LOG-FORMAT.md,
// version 1), so that mutated logs get past them and reach the code behind.
// When the format changes, change this function.
@testable import SelectLogStore

/// Recomputes the file header's checksum and every record's header and payload
/// checksums in place, walking records by their stored lengths until they run out.
func forgeChecksums(_ b: inout [UInt8]) {
    func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * $1) } }
    func put32(_ v: UInt32, _ at: Int) { for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) } }
    let fileHeader = 32, recordHeader = 48
    guard b.count >= fileHeader else { return }
    put32(CRC32C.checksum(Array(b[0..<28]), salt: 0), 28)
    let salt = (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[16 + $1]) << (8 * $1) }
    var at = fileHeader
    while at + recordHeader <= b.count {
        let stored = Int(u32(at + 12))
        guard stored <= b.count - at - recordHeader else { return }
        put32(CRC32C.checksum(Array(b[(at + recordHeader)..<(at + recordHeader + stored)]), salt: salt), at + 8)
        put32(CRC32C.checksum(Array(b[at..<(at + 4)] + b[(at + 8)..<(at + recordHeader)]), salt: salt), at + 4)
        at += recordHeader + stored
    }
}
