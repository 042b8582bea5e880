/// One field that differs between two states.
public struct StateChange: Hashable, Sendable, CustomStringConvertible {
    /// The field's name in the state JSON (`selected`, `contentOffset`, `pan`, …).
    public var field: String
    /// Before and after, as short text (JSON values where the field has one).
    public var before: String
    /// The field's value after, as short text.
    public var after: String
    /// For `selected`: rows that became selected and rows that became deselected.
    public var added: RowSet?
    /// For `selected`: the rows that became deselected.
    public var removed: RowSet?

    public var description: String {
        if field == "selected" {
            var parts: [String] = []
            if let added, !added.isEmpty { parts.append("+" + StateChange.ranges(added)) }
            if let removed, !removed.isEmpty { parts.append("-" + StateChange.ranges(removed)) }
            return "selected " + parts.joined(separator: " ")
        }
        return "\(field) \(before) -> \(after)"
    }

    /// Rows as compact ranges: `0:3-7,0:9,1:0-2`.
    public static func ranges(_ set: RowSet) -> String {
        var parts: [String] = []
        for (s, list) in set.sections {
            for r in list.ranges { parts.append(r.count == 1 ? "\(s):\(r.lowerBound)" : "\(s):\(r.lowerBound)-\(r.upperBound - 1)") }
        }
        return parts.joined(separator: ",")
    }

    /// Rows as JSON ranges: `[[s, first, last], …]`.
    public static func jsonRanges(_ set: RowSet) -> String {
        var parts: [String] = []
        for (s, list) in set.sections {
            for r in list.ranges { parts.append("[\(s), \(r.lowerBound), \(r.upperBound - 1)]") }
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }
}

extension TableState {
    /// What `event` changed, going from `other` to this state: the selection is compared
    /// row by row, following rows through the event's own edits, so an insert that
    /// shifts selected rows down changes no row's selection. Only fields of the state
    /// JSON: not `hash` (nearly every pan sample changes what the JSON does not show, the
    /// finger's place; and an event's list is read event by event).
    public func changes(since other: TableState, across event: Event) -> [StateChange] {
        guard let operations = event.rowOperations else { return changes(since: other, namingHash: false) }
        var earlier = other
        earlier.selection = other.selection.applying(operations)
        return changes(since: earlier, namingHash: false)
    }

    /// The fields of the state JSON that differ from `other` (the earlier state), in JSON order
    /// (`events` and `t` apart); the selection as rows added and removed, by index path. When
    /// none of them differs but the states do (the configuration, the viewport's width, a
    /// row's height, a title: what the JSON does not show), `hash`, which covers them.
    public func changes(since other: TableState) -> [StateChange] { changes(since: other, namingHash: true) }

    /// `changes(since:)`; without `namingHash`, only the state JSON's fields.
    private func changes(since other: TableState, namingHash: Bool) -> [StateChange] {
        var out: [StateChange] = []
        func add(_ field: String, _ a: String, _ b: String) {
            if a != b { out.append(StateChange(field: field, before: a, after: b)) }
        }
        let path = JSONText.path, range = JSONText.range
        add("sections", "[" + other.layout.sections.map { String($0.rowCount) }.joined(separator: ", ") + "]",
            "[" + layout.sections.map { String($0.rowCount) }.joined(separator: ", ") + "]")
        add("editing", String(other.editing), String(editing))
        if selection != other.selection {
            var c = StateChange(field: "selected", before: String(other.selection.count), after: String(selection.count))
            c.added = selection.subtracting(other.selection)
            c.removed = other.selection.subtracting(selection)
            out.append(c)
        }
        add("contentOffset", other.contentOffset.description, contentOffset.description)
        add("contentHeight", other.layout.contentHeight.description, layout.contentHeight.description)
        add("visible", range(other.visibleRows), range(visibleRows))
        add("dragging", String(other.dragging), String(dragging))
        add("decelerating", String(other.decelerating), String(decelerating))
        add("rowsToLoad", range(other.rowsToLoad), range(rowsToLoad))
        func pan(_ p: Pan?) -> String {
            guard let p else { return "null" }
            return "\(p.kind.rawValue)/\(p.mode?.rawValue ?? "-")/\(path(p.anchor))/\(p.autoscroll?.rawValue ?? "-")"
        }
        add("pan", pan(other.pan), pan(self.pan))
        add("optionOpen", path(other.options.open), path(options.open))
        func swipe(_ s: TableState) -> String {
            guard case .active(let row, let offset)? = s.options.swipe else { return "null" }
            return "\(path(row)) offset \(offset)"
        }
        add("swipe", swipe(other), swipe(self))
        func editor(_ s: TableState) -> String {
            guard let e = s.editor, let row = s.layout.editorRow else { return "null" }
            return "\(path(row)) \(e.multiple ? "multiple" : "single") chosen \(e.chosen)"
        }
        add("editor", editor(other), editor(self))
        if let a = other.editor, let b = self.editor, a.options != b.options {
            out.append(StateChange(field: "editor.options", before: Self.options(a.options), after: Self.options(b.options)))
        }
        add("undo", String(other.undoCount), String(undoCount))
        add("redo", String(other.redoCount), String(redoCount))
        if namingHash, out.isEmpty {
            // Compared as values (cheap where they share storage), hashed only when they differ.
            var earlier = other
            earlier.events = events
            earlier.t = t
            if earlier != self { add("hash", other.hashHex, hashHex) }
        }
        return out
    }

    /// An editor's options as short text: the first few, each clipped, and how many in all.
    static func options(_ options: [String]) -> String {
        let shown = options.prefix(5).map { JSONText.quote($0.count > 24 ? String($0.prefix(24)) + "…" : $0) }
        return "[" + shown.joined(separator: ", ") + (options.count > 5 ? ", … (\(options.count) in all)" : "") + "]"
    }
}
