import Foundation
import Testing
import SelectLog
@testable import SelectLogStore

/// CRC-32C, eight bytes at a time, against its bitwise definition.
@Suite("CRC-32C")
struct CRC32CTests {
    /// CRC-32C one bit at a time, the definition.
    static func bitwise(_ bytes: [UInt8], _ crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
        }
        return ~c
    }

    @Test("CRC-32C of the standard check string is 0xE3069283")
    func crcCheckValue() {
        let check = Array("123456789".utf8)
        #expect(check.withUnsafeBytes { CRC32C.update(0, $0) } == 0xE306_9283)
        #expect(CRC32CTests.bitwise(check) == 0xE306_9283)
    }

    @Test("CRC-32C eight bytes at a time matches the bitwise definition at every length and alignment")
    func crcMatchesBitwise() {
        var rng = SplitMix64(seed: 5)
        let data = (0..<300).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        for start in 0..<9 {
            for length in 0...(data.count - start) {
                let slice = Array(data[start..<(start + length)])
                let fast = data.withUnsafeBytes { CRC32C.update(0x1234_5678, UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)])) }
                if fast != CRC32CTests.bitwise(slice, 0x1234_5678) {
                    Issue.record("start \(start), length \(length)")
                    return
                }
            }
        }
    }
}
