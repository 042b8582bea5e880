/// The canonical form of a state: every field but its bookkeeping, in one byte form that
/// snapshots (`TableState+Snapshot`) and the hash (`TableState+Hash`, `StateHasher`) share.
extension TableState {
    /// The state without its bookkeeping (`events`, `t`, `stepsRecorded`), in one canonical
    /// byte form: independent of tree shapes and allocation. Snapshots and the hash use it.
    /// The configuration and the layout's sections come first (`writeCanonicalTable`), so
    /// that a `StateHasher` can keep their part of the hash while they stay the same.
    func writeCanonical(into w: inout BinaryWriter) {
        writeCanonicalTable(into: &w)
        writeCanonicalRest(into: &w)
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

    /// The canonical form after `writeCanonicalTable`'s part: the editor row, the viewport
    /// and offset, the selection, the gesture, the option view, the editor and the history.
    func writeCanonicalRest(into w: inout BinaryWriter) {
        Self.write(layout.editorRow, &w)
        w.points(viewport.width)
        w.points(viewport.height)
        w.points(contentOffset)
        w.bool(editing)
        Self.write(selection, &w)
        w.bool(dragging)
        w.bool(decelerating)
        Self.write(target, &w)
        writeGesture(into: &w)
        Self.write(options.open, &w)
        switch options.swipe {
        case nil: w.u8(0)
        case .ignored?: w.u8(1)
        case .active(let row, let offset)?:
            w.u8(2)
            Self.write(row, &w)
            w.points(offset)
        }
        w.bool(editor != nil)
        if let editor {
            w.varint(editor.options.count)
            for o in editor.options {
                w.string(o)
                w.spill()
            }
            w.bool(editor.multiple)
            w.varint(editor.chosen.count)
            for i in editor.chosen { w.varint(i) }
            w.spill()
            w.varint(editor.opening)
        }
        w.varint(editorOpenings)
        for redo in [false, true] {
            let stack = history.steps(redo: redo)
            w.varint(stack.count)
            for step in stack {
                switch step {
                case let .selection(added, removed):
                    w.u8(0)
                    Self.write(added, &w)
                    Self.write(removed, &w)
                case let .choose(opening, toggled):
                    w.u8(1)
                    w.varint(opening)
                    w.varint(toggled.count)
                    for i in toggled { w.varint(i) }
                }
                w.spill()
            }
        }
    }

    /// The pan in the layout of snapshot version 2, so that states without a pan or
    /// with a v1-shaped pan keep their hash: kind, offset and y at `panBegan`, reversal,
    /// finger, direction, start, mode, anchor, end, selection before, auto-scroll.
    private func writeGesture(into w: inout BinaryWriter) {
        func pan(kind: UInt8, offsetAtBegan: Points, yAtBegan: Points, reversal: Reversal, finger: ViewportPoint,
                 direction: Direction?, rows: PanRows?, before: RowSet, auto: AutoScroll?, since: Micros = .zero) {
            w.bool(true)
            w.u8(kind)
            w.points(offsetAtBegan)
            w.points(yAtBegan)
            w.u8(reversal == .flip ? 0 : 1)
            w.points(finger.x)
            w.points(finger.y)
            w.u8(direction == nil ? 0 : (direction == .up ? 1 : 2))
            Self.write(rows?.start, &w)
            w.u8(rows == nil ? 0 : (rows?.mode == .select ? 1 : 2))
            Self.write(rows?.anchor, &w)
            Self.write(rows?.end, &w)
            Self.write(before, &w)
            w.u8(auto == nil ? 0 : (auto?.direction == .up ? 1 : 2))
            w.signed(since.raw)
        }
        switch gesture.state {
        case .idle:
            w.bool(false)
        case .dragScroll(let d):
            pan(kind: 2, offsetAtBegan: d.offsetAtBegan, yAtBegan: d.began.y, reversal: .flip, finger: d.began,
                direction: nil, rows: nil, before: RowSet(), auto: nil)
        case .interrupted(let finger):
            pan(kind: 3, offsetAtBegan: .zero, yAtBegan: .zero, reversal: .flip, finger: finger,
                direction: nil, rows: nil, before: RowSet(), auto: nil)
        case .waitingForStartRow(let p), .running(let p), .autoScrolling(let p, _):
            pan(kind: p.kind == .strip ? 0 : 1, offsetAtBegan: p.offsetAtBegan, yAtBegan: p.yAtBegan, reversal: p.reversal,
                finger: p.finger, direction: p.direction, rows: p.rows, before: selectionBefore(p), auto: gesture.autoscroll,
                since: gesture.autoscroll?.since ?? p.lastAutoscrollChange)
        }
    }

    /// The selection when `pan` began: the snapshot keeps it (format 6), the engine the
    /// rows the pan changed since.
    private func selectionBefore(_ pan: SelectionPan) -> RowSet {
        var before = selection
        before.subtract(selection.rows(of: pan.changedRows, members: true))
        before.formUnion(selection.rows(of: pan.changedRows, members: false))
        return before
    }

    private static func write(_ r: RowPath?, _ w: inout BinaryWriter) {
        w.bool(r != nil)
        if let r { write(r, &w) }
    }
    private static func write(_ r: RowPath, _ w: inout BinaryWriter) {
        w.varint(r.section)
        w.varint(r.row)
    }
    private static func write(_ p: Points?, _ w: inout BinaryWriter) {
        w.bool(p != nil)
        if let p { w.points(p) }
    }
    private static func write(_ set: RowSet, _ w: inout BinaryWriter) {
        // The stored arrays themselves: `sections` would build a list of pairs first.
        w.varint(set.sectionNumbers.count)
        for (s, list) in zip(set.sectionNumbers, set.lists) {
            w.varint(s)
            w.varint(list.ranges.count)
            var previous = 0
            for r in list.ranges {
                w.varint(r.lowerBound - previous)
                w.varint(r.count)
                previous = r.upperBound
            }
        }
    }
}
