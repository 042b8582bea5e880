import Foundation
import SelectLog
import Testing
@testable import SelectLogStore

/// The rANS coder a later format is to use: round trips under several tables at once, escapes,
/// tables in their coded form, integers as classes, what a stream costs against its
/// entropy, and bytes no encoder wrote.
@Suite("rANS coder")
struct RANSTests {
    /// Symbols drawn from a skewed distribution over `alphabet` (geometric-like: symbol k
    /// about twice as likely as k + 1), as residual classes are.
    private static func skewed(_ count: Int, alphabet: Int, seed: UInt64) -> [Int] {
        var g = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            var k = 0
            while k < alphabet - 1, g.next() & 1 == 1 { k += 1 }
            return k
        }
    }

    /// Counts of `symbols` over `alphabet`.
    private static func counts(_ symbols: [Int], alphabet: Int) -> [UInt32] {
        var c = [UInt32](repeating: 0, count: alphabet)
        for s in symbols { c[s] += 1 }
        return c
    }

    /// Decodes `count` symbols, the i-th under `tables[contexts[i]]`, resolving escapes
    /// from `raw`; returns them and whether the stream finished where its encoder began.
    private static func decode(_ stream: [UInt8], raw: [UInt8], tables: [RANSTable], contexts: [Int]) -> ([Int], Bool, Bool) {
        let decoding = UnsafeMutablePointer<UInt32>.allocate(capacity: tables.count * Int(RANS.total))
        defer { decoding.deallocate() }
        decoding.initialize(repeating: 0, count: tables.count * Int(RANS.total))
        for (i, t) in tables.enumerated() { t.fillDecoding(decoding + i * Int(RANS.total)) }
        return stream.withUnsafeBufferPointer { s in
            raw.withUnsafeBufferPointer { r in
                var d = RANSDecoderCore(s.baseAddress!, count: s.count)
                var bits = BitReaderCore(r.baseAddress ?? s.baseAddress!, count: r.count)
                var out: [Int] = []
                for c in contexts {
                    var symbol = d.decode(decoding + c * Int(RANS.total))
                    if symbol == RANS.escape { symbol = Int(bits.read(bits: tables[c].escapeBits)) }
                    out.append(symbol)
                }
                return (out, d.isFinished, d.overran || bits.overran)
            }
        }
    }

    @Test("symbols under three tables, interleaved, decode to themselves, and the stream ends where it began")
    func roundTrip() {
        let alphabets = [2, 97, 40]
        var contexts: [Int] = []
        var symbols: [Int] = []
        var g = SplitMix64(seed: 7)
        let streams = alphabets.enumerated().map { Self.skewed(20_000, alphabet: $0.element, seed: UInt64($0.offset)) }
        var next = [0, 0, 0]
        for _ in 0..<50_001 {
            let c = Int(g.next() % 3)
            contexts.append(c)
            symbols.append(streams[c][next[c]])
            next[c] += 1
        }
        let tables = alphabets.indices.map { c in
            RANSTable(counts: Self.counts(zip(contexts, symbols).filter { $0.0 == c }.map(\.1), alphabet: alphabets[c]))
        }
        var e = RANSEncoder()
        var raw = BitWriter()
        for (c, s) in zip(contexts, symbols) { tables[c].encode(s, into: &e, raw: &raw) }
        // Only symbols counted once are escaped (Good–Turing: the escape stands for them).
        var escapes = 0
        for (c, s) in zip(contexts, symbols) where tables[c].entries[s] == 0 { escapes += tables[c].escapeBits }
        #expect(raw.bitCount == escapes)
        for c in alphabets.indices {
            let counted = Self.counts(zip(contexts, symbols).filter { $0.0 == c }.map(\.1), alphabet: alphabets[c])
            #expect(counted.indices.allSatisfy { (counted[$0] >= 2) == (tables[c].entries[$0] != 0) })
        }
        let (decoded, finished, overran) = Self.decode(e.finished(), raw: raw.finished(), tables: tables, contexts: contexts)
        #expect(decoded == symbols)
        #expect(finished)
        #expect(!overran)
    }

    @Test("streams of every length around the one-state prefix decode to themselves; a short one carries one state, in three bytes when it fits")
    func oneStatePrefix() {
        let k = RANS.singleStateSymbols
        let symbols = Self.skewed(k + 3, alphabet: 20, seed: 11)
        let table = RANSTable(counts: Self.counts(symbols, alphabet: 20))
        for n in [0, 1, 2, k - 2, k - 1, k, k + 1, k + 2, k + 3] {
            var e = RANSEncoder()
            var raw = BitWriter()
            for s in symbols.prefix(n) { table.encode(s, into: &e, raw: &raw) }
            let stream = e.finished()
            let (decoded, finished, overran) = Self.decode(stream, raw: raw.finished(), tables: [table], contexts: Array(repeating: 0, count: n))
            #expect(decoded == Array(symbols.prefix(n)), "\(n) symbols")
            #expect(finished && !overran, "\(n) symbols")
            // Cut by one byte, the stream is not finished (the flush's length is its parity).
            let (_, cutFinished, _) = Self.decode(Array(stream.dropLast()), raw: raw.finished(), tables: [table], contexts: Array(repeating: 0, count: n))
            #expect(!cutFinished, "\(n) symbols, cut")
        }
        // No symbol: one state (the second is written only past k symbols), still at its
        // start (2^16), in three bytes.
        #expect(RANSEncoder().finished() == [0, 0, 1])
    }

    @Test("a symbol the table lacks is escaped and still decodes to itself")
    func escapes() {
        // Counted over one window, used on the next, which holds symbols the first never saw.
        let before = Self.skewed(5_000, alphabet: 6, seed: 1)
        let table = RANSTable(counts: Self.counts(before, alphabet: 97))
        let now = Self.skewed(5_000, alphabet: 6, seed: 2) + [50, 96, 6, 0]
        var e = RANSEncoder()
        var raw = BitWriter()
        for s in now { table.encode(s, into: &e, raw: &raw) }
        #expect(raw.bitCount == 3 * table.escapeBits)
        let (decoded, finished, _) = Self.decode(e.finished(), raw: raw.finished(), tables: [table], contexts: Array(repeating: 0, count: now.count))
        #expect(decoded == now)
        #expect(finished)
        // A context that saw nothing codes everything as escapes.
        let empty = RANSTable(counts: [UInt32](repeating: 0, count: 97))
        var e2 = RANSEncoder()
        var raw2 = BitWriter()
        for s in [5, 0, 96] { empty.encode(s, into: &e2, raw: &raw2) }
        let (d2, f2, _) = Self.decode(e2.finished(), raw: raw2.finished(), tables: [empty], contexts: [0, 0, 0])
        #expect(d2 == [5, 0, 96])
        #expect(f2)
    }

    @Test("a table read back from its bits is the table written, and its frequencies sum to the total")
    func tableCoding() {
        var g = SplitMix64(seed: 11)
        var w = BitWriter()
        var written: [RANSTable] = []
        for round in 0..<300 {
            let alphabet = [1, 2, 5, 64, 97, RANS.maxAlphabet][round % 6]
            var counts = [UInt32](repeating: 0, count: alphabet)
            let present = Int(g.next() % UInt64(alphabet + 1))
            for _ in 0..<present { counts[Int(g.next() % UInt64(alphabet))] += UInt32(1 + g.next() % (round % 2 == 0 ? 5 : 100_000)) }
            let t = RANSTable(counts: counts)
            #expect(t.entries.reduce(0) { $0 + ($1 & 0xFFFF) } == RANS.total)
            for (s, n) in counts.enumerated() { #expect((t.entries[s] & 0xFFFF >= 1) == (n >= 2), "seen twice or more: in the table") }
            #expect(t.entries[alphabet] & 0xFFFF >= 1, "the escape is always codable")
            t.write(to: &w)
            written.append(t)
        }
        let bytes = w.finished()
        bytes.withUnsafeBufferPointer { b in
            var r = BitReaderCore(b.baseAddress!, count: b.count)
            for (round, t) in written.enumerated() {
                let alphabet = [1, 2, 5, 64, 97, RANS.maxAlphabet][round % 6]
                #expect(RANSTable(reading: &r, alphabet: alphabet) == t)
            }
            #expect(!r.overran)
        }
    }

    @Test("each grid code is the largest grid frequency at or below every frequency from 1 to the total")
    func frequencyGrid() {
        var values = Set<Int>()
        for code in 1...RANSTable.maxCode { values.insert(RANSTable.frequency(ofCode: code)) }
        #expect(values.count == RANSTable.maxCode, "codes give distinct frequencies")
        for f in 1..<Int(RANS.total) {
            let v = RANSTable.frequency(ofCode: RANSTable.code(forAtMost: f))
            #expect(v <= f && values.filter { $0 <= f }.max() == v, "f = \(f)")
            #expect(Double(v) > Double(f) * 0.8, "f = \(f): within a fifth")
        }
    }

    @Test("a skewed stream costs within 2% of its entropy, tables included")
    func cost() {
        let symbols = Self.skewed(200_000, alphabet: 97, seed: 3)
        let counts = Self.counts(symbols, alphabet: 97)
        let table = RANSTable(counts: counts)
        var e = RANSEncoder()
        var raw = BitWriter()
        for s in symbols { table.encode(s, into: &e, raw: &raw) }
        var w = BitWriter()
        table.write(to: &w)
        let bytes = e.finished().count + w.finished().count
        let n = Double(symbols.count)
        let entropy = counts.filter { $0 > 0 }.reduce(0.0) { acc, c in acc - Double(c) * log2(Double(c) / n) } / 8
        #expect(Double(bytes) < entropy * 1.02 + 16, "\(bytes) bytes against an entropy of \(Int(entropy))")
    }

    @Test("integers of every length, both signs and both ends of Int64 decode to themselves as classes")
    func integerClasses() {
        var values: [Int64] = [0, 1, -1, 2, -2, 3, -3, 4, 7, -8, Int64.max, Int64.min, Int64.min + 1]
        for n in 1..<63 {
            values += [Int64(1) << n, -(Int64(1) << n), (Int64(1) << n) - 1, -(Int64(1) << n) + 1, (Int64(1) << n) | 1]
        }
        var g = SplitMix64(seed: 5)
        for _ in 0..<2_000 { values.append(Int64(bitPattern: g.next()) >> (g.next() % 64)) }
        let table = RANSTable(counts: [UInt32](repeating: 2, count: IntegerClass.alphabet))
        var e = RANSEncoder()
        var raw = BitWriter()
        for v in values { IntegerClass.encode(v, with: table, into: &e, raw: &raw) }
        let stream = e.finished(), bits = raw.finished()
        let decoding = UnsafeMutablePointer<UInt32>.allocate(capacity: Int(RANS.total))
        defer { decoding.deallocate() }
        table.fillDecoding(decoding)
        stream.withUnsafeBufferPointer { s in
            bits.withUnsafeBufferPointer { b in
                var d = RANSDecoderCore(s.baseAddress!, count: s.count)
                var r = BitReaderCore(b.baseAddress!, count: b.count)
                var decoded: [Int64?] = []
                for _ in values { decoded.append(IntegerClass.decode(d.decode(decoding), raw: &r)) }
                #expect(decoded == values.map { Optional($0) })
                #expect(d.isFinished)
                #expect(!r.overran)
            }
        }
    }

    @Test("a long class whose length or value no Int64 has decodes to nil")
    func integerClassOutOfRange() {
        for (bits, negative) in [(UInt64(40), false), (UInt64(63), true), (UInt64(39), false)] {
            var w = BitWriter()
            w.write(bits, bits: 6)
            w.writeWide(UInt64.max, bits: 64)
            let bytes = w.finished()
            let v = bytes.withUnsafeBufferPointer { b in
                var r = BitReaderCore(b.baseAddress!, count: b.count)
                return IntegerClass.decode(IntegerClass.alphabet - (negative ? 1 : 2), raw: &r)
            }
            #expect(v == nil, "length \(bits) + 25")
        }
    }

    @Test("any bytes decode without trapping, and random ones are not a finished stream")
    func hostileBytes() {
        var g = SplitMix64(seed: 9)
        let table = RANSTable(counts: Self.counts(Self.skewed(1_000, alphabet: 97, seed: 4), alphabet: 97))
        let decoding = UnsafeMutablePointer<UInt32>.allocate(capacity: Int(RANS.total))
        defer { decoding.deallocate() }
        table.fillDecoding(decoding)
        var finished = 0
        for length in 0..<300 {
            // One byte more than the decoder is told of, so that even no bytes have an address.
            let bytes = (0...length).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            let ok = bytes.withUnsafeBufferPointer { b -> Bool in
                var d = RANSDecoderCore(b.baseAddress!, count: length)
                for _ in 0..<(length * 2) { _ = d.decode(decoding) }
                return d.isFinished
            }
            if ok { finished += 1 }
            // Tables from random bits: nil or a whole table, never a trap.
            bytes.withUnsafeBufferPointer { b in
                var r = BitReaderCore(b.baseAddress!, count: length)
                if let t = RANSTable(reading: &r, alphabet: 97) {
                    #expect(t.entries.reduce(0) { $0 + ($1 & 0xFFFF) } == RANS.total)
                }
            }
        }
        #expect(finished == 0)
    }
}
