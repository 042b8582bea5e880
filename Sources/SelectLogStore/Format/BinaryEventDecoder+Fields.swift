import SelectLog

/// The fields of a version 1 or 2 event body (also a coded batch's cold events), read
/// within `EventLimits`: positions, scrolls and swipe offsets through the predictor.
extension BinaryEventDecoder {
    private mutating func point(_ r: inout BinaryReader) throws(BinaryError) -> ViewportPoint {
        let rx = try r.signed(), ry = try r.signed()
        let (x, y) = predictor.point(fromResidual: rx, ry)
        guard x.magnitude <= EventLimits.length.raw.magnitude, y.magnitude <= EventLimits.length.raw.magnitude else {
            throw r.fail("position out of range")
        }
        return ViewportPoint(x: Points(raw: x), y: Points(raw: y))
    }

    /// A predicted length, checked against the engine's range.
    private func checked(_ raw: Int64, _ r: inout BinaryReader) throws(BinaryError) -> Points {
        guard raw.magnitude <= EventLimits.length.raw.magnitude else { throw r.fail("length out of range") }
        return Points(raw: raw)
    }

    /// A predicted content offset, checked against `EventLimits.offset`.
    private func checkedOffset(_ raw: Int64, _ r: inout BinaryReader) throws(BinaryError) -> Points {
        guard raw.magnitude <= EventLimits.offset.raw.magnitude else { throw r.fail("content offset out of range") }
        return Points(raw: raw)
    }

    /// An optional content offset (a target), stored as it is.
    private func optionalOffset(_ r: inout BinaryReader) throws(BinaryError) -> Points? {
        guard try r.bool() else { return nil }
        return try checkedOffset(try r.signed(), &r)
    }

    private func path(_ r: inout BinaryReader) throws(BinaryError) -> RowPath {
        RowPath(try r.count(limit: EventLimits.index), try r.count(limit: EventLimits.index))
    }

    private func paths(_ r: inout BinaryReader) throws(BinaryError) -> [RowPath] {
        let n = try r.count(limit: r.remaining)
        var out: [RowPath] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try path(&r)) }
        return out
    }

    private func heights(_ r: inout BinaryReader) throws(BinaryError) -> [Points]? {
        guard try r.bool() else { return nil }
        let n = try r.count(limit: r.remaining)
        var out: [Points] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try r.points()) }
        return out
    }

    private func optionalPoints(_ r: inout BinaryReader) throws(BinaryError) -> Points? {
        try r.bool() ? try r.points() : nil
    }

    private func optionalBool(_ r: inout BinaryReader) throws(BinaryError) -> Bool? {
        switch try r.u8() {
        case 0: return false
        case 1: return true
        case 2: return nil
        default: throw r.fail("bad optional boolean")
        }
    }

    private func sections(_ r: inout BinaryReader) throws(BinaryError) -> [SectionSpec] {
        let n = try r.count(limit: r.remaining)
        var out: [SectionSpec] = []
        for _ in 0..<n {
            let rows = try r.count(limit: EventLimits.sectionRows)
            let rowHeight = try optionalPoints(&r)
            let hs = try heights(&r)
            let header = try optionalPoints(&r)
            let footer = try optionalPoints(&r)
            let title: String? = try r.bool() ? try r.string() : nil
            out.append(SectionSpec(rows: rows, rowHeight: rowHeight, rowHeights: hs, header: header, footer: footer, title: title))
        }
        return out
    }

    mutating func decodeFields(_ tag: EventTag, _ r: inout BinaryReader) throws(BinaryError) -> Event {
        switch tag {
        case .configure:
            var p = ConfigurationPatch()
            p.allowsSelection = try optionalBool(&r)
            p.allowsMultipleSelection = try optionalBool(&r)
            p.allowsSelectionDuringEditing = try optionalBool(&r)
            p.allowsMultipleSelectionDuringEditing = try optionalBool(&r)
            p.multiSelectInteraction = try optionalBool(&r)
            p.optionWidth = try optionalPoints(&r)
            p.editorHeight = try optionalPoints(&r)
            if try r.bool() { p.undoLimit = try r.count(limit: EventLimits.index) }
            if try r.bool() {
                var s = StripPatch()
                s.enabled = try optionalBool(&r)
                switch try r.u8() {
                case 0: s.edge = .leading
                case 1: s.edge = .trailing
                case 2: s.edge = nil
                default: throw r.fail("bad edge")
                }
                s.stripWidth = try optionalPoints(&r)
                s.topAnchor = try optionalPoints(&r)
                s.bottomAnchor = try optionalPoints(&r)
                s.rowsPerSecond = try optionalPoints(&r)
                switch try r.u8() {
                case 0: s.reversal = .flip
                case 1: s.reversal = .restore
                case 2: s.reversal = nil
                default: throw r.fail("bad reversal")
                }
                s.jitter = try optionalPoints(&r)
                p.scrollAndSelect = s
            }
            return .configure(p)
        case .viewport:
            return .viewport(width: try optionalPoints(&r), height: try optionalPoints(&r))
        case .reload:
            return .reload(sections: try sections(&r))
        case .setEditing:
            return .setEditing(try r.bool())
        case .tap:
            return .tap(try point(&r))
        case .panMoved:
            return .panMoved(try point(&r))
        case .panBegan:
            let p = try point(&r)
            return .panBegan(p, fingers: try r.count(limit: EventLimits.index))
        case .panEnded:
            let p: ViewportPoint? = try r.bool() ? try point(&r) : nil
            return .panEnded(p, targetOffset: try optionalOffset(&r))
        case .panCancelled: return .panCancelled
        case .tick: return .tick
        case .selectAll: return .selectAll
        case .deselectAll: return .deselectAll
        case .undo: return .undo
        case .redo: return .redo
        case .scroll:
            let motion: ScrollMotion?
            switch try r.u8() {
            case 0: motion = nil
            case 1: motion = .to(try checkedOffset(predictor.scroll(fromResidual: try r.signed()), &r))
            case 2:
                if version >= 2 {
                    motion = .by(try checked(predictor.scrollBy(fromResidual: try r.signed()), &r))
                } else {
                    motion = .by(try r.points())
                }
            default: throw r.fail("bad scroll motion")
            }
            let phase: ScrollPhase?
            switch try r.u8() {
            case 0: phase = nil
            case 1: phase = .decelerate
            case 2: phase = .idle
            default: throw r.fail("bad scroll phase")
            }
            return .scroll(motion, phase: phase, target: try optionalOffset(&r))
        case .jumpToSection:
            switch try r.u8() {
            case 0: return .jumpToSection(.index(try r.count(limit: EventLimits.index)))
            case 1: return .jumpToSection(.title(try r.string()))
            default: throw r.fail("bad section reference")
            }
        case .swipeBegan:
            return .swipeBegan(row: try path(&r))
        case .swipeMoved:
            return .swipeMoved(offset: try checked(predictor.swipe(fromResidual: try r.signed()), &r))
        case .swipeEnded:
            return .swipeEnded(velocity: try optionalPoints(&r))
        case .setOptionVisible:
            return .setOptionVisible(row: try path(&r), visible: try r.bool())
        case .toggleEditor:
            let row = try path(&r)
            var options: [String] = []
            for _ in 0..<(try r.count(limit: r.remaining)) { options.append(try r.string()) }
            let multiple = try r.bool()
            var chosen: [Int] = []
            for _ in 0..<(try r.count(limit: r.remaining)) { chosen.append(try r.count(limit: EventLimits.index)) }
            return .toggleEditor(row: row, options: options, multiple: multiple, chosen: chosen)
        case .choose:
            return .choose(option: try r.count(limit: EventLimits.index))
        case .insertRows:
            return .insertRows(at: try paths(&r), heights: try heights(&r))
        case .reloadRows:
            return .reloadRows(at: try paths(&r), heights: try heights(&r))
        case .deleteRows:
            return .deleteRows(at: try paths(&r))
        case .moveRow:
            return .moveRow(from: try path(&r), to: try path(&r))
        case .batch:
            let deletes = try paths(&r)
            let inserts = try paths(&r)
            let insertHeights = try heights(&r)
            var moves: [BatchUpdate.Move] = []
            for _ in 0..<(try r.count(limit: r.remaining)) {
                moves.append(BatchUpdate.Move(from: try path(&r), to: try path(&r)))
            }
            let reloads = try paths(&r)
            return .batch(BatchUpdate(deletes: deletes, inserts: inserts, insertHeights: insertHeights,
                                      moves: moves, reloads: reloads, reloadHeights: try heights(&r)))
        case .insertSections:
            var at: [Int] = []
            for _ in 0..<(try r.count(limit: r.remaining)) { at.append(try r.count(limit: EventLimits.index)) }
            return .insertSections(at: at, sections: try sections(&r))
        case .deleteSections:
            var at: [Int] = []
            for _ in 0..<(try r.count(limit: r.remaining)) { at.append(try r.count(limit: EventLimits.index)) }
            return .deleteSections(at: at)
        case .select:
            return .select(rows: try paths(&r))
        case .deselect:
            return .deselect(rows: try paths(&r))
        }
    }
}
