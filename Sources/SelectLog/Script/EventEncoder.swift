/// Writes events as script lines (spec 4), `type` first, numbers exact on the grid,
/// so that reading the line back gives the same event.
///
/// Field names come from the table of `EventType.fields`, in its order; the
/// decoder reads that same table, so every line written here is read back.
public enum EventEncoder {
    /// The script line of `timed`, without a newline.
    public static func line(_ timed: TimedEvent) -> String {
        var w = ObjectWriter(type: timed.event.typeName)
        if let t = timed.t { w.raw(EventField.time, t.description) }
        let e = timed.event
        switch e {
        case .configure(let p):
            w.bool(.allowsSelection, p.allowsSelection)
            w.bool(.allowsMultipleSelection, p.allowsMultipleSelection)
            w.bool(.allowsSelectionDuringEditing, p.allowsSelectionDuringEditing)
            w.bool(.allowsMultipleSelectionDuringEditing, p.allowsMultipleSelectionDuringEditing)
            if let s = p.scrollAndSelect {
                var o = ObjectWriter()
                o.bool(.enabled, s.enabled)
                o.string(.edge, s.edge?.rawValue)
                o.points(.stripWidth, s.stripWidth)
                o.points(.topAnchor, s.topAnchor)
                o.points(.bottomAnchor, s.bottomAnchor)
                o.points(.rowsPerSecond, s.rowsPerSecond)
                o.string(.reversal, s.reversal?.rawValue)
                o.points(.jitter, s.jitter)
                w.raw(.scrollAndSelect, o.text)
            }
            w.bool(.multiSelectInteraction, p.multiSelectInteraction)
            w.points(.optionWidth, p.optionWidth)
            w.points(.editorHeight, p.editorHeight)
            if let u = p.undoLimit { w.raw(.undoLimit, String(u)) }
        case .viewport(let width, let height):
            w.points(.width, width)
            w.points(.height, height)
        case .reload(let sections):
            w.raw(.sections, sectionsText(sections))
        case .setEditing(let on):
            w.bool(.editing, on)
        case .tap(let p), .panMoved(let p):
            w.point(p)
        case .panBegan(let p, let fingers):
            w.point(p)
            if fingers != 1 { w.raw(.fingers, String(fingers)) }
        case .panEnded(let p, let targetOffset):
            if let p { w.point(p) }
            w.points(.targetOffset, targetOffset)
        case .panCancelled, .tick, .selectAll, .deselectAll, .undo, .redo:
            break
        case .scroll(let motion, let phase, let target):
            switch motion {
            case .to(let y)?: w.points(.y, y)
            case .by(let dy)?: w.points(.dy, dy)
            case nil: break
            }
            w.string(.phase, phase?.rawValue)
            w.points(.target, target)
        case .jumpToSection(.index(let i)):
            w.raw(.section, String(i))
        case .jumpToSection(.title(let title)):
            w.string(.title, title)
        case .swipeBegan(let row):
            w.raw(.row, path(row))
        case .swipeMoved(let offset):
            w.points(.offset, offset)
        case .swipeEnded(let velocity):
            w.points(.velocity, velocity)
        case .setOptionVisible(let row, let visible):
            w.raw(.row, path(row))
            w.bool(.visible, visible)
        case .toggleEditor(let row, let options, let multiple, let chosen):
            w.raw(.row, path(row))
            w.raw(.options, "[" + options.map(JSONText.quote).joined(separator: ", ") + "]")
            w.bool(.multiple, multiple)
            w.raw(.chosen, "[" + chosen.map(String.init).joined(separator: ", ") + "]")
        case .choose(let option):
            w.raw(.option, String(option))
        case .insertRows(let at, let heights), .reloadRows(let at, let heights):
            w.raw(.at, paths(at))
            if let heights { w.raw(.heights, numbers(heights)) }
        case .deleteRows(let at):
            w.raw(.at, paths(at))
        case .moveRow(let from, let to):
            w.raw(.from, path(from))
            w.raw(.to, path(to))
        case .batch(let u):
            w.raw(.deletes, paths(u.deletes))
            w.raw(.inserts, paths(u.inserts))
            if let h = u.insertHeights { w.raw(.insertHeights, numbers(h)) }
            w.raw(.moves, "[" + u.moves.map { "[\(path($0.from)), \(path($0.to))]" }.joined(separator: ", ") + "]")
            w.raw(.reloads, paths(u.reloads))
            if let h = u.reloadHeights { w.raw(.reloadHeights, numbers(h)) }
        case .insertSections(let at, let sections):
            w.raw(.at, "[" + at.map(String.init).joined(separator: ", ") + "]")
            w.raw(.sections, sectionsText(sections))
        case .deleteSections(let at):
            w.raw(.at, "[" + at.map(String.init).joined(separator: ", ") + "]")
        case .select(let rows), .deselect(let rows):
            w.raw(.rows, paths(rows))
        }
        return w.text
    }

    static func path(_ r: RowPath) -> String { "[\(r.section), \(r.row)]" }
    static func paths(_ rs: [RowPath]) -> String { "[" + rs.map(path).joined(separator: ", ") + "]" }
    static func numbers(_ ps: [Points]) -> String { "[" + ps.map(\.description).joined(separator: ", ") + "]" }

    static func sectionsText(_ sections: [SectionSpec]) -> String {
        "[" + sections.map { s in
            var o = ObjectWriter()
            o.raw(.rows, String(s.rows))
            o.points(.rowHeight, s.rowHeight)
            if let h = s.rowHeights { o.raw(.rowHeights, numbers(h)) }
            o.points(.header, s.header)
            o.points(.footer, s.footer)
            o.string(.title, s.title)
            return o.text
        }.joined(separator: ", ") + "]"
    }
}

/// Builds one JSON object's text, fields in the order written; nil values are left out.
package struct ObjectWriter: Sendable {
    private var body = ""

    /// An empty object.
    package init() {}
    init(type: String) { raw(EventField.type, JSONText.quote(type)) }

    /// A field whose value is already JSON text.
    package mutating func raw(_ key: String, _ value: String) {
        if !body.isEmpty { body += ", " }
        body += JSONText.quote(key) + ": " + value
    }
    /// A boolean field; nothing when `v` is nil.
    package mutating func bool(_ key: String, _ v: Bool?) { if let v { raw(key, String(v)) } }
    /// A length field, exact on the grid; nothing when `v` is nil.
    package mutating func points(_ key: String, _ v: Points?) { if let v { raw(key, v.description) } }
    /// A string field, quoted; nothing when `v` is nil.
    package mutating func string(_ key: String, _ v: String?) { if let v { raw(key, JSONText.quote(v)) } }
    mutating func point(_ p: ViewportPoint) {
        points(.x, p.x)
        points(.y, p.y)
    }

    /// The object's JSON text.
    package var text: String { "{" + body + "}" }

    /// The object's text up to the value of one more field `key` (`{"a": 1, "key": `),
    /// for a value written after it in pieces; the writer of that value closes it with `}`.
    package func text(openingLast key: String) -> String {
        var o = self
        o.raw(key, "")
        return String(o.text.dropLast())
    }
}

extension ObjectWriter {
    /// The field table's names (`EventType.fields`), so the encoder writes no name the decoder does not know.
    mutating func raw(_ field: EventField, _ value: String) { raw(field.rawValue, value) }
    mutating func bool(_ field: EventField, _ v: Bool?) { bool(field.rawValue, v) }
    mutating func points(_ field: EventField, _ v: Points?) { points(field.rawValue, v) }
    mutating func string(_ field: EventField, _ v: String?) { string(field.rawValue, v) }
}

extension TimedEvent: CustomStringConvertible {
    /// The event's script line, as `selectlog export` writes it: what a test's failure
    /// message or a debugger's `po` shows.
    public var description: String { EventEncoder.line(self) }
}

extension Event: CustomStringConvertible {
    /// The event's script line without a time.
    public var description: String { EventEncoder.line(TimedEvent(self)) }
}
