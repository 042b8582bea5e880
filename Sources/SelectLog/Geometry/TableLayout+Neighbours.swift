extension TableLayout {
    /// The data row before `path` in content order, across sections.
    package func row(before path: RowPath) -> RowPath? {
        if path.row > 0 { return RowPath(path.section, path.row - 1) }
        var s = path.section - 1
        while s >= 0 {
            if sections[s].rows.count > 0 { return RowPath(s, sections[s].rows.count - 1) }
            s -= 1
        }
        return nil
    }

    /// The data row after `path` in content order, across sections.
    package func row(after path: RowPath) -> RowPath? {
        if path.row + 1 < sections[path.section].rows.count { return RowPath(path.section, path.row + 1) }
        var s = path.section + 1
        while s < sections.count {
            if sections[s].rows.count > 0 { return RowPath(s, 0) }
            s += 1
        }
        return nil
    }

    /// The first data row of positive height whose bottom lies below `y`.
    public func firstRow(endingAfter y: Points) -> RowPath? {
        let total = contentHeight.raw
        guard y.raw < total, total > 0 else { return nil }
        let start = max(y.raw, 0)
        var s = section(containing: start)
        var local = start - prefix(s) - sections[s].header.raw
        while s < sections.count {
            let section = sections[s]
            var tl = max(local, 0)
            if let e = editorRow, e.section == s {
                let editorTop = section.rows.offset(of: e.row + 1).raw
                if tl >= editorTop { tl = tl < editorTop &+ editorHeight.raw ? editorTop : tl - editorHeight.raw }
            }
            if let r = section.rows.index(containing: Points(raw: tl)) { return RowPath(s, r) }
            s += 1
            local = 0
        }
        return nil
    }

    /// The last data row of positive height whose top lies above `y`.
    public func lastRow(startingBefore y: Points) -> RowPath? {
        let total = contentHeight.raw
        guard y.raw > 0, total > 0 else { return nil }
        let point = min(y.raw - 1, total - 1)
        var s = section(containing: point)
        var local = point - prefix(s) - sections[s].header.raw
        while s >= 0 {
            let section = sections[s]
            var tl = local
            if tl >= 0, let e = editorRow, e.section == s {
                let editorTop = section.rows.offset(of: e.row + 1).raw
                if tl >= editorTop { tl = tl >= editorTop &+ editorHeight.raw ? tl - editorHeight.raw : editorTop - 1 }
            }
            tl = min(tl, section.rows.total.raw - 1)
            if tl >= 0, let r = section.rows.index(containing: Points(raw: tl)) { return RowPath(s, r) }
            s -= 1
            local = Int64.max
        }
        return nil
    }

    /// The data rows intersecting `[y, y + height)`, as first and last, or nil.
    public func rows(in y: Points, height: Points) -> ClosedRange<RowPath>? {
        // The end saturates: a span past the largest y still ends below every row.
        let (end, overflow) = y.raw.addingReportingOverflow(height.raw)
        guard height.raw > 0,
              let first = firstRow(endingAfter: y),
              let last = lastRow(startingBefore: Points(raw: overflow ? .max : end)),
              first <= last else { return nil }
        return first...last
    }
}
