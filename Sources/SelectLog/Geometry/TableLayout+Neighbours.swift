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
}
