/// Bridges between the engine's index paths and the `(section, row)` pairs that
/// UIKit's `IndexPath` holds; `SelectLogUIKit` adds `IndexPath` itself where UIKit exists.
extension RowPath {
    /// The row at `section`, `row` (UIKit's `IndexPath(row:section:)` order in one value).
    ///
    /// ```swift
    /// let path = RowPath((section: indexPath.section, row: indexPath.row))
    /// ```
    public init(_ pair: (section: Int, row: Int)) {
        self.init(pair.section, pair.row)
    }

    /// The index path as a `(section, row)` pair, for `IndexPath(row: p.row, section: p.section)`.
    public var pair: (section: Int, row: Int) { (section, row) }
}

extension ViewportPoint {
    /// A point in the viewport from floating-point coordinates (a touch's
    /// `location(in: tableView)` minus the content offset), each rounded onto the grid.
    public init(x: Double, y: Double) {
        self.init(x: Points(rounding: x), y: Points(rounding: y))
    }
}

extension ViewportSize {
    /// A viewport size from floating-point lengths (the scroll view's bounds less its
    /// `adjustedContentInset`), each rounded onto the grid.
    public init(width: Double, height: Double) {
        self.init(width: Points(rounding: width), height: Points(rounding: height))
    }
}
