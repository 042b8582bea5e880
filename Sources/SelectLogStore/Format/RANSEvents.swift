import SelectLog

// A later format version (in progress; "format 7" in notes before 2026-12-06, when
// delta checkpoints took that number): coded batches on the static rANS coder (`RANS`).
// The items, their order and their predictions are format 6's (CodedEvents.swift): what
// changes is that each group of format 6's binary decisions is one symbol under a
// context's table. An item's kind and whether it has a time are one symbol; an integer
// is its class (`IntegerClass`) and raw bits; a value on its channel's grid is one class
// symbol, and one off the grid the `offGrid` symbol of its context, then its class under
// `RANSContexts.offGrid`. Tables are fixed for a window: the writer chooses them before
// coding (the window before's counts, or the window's own when it has them all).

/// The contexts of a rANS-format batch, each with its alphabet.
enum RANSContexts {
    /// An item's kind and time flag (symbol × 2 + has time; 0 ends the batch, 64 is a
    /// gesture fingerprint), after the item symbol before it (at most 32).
    static let head = 0
    static let headContexts = 33
    static let headAlphabet = 128
    /// A scroll's shape after the shape before it.
    static let shape = head + headContexts
    /// A time residual's class: time group × the sign of the key's last residual.
    static let time = shape + CodedModels.scrollShapes
    /// A finger coordinate: 4 kinds × (x, y), as `CodedModels.pointModel`.
    static let point = time + CodedModels.timeGroups * 3
    /// The other channels.
    static let scrollTo = point + 8
    static let scrollBy = scrollTo + 1
    static let target = scrollBy + 1
    static let swipe = target + 1
    /// A value off its channel's grid, after the `offGrid` symbol.
    static let offGrid = swipe + 1
    /// Plain integers.
    static let velocity = offGrid + 1
    static let small = velocity + 1
    static let length = small + 1
    /// Yes/no flags (`CodedModels.Flag`).
    static let flag = length + 1
    /// A rare event's body, byte by byte.
    static let bytes = flag + 3
    static let count = bytes + 1

    /// The channel contexts' extra symbol: the value is off the grid.
    static let offGridSymbol = IntegerClass.alphabet

    /// The alphabet of context `c`.
    static func alphabet(_ c: Int) -> Int {
        switch c {
        case head..<shape: headAlphabet
        case shape..<time: CodedModels.scrollShapes
        case point..<offGrid: IntegerClass.alphabet + 1
        case flag..<bytes: 2
        case bytes: 256
        default: IntegerClass.alphabet
        }
    }

    /// The first counter of each context in a flat array of counts, and their total.
    static let countOffsets: [Int] = {
        var offsets: [Int] = []
        var next = 0
        for c in 0..<count {
            offsets.append(next)
            next += alphabet(c)
        }
        return offsets + [next]
    }()
}

/// The window's tables, one per context, and their coded form.
struct RANSTables {
    let tables: [RANSTable]

    /// Tables for the symbols counted in `counts` (laid out by `RANSContexts.countOffsets`).
    init(counts: [UInt32]) {
        let offsets = RANSContexts.countOffsets
        tables = (0..<RANSContexts.count).map { c in RANSTable(counts: Array(counts[offsets[c]..<offsets[c + 1]])) }
    }

    /// Tables that code every symbol as an escape: a window with nothing before it.
    static let empty = RANSTables(counts: [UInt32](repeating: 0, count: RANSContexts.countOffsets[RANSContexts.count]))

    private init(tables: [RANSTable]) { self.tables = tables }

    /// The tables in bits: per context, whether it holds any symbol (one bit), then the
    /// table of one that does.
    func encoded() -> [UInt8] {
        var w = BitWriter()
        for t in tables {
            let used = t.entries.dropLast().contains { $0 != 0 }
            w.write(used ? 1 : 0, bits: 1)
            if used { t.write(to: &w) }
        }
        return w.finished()
    }

    /// The tables `encoded()` wrote, or nil when the bytes are not tables (or run short).
    init?(decoding bytes: [UInt8]) {
        guard !bytes.isEmpty else { return nil }
        var tables: [RANSTable] = []
        let ok = bytes.withUnsafeBufferPointer { b -> Bool in
            guard let base = b.baseAddress else { return false }
            var r = BitReaderCore(base, count: b.count)
            for c in 0..<RANSContexts.count {
                let alphabet = RANSContexts.alphabet(c)
                if r.read(bits: 1) == 0 {
                    tables.append(RANSTable(counts: [UInt32](repeating: 0, count: alphabet)))
                } else {
                    guard let t = RANSTable(reading: &r, alphabet: alphabet) else { return false }
                    tables.append(t)
                }
            }
            return !r.overran
        }
        guard ok else { return nil }
        self.init(tables: tables)
    }
}
