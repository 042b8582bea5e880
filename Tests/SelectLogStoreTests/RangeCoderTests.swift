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

    @Test("the one-comparison adaptation (encoder and modelled decoder decisions) matches the reference for every model a coder holds (probability 64...65472)")
    func encoderAdaptationMatchesReference() {
        var mismatches = 0
        for seen in UInt32(0)...30 {
            for prob in UInt32(64)...65_472 {
                let p = seen << 16 | prob
                for bit in [false, true] where RangeCoder.adaptedInRange(p, bit) != RangeCoder.adaptedReference(p, bit) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("the encoder's adaptations (a literal bit's min or max, the seasoned test first) match the reference for every model a coder holds")
    func knownBitAdaptationMatchesReference() {
        var mismatches = 0
        for seen in UInt32(0)...30 {
            for prob in UInt32(64)...65_472 {
                let p = seen << 16 | prob
                for bit in [false, true] where RangeCoder.adaptedInRangeKnownBit(p, bit) != RangeCoder.adaptedReference(p, bit)
                    || RangeCoder.adaptedInRangeSeasonedFirst(p, bit) != RangeCoder.adaptedReference(p, bit) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("a fresh model steps by a quarter (s = 2 + floor(log2(n + 1)), as logs have always been written)")
    func freshStep() {
        // 32768 + (65536 - 32768) >> 2 and 32768 - 32768 >> 2, one bit seen.
        #expect(RangeCoder.adapted(RangeCoder.fresh, false) == 1 << 16 | 40_960)
        #expect(RangeCoder.adapted(RangeCoder.fresh, true) == 1 << 16 | 24_576)
        // A seasoned model (30 bits seen) steps by 1/64 and stays seasoned.
        #expect(RangeCoder.adapted(30 << 16 | 32_768, false) == 30 << 16 | 33_280)
        #expect(RangeCoder.adapted(30 << 16 | 64, true) == 30 << 16 | 64)
        #expect(RangeCoder.adapted(30 << 16 | 65_472, false) == 30 << 16 | 65_472)
    }
}
