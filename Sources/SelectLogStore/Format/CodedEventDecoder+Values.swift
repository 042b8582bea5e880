import SelectLog

// Format version 3: how the event decoder reads a decision, an integer, a value and a
// tree-coded symbol under the coded batch's models (CodedEventDecoder.swift reads the
// events; CodedEvents+Coder.swift is the encoding side of both).

extension RangeDecoderCore {
    @inline(__always)
    mutating func decode(_ m: ModelTable, _ i: Int) -> Bool { decodeBit(&m.at(i).pointee) != 0 }

    @inline(__always)
    mutating func decodeBit(_ m: ModelTable, _ i: Int) -> Int { decodeBit(&m.at(i).pointee) }

    mutating func decodeInt(_ m: ModelTable, _ base: Int) -> Int64 {
        // On a local copy, so that the registers are not stored at every model write.
        var c = self
        let v = c.decodeIntInline(m, base)
        store(c)
        return v
    }

    /// `decodeInt`, inlined into its caller (`decodeValue`).
    @inline(__always)
    mutating func decodeIntInline(_ m: ModelTable, _ base: Int) -> Int64 {
        var c = self
        defer { store(c) }
        // Branched on at once, so decoded with the branch (only the chosen side's update).
        guard c.decodeLikely(m, base) else { return 0 }
        let negative = c.decodeBit(m, base &+ 1)
        var n = c.decodeTree4(m, base &+ 2) &+ 1
        var mag: UInt64 = 1
        if n >= 16 { n = c.decodeSymbol(bits: 6, m, CodedModels.longLengthBase) &+ 16 }
        if n >= 2 {
            if n <= 16 {
                mag = mag << 1 | UInt64(c.decodeBit(m, base &+ 16 &+ n))
                if n >= 3 { mag = mag << UInt64(n &- 2) | c.directBits(n &- 2) }
            } else {
                mag = mag << UInt64(n &- 1) | c.directBits(n &- 1)
            }
        }
        // Negated without a branch: all ones when negative.
        let sign = Int64(negative)
        let v = Int64(bitPattern: mag)
        return (v ^ (0 &- sign)) &+ sign
    }

    /// `decodeDirect`, inlined into its caller. The bits come in runs that need no
    /// normalization between them: a range of at least 2^(24 + k) stays at or above `top`
    /// through k halvings, so those k bits skip the check (same bits, same registers).
    @inline(__always)
    mutating func directBits(_ count: Int) -> UInt64 {
        var v: UInt64 = 0
        var i = count
        while i > 0 {
            // 0...7, as the range is at least `top` between decisions.
            var k = Swift.min(i, 7 &- range.leadingZeroBitCount)
            if k <= 0 {
                range >>= 1
                let one = code >= range
                code = one ? code &- range : code
                v = v << 1 | (one ? 1 : 0)
                normalize()
                i &-= 1
                continue
            }
            i &-= k
            while k > 0 {
                k &-= 1
                range >>= 1
                let one = code >= range
                code = one ? code &- range : code
                v = v << 1 | (one ? 1 : 0)
            }
        }
        return v
    }

    /// `decodeSymbol(bits: 4, m, base)`, unrolled (an integer's bit length).
    @inline(__always)
    mutating func decodeTree4(_ m: ModelTable, _ base: Int) -> Int {
        var model = m.at(base &+ 1).pointee
        var node = 1
        for _ in 0..<3 {
            let zero = m.at(base &+ 2 &* node).pointee
            let one = m.at(base &+ 2 &* node &+ 1).pointee
            let bit = decodeBit(&model)
            m.at(base &+ node).pointee = model
            node = node &<< 1 | bit
            model = bit != 0 ? one : zero
        }
        let bit = decodeBit(&model)
        m.at(base &+ node).pointee = model
        return (node &<< 1 | bit) &- 16
    }

    mutating func decodeValue(_ channel: inout CodedChannel, _ m: ModelTable, model: Int, flag: Int) -> Int64 {
        decodeValueInline(&channel, m, model: model, flag: flag)
    }

    /// `decodeValue`, inlined into its caller (a point's two coordinates).
    @inline(__always)
    mutating func decodeValueInline(_ channel: inout CodedChannel, _ m: ModelTable, model: Int, flag: Int) -> Int64 {
        var c = self
        let grid = channel.grid
        var base = model, shift: Int64 = 0, inThirds = false
        if grid > 0 {
            if c.decodeLikely(m, CodedModels.gridFlagBase &+ flag) { base = CodedModels.offGridBase } else { shift = Int64(grid) }
        } else if channel.thirds {
            if c.decodeLikely(m, CodedModels.gridFlagBase &+ flag) { base = CodedModels.offGridBase } else { inThirds = true }
        }
        let r = c.decodeIntInline(m, base) &<< shift
        store(c)
        let prediction = channel.prediction
        let v = inThirds ? ThirdsGrid.sixtyFourths(third: ThirdsGrid.third(prediction) &+ r) : prediction &+ r
        channel.update(v)
        return v
    }

    @inline(__always)
    mutating func decodeLikely(_ m: ModelTable, _ i: Int) -> Bool { decodeLikely(&m.at(i).pointee) }

    /// `decodeSymbol` for a symbol that usually follows the ones before it (an item's
    /// kind, a scroll's shape): each decision with `decodeLikely`.
    @inline(__always)
    mutating func decodeLikelySymbol(bits: Int, _ m: ModelTable, _ base: Int) -> Int {
        var node = 1
        for _ in 0..<bits {
            node = node &<< 1 | (decodeLikely(m, base &+ node) ? 1 : 0)
        }
        return node &- (1 &<< bits)
    }

    @inline(__always)
    mutating func decodeSymbol(bits: Int, _ m: ModelTable, _ base: Int) -> Int {
        // Both children's models are loaded before the bit is known, so the next
        // decision does not wait for a load whose address depends on this one.
        var node = 1
        var model = m.at(base &+ 1).pointee
        for _ in 0..<bits {
            let zero = m.at(base &+ 2 &* node).pointee
            let one = m.at(base &+ 2 &* node &+ 1).pointee
            let bit = decodeBit(&model)
            m.at(base &+ node).pointee = model
            node = node &<< 1 | bit
            model = bit != 0 ? one : zero
        }
        return node &- (1 &<< bits)
    }
}
