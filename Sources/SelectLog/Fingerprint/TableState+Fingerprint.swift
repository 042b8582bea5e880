extension TableState {
    /// A cheap 32-bit digest of what a user sees and what the next gestures depend on:
    /// the selection, the offset and scrolling phase, the open option view and swipe,
    /// the editor, the table's shape (section and row counts, content height) and the
    /// history's length. The log stores it at every gesture end, so a build whose
    /// engine behaves differently finds the first gesture where it parts ways.
    ///
    /// It costs a few hundred nanoseconds (no walk of the row heights), unlike
    /// `hashValue64`, which checkpoints use. Like every fingerprint here, it is fixed
    /// arithmetic on the state, the same on every platform and build.
    public var gestureFingerprint: UInt32 {
        var h = WordHasher()
        h.mix(UInt64(bitPattern: contentOffset.raw))
        h.mix(target.map { UInt64(bitPattern: $0.raw) } ?? 0xFFFF_FFFF_FFFF_FFFF)
        h.mix((editing ? 1 : 0) | (dragging ? 2 : 0) | (decelerating ? 4 : 0) | (pan != nil ? 8 : 0))
        h.mix(UInt64(layout.sectionCount))
        h.mix(UInt64(layout.rowCount))
        h.mix(UInt64(bitPattern: layout.contentHeight.raw))
        for (section, rows) in selection.sections {
            h.mix(UInt64(section))
            for r in rows.ranges {
                h.mix(UInt64(r.lowerBound))
                h.mix(UInt64(r.upperBound))
            }
        }
        h.mix(0xA5)
        if let open = options.open { h.mix(UInt64(open.section) << 32 | UInt64(UInt32(truncatingIfNeeded: open.row))) }
        switch options.swipe {
        case .none: h.mix(0)
        case .ignored: h.mix(1)
        case .active(let row, let offset):
            h.mix(UInt64(row.section) << 32 | UInt64(UInt32(truncatingIfNeeded: row.row)))
            h.mix(UInt64(bitPattern: offset.raw))
        }
        if let editor {
            h.mix(UInt64(editor.opening))
            for c in editor.chosen { h.mix(UInt64(c)) }
        }
        h.mix(UInt64(undoCount) << 32 | UInt64(redoCount))
        let d = h.digest
        return UInt32(truncatingIfNeeded: d ^ (d >> 32))
    }
}

/// Mixes 64-bit words: a multiply-xorshift step per word, SplitMix64's finisher at the end.
struct WordHasher {
    private var state: UInt64 = 0x243F_6A88_85A3_08D3

    mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        state ^= state >> 29
    }

    var digest: UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
