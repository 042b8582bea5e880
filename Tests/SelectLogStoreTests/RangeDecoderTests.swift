import Foundation
import Testing
@testable import SelectLogStore

/// The range decoder's fast paths against their plain definitions: the same bits and the
/// same registers, so logs written before decode to the same events.
@Suite("Range decoder fast paths")
struct RangeDecoderTests {
    @Test("a decision's model after a branch on it is RangeCoder.adapted's, for every probability, count and bit")
    func branchSideAdaptation() {
        var mismatches = 0
        for seen in UInt32(0)...31 {
            for prob in UInt32(0)...0xFFFF {
                let p = seen << 16 | prob
                if RangeDecoderCore.adaptedZero(p) != RangeCoder.adapted(p, false) { mismatches += 1 }
                if RangeDecoderCore.adaptedOne(p) != RangeCoder.adapted(p, true) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    /// Direct bits one at a time, normalizing after each: the definition.
    private static func directReference(_ c: inout RangeDecoderCore, _ count: Int) -> UInt64 {
        var v: UInt64 = 0
        for _ in 0..<count {
            c.range >>= 1
            let one = c.code >= c.range
            c.code = one ? c.code &- c.range : c.code
            v = v << 1 | (one ? 1 : 0)
            c.normalize()
        }
        return v
    }

    @Test("direct bits in runs without normalization checks are the bits and registers of one at a time",
          arguments: [UInt64(1), 2, 3])
    func directBitsInRuns(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let input = RangeInput(bytes)
        var fast = RangeDecoderCore(UnsafePointer(input.base), count: input.count)
        var plain = fast
        var step = 0
        // Past the end too: the decoder reads zeros there.
        while plain.position < bytes.count + 64 {
            // Modelled decisions between runs, so that runs start at every range.
            var m1 = UInt32(64 + rng.next() % 65_409) | 30 << 16, m2 = m1
            #expect(fast.decodeBit(&m1) == plain.decodeBit(&m2))
            let n = Int(rng.next() % 65)
            let a = fast.directBits(n)
            let b = Self.directReference(&plain, n)
            #expect(a == b && fast.range == plain.range && fast.code == plain.code && fast.position == plain.position,
                    "step \(step), \(n) bits")
            if a != b || fast.range != plain.range { break }
            step += 1
        }
        withExtendedLifetime(input) {}
        #expect(step > 100)
    }

    @Test("an integer's unrolled 4-bit length tree is decodeSymbol(bits: 4)", arguments: [UInt64(4), 5])
    func lengthTree(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let bytes = (0..<2048).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let input = RangeInput(bytes)
        var fast = RangeDecoderCore(UnsafePointer(input.base), count: input.count)
        var plain = fast
        let a = CodedModels(), b = CodedModels()
        var mismatches = 0
        for k in 0..<2000 {
            let base = CodedModels.pointBase + (k % 8) * CodedModels.intSize + 2
            if fast.decodeTree4(a.table, base) != plain.decodeSymbol(bits: 4, b.table, base) || fast.range != plain.range
                || fast.code != plain.code { mismatches += 1 }
        }
        for i in 0..<CodedModels.size where a.table.at(i).pointee != b.table.at(i).pointee { mismatches += 1 }
        withExtendedLifetime(input) {}
        #expect(mismatches == 0)
    }
}
