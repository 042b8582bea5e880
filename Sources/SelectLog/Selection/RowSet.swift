/// A set of data rows across sections: a sparse, sorted list of sections, each
/// with its `RangeList`. The selection and every undo step are `RowSet`s, so
/// selecting a million rows is one range, and edits cost O(ranges).
///
/// Sections and rows are numbers in `RangeList.domain`; a path outside it names no
/// member (as a row outside it does in a `RangeList`), and a section pushed past its
/// end by a new section above falls off with its rows. No argument traps.
public struct RowSet: Hashable, Sendable {
    var sectionNumbers: [Int] = []
    var lists: [RangeList] = []

    /// No rows.
    public init() {}

    /// Rows `rows` of `section`.
    init(section: Int, rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        sectionNumbers = [section]
        lists = [RangeList(rows)]
    }

    /// The rows of `paths`, in any order, duplicates merged (paths outside the domain left out).
    public init<S: Sequence>(_ paths: S) where S.Element == RowPath {
        // Sorted first, then laid down run by run: inserted one at a time, rows in
        // descending order moved every range after each (200,000 rows took 6 s).
        var sorted = paths.filter(\.isInDomain)
        sorted.sort()
        var i = 0
        while i < sorted.count {
            let section = sorted[i].section
            var runs: [Range<Int>] = []
            while i < sorted.count && sorted[i].section == section {
                let row = sorted[i].row
                if let last = runs.last, row <= last.upperBound {
                    if row == last.upperBound { runs[runs.count - 1] = last.lowerBound..<row + 1 }
                } else {
                    runs.append(row..<row + 1)
                }
                i += 1
            }
            sectionNumbers.append(section)
            lists.append(RangeList(normalizing: runs))
        }
    }

    /// Whether no row is a member.
    public var isEmpty: Bool { sectionNumbers.isEmpty }
    /// The number of member rows (at most `Int.max`: a set of more, possible on a
    /// 32-bit platform, counts `Int.max`).
    public var count: Int {
        lists.reduce(0) { total, list in
            let (sum, overflow) = total.addingReportingOverflow(list.count)
            return overflow ? Int.max : sum
        }
    }

    /// The sections holding members, in order, with their rows.
    public var sections: [(section: Int, rows: RangeList)] { zip(sectionNumbers, lists).map { ($0, $1) } }

    /// The first member in index-path order, if any.
    public var first: RowPath? {
        guard let s = sectionNumbers.first, let r = lists[0].first else { return nil }
        return RowPath(s, r)
    }

    private func slot(of section: Int) -> (index: Int, found: Bool) {
        // `lo` and `hi` stay in 0...count: no overflow or bounds checks (as RangeList's search).
        sectionNumbers.withUnsafeBufferPointer { numbers in
            var lo = 0, hi = numbers.count
            while lo < hi {
                let mid = Int(bitPattern: UInt(bitPattern: lo &+ hi) &>> 1)
                if numbers[mid] < section { lo = mid &+ 1 } else { hi = mid }
            }
            return (lo, lo < numbers.count && numbers[lo] == section)
        }
    }

    /// The rows of `section` that are members.
    public func rows(in section: Int) -> RangeList {
        let (i, found) = slot(of: section)
        return found ? lists[i] : RangeList()
    }

    /// Whether the row at `path` is a member.
    @inline(__always)  // two binary searches; asked on every pan sample
    public func contains(_ path: RowPath) -> Bool {
        let (i, found) = slot(of: path.section)
        return found && lists[i].contains(path.row)
    }

    /// Applies `body` to the rows of `section`, keeping the list sparse (nothing for a
    /// section outside the domain).
    mutating func modify(_ section: Int, _ body: (inout RangeList) -> Void) {
        guard RangeList.domain.contains(section) else { return }
        let (i, found) = slot(of: section)
        if found {
            body(&lists[i])
            dropIfEmpty(i)
        } else {
            var list = RangeList()
            body(&list)
            if !list.isEmpty {
                lists.insert(list, at: i)
                sectionNumbers.insert(section, at: i)
            }
        }
    }

    /// Removes the list at `i` (and its section number) when it holds no rows: the
    /// sections stay those with members.
    private mutating func dropIfEmpty(_ i: Int) {
        guard lists[i].isEmpty else { return }
        lists.remove(at: i)
        sectionNumbers.remove(at: i)
    }

    /// Whether every row of `rows` in `section` is a member. No allocation.
    public func containsAll(_ rows: Range<Int>, in section: Int) -> Bool {
        let (i, found) = slot(of: section)
        return found ? lists[i].containsAll(rows) : rows.isEmpty
    }

    /// Whether some row of `rows` in `section` is a member. No allocation.
    public func intersects(_ rows: Range<Int>, in section: Int) -> Bool {
        let (i, found) = slot(of: section)
        return found && lists[i].intersects(rows)
    }

    /// Calls `body` with the maximal runs of `rows` in `section`, ascending, whose rows
    /// are members (`members`) or not. No allocation.
    func forEachRun(in rows: Range<Int>, section: Int, members: Bool, _ body: (Range<Int>) -> Void) {
        let (i, found) = slot(of: section)
        if found {
            lists[i].forEachRun(in: rows, members: members, body)
        } else if !members && !rows.isEmpty {
            body(rows)
        }
    }

    /// Adds the row at `path`.
    public mutating func insert(_ path: RowPath) { modify(path.section) { $0.insert(path.row) } }
    /// Removes the row at `path`.
    public mutating func remove(_ path: RowPath) { modify(path.section) { $0.remove(path.row) } }
    /// Adds `rows` of `section`.
    public mutating func insert(_ rows: Range<Int>, in section: Int) { modify(section) { $0.insert(rows) } }
    /// Removes `rows` of `section`.
    public mutating func remove(_ rows: Range<Int>, in section: Int) { modify(section) { $0.remove(rows) } }
    /// Flips the membership of every row of `rows` in `section`: an insertion and a
    /// removal per run among them, each a search and a shift of the ranges after it.
    mutating func toggle(_ rows: Range<Int>, in section: Int) {
        if rows.count == 1 {
            // A pan's step into the next row: no list of runs.
            modify(section) { $0.toggle(rows.lowerBound) }
            return
        }
        var members: [Range<Int>] = []
        forEachRun(in: rows, section: section, members: true) { members.append($0) }
        insert(rows, in: section)
        for run in members { remove(run, in: section) }
    }

    /// Removes every row.
    public mutating func removeAll() {
        sectionNumbers.removeAll()
        lists.removeAll()
    }

    /// Sets membership of `path` to `member`.
    public mutating func set(_ path: RowPath, to member: Bool) {
        if member { insert(path) } else { remove(path) }
    }

    // MARK: Following rows through edits

    /// A new row at `path`: later rows of its section move down; it is a member iff `member`.
    public mutating func insertRow(at path: RowPath, member: Bool) {
        guard path.isInDomain else { return }
        let (i, found) = slot(of: path.section)
        if found {
            lists[i].insertRow(at: path.row, member: member)
            dropIfEmpty(i)  // its last members may have fallen off the domain's end
        } else if member {
            lists.insert(RangeList(path.row..<path.row &+ 1), at: i)
            sectionNumbers.insert(path.section, at: i)
        }
    }

    /// Row `path` goes away: later rows of its section move up. Returns whether it was a member.
    @discardableResult
    public mutating func removeRow(at path: RowPath) -> Bool {
        guard path.isInDomain else { return false }
        let (i, found) = slot(of: path.section)
        guard found else { return false }
        let was = lists[i].removeRow(at: path.row)
        dropIfEmpty(i)
        return was
    }

    /// Rows `rows` of `section` (ascending, distinct) go away at once: what
    /// `removeRow(at:)` of each, from the last, does.
    mutating func removeRows(_ rows: [Int], in section: Int) {
        let (i, found) = slot(of: section)
        guard found else { return }
        lists[i].removeRows(rows)
        dropIfEmpty(i)
    }

    /// New rows, not members, at `rows` of `section` (ascending, distinct, after the
    /// insertions): what `insertRow(at:member: false)` of each, from the first, does.
    mutating func insertRows(_ rows: [Int], in section: Int) {
        let (i, found) = slot(of: section)
        guard found else { return }
        lists[i].insertRows(rows)
        dropIfEmpty(i)  // its last members may have fallen off the domain's end
    }

    /// The sections follow a run of section removals or insertions at once (`run`): what
    /// `removeSection(at:)` or `insertSection(at:)` of each, in the run's order, does.
    mutating func followSections(_ run: OperationRun) {
        var numbers: [Int] = [], kept: [RangeList] = []
        numbers.reserveCapacity(sectionNumbers.count)
        kept.reserveCapacity(sectionNumbers.count)
        var cursor = OperationRun.Cursor(run)
        for (k, s) in sectionNumbers.enumerated() {
            // Removed with its rows, or pushed past the domain's end.
            guard let moved = cursor.follow(s), moved < RangeList.domain.upperBound else { continue }
            numbers.append(moved)
            kept.append(lists[k])
        }
        sectionNumbers = numbers
        lists = kept
    }

    /// A new, empty section at `section`: later sections move down by one (one in the
    /// domain's last section falls off; a section outside the domain opens nothing).
    public mutating func insertSection(at section: Int) {
        guard RangeList.domain.contains(section) else { return }
        if sectionNumbers.last == RangeList.domain.upperBound - 1 {
            sectionNumbers.removeLast()
            lists.removeLast()
        }
        let (i, _) = slot(of: section)
        for k in i..<sectionNumbers.count { sectionNumbers[k] += 1 }
    }

    /// Section `section` goes away with its rows: later sections move up by one (nothing
    /// for a section outside the domain).
    public mutating func removeSection(at section: Int) {
        guard RangeList.domain.contains(section) else { return }
        let (i, found) = slot(of: section)
        var k = i
        if found {
            lists.remove(at: i)
            sectionNumbers.remove(at: i)
        }
        while k < sectionNumbers.count {
            sectionNumbers[k] -= 1
            k += 1
        }
    }

    /// Every member, in index-path order. O(rows): for output, not for engine logic. A set
    /// of many rows (a `selectAll` of 100,000,000 is 1.6 GB of paths) is better walked
    /// with `forEachPath(while:)`, or read as runs through `sections`.
    public var paths: [RowPath] {
        var out: [RowPath] = []
        appendPaths(to: &out)
        return out
    }

    /// Hands `body` every member in index-path order while it returns true; whether it
    /// was handed them all. O(rows handed), with nothing listed: the way to read a set too
    /// large to list as `paths`.
    @discardableResult
    public func forEachPath(while body: (RowPath) -> Bool) -> Bool {
        for (s, list) in zip(sectionNumbers, lists) {
            for r in list.ranges { for row in r where !body(RowPath(s, row)) { return false } }
        }
        return true
    }

    /// The members as a JSON list of `[section, row]`, appended to `out` and handed to
    /// `emit` whenever `out` reaches 64 KiB: a list of millions of rows written without
    /// being held (`TableState.writeJSON`, `StateExpectation.writeReads`).
    package func writeJSONList(into out: inout String, _ emit: (String) -> Void) {
        out += "["
        var first = true
        forEachPath { p in
            out += (first ? "" : ", ") + "[\(p.section), \(p.row)]"
            first = false
            if out.utf8.count >= 1 << 16 {
                emit(out)
                out = ""
            }
            return true
        }
        out += "]"
    }

    /// Appends every member to `paths`, in index-path order.
    func appendPaths(to paths: inout [RowPath]) {
        // No more than a table holds: a set built by hand may count up to `Int.max` rows
        // (`RangeList.domain`), whose reservation would abort at once.
        paths.reserveCapacity(paths.count + Swift.min(count, EventLimits.tableRows))
        for (s, list) in zip(sectionNumbers, lists) {
            for r in list.ranges { for row in r { paths.append(RowPath(s, row)) } }
        }
    }

    public static func == (a: RowSet, b: RowSet) -> Bool {
        a.sectionNumbers == b.sectionNumbers && a.lists == b.lists
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sectionNumbers)
        hasher.combine(lists)
    }
}
