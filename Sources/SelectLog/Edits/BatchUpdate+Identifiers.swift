/// Why two lists of row identifiers cannot become one `BatchUpdate`.
public struct IdentifierDiffError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which list, or which rule, is at fault.
    public enum Reason: Hashable, Sendable {
        /// An identifier appears twice in the old lists.
        case duplicateInOld
        /// An identifier appears twice in the new lists.
        case duplicateInNew
        /// The lists have different numbers of sections (edit sections with
        /// `insertSections`/`deleteSections` first; a batch keeps the sections).
        case sectionCountChanged
    }

    /// What is wrong.
    public var reason: Reason
    /// The identifier concerned, as text (`String(describing:)`); empty for `sectionCountChanged`.
    public var identifier: String
    /// The first place the identifier appears, and the second (for duplicates).
    public var first: RowPath?
    /// The second place the identifier appears, for duplicates.
    public var second: RowPath?
    /// Section counts, old and new, for `sectionCountChanged`.
    public var sectionCounts: (old: Int, new: Int)? {
        counts.map { ($0[0], $0[1]) }
    }
    private var counts: [Int]?

    init(_ reason: Reason, identifier: String = "", first: RowPath? = nil, second: RowPath? = nil, counts: [Int]? = nil) {
        self.reason = reason
        self.identifier = identifier
        self.first = first
        self.second = second
        self.counts = counts
    }

    /// A sentence naming the list, the identifier and both index paths.
    public var description: String {
        switch reason {
        case .duplicateInOld, .duplicateInNew:
            let list = reason == .duplicateInOld ? "old" : "new"
            return "\(list) lists: identifier \"\(identifier)\" appears twice, at \(first.map { "\($0)" } ?? "?") and \(second.map { "\($0)" } ?? "?"); identifiers must be unique across all sections"
        case .sectionCountChanged:
            let (o, n) = sectionCounts ?? (0, 0)
            return "the old lists have \(o) section\(o == 1 ? "" : "s") and the new lists \(n); insert or delete sections first"
        }
    }
}

extension BatchUpdate {
    /// The batch that turns the rows identified by `old` into those identified by `new`:
    /// one list of identifiers per section, as a diffable data source's snapshot holds.
    ///
    /// Deletes are old index paths, inserts new ones, moves go from old to new and
    /// reloads are old index paths (UIKit's `performBatchUpdates` frames, spec 5.8).
    /// Applied to a table whose rows are `old`, it leaves them in the order of `new`, and
    /// because moved rows carry their state, the selection, the open option view and the
    /// editor follow their identities. The update is small: rows that keep their relative
    /// order in their section (the longest increasing run) are not moved.
    ///
    /// `reloading` names rows whose content changed: they are reloaded, which deselects
    /// them (spec 5.8). A changed row that also moves cannot be both moved and reloaded
    /// (spec 5.10.8), so it is deleted and inserted instead. Identifiers in `reloading`
    /// that are not in both lists are ignored. `height`, when given, gives the height of
    /// every inserted and reloaded row.
    ///
    /// ```swift
    /// let update = try BatchUpdate(from: [["a", "b", "c"]], to: [["c", "a", "d"]])
    /// // deletes [0, 1]; inserts [0, 2]; moves [0, 2] -> [0, 0]
    /// try table.apply(.batch(update))
    /// ```
    ///
    /// Throws when an identifier appears twice in either list, or the section counts differ.
    public init<ID: Hashable>(from old: [[ID]], to new: [[ID]], reloading: Set<ID> = [],
                              height: ((ID) -> Points)? = nil) throws(IdentifierDiffError) {
        guard old.count == new.count else {
            throw IdentifierDiffError(.sectionCountChanged, counts: [old.count, new.count])
        }
        let oldPaths = try Self.positions(old, duplicate: .duplicateInOld)
        let newPaths = try Self.positions(new, duplicate: .duplicateInNew)

        var deletes: [RowPath] = []
        var inserts: [RowPath] = []
        var insertIDs: [ID] = []
        var moves: [Move] = []
        var reloads: [RowPath] = []
        var reloadIDs: [ID] = []

        for (s, section) in old.enumerated() {
            for (r, id) in section.enumerated() where newPaths[id] == nil {
                deletes.append(RowPath(s, r))
            }
        }
        for (s, section) in new.enumerated() {
            // Survivors that were already in this section, in new order, by old row: the
            // longest increasing run of old rows stays put; every other survivor moves.
            var stayers: [(id: ID, oldRow: Int)] = []
            for id in section {
                if let from = oldPaths[id], from.section == s { stayers.append((id, from.row)) }
            }
            let stable = Self.longestIncreasingRun(stayers.map(\.oldRow))
            var stableIDs = Set<ID>()
            for k in stable { stableIDs.insert(stayers[k].id) }

            for (r, id) in section.enumerated() {
                let to = RowPath(s, r)
                guard let from = oldPaths[id] else {
                    inserts.append(to)
                    insertIDs.append(id)
                    continue
                }
                let moved = !stableIDs.contains(id)
                let changed = reloading.contains(id)
                switch (moved, changed) {
                case (false, false):
                    break
                case (false, true):
                    reloads.append(from)
                    reloadIDs.append(id)
                case (true, false):
                    moves.append(Move(from: from, to: to))
                case (true, true):
                    deletes.append(from)
                    inserts.append(to)
                    insertIDs.append(id)
                }
            }
        }
        deletes.sort()
        // Inserts were collected in new order, so they are already ascending; reloads
        // are kept with their identifiers, sorted together.
        let reloadOrder = reloads.indices.sorted { reloads[$0] < reloads[$1] }
        let heights = inserts.isEmpty ? nil : height
        let reloadHeights = reloads.isEmpty ? nil : height
        self.init(deletes: deletes, inserts: inserts, insertHeights: heights.map { h in insertIDs.map(h) },
                  moves: moves, reloads: reloadOrder.map { reloads[$0] },
                  reloadHeights: reloadHeights.map { h in reloadOrder.map { h(reloadIDs[$0]) } })
    }

    /// Each identifier's index path; throws on the first duplicate.
    private static func positions<ID: Hashable>(_ lists: [[ID]], duplicate: IdentifierDiffError.Reason) throws(IdentifierDiffError) -> [ID: RowPath] {
        var paths: [ID: RowPath] = [:]
        paths.reserveCapacity(lists.reduce(0) { $0 + $1.count })
        for (s, section) in lists.enumerated() {
            for (r, id) in section.enumerated() {
                let here = RowPath(s, r)
                if let earlier = paths.updateValue(here, forKey: id) {
                    throw IdentifierDiffError(duplicate, identifier: String(describing: id), first: earlier, second: here)
                }
            }
        }
        return paths
    }

    /// Indices of one longest strictly increasing subsequence of `values`
    /// (patience sorting, O(n log n)).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []          // tails[k]: index of the smallest tail of a run of length k + 1
        var previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var run: [Int] = []
        var k = tails.last ?? -1
        while k >= 0 {
            run.append(k)
            k = previous[k]
        }
        return run.reversed()
    }
}
