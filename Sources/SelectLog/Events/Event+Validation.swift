extension TimedEvent {
    /// Checks every field that does not depend on the table: signs, ranges, counts
    /// and the limits of `EventLimits`, so that nothing the engine accepts can trap
    /// it or fail to round-trip through the log and a script.
    ///
    /// Every way in runs this: the JSON decoder, the binary log's decoder and
    /// `TableState.apply` (and so `Recorder.append`); they therefore reject exactly
    /// the same values. The error names the field: `InvalidEvent.field` is its path.
    @inline(__always)  // a few tests for most events; `apply` runs it on every event
    public func validate() throws(InvalidEvent) {
        try validateTime()
        try event.validate()
    }

    /// The check of `t` that `validate()` makes before the event's fields.
    @inline(__always)
    func validateTime() throws(InvalidEvent) {
        if let t, t.raw < 0 || EventLimits.time < t { throw timeError(t) }
    }

    /// The error for a `t` out of range, built out of line so that `validate()`, run on
    /// every event, stays a few instructions.
    @inline(never)
    private func timeError(_ t: Micros) -> InvalidEvent {
        let hint = EventLimits.bridgedHint(t.raw, limit: Micros.limit.raw, "Micros(seconds:)")
        if t.raw < 0 {
            return InvalidEvent(.malformed, event.typeName, field: EventField.time, "field \"t\" must not be negative, not \(t)\(hint)")
        }
        return InvalidEvent(.malformed, event.typeName, field: EventField.time, EventLimits.timeOutOfRange(t.description) + hint)
    }
}

extension Event {
    /// Checks every field that does not depend on the table (see `TimedEvent.validate()`).
    @inline(__always)  // its fast path is a few tests; the rest is out of line
    public func validate() throws(InvalidEvent) {
        // The frequent events first: when their fields are in range, nothing needs the
        // event's type (the full checks below name it when one is not).
        switch self {
        case .tick:
            return
        case .panMoved(let p) where p.isWithinLengthLimit:
            return
        case .scroll(let motion, _, let target) where Event.scrollIsWithinLimits(motion, target):
            return
        default:
            try validateFields()
        }
    }

    /// Whether a scroll's fields pass `validate()`: a motion `to` and a `target` are
    /// content offsets (`EventLimits.offset`), a motion `by` a length. (The rule of
    /// `validateFields()`, for the fast paths of `validate()` and `TableState.apply`.)
    @inline(__always)
    static func scrollIsWithinLimits(_ motion: ScrollMotion?, _ target: Points?) -> Bool {
        let moves: Bool
        switch motion {
        case .to(let y)?: moves = y.isWithinOffsetLimit
        case .by(let dy)?: moves = dy.isWithinLengthLimit
        case nil: moves = true
        }
        return moves && (target?.isWithinOffsetLimit ?? true)
    }

    /// The checks of `validate()` past its fast path, out of line so that the fast path
    /// (nine events in ten) stays a few instructions.
    @inline(never)
    private func validateFields() throws(InvalidEvent) {
        let check = FieldCheck(type: type)
        switch self {
        case .configure(let p):
            try check.length(p.optionWidth, .optionWidth, nonNegative: true)
            try check.length(p.editorHeight, .editorHeight, nonNegative: true)
            if let u = p.undoLimit { try check.integer(u, EventField.undoLimit.rawValue) }
            if let s = p.scrollAndSelect {
                let strip = EventField.scrollAndSelect.rawValue + "."
                try check.length(s.stripWidth, strip + EventField.stripWidth.rawValue, nonNegative: true)
                try check.length(s.topAnchor, strip + EventField.topAnchor.rawValue)
                try check.length(s.bottomAnchor, strip + EventField.bottomAnchor.rawValue)
                try check.length(s.rowsPerSecond, strip + EventField.rowsPerSecond.rawValue, nonNegative: true)
                try check.length(s.jitter, strip + EventField.jitter.rawValue, nonNegative: true)
            }
        case .viewport(let width, let height):
            try check.length(width, .width, nonNegative: true)
            try check.length(height, .height, nonNegative: true)
        case .reload(let sections):
            try check.sections(sections)
        case .setEditing, .panCancelled, .tick, .selectAll, .deselectAll, .undo, .redo:
            break
        case .tap(let p), .panMoved(let p):
            try check.point(p)
        case .panBegan(let p, let fingers):
            try check.point(p)
            try check.integer(fingers, EventField.fingers.rawValue, atLeast: 0)
        case .panEnded(let p, let targetOffset):
            if let p { try check.point(p) }
            try check.offset(targetOffset, .targetOffset)
        case .scroll(let motion, _, let target):
            switch motion {
            case .to(let y)?: try check.offset(y, .y)
            case .by(let dy)?: try check.length(dy, .dy)
            case nil: break
            }
            try check.offset(target, .target)
        case .jumpToSection(.index(let i)):
            try check.integer(i, EventField.section.rawValue)
        case .jumpToSection(.title(let title)):
            try check.string(title, EventField.title.rawValue)
        case .swipeBegan(let row), .setOptionVisible(let row, _):
            try check.path(row, EventField.row.rawValue)
        case .swipeMoved(let offset):
            try check.length(offset, .offset)
        case .swipeEnded(let velocity):
            try check.length(velocity, .velocity)
        case .toggleEditor(let row, let options, let multiple, let chosen):
            try check.path(row, EventField.row.rawValue)
            for (k, o) in options.enumerated() { try check.string(o, "\(EventField.options.rawValue)[\(k)]") }
            try check.chosen(chosen, options: options.count, multiple: multiple)
        case .choose(let option):
            try check.integer(option, EventField.option.rawValue)
        case .insertRows(let at, let heights), .reloadRows(let at, let heights):
            try check.paths(at, .at)
            try check.lengths(heights, .heights)
        case .deleteRows(let at):
            try check.paths(at, .at)
        case .moveRow(let from, let to):
            try check.path(from, EventField.from.rawValue)
            try check.path(to, EventField.to.rawValue)
        case .batch(let u):
            try check.paths(u.deletes, .deletes)
            try check.paths(u.inserts, .inserts)
            try check.lengths(u.insertHeights, .insertHeights)
            for (k, m) in u.moves.enumerated() {
                try check.path(m.from, "\(EventField.moves.rawValue)[\(k)][0]")
                try check.path(m.to, "\(EventField.moves.rawValue)[\(k)][1]")
            }
            try check.paths(u.reloads, .reloads)
            try check.lengths(u.reloadHeights, .reloadHeights)
        case .insertSections(let at, let sections):
            for (k, i) in at.enumerated() { try check.integer(i, "\(EventField.at.rawValue)[\(k)]") }
            try check.sections(sections)
            if at.count != sections.count {
                throw InvalidEvent(.malformed, type.rawValue, field: EventField.sections.rawValue,
                                   "\"at\" has \(at.count) entries but \"sections\" has \(sections.count)")
            }
        case .deleteSections(let at):
            for (k, i) in at.enumerated() { try check.integer(i, "\(EventField.at.rawValue)[\(k)]") }
        case .select(let rows), .deselect(let rows):
            try check.paths(rows, .rows)
        }
        if let n = fieldBytes, n > EventLimits.eventBytes {
            throw InvalidEvent(.overLimit, type.rawValue, "its fields take \(n) bytes, more than the \(EventLimits.eventBytes) an event may take in the log (\(eventSizeHint))")
        }
    }

    /// What an app does instead of an event over `EventLimits.eventBytes`.
    private var eventSizeHint: String {
        switch self {
        case .reload, .insertSections:
            "give equal heights as rowHeight, shorten the titles, or add the sections over several insertSections events"
        case .toggleEditor:
            "fewer or shorter options"
        case .jumpToSection:
            "a shorter title"
        default:
            "split the rows over several events"
        }
    }
}

/// The checks of one event's fields. Field paths are built only when a check fails.
private struct FieldCheck {
    let type: EventType

    /// A field outside its domain, or in conflict with another of the event's fields.
    func fail(_ field: String, _ reason: String, _ kind: InvalidEvent.Kind = .malformed) -> InvalidEvent {
        InvalidEvent(kind, type.rawValue, field: field, reason)
    }

    /// Whether `v` passes `length(_:_:)` without `nonNegative`.
    @inline(__always)
    static func inRange(_ v: Points) -> Bool { v.isWithinLengthLimit }

    func length(_ v: Points?, _ field: EventField, nonNegative: Bool = false) throws(InvalidEvent) {
        try length(v, field.rawValue, nonNegative: nonNegative)
    }

    func length(_ v: Points?, _ field: @autoclosure () -> String, nonNegative: Bool = false) throws(InvalidEvent) {
        guard let v else { return }
        if !FieldCheck.inRange(v) {
            throw fail(field(), EventLimits.lengthOutOfRange(field()) + EventLimits.bridgedHint(v.raw, limit: Points.contentLimit.raw, "Points(rounding:)"))
        }
        if nonNegative && v.raw < 0 { throw fail(field(), "field \"\(field())\" must not be negative, not \(v)") }
    }

    /// A content offset: within `EventLimits.offset` either way.
    func offset(_ v: Points?, _ field: EventField) throws(InvalidEvent) {
        guard let v, !v.isWithinOffsetLimit else { return }
        throw fail(field.rawValue, EventLimits.offsetOutOfRange(field.rawValue) + EventLimits.bridgedHint(v.raw, limit: Points.contentLimit.raw, "Points(rounding:)"))
    }

    /// Each entry of a list of heights: not negative, in range.
    func lengths(_ vs: [Points]?, _ field: EventField) throws(InvalidEvent) {
        guard let vs else { return }
        for (k, v) in vs.enumerated() { try length(v, "\(field.rawValue)[\(k)]", nonNegative: true) }
    }

    func point(_ p: ViewportPoint) throws(InvalidEvent) {
        try length(p.x, .x)
        try length(p.y, .y)
    }

    func integer(_ v: Int, _ field: @autoclosure () -> String, atLeast lower: Int = 0, atMost upper: Int = EventLimits.index) throws(InvalidEvent) {
        if v < lower || v > upper {
            throw fail(field(), EventLimits.integerOutOfRange(field(), v, lower, upper))
        }
    }

    /// An index path `[section, row]`; a bad component is named `field[0]` or `field[1]`.
    func path(_ r: RowPath, _ field: @autoclosure () -> String) throws(InvalidEvent) {
        try integer(r.section, "\(field())[0]")
        try integer(r.row, "\(field())[1]")
    }

    func paths(_ rs: [RowPath], _ field: EventField) throws(InvalidEvent) {
        for (k, r) in rs.enumerated() { try path(r, "\(field.rawValue)[\(k)]") }
    }

    func string(_ s: String, _ field: @autoclosure () -> String) throws(InvalidEvent) {
        if s.utf8.count > EventLimits.stringBytes {
            throw fail(field(), "field \"\(field())\" is longer than \(EventLimits.stringBytes) bytes", .overLimit)
        }
    }

    func sections(_ specs: [SectionSpec]) throws(InvalidEvent) {
        let name = EventField.sections.rawValue
        for (k, s) in specs.enumerated() {
            let rows = "\(name)[\(k)].\(EventField.rows.rawValue)"
            // Past the engine's size (as a table past `tableRows` is), not a bad value.
            if s.rows > EventLimits.sectionRows {
                throw fail(rows, EventLimits.integerOutOfRange(rows, s.rows, 0, EventLimits.sectionRows), .overLimit)
            }
            try integer(s.rows, rows, atMost: EventLimits.sectionRows)
            try length(s.rowHeight, "\(name)[\(k)].\(EventField.rowHeight.rawValue)", nonNegative: true)
            if let hs = s.rowHeights {
                for (j, h) in hs.enumerated() {
                    try length(h, "\(name)[\(k)].\(EventField.rowHeights.rawValue)[\(j)]", nonNegative: true)
                }
            }
            try length(s.header, "\(name)[\(k)].\(EventField.header.rawValue)", nonNegative: true)
            try length(s.footer, "\(name)[\(k)].\(EventField.footer.rawValue)", nonNegative: true)
            if let title = s.title { try string(title, "\(name)[\(k)].\(EventField.title.rawValue)") }
        }
    }

    /// An editor's `chosen`: indexes of its options, at most one when single-choice.
    func chosen(_ chosen: [Int], options: Int, multiple: Bool) throws(InvalidEvent) {
        let name = EventField.chosen.rawValue
        for (k, c) in chosen.enumerated() {
            try integer(c, "\(name)[\(k)]")
            if c >= options {
                // Past the event's own options: the event is built wrong, whatever the table.
                throw fail("\(name)[\(k)]", "field \"\(name)[\(k)]\" \(c) is out of range (\(options) option\(options == 1 ? "" : "s"))")
            }
        }
        if !multiple, let first = chosen.first, chosen.contains(where: { $0 != first }) {
            throw fail(name, "a single-choice editor takes at most one chosen option")
        }
    }
}

extension Points {
    /// Whether a length field holding this value is in range (`EventLimits.length` either way).
    @inline(__always)
    var isWithinLengthLimit: Bool { raw.magnitude <= EventLimits.length.raw.magnitude }
}

extension Points {
    /// Whether a content offset field holding this value is in range (`EventLimits.offset`
    /// either way).
    @inline(__always)
    var isWithinOffsetLimit: Bool { raw.magnitude <= EventLimits.offset.raw.magnitude }
}

extension ViewportPoint {
    /// Whether both coordinates are in range for a point field.
    @inline(__always)
    var isWithinLengthLimit: Bool { x.isWithinLengthLimit && y.isWithinLengthLimit }
}
