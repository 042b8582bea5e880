/// One section of the table: a header, rows, a footer (spec 2).
public struct LayoutSection: Equatable, Sendable {
    /// The data rows' heights.
    package var rows: HeightTree
    /// The height given to rows inserted without one.
    public var rowHeight: Points
    /// The header's height; zero for none.
    public var header: Points
    /// The footer's height; zero for none.
    public var footer: Points
    /// The section-index title, for `jumpToSection {title}`.
    public var title: String?

    /// Equal heights and the same title, its Unicode scalars compared as `jumpToSection`
    /// compares them (not `String`'s canonical equivalence): sections that one jump tells
    /// apart are not equal.
    public static func == (a: LayoutSection, b: LayoutSection) -> Bool {
        sameTitle(a.title, b.title) && a.rowHeight == b.rowHeight && a.header == b.header && a.footer == b.footer
            && a.rows == b.rows
    }

    /// Whether two titles are the same to `jumpToSection`: the same Unicode scalars, as
    /// `NSString.isEqual(_:)` compares them, where `String ==` takes canonically
    /// equivalent strings as equal. The equality of every value that holds a title
    /// (`LayoutSection`, `SectionSpec`, `SectionReference`, and so `Event`) uses it.
    static func sameTitle(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (x?, y?): x.utf8.elementsEqual(y.utf8)
        default: false
        }
    }

    package init(rows: HeightTree, rowHeight: Points = Points(44), header: Points = .zero, footer: Points = .zero, title: String? = nil) {
        self.rows = rows
        self.rowHeight = rowHeight
        self.header = header
        self.footer = footer
        self.title = title
    }

    /// `count` rows: the first ones from `heights` (extra entries ignored), the rest `rowHeight`.
    ///
    /// The rows past `heights` are one run, whatever their count: memory grows with the
    /// heights given, not with `count`. As in an event: `count` is taken within
    /// 0...`EventLimits.sectionRows`, and every height within 0...`EventLimits.length`,
    /// so that no sum of them overflows.
    public init(count: Int, rowHeight: Points = Points(44), heights: [Points] = [], header: Points = .zero, footer: Points = .zero, title: String? = nil) {
        let count = Swift.min(Swift.max(count, 0), EventLimits.sectionRows)
        let rowHeight = LayoutSection.length(rowHeight)
        var rows = HeightTree.Builder()
        let given = heights.prefix(count)
        for h in given { rows.append(LayoutSection.length(h), count: 1) }
        rows.append(rowHeight, count: count - given.count)
        self.init(rows: rows.build(), rowHeight: rowHeight, header: LayoutSection.length(header),
                  footer: LayoutSection.length(footer), title: title)
    }

    /// `height` within 0...`EventLimits.length`.
    static func length(_ height: Points) -> Points { height.clamped(.zero, EventLimits.length) }

    /// The number of data rows.
    public var rowCount: Int { rows.count }

    /// `sections` cut to a table's limits. Copied only where something is cut: the
    /// engine's own sections are within the limits, and come back as they are.
    static func withinTableLimits(_ sections: [LayoutSection]) -> [LayoutSection] {
        var kept = sections
        if kept.count > EventLimits.tableSections { kept.removeSubrange(EventLimits.tableSections...) }
        var rows = 0
        for k in kept.indices {
            guard kept[k].rowCount <= EventLimits.tableRows - rows else {
                kept.removeSubrange(k...)
                break
            }
            rows += kept[k].rowCount
            let header = LayoutSection.length(kept[k].header), footer = LayoutSection.length(kept[k].footer)
            if header != kept[k].header || footer != kept[k].footer {
                kept[k].header = header
                kept[k].footer = footer
            }
        }
        return kept
    }
}
