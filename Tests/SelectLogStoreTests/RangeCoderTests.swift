import Foundation
import Testing
@testable import SelectLogStore

/// The range coder's fast paths against their plain definitions.
@Suite("Range coder fast paths")
struct RangeCoderTests {
    @Test("a model adapts exactly as first specified, for every probability, count and bit")
    func adaptationMatchesReference() {
        var mismatches = 0
        for seen in UInt32(0)...30 {
            for prob in UInt32(0)...0xFFFF {
                let p = seen << 16 | prob
                for bit in [false, true] where RangeCoder.adapted(p, bit) != RangeCoder.adaptedReference(p, bit) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }
}
