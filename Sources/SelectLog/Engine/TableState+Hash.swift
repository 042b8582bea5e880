/// FNV-1a over bytes, finished with SplitMix64's mixer: fixed, simple, and the same
/// on every platform and build.
struct CanonicalHasher {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func bytes(_ data: [UInt8]) {
        for b in data {
            state ^= UInt64(b)
            state = state &* 0x0000_0100_0000_01b3
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
    /// A stable 64-bit digest of the whole state except `events` and `t` (spec 6): the
    /// hash of the canonical encoding that snapshots also use.
    public var hashValue64: UInt64 {
        // Hashed as it is written, 64 KiB at a time (`BinaryWriter.spill()`): a state
        // whose undo steps hold large lists encoded to hundreds of megabytes first.
        var w = BinaryWriter(capacity: 1024)
        w.hasher = CanonicalHasher()
        writeCanonical(into: &w)
        var h = w.hasher ?? CanonicalHasher()
        h.bytes(w.bytes)
        return h.digest
    }

    /// The canonical form's first part (`writeCanonical`): the configuration and the
    /// layout's sections, heights run-length coded. Most events change neither.
    func writeCanonicalTable(into w: inout BinaryWriter) {
        let c = configuration
        for flag in [c.allowsSelection, c.allowsMultipleSelection, c.allowsSelectionDuringEditing,
                     c.allowsMultipleSelectionDuringEditing, c.strip.enabled, c.multiSelectInteraction] { w.bool(flag) }
        w.u8(c.strip.edge == .leading ? 0 : 1)
        w.u8(c.strip.reversal == .flip ? 0 : 1)
        for p in [c.strip.stripWidth, c.strip.topAnchor, c.strip.bottomAnchor, c.strip.rowsPerSecond, c.strip.jitter, c.optionWidth] {
            w.points(p)
        }
        w.varint(c.undoLimit)
        // Layout, heights run-length coded.
        w.points(layout.editorHeight)
        w.varint(layout.sectionCount)
        for section in layout.sections {
            w.points(section.header)
            w.points(section.footer)
            w.points(section.rowHeight)
            w.bool(section.title != nil)
            if let title = section.title { w.string(title) }
            w.varint(section.rows.count)
            section.rows.forEachRun { h, n in
                w.points(h)
                w.varint(n)
            }
            w.spill()
        }
    }

    /// `hashValue64` as 16 lower-case hex digits.
    public var hashHex: String { Self.hex(hashValue64) }

    /// A hash as `hashHex` writes it.
    static func hex(_ hash: UInt64) -> String {
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Hashes the states of one session as a walk reaches them: each state's `hashValue64`,
/// keeping the part of the hash that the configuration and the layout's sections make
/// (the canonical form's first part) while they stay the same. A state whose table did
/// not change then costs its selection, gesture, editor and history, not a walk of every
/// row height: the viewer, which shows the hash after every event of its window, took
/// about a millisecond an event on a table of 20,000 varied heights.
package struct StateHasher {
    /// What the kept part was made from; nil before the first state.
    private var configuration: Configuration?
    private var editorHeight = Points.zero
    /// Held, so that an unchanged array is found by its identity (`Array ==` compares the
    /// buffers first, and a row's `HeightTree` its root) without a walk of the heights.
    private var sections: [LayoutSection] = []
    /// The hash of the first part.
    private var table = CanonicalHasher()

    package init() {}

    /// `state.hashValue64`.
    package mutating func hash(_ state: TableState) -> UInt64 {
        let layout = state.layout
        if configuration != state.configuration || editorHeight != layout.editorHeight || sections != layout.sections {
            var w = BinaryWriter(capacity: 1024)
            w.hasher = CanonicalHasher()
            state.writeCanonicalTable(into: &w)
            var h = w.hasher ?? CanonicalHasher()
            h.bytes(w.bytes)
            (table, configuration, editorHeight, sections) = (h, state.configuration, layout.editorHeight, layout.sections)
        }
        var w = BinaryWriter(capacity: 1024)
        w.hasher = table
        state.writeCanonicalRest(into: &w)
        var h = w.hasher ?? table
        h.bytes(w.bytes)
        return h.digest
    }
}
