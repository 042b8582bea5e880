extension Event {
    /// The bytes of the event's fields in the log's plain field encoding (varints,
    /// zigzag-coded lengths, strings as a varint length and their UTF-8), for the events
    /// that carry lists or strings; nil for the others, whose fields take a few dozen
    /// bytes at most.
    ///
    /// The log stores such an event as one record's worth of bytes, so `validate()`
    /// refuses one whose fields take more than `EventLimits.eventBytes`: an event the
    /// engine accepts is one the log can store and read back. The store's tests check
    /// that its encoder writes exactly this many bytes.
    package var fieldBytes: Int? {
        var size = FieldSize()
        switch self {
        case .reload(let sections):
            size.sections(sections)
        case .insertSections(let at, let sections):
            size.integers(at)
            size.sections(sections)
        case .deleteSections(let at):
            size.integers(at)
        case .jumpToSection(.title(let title)):
            size.bytes += 1
            size.string(title)
        case .toggleEditor(let row, let options, _, let chosen):
            size.path(row)
            size.varint(options.count)
            for o in options { size.string(o) }
            size.bytes += 1
            size.integers(chosen)
        case .insertRows(let at, let heights), .reloadRows(let at, let heights):
            size.paths(at)
            size.heights(heights)
        case .deleteRows(let at), .select(let at), .deselect(let at):
            size.paths(at)
        case .batch(let u):
            size.paths(u.deletes)
            size.paths(u.inserts)
            size.heights(u.insertHeights)
            size.varint(u.moves.count)
            for m in u.moves {
                size.path(m.from)
                size.path(m.to)
            }
            size.paths(u.reloads)
            size.heights(u.reloadHeights)
        default:
            return nil
        }
        return size.bytes
    }
}

/// Counts the bytes `BinaryWriter` would write, without writing them.
struct FieldSize {
    var bytes = 0

    /// The bytes of `v` as a varint (LEB128; a negative value as 0).
    static func varintBytes(_ v: Int) -> Int { varintBytes(UInt64(max(v, 0))) }

    static func varintBytes(_ v: UInt64) -> Int {
        var v = v
        var n = 1
        while v >= 0x80 {
            n += 1
            v >>= 7
        }
        return n
    }

    mutating func varint(_ v: Int) { bytes += FieldSize.varintBytes(v) }

    /// A length, zigzag-coded as `BinaryWriter.signed` writes it.
    mutating func points(_ p: Points) {
        let v = p.raw
        bytes += FieldSize.varintBytes(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    mutating func optional(_ p: Points?) {
        bytes += 1
        if let p { points(p) }
    }

    mutating func string(_ s: String) {
        let n = s.utf8.count
        varint(n)
        bytes += n
    }

    mutating func integers(_ vs: [Int]) {
        varint(vs.count)
        for v in vs { varint(v) }
    }

    mutating func path(_ r: RowPath) {
        varint(r.section)
        varint(r.row)
    }

    mutating func paths(_ rs: [RowPath]) {
        varint(rs.count)
        for r in rs { path(r) }
    }

    mutating func heights(_ hs: [Points]?) {
        bytes += 1
        if let hs {
            varint(hs.count)
            for h in hs { points(h) }
        }
    }

    mutating func sections(_ specs: [SectionSpec]) {
        varint(specs.count)
        for s in specs {
            varint(s.rows)
            optional(s.rowHeight)
            heights(s.rowHeights)
            optional(s.header)
            optional(s.footer)
            bytes += 1
            if let title = s.title { string(title) }
        }
    }
}
