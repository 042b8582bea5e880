/// A data row, named by its index path `[section, row]` (spec 2). The editor row never has one.
public struct RowPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section's index, from 0.
    public var section: Int
    /// The row's index within its section, from 0.
    public var row: Int

    /// Row `row` of section `section`, as `RowPath(0, 3)`.
    @inlinable public init(_ section: Int, _ row: Int) {
        self.section = section
        self.row = row
    }

    @inlinable public static func < (a: RowPath, b: RowPath) -> Bool {
        a.section != b.section ? a.section < b.section : a.row < b.row
    }

    public var description: String { "[\(section), \(row)]" }

    /// Whether both numbers are in `RangeList.domain`, where row sets hold rows.
    var isInDomain: Bool { RangeList.domain.contains(section) && RangeList.domain.contains(row) }
}
