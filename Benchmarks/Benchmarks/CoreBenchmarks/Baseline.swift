import SelectLog

/// The obvious implementation, measured in the same run as the baseline:
/// heights in a plain array walked from the top, the selection as one Bool per row.
struct NaiveTable {
    var heights: [Int64]
    var selected: [Bool]

    init(rows: Int, height: (Int) -> Int64) {
        heights = (0..<rows).map(height)
        selected = Array(repeating: false, count: rows)
    }

    /// The row containing content offset `y`, by walking from the first row.
    func row(at y: Int64) -> Int? {
        var top: Int64 = 0
        for (i, h) in heights.enumerated() {
            if y < top + h { return i }
            top += h
        }
        return nil
    }

    mutating func selectAll() {
        for i in selected.indices { selected[i] = true }
    }

    mutating func tap(_ row: Int) { selected[row].toggle() }

    /// Deletes `rows` (ascending) then inserts as many rows at the same places.
    mutating func batch(_ rows: [Int]) {
        for r in rows.reversed() {
            heights.remove(at: r)
            selected.remove(at: r)
        }
        for r in rows {
            heights.insert(44 * 64, at: r)
            selected.insert(false, at: r)
        }
    }
}
