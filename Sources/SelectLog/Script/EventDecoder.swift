/// Reads the fields of one event object, with messages that name the field.
struct FieldReader {
    let type: String
    let members: [(key: String, value: JSONValue)]

    func fail(_ reason: String) -> InvalidEvent { InvalidEvent(type, reason) }

    /// The field's value; an explicit `null` counts as absent (spec 5.10.7).
    func value(_ key: String) -> JSONValue? {
        for m in members where m.key == key {
            if case .null = m.value { return nil }
            return m.value
        }
        return nil
    }

    func required<T>(_ key: String, _ read: (String) throws(InvalidEvent) -> T?) throws(InvalidEvent) -> T {
        guard let v = try read(key) else { throw fail("missing field \"\(key)\"") }
        return v
    }

    func bool(_ key: String) throws(InvalidEvent) -> Bool? {
        guard let v = value(key) else { return nil }
        guard case .bool(let b) = v else { throw fail("field \"\(key)\" must be true or false, not \(v.kindName)") }
        return b
    }

    func string(_ key: String) throws(InvalidEvent) -> String? {
        guard let v = value(key) else { return nil }
        guard case .string(let s) = v else { throw fail("field \"\(key)\" must be a string, not \(v.kindName)") }
        return s
    }

    static func points(_ v: JSONValue, _ name: String, nonNegative: Bool, type: String) throws(InvalidEvent) -> Points {
        guard case .number(let n) = v else { throw InvalidEvent(type, "\(name) must be a number, not \(v.kindName)") }
        guard let raw = n.scaled(by: Int(Points.scale), limit: Points.limit.raw) else {
            throw InvalidEvent(type, "\(name) is out of range (at most 1e9 points)")
        }
        if nonNegative && raw < 0 { throw InvalidEvent(type, "\(name) must not be negative") }
        return Points(raw: raw)
    }

    func points(_ key: String, nonNegative: Bool = false) throws(InvalidEvent) -> Points? {
        guard let v = value(key) else { return nil }
        return try FieldReader.points(v, "field \"\(key)\"", nonNegative: nonNegative, type: type)
    }

    func pointsList(_ key: String) throws(InvalidEvent) -> [Points]? {
        guard let v = value(key) else { return nil }
        guard case .array(let items) = v else { throw fail("field \"\(key)\" must be an array of numbers, not \(v.kindName)") }
        var out: [Points] = []
        out.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            out.append(try FieldReader.points(item, "\(key)[\(k)]", nonNegative: true, type: type))
        }
        return out
    }

    static func integer(_ v: JSONValue, _ name: String, type: String, limit: Int64 = Int64(Int32.max)) throws(InvalidEvent) -> Int {
        guard case .number(let n) = v else { throw InvalidEvent(type, "\(name) must be a whole number, not \(v.kindName)") }
        guard let i = n.integer(limit: limit) else {
            throw InvalidEvent(type, "\(name) must be a whole number no larger than \(limit), not \(n.text)")
        }
        return Int(i)
    }

    func int(_ key: String, nonNegative: Bool = true) throws(InvalidEvent) -> Int? {
        guard let v = value(key) else { return nil }
        let i = try FieldReader.integer(v, "field \"\(key)\"", type: type)
        if nonNegative && i < 0 { throw fail("field \"\(key)\" must not be negative") }
        return i
    }

    func ints(_ key: String) throws(InvalidEvent) -> [Int]? {
        guard let v = value(key) else { return nil }
        guard case .array(let items) = v else { throw fail("field \"\(key)\" must be an array of whole numbers, not \(v.kindName)") }
        var out: [Int] = []
        for (k, item) in items.enumerated() {
            let i = try FieldReader.integer(item, "\(key)[\(k)]", type: type)
            if i < 0 { throw fail("\(key)[\(k)] must not be negative") }
            out.append(i)
        }
        return out
    }

    func strings(_ key: String) throws(InvalidEvent) -> [String]? {
        guard let v = value(key) else { return nil }
        guard case .array(let items) = v else { throw fail("field \"\(key)\" must be an array of strings, not \(v.kindName)") }
        var out: [String] = []
        for (k, item) in items.enumerated() {
            guard case .string(let s) = item else { throw fail("\(key)[\(k)] must be a string, not \(item.kindName)") }
            out.append(s)
        }
        return out
    }

    static func rowPath(_ v: JSONValue, _ name: String, type: String) throws(InvalidEvent) -> RowPath {
        guard case .array(let items) = v, items.count == 2 else {
            throw InvalidEvent(type, "\(name) must be an index path [section, row]")
        }
        let s = try integer(items[0], "\(name)[0]", type: type)
        let r = try integer(items[1], "\(name)[1]", type: type)
        if s < 0 || r < 0 { throw InvalidEvent(type, "\(name) must not be negative") }
        return RowPath(s, r)
    }

    func rowPath(_ key: String) throws(InvalidEvent) -> RowPath? {
        guard let v = value(key) else { return nil }
        return try FieldReader.rowPath(v, "field \"\(key)\"", type: type)
    }

    func rowPaths(_ key: String) throws(InvalidEvent) -> [RowPath]? {
        guard let v = value(key) else { return nil }
        guard case .array(let items) = v else { throw fail("field \"\(key)\" must be an array of index paths, not \(v.kindName)") }
        var out: [RowPath] = []
        out.reserveCapacity(items.count)
        for (k, item) in items.enumerated() { out.append(try FieldReader.rowPath(item, "\(key)[\(k)]", type: type)) }
        return out
    }

    func object(_ key: String) throws(InvalidEvent) -> FieldReader? {
        guard let v = value(key) else { return nil }
        guard case .object(let m) = v else { throw fail("field \"\(key)\" must be an object, not \(v.kindName)") }
        return FieldReader(type: type, members: m)
    }

    func point() throws(InvalidEvent) -> ViewportPoint {
        ViewportPoint(x: try required("x") { k throws(InvalidEvent) in try points(k) },
              y: try required("y") { k throws(InvalidEvent) in try points(k) })
    }

    func sections(_ key: String) throws(InvalidEvent) -> [SectionSpec]? {
        guard let v = value(key) else { return nil }
        guard case .array(let items) = v else { throw fail("field \"\(key)\" must be an array of sections, not \(v.kindName)") }
        var out: [SectionSpec] = []
        for (k, item) in items.enumerated() {
            guard case .object(let m) = item else { throw fail("\(key)[\(k)] must be a section object, not \(item.kindName)") }
            let f = FieldReader(type: type, members: m)
            do throws(InvalidEvent) {
                guard let rows = try f.int("rows") else { throw f.fail("missing field \"rows\"") }
                if rows > 50_000_000 { throw f.fail("field \"rows\" is larger than 50000000") }
                out.append(SectionSpec(
                    rows: rows,
                    rowHeight: try f.points("rowHeight", nonNegative: true),
                    rowHeights: try f.pointsList("rowHeights"),
                    header: try f.points("header", nonNegative: true),
                    footer: try f.points("footer", nonNegative: true),
                    title: try f.string("title")))
            } catch {
                throw InvalidEvent(type, "\(key)[\(k)]: \(error.reason)")
            }
        }
        return out
    }
}

/// Turns one script line into an event (spec 4).
public enum EventDecoder {
    /// Decodes a parsed event object.
    public static func decode(_ value: JSONValue) throws(InvalidEvent) -> TimedEvent {
        guard case .object(let members) = value else { throw InvalidEvent(nil, "an event must be a JSON object, not \(value.kindName)") }
        guard let typeValue = members.first(where: { $0.key == "type" })?.value else {
            throw InvalidEvent(nil, "missing field \"type\"")
        }
        guard case .string(let type) = typeValue else { throw InvalidEvent(nil, "field \"type\" must be a string") }
        let f = FieldReader(type: type, members: members)
        var t: Micros?
        if let v = f.value("t") {
            guard case .number(let n) = v else { throw f.fail("field \"t\" must be a number of milliseconds, not \(v.kindName)") }
            guard let raw = n.scaled(by: 1000, limit: Micros.limit.raw) else { throw f.fail("field \"t\" is out of range") }
            if raw < 0 { throw f.fail("field \"t\" must not be negative") }
            t = Micros(raw: raw)
        }
        return TimedEvent(try event(type, f), t: t)
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
            throw InvalidEvent(nil, "not valid JSON at column \(error.column): \(error.reason)")
        }
        return try decode(value)
    }

    private static func event(_ type: String, _ f: FieldReader) throws(InvalidEvent) -> Event {
        switch type {
        case "configure":
            var p = ConfigurationPatch()
            p.allowsSelection = try f.bool("allowsSelection")
            p.allowsMultipleSelection = try f.bool("allowsMultipleSelection")
            p.allowsSelectionDuringEditing = try f.bool("allowsSelectionDuringEditing")
            p.allowsMultipleSelectionDuringEditing = try f.bool("allowsMultipleSelectionDuringEditing")
            p.multiSelectInteraction = try f.bool("multiSelectInteraction")
            p.optionWidth = try f.points("optionWidth", nonNegative: true)
            p.editorHeight = try f.points("editorHeight", nonNegative: true)
            p.undoLimit = try f.int("undoLimit")
            if let s = try f.object("scrollAndSelect") {
                var strip = StripPatch()
                strip.enabled = try s.bool("enabled")
                if let e = try s.string("edge") {
                    guard let edge = StripEdge(rawValue: e) else { throw f.fail("unknown scrollAndSelect.edge \"\(e)\" (expected \"leading\" or \"trailing\")") }
                    strip.edge = edge
                }
                strip.stripWidth = try s.points("stripWidth", nonNegative: true)
                strip.topAnchor = try s.points("topAnchor")
                strip.bottomAnchor = try s.points("bottomAnchor")
                strip.rowsPerSecond = try s.points("rowsPerSecond", nonNegative: true)
                if let r = try s.string("reversal") {
                    guard let reversal = Reversal(rawValue: r) else { throw f.fail("unknown scrollAndSelect.reversal \"\(r)\" (expected \"flip\" or \"restore\")") }
                    strip.reversal = reversal
                }
                strip.jitter = try s.points("jitter", nonNegative: true)
                p.scrollAndSelect = strip
            }
            return .configure(p)
        case "viewport":
            return .viewport(width: try f.points("width", nonNegative: true), height: try f.points("height", nonNegative: true))
        case "reload":
            return .reload(sections: try f.required("sections") { k throws(InvalidEvent) in try f.sections(k) })
        case "setEditing":
            return .setEditing(try f.required("editing") { k throws(InvalidEvent) in try f.bool(k) })
        case "tap":
            return .tap(try f.point())
        case "panBegan":
            let fingers = try f.int("fingers") ?? 1
            if fingers < 1 { throw f.fail("field \"fingers\" must be at least 1") }
            return .panBegan(try f.point(), fingers: fingers)
        case "panMoved":
            return .panMoved(try f.point())
        case "panEnded":
            let x = try f.points("x"), y = try f.points("y")
            if (x == nil) != (y == nil) { throw f.fail("give both \"x\" and \"y\", or neither") }
            var point: ViewportPoint?
            if let x, let y { point = ViewportPoint(x: x, y: y) }
            return .panEnded(point, targetOffset: try f.points("targetOffset"))
        case "panCancelled":
            return .panCancelled
        case "scroll":
            let y = try f.points("y"), dy = try f.points("dy")
            if y != nil && dy != nil { throw f.fail("give \"y\" or \"dy\", not both") }
            var phase: ScrollPhase?
            if let p = try f.string("phase") {
                guard let known = ScrollPhase(rawValue: p) else { throw f.fail("unknown phase \"\(p)\" (expected \"decelerate\" or \"idle\")") }
                phase = known
            }
            let motion: ScrollMotion? = y.map { .to($0) } ?? dy.map { .by($0) }
            return .scroll(motion, phase: phase, target: try f.points("target"))
        case "jumpToSection":
            if let s = try f.int("section") { return .jumpToSection(.index(s)) }
            if let title = try f.string("title") { return .jumpToSection(.title(title)) }
            throw f.fail("give \"section\" or \"title\"")
        case "swipeBegan":
            return .swipeBegan(row: try f.required("row") { k throws(InvalidEvent) in try f.rowPath(k) })
        case "swipeMoved":
            return .swipeMoved(offset: try f.required("offset") { k throws(InvalidEvent) in try f.points(k) })
        case "swipeEnded":
            return .swipeEnded(velocity: try f.points("velocity"))
        case "setOptionVisible":
            return .setOptionVisible(row: try f.required("row") { k throws(InvalidEvent) in try f.rowPath(k) },
                                     visible: try f.required("visible") { k throws(InvalidEvent) in try f.bool(k) })
        case "toggleEditor":
            return .toggleEditor(row: try f.required("row") { k throws(InvalidEvent) in try f.rowPath(k) },
                                 options: try f.strings("options") ?? [],
                                 multiple: try f.bool("multiple") ?? false,
                                 chosen: try f.ints("chosen") ?? [])
        case "choose":
            return .choose(option: try f.required("option") { k throws(InvalidEvent) in try f.int(k) })
        case "tick":
            return .tick
        case "insertRows":
            return .insertRows(at: try f.required("at") { k throws(InvalidEvent) in try f.rowPaths(k) }, heights: try f.pointsList("heights"))
        case "deleteRows":
            return .deleteRows(at: try f.required("at") { k throws(InvalidEvent) in try f.rowPaths(k) })
        case "moveRow":
            return .moveRow(from: try f.required("from") { k throws(InvalidEvent) in try f.rowPath(k) },
                            to: try f.required("to") { k throws(InvalidEvent) in try f.rowPath(k) })
        case "reloadRows":
            return .reloadRows(at: try f.required("at") { k throws(InvalidEvent) in try f.rowPaths(k) }, heights: try f.pointsList("heights"))
        case "batch":
            var moves: [BatchUpdate.Move] = []
            if let v = f.value("moves") {
                guard case .array(let items) = v else { throw f.fail("field \"moves\" must be an array of [from, to] pairs") }
                for (k, item) in items.enumerated() {
                    guard case .array(let pair) = item, pair.count == 2 else { throw f.fail("moves[\(k)] must be a pair [from, to]") }
                    moves.append(BatchUpdate.Move(from: try FieldReader.rowPath(pair[0], "moves[\(k)][0]", type: type),
                                                  to: try FieldReader.rowPath(pair[1], "moves[\(k)][1]", type: type)))
                }
            }
            return .batch(BatchUpdate(deletes: try f.rowPaths("deletes") ?? [],
                                      inserts: try f.rowPaths("inserts") ?? [],
                                      insertHeights: try f.pointsList("insertHeights"),
                                      moves: moves,
                                      reloads: try f.rowPaths("reloads") ?? [],
                                      reloadHeights: try f.pointsList("reloadHeights")))
        case "insertSections":
            return .insertSections(at: try f.required("at") { k throws(InvalidEvent) in try f.ints(k) },
                                   sections: try f.required("sections") { k throws(InvalidEvent) in try f.sections(k) })
        case "deleteSections":
            return .deleteSections(at: try f.required("at") { k throws(InvalidEvent) in try f.ints(k) })
        case "select":
            return .select(rows: try f.required("rows") { k throws(InvalidEvent) in try f.rowPaths(k) })
        case "deselect":
            return .deselect(rows: try f.required("rows") { k throws(InvalidEvent) in try f.rowPaths(k) })
        case "selectAll": return .selectAll
        case "deselectAll": return .deselectAll
        case "undo": return .undo
        case "redo": return .redo
        default:
            throw InvalidEvent(type, "unknown event type")
        }
    }
}
