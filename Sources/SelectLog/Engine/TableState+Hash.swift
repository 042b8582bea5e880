/// A canonical byte stream of the state, folded into a 64-bit digest.
///
/// The digest is FNV-1a over 64-bit little-endian words with a SplitMix64
/// finaliser: fixed, simple, and the same on every platform and build.
struct CanonicalHasher {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func word(_ w: UInt64) {
        state ^= w
        state = state &* 0x0000_0100_0000_01b3
        state ^= state >> 29
    }

    mutating func int(_ v: Int) { word(UInt64(bitPattern: Int64(v))) }
    mutating func int64(_ v: Int64) { word(UInt64(bitPattern: v)) }
    mutating func bool(_ b: Bool) { word(b ? 1 : 0) }
    mutating func points(_ p: Points) { int64(p.raw) }
    mutating func optional(_ p: Points?) {
        if let p { bool(true); points(p) } else { bool(false) }
    }
    mutating func optional(_ r: RowPath?) {
        if let r { bool(true); row(r) } else { bool(false) }
    }
    mutating func row(_ r: RowPath) {
        int(r.section)
        int(r.row)
    }
    mutating func string(_ s: String) {
        let bytes = Array(s.utf8)
        int(bytes.count)
        var i = 0
        while i < bytes.count {
            var w: UInt64 = 0
            for k in 0..<8 where i + k < bytes.count { w |= UInt64(bytes[i + k]) << (8 * UInt64(k)) }
            word(w)
            i += 8
        }
    }
    mutating func rows(_ set: RowSet) {
        let parts = set.sections
        int(parts.count)
        for (s, list) in parts {
            int(s)
            int(list.ranges.count)
            for r in list.ranges {
                int(r.lowerBound)
                int(r.upperBound)
            }
        }
    }

    var digest: UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

extension TableState {
    /// A stable 64-bit digest of the whole state except `events` and `t` (spec 6).
    public var hashValue64: UInt64 {
        var h = CanonicalHasher()
        let c = configuration
        for flag in [c.allowsSelection, c.allowsMultipleSelection, c.allowsSelectionDuringEditing,
                     c.allowsMultipleSelectionDuringEditing, c.strip.enabled, c.multiSelectInteraction] { h.bool(flag) }
        h.int(c.strip.edge == .leading ? 0 : 1)
        h.int(c.strip.reversal == .flip ? 0 : 1)
        for p in [c.strip.stripWidth, c.strip.topAnchor, c.strip.bottomAnchor, c.strip.rowsPerSecond, c.strip.jitter, c.optionWidth] {
            h.points(p)
        }
        h.int(c.undoLimit)
        // Layout: sections with run-length heights, so the encoding is independent of tree shape.
        h.int(layout.sectionCount)
        for section in layout.sections {
            h.points(section.header)
            h.points(section.footer)
            h.points(section.rowHeight)
            if let title = section.title { h.bool(true); h.string(title) } else { h.bool(false) }
            h.int(section.rows.count)
            var run: (height: Points, count: Int)?
            section.rows.forEachHeight { height in
                if let r = run, r.height == height {
                    run = (height, r.count + 1)
                } else {
                    if let r = run { h.points(r.height); h.int(r.count) }
                    run = (height, 1)
                }
            }
            if let r = run { h.points(r.height); h.int(r.count) }
        }
        h.optional(layout.editorRow)
        h.points(layout.editorHeight)
        h.points(viewport.width)
        h.points(viewport.height)
        h.points(contentOffset)
        h.bool(editing)
        h.rows(selection)
        h.bool(dragging)
        h.bool(decelerating)
        h.optional(target)
        if let pan {
            h.bool(true)
            h.string(pan.kind.rawValue)
            h.points(pan.offsetAtBegan)
            h.points(pan.yAtBegan)
            h.int(pan.reversal == .flip ? 0 : 1)
            h.points(pan.finger.x)
            h.points(pan.finger.y)
            h.int(pan.direction == nil ? 0 : (pan.direction == .up ? 1 : 2))
            h.optional(pan.start)
            h.int(pan.mode == nil ? 0 : (pan.mode == .select ? 1 : 2))
            h.optional(pan.anchor)
            h.optional(pan.end)
            h.rows(pan.selectionBefore)
            h.int(pan.autoscroll == nil ? 0 : (pan.autoscroll == .up ? 1 : 2))
            h.int64(pan.autoscrollSince.raw)
        } else {
            h.bool(false)
        }
        h.optional(options.open)
        switch options.swipe {
        case nil: h.int(0)
        case .ignored?: h.int(1)
        case .active(let row, let offset)?:
            h.int(2)
            h.row(row)
            h.points(offset)
        }
        if let editor {
            h.bool(true)
            h.int(editor.options.count)
            for o in editor.options { h.string(o) }
            h.bool(editor.multiple)
            h.int(editor.chosen.count)
            for c in editor.chosen { h.int(c) }
            h.int(editor.opening)
        } else {
            h.bool(false)
        }
        h.int(editorOpenings)
        for stack in [undoStack, redoStack] {
            h.int(stack.count)
            for step in stack {
                switch step {
                case let .selection(added, removed):
                    h.int(0)
                    h.rows(added)
                    h.rows(removed)
                case let .choose(opening, before, after):
                    h.int(1)
                    h.int(opening)
                    h.int(before.count)
                    for b in before { h.int(b) }
                    h.int(after.count)
                    for a in after { h.int(a) }
                }
            }
        }
        return h.digest
    }

    /// `hashValue64` as 16 lower-case hex digits.
    public var hashHex: String {
        let hex = String(hashValue64, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
