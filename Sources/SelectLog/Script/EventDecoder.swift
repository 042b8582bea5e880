/// Reads the fields of one event object, with messages that name the field.
///
/// It checks only what a field's JSON must be to become a Swift value (its kind,
/// a whole number, a length on the grid within `EventLimits`); signs, ranges and
/// counts are `TimedEvent.validate()`'s, which every way in runs.
struct FieldReader {
    let type: String
    let members: [(key: String, value: JSONValue)]
    /// What this object's field names are prefixed with in messages (`sections[0].` for a
    /// section's): the path from the event to the object.
    var path = ""

    /// A field's name in messages: its path from the event.
    func name(_ field: EventField) -> String { path + field.rawValue }

    /// A malformed field (`InvalidEvent.Kind.malformed`: every rule the decoder checks is one).
    func fail(_ field: String, _ reason: String) -> InvalidEvent { InvalidEvent(.malformed, type, field: field, reason) }
    /// A malformed event, naming no single field.
    func fail(_ reason: String) -> InvalidEvent { InvalidEvent(.malformed, type, reason) }

    /// Rejects a member the contract does not name for this object (spec 4, 5.11),
    /// suggesting the closest known name. `t` and `type` are known in an event
    /// object. A nested object's member is named by its path (`scrollAndSelect.enable`).
    func checkKnown(_ known: [EventField], event: Bool) throws(InvalidEvent) {
        for m in members {
            if event && (m.key == EventField.time || m.key == EventField.type) { continue }
            if known.contains(where: { $0.rawValue == m.key }) { continue }
            var names = known.map(\.rawValue)
            if event { names += [EventField.time, EventField.type] }
            var reason = "unknown field \(Quoted.value(path + m.key))"
            if let close = NameSuggestion.closest(to: m.key, among: names) { reason += " (did you mean \"\(close)\"?)" }
            throw fail(path + m.key, reason)
        }
    }

    /// The field's value; an explicit `null` counts as absent (spec 5.10.7).
    func value(_ field: EventField) -> JSONValue? {
        let key = field.rawValue
        for m in members where m.key == key {
            if case .null = m.value { return nil }
            return m.value
        }
        return nil
    }

    func required<T>(_ field: EventField, _ read: (EventField) throws(InvalidEvent) -> T?) throws(InvalidEvent) -> T {
        guard let v = try read(field) else { throw fail(name(field), "missing field \"\(name(field))\"") }
        return v
    }

    func bool(_ field: EventField) throws(InvalidEvent) -> Bool? {
        guard let v = value(field) else { return nil }
        guard case .bool(let b) = v else { throw fail(name(field), "field \"\(name(field))\" must be true or false, not \(v.kindName)") }
        return b
    }

    func string(_ field: EventField) throws(InvalidEvent) -> String? {
        guard let v = value(field) else { return nil }
        guard case .string(let s) = v else { throw fail(name(field), "field \"\(name(field))\" must be a string, not \(v.kindName)") }
        return s
    }

    /// One of a string enumeration's values; anything else names the choices.
    func choice<T: RawRepresentable<String>>(_ field: EventField, _ all: [T]) throws(InvalidEvent) -> T? {
        guard let s = try string(field) else { return nil }
        if let known = T(rawValue: s) { return known }
        let shown = name(field)
        let expected = all.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        throw fail(shown, "unknown \(shown) \(JSONText.quote(s)) (expected \(expected))")
    }

    /// A number of points within `EventLimits.length`, or within `EventLimits.offset` for
    /// a content offset (`offset`).
    static func points(_ v: JSONValue, _ name: String, type: String, offset: Bool = false) throws(InvalidEvent) -> Points {
        guard case .number(let n) = v else { throw InvalidEvent(.malformed, type, field: name, "field \"\(name)\" must be a number, not \(v.kindName)") }
        let limit = offset ? EventLimits.offset : EventLimits.length
        guard let raw = n.scaled(by: Int(Points.scale), limit: limit.raw) else {
            throw InvalidEvent(.malformed, type, field: name, offset ? EventLimits.offsetOutOfRange(name) : EventLimits.lengthOutOfRange(name))
        }
        return Points(raw: raw)
    }

    func points(_ field: EventField) throws(InvalidEvent) -> Points? {
        guard let v = value(field) else { return nil }
        return try FieldReader.points(v, name(field), type: type)
    }

    /// A content offset (`scroll`'s `y` and `target`, `panEnded`'s `targetOffset`).
    func offset(_ field: EventField) throws(InvalidEvent) -> Points? {
        guard let v = value(field) else { return nil }
        return try FieldReader.points(v, name(field), type: type, offset: true)
    }

    func pointsList(_ field: EventField) throws(InvalidEvent) -> [Points]? {
        guard let v = value(field) else { return nil }
        let key = name(field)
        guard case .array(let items) = v else { throw fail(key, "field \"\(key)\" must be an array of numbers, not \(v.kindName)") }
        var out: [Points] = []
        out.reserveCapacity(items.count)
        for (k, item) in items.enumerated() { out.append(try FieldReader.points(item, "\(key)[\(k)]", type: type)) }
        return out
    }

    /// A whole number within ±`EventLimits.index` (its sign and range are checked by validation).
    static func integer(_ v: JSONValue, _ name: String, type: String) throws(InvalidEvent) -> Int {
        guard case .number(let n) = v else { throw InvalidEvent(.malformed, type, field: name, "field \"\(name)\" must be a whole number, not \(v.kindName)") }
        if let i = n.integer(limit: Int64(EventLimits.index)), let small = Int(exactly: i) { return small }
        if let big = n.integer(limit: Int64.max - 1) {
            throw InvalidEvent(.malformed, type, field: name, EventLimits.integerOutOfRange(name, big, 0, EventLimits.index))
        }
        if n.isWhole {
            // Past Int64: out of range, as a smaller one past the limit is.
            let bound = n.negative ? "must not be negative" : "must be at most \(EventLimits.index)"
            throw InvalidEvent(.malformed, type, field: name, "field \"\(name)\" \(bound), not \(n.written)")
        }
        throw InvalidEvent(.malformed, type, field: name, "field \"\(name)\" must be a whole number, not \(n.written)")
    }

    func int(_ field: EventField) throws(InvalidEvent) -> Int? {
        guard let v = value(field) else { return nil }
        return try FieldReader.integer(v, name(field), type: type)
    }

    func ints(_ field: EventField) throws(InvalidEvent) -> [Int]? {
        guard let v = value(field) else { return nil }
        let key = name(field)
        guard case .array(let items) = v else { throw fail(key, "field \"\(key)\" must be an array of whole numbers, not \(v.kindName)") }
        var out: [Int] = []
        for (k, item) in items.enumerated() { out.append(try FieldReader.integer(item, "\(key)[\(k)]", type: type)) }
        return out
    }

    func strings(_ field: EventField) throws(InvalidEvent) -> [String]? {
        guard let v = value(field) else { return nil }
        let key = name(field)
        guard case .array(let items) = v else { throw fail(key, "field \"\(key)\" must be an array of strings, not \(v.kindName)") }
        var out: [String] = []
        for (k, item) in items.enumerated() {
            guard case .string(let s) = item else { throw fail("\(key)[\(k)]", "\(key)[\(k)] must be a string, not \(item.kindName)") }
            out.append(s)
        }
        return out
    }

    static func rowPath(_ v: JSONValue, _ name: String, type: String) throws(InvalidEvent) -> RowPath {
        guard case .array(let items) = v, items.count == 2 else {
            throw InvalidEvent(.malformed, type, field: name, "\(name) must be an index path [section, row]")
        }
        return RowPath(try integer(items[0], "\(name)[0]", type: type), try integer(items[1], "\(name)[1]", type: type))
    }

    func rowPath(_ field: EventField) throws(InvalidEvent) -> RowPath? {
        guard let v = value(field) else { return nil }
        return try FieldReader.rowPath(v, name(field), type: type)
    }

    func rowPaths(_ field: EventField) throws(InvalidEvent) -> [RowPath]? {
        guard let v = value(field) else { return nil }
        let key = name(field)
        guard case .array(let items) = v else { throw fail(key, "field \"\(key)\" must be an array of index paths, not \(v.kindName)") }
        var out: [RowPath] = []
        out.reserveCapacity(items.count)
        for (k, item) in items.enumerated() { out.append(try FieldReader.rowPath(item, "\(key)[\(k)]", type: type)) }
        return out
    }

    func object(_ field: EventField) throws(InvalidEvent) -> FieldReader? {
        guard let v = value(field) else { return nil }
        guard case .object(let m) = v else { throw fail(name(field), "field \"\(name(field))\" must be an object, not \(v.kindName)") }
        // Its fields named from the event (`field "scrollAndSelect.jitter" must …`), as the
        // checks after decoding name them.
        return FieldReader(type: type, members: m, path: name(field) + ".")
    }

    func point() throws(InvalidEvent) -> ViewportPoint {
        ViewportPoint(x: try required(.x) { k throws(InvalidEvent) in try points(k) },
                      y: try required(.y) { k throws(InvalidEvent) in try points(k) })
    }

    func sections(_ field: EventField) throws(InvalidEvent) -> [SectionSpec]? {
        guard let v = value(field) else { return nil }
        let key = name(field)
        guard case .array(let items) = v else { throw fail(key, "field \"\(key)\" must be an array of sections, not \(v.kindName)") }
        var out: [SectionSpec] = []
        for (k, item) in items.enumerated() {
            guard case .object(let m) = item else { throw fail("\(key)[\(k)]", "\(key)[\(k)] must be a section object, not \(item.kindName)") }
            // Its fields named from the event: `field "sections[0].rows" must …`, as the
            // checks after decoding name them.
            let f = FieldReader(type: type, members: m, path: "\(key)[\(k)].")
            try f.checkKnown(EventObject.section.fields, event: false)
            out.append(SectionSpec(
                rows: try f.required(.rows) { k throws(InvalidEvent) in try f.int(k) },
                rowHeight: try f.points(.rowHeight),
                rowHeights: try f.pointsList(.rowHeights),
                header: try f.points(.header),
                footer: try f.points(.footer),
                title: try f.string(.title)))
        }
        return out
    }
}

/// Turns one script line into an event (spec 4).
///
/// A line is read field by field against the table of `EventType.fields`: an unknown
/// `type` or a field the contract does not name is invalid, with the closest known
/// name suggested; the event is then checked by `TimedEvent.validate()`, as
/// `TableState.apply` checks it, so a line this accepts is one `apply` accepts
/// unless the table's state forbids it.
public enum EventDecoder {
    /// Decodes a parsed event object.
    package static func decode(_ value: JSONValue) throws(InvalidEvent) -> TimedEvent {
        guard case .object(let members) = value else { throw InvalidEvent(.malformed, nil, "an event must be a JSON object, not \(value.kindName)") }
        guard let typeValue = members.first(where: { $0.key == EventField.type })?.value else {
            throw InvalidEvent(.malformed, nil, field: EventField.type, "missing field \"type\"")
        }
        guard case .string(let name) = typeValue else { throw InvalidEvent(.malformed, nil, field: EventField.type, "field \"type\" must be a string") }
        guard let type = EventType(rawValue: name) else {
            var reason = "unknown event type"
            if let close = NameSuggestion.uikitEventType(name)
                ?? NameSuggestion.closest(to: name, among: EventType.allCases.map(\.rawValue)) {
                reason += " (did you mean \"\(close)\"?)"
            }
            throw InvalidEvent(.malformed, name, field: EventField.type, reason)
        }
        let f = FieldReader(type: name, members: members)
        try f.checkKnown(type.fields, event: true)
        var t: Micros?
        if let v = members.first(where: { $0.key == EventField.time })?.value {
            switch v {
            case .null: break
            case .number(let n):
                guard let raw = n.scaled(by: 1000, limit: EventLimits.time.raw) else {
                    throw f.fail(EventField.time, EventLimits.timeOutOfRange(n.written))
                }
                t = Micros(raw: raw)
            default:
                throw f.fail(EventField.time, "field \"t\" must be a number of milliseconds, not \(v.kindName)")
            }
        }
        let timed = TimedEvent(try event(type, f), t: t)
        try timed.validate()
        return timed
    }

    /// Decodes one line of a script, as text: what `EventEncoder.line(_:)` writes reads
    /// back to the same event. Nil for a blank line or a `#` comment.
    public static func decode(line: String) throws(InvalidEvent) -> TimedEvent? {
        try decode(line: Array(line.utf8))
    }

    /// Decodes one line of a script; nil for a blank line or a `#` comment.
    public static func decode(line: some Collection<UInt8>) throws(InvalidEvent) -> TimedEvent? {
        var start = line.startIndex
        while start != line.endIndex, line[start] == 0x20 || line[start] == 0x09 || line[start] == 0x0D { start = line.index(after: start) }
        if start == line.endIndex || line[start] == UInt8(ascii: "#") { return nil }
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(line))
        } catch {
            // An object or a list the line ended inside: most often events written over
            // several lines, as a pretty-printer writes them.
            let opener = line[start]
            let split = error.column <= line.count ? ""
                : opener == UInt8(ascii: "{") ? "; a script holds each event whole on one line (`jq -c . FILE` writes them so)"
                : opener == UInt8(ascii: "[") ? "; a script holds one event object on each line, not a JSON array (`jq -c '.[]' FILE` writes them so)" : ""
            throw InvalidEvent(.malformed, nil, "not valid JSON at \(columnText(byte: error.column, in: line)): \(error.reason)\(split)")
        }
        return try decode(value)
    }

    /// Where the 1-based byte `byte` of `line` is: its column in characters (Unicode
    /// scalars; an editor counting UTF-16 units counts an emoji twice), and the byte too
    /// when text before it is not ASCII.
    static func columnText(byte: Int, in line: some Collection<UInt8>) -> String {
        var column = 1
        // A scalar starts at every byte but a continuation byte (10xxxxxx).
        for b in line.prefix(Swift.max(0, byte - 1)) where b & 0xC0 != 0x80 { column += 1 }
        return column == byte ? "column \(byte)" : "column \(column) (byte \(byte))"
    }

    private static func event(_ type: EventType, _ f: FieldReader) throws(InvalidEvent) -> Event {
        switch type {
        case .configure:
            var p = ConfigurationPatch()
            p.allowsSelection = try f.bool(.allowsSelection)
            p.allowsMultipleSelection = try f.bool(.allowsMultipleSelection)
            p.allowsSelectionDuringEditing = try f.bool(.allowsSelectionDuringEditing)
            p.allowsMultipleSelectionDuringEditing = try f.bool(.allowsMultipleSelectionDuringEditing)
            p.multiSelectInteraction = try f.bool(.multiSelectInteraction)
            p.optionWidth = try f.points(.optionWidth)
            p.editorHeight = try f.points(.editorHeight)
            p.undoLimit = try f.int(.undoLimit)
            if let s = try f.object(.scrollAndSelect) {
                try s.checkKnown(EventObject.scrollAndSelect.fields, event: false)
                var strip = StripPatch()
                strip.enabled = try s.bool(.enabled)
                strip.edge = try s.choice(.edge, [StripEdge.leading, .trailing])
                strip.stripWidth = try s.points(.stripWidth)
                strip.topAnchor = try s.points(.topAnchor)
                strip.bottomAnchor = try s.points(.bottomAnchor)
                strip.rowsPerSecond = try s.points(.rowsPerSecond)
                strip.reversal = try s.choice(.reversal, [Reversal.flip, .restore])
                strip.jitter = try s.points(.jitter)
                p.scrollAndSelect = strip
            }
            return .configure(p)
        case .viewport:
            return .viewport(width: try f.points(.width), height: try f.points(.height))
        case .reload:
            return .reload(sections: try f.required(.sections) { k throws(InvalidEvent) in try f.sections(k) })
        case .setEditing:
            return .setEditing(try f.required(.editing) { k throws(InvalidEvent) in try f.bool(k) })
        case .tap:
            return .tap(try f.point())
        case .panBegan:
            return .panBegan(try f.point(), fingers: try f.int(.fingers) ?? 1)
        case .panMoved:
            return .panMoved(try f.point())
        case .panEnded:
            let x = try f.points(.x), y = try f.points(.y)
            if (x == nil) != (y == nil) { throw f.fail("give both \"x\" and \"y\", or neither") }
            var point: ViewportPoint?
            if let x, let y { point = ViewportPoint(x: x, y: y) }
            return .panEnded(point, targetOffset: try f.offset(.targetOffset))
        case .panCancelled:
            return .panCancelled
        case .scroll:
            let y = try f.offset(.y), dy = try f.points(.dy)
            if y != nil && dy != nil { throw f.fail("give \"y\" or \"dy\", not both") }
            let phase = try f.choice(.phase, [ScrollPhase.decelerate, .idle])
            let motion: ScrollMotion? = y.map { .to($0) } ?? dy.map { .by($0) }
            return .scroll(motion, phase: phase, target: try f.offset(.target))
        case .jumpToSection:
            let section = try f.int(.section), title = try f.string(.title)
            if section != nil && title != nil { throw f.fail("give \"section\" or \"title\", not both") }
            if let section { return .jumpToSection(.index(section)) }
            if let title { return .jumpToSection(.title(title)) }
            throw f.fail("give \"section\" or \"title\"")
        case .swipeBegan:
            return .swipeBegan(row: try f.required(.row) { k throws(InvalidEvent) in try f.rowPath(k) })
        case .swipeMoved:
            return .swipeMoved(offset: try f.required(.offset) { k throws(InvalidEvent) in try f.points(k) })
        case .swipeEnded:
            return .swipeEnded(velocity: try f.points(.velocity))
        case .setOptionVisible:
            return .setOptionVisible(row: try f.required(.row) { k throws(InvalidEvent) in try f.rowPath(k) },
                                     visible: try f.required(.visible) { k throws(InvalidEvent) in try f.bool(k) })
        case .toggleEditor:
            return .toggleEditor(row: try f.required(.row) { k throws(InvalidEvent) in try f.rowPath(k) },
                                 options: try f.strings(.options) ?? [],
                                 multiple: try f.bool(.multiple) ?? false,
                                 chosen: try f.ints(.chosen) ?? [])
        case .choose:
            return .choose(option: try f.required(.option) { k throws(InvalidEvent) in try f.int(k) })
        case .tick:
            return .tick
        case .insertRows:
            return .insertRows(at: try f.required(.at) { k throws(InvalidEvent) in try f.rowPaths(k) }, heights: try f.pointsList(.heights))
        case .deleteRows:
            return .deleteRows(at: try f.required(.at) { k throws(InvalidEvent) in try f.rowPaths(k) })
        case .moveRow:
            return .moveRow(from: try f.required(.from) { k throws(InvalidEvent) in try f.rowPath(k) },
                            to: try f.required(.to) { k throws(InvalidEvent) in try f.rowPath(k) })
        case .reloadRows:
            return .reloadRows(at: try f.required(.at) { k throws(InvalidEvent) in try f.rowPaths(k) }, heights: try f.pointsList(.heights))
        case .batch:
            var moves: [BatchUpdate.Move] = []
            if let v = f.value(.moves) {
                let key = EventField.moves.rawValue
                guard case .array(let items) = v else { throw f.fail(key, "field \"\(key)\" must be an array of [from, to] pairs") }
                for (k, item) in items.enumerated() {
                    guard case .array(let pair) = item, pair.count == 2 else { throw f.fail("\(key)[\(k)]", "\(key)[\(k)] must be a pair [from, to]") }
                    moves.append(BatchUpdate.Move(from: try FieldReader.rowPath(pair[0], "\(key)[\(k)][0]", type: f.type),
                                                  to: try FieldReader.rowPath(pair[1], "\(key)[\(k)][1]", type: f.type)))
                }
            }
            return .batch(BatchUpdate(deletes: try f.rowPaths(.deletes) ?? [],
                                      inserts: try f.rowPaths(.inserts) ?? [],
                                      insertHeights: try f.pointsList(.insertHeights),
                                      moves: moves,
                                      reloads: try f.rowPaths(.reloads) ?? [],
                                      reloadHeights: try f.pointsList(.reloadHeights)))
        case .insertSections:
            return .insertSections(at: try f.required(.at) { k throws(InvalidEvent) in try f.ints(k) },
                                   sections: try f.required(.sections) { k throws(InvalidEvent) in try f.sections(k) })
        case .deleteSections:
            return .deleteSections(at: try f.required(.at) { k throws(InvalidEvent) in try f.ints(k) })
        case .select:
            return .select(rows: try f.required(.rows) { k throws(InvalidEvent) in try f.rowPaths(k) })
        case .deselect:
            return .deselect(rows: try f.required(.rows) { k throws(InvalidEvent) in try f.rowPaths(k) })
        case .selectAll: return .selectAll
        case .deselectAll: return .deselectAll
        case .undo: return .undo
        case .redo: return .redo
        }
    }
}
