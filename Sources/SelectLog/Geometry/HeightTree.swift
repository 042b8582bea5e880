/// The row heights of one section, as a counted B-tree whose leaves hold either
/// heights or a *run*: any number of rows of one height.
///
/// Every operation a table needs at scale — height at an index, the sum of the
/// heights before an index, the row containing a content offset, inserting and
/// removing a row — costs O(log n), so a section of millions of rows never has
/// to be walked. Nodes are shared between copies and copied on write, path by
/// path, so copying a tree (a checkpoint, an undo snapshot) costs O(1).
///
/// Rows of one height cost nothing per row: a `reload` of 50,000,000 rows of 44 pt
/// is one run leaf, not 400 MB of heights (a log of a few hundred bytes can hold such a
/// reload, and reading it must not take more memory than the heights it gives). Heights
/// are stored one by one only where the events gave them one by one, plus at most
/// `shortestRunLeaf` rows either side of an edit inside a run.
package struct HeightTree: Sendable {
    /// Heights per leaf, at most.
    static let leafCapacity = 128
    /// Children per inner node, at most.
    static let fanout = 32
    /// Runs of fewer rows are stored as heights (a run leaf costs about what 16 heights do).
    static let shortestRunLeaf = 16

    final class Node: @unchecked Sendable {
        // Mutated only through `HeightTree`'s mutating methods, and only after
        // `isKnownUniquelyReferenced` proved this node is not shared: the
        // copy-on-write discipline makes the unchecked `Sendable` sound. For the same
        // reason no access to a field overlaps another (nothing calls out while it
        // changes one), so the fields skip the runtime exclusivity check: it cost more
        // than the rest of a lookup (a pan sample's row under the finger reads a leaf).
        @exclusivity(unchecked) var heights: [Int64]      // explicit leaves only
        @exclusivity(unchecked) var children: [Node]      // inner nodes only
        @exclusivity(unchecked) var childCounts: [Int]    // inner nodes: rows under each child
        @exclusivity(unchecked) var childSums: [Int64]    // inner nodes: total height under each child
        @exclusivity(unchecked) var count: Int
        @exclusivity(unchecked) var sum: Int64
        /// A run leaf's height: its `count` rows all have it, and `heights` is empty.
        /// Nil for an explicit leaf and an inner node.
        @exclusivity(unchecked) var run: Int64?

        init(leaf heights: [Int64]) {
            self.heights = heights
            self.children = []
            self.childCounts = []
            self.childSums = []
            self.count = heights.count
            var sum: Int64 = 0
            for h in heights { sum &+= h }
            self.sum = sum
            self.run = nil
        }

        /// A run leaf: `count` rows of height `height`.
        init(run height: Int64, count: Int) {
            self.heights = []
            self.children = []
            self.childCounts = []
            self.childSums = []
            self.count = count
            // At most `EventLimits.tableRows` rows of at most `EventLimits.length`: no overflow.
            self.sum = height &* Int64(count)
            self.run = height
        }

        init(children: [Node]) {
            self.heights = []
            self.children = children
            self.childCounts = children.map(\.count)
            self.childSums = children.map(\.sum)
            self.count = childCounts.reduce(0, +)
            self.sum = childSums.reduce(0, &+)
            self.run = nil
        }

        /// A node with the fields of `other` (the copy a write to a shared node makes).
        convenience init(copying other: Node) {
            self.init(leaf: [])
            become(other)
        }

        /// Takes every field of `other`.
        func become(_ other: Node) {
            heights = other.heights
            children = other.children
            childCounts = other.childCounts
            childSums = other.childSums
            count = other.count
            sum = other.sum
            run = other.run
        }

        var isLeaf: Bool { children.isEmpty }
        /// Entries in this node: heights in an explicit leaf, 1 in a run leaf, children in
        /// an inner node.
        var width: Int { isLeaf ? (run == nil ? heights.count : 1) : children.count }
        /// A leaf's heights one by one (a run's repeated).
        var leafHeights: [Int64] {
            if let run { return Array(repeating: run, count: count) }
            return heights
        }
    }

    var root: Node

    /// An empty section.
    package init() { root = Node(leaf: []) }

    /// A section with the given heights, built bottom-up in O(n).
    package init(_ heights: [Points]) {
        self.init(raw: heights.map(\.raw))
    }

    /// `count` rows of height `height`: one run, whatever the count.
    package init(repeating height: Points, count: Int) {
        root = count > 0 ? Node(run: height.raw, count: count) : Node(leaf: [])
    }

    init(raw heights: [Int64]) {
        var leaves: [Node] = []
        leaves.reserveCapacity(heights.count / HeightTree.leafCapacity + 1)
        var start = 0
        while start < heights.count {
            let end = min(start + HeightTree.leafCapacity, heights.count)
            leaves.append(Node(leaf: Array(heights[start..<end])))
            start = end
        }
        self.init(leaves: leaves)
    }

    /// A tree over `leaves`, in order, built bottom-up.
    init(leaves: [Node]) {
        guard !leaves.isEmpty else {
            root = Node(leaf: [])
            return
        }
        var level = leaves
        while level.count > 1 {
            var next: [Node] = []
            next.reserveCapacity(level.count / HeightTree.fanout + 1)
            var i = 0
            while i < level.count {
                let end = min(i + HeightTree.fanout, level.count)
                next.append(Node(children: Array(level[i..<end])))
                i = end
            }
            level = next
        }
        root = level[0]
    }

    /// Builds a tree from runs of heights, in order: a run of `shortestRunLeaf` rows or
    /// more becomes a run leaf, shorter ones heights in leaves. What it holds grows with
    /// the runs it is given, never with their lengths.
    package struct Builder {
        private var leaves: [Node] = []
        private var pending: [Int64] = []

        package init() {}

        /// Appends `count` rows of height `height`.
        package mutating func append(_ height: Points, count: Int) {
            guard count > 0 else { return }
            if count >= HeightTree.shortestRunLeaf {
                flush()
                leaves.append(Node(run: height.raw, count: count))
                return
            }
            for _ in 0..<count {
                // Each leaf's storage is allocated once, at its full size, one after the
                // other: grown by doubling, the leaves lay scattered, and hit tests on a
                // million rows of varied heights slowed by a tenth.
                if pending.isEmpty { pending.reserveCapacity(HeightTree.leafCapacity) }
                pending.append(height.raw)
                if pending.count == HeightTree.leafCapacity { flush() }
            }
        }

        private mutating func flush() {
            guard !pending.isEmpty else { return }
            if pending.count < HeightTree.leafCapacity {
                // A last, short leaf keeps only its rows: a section of one row kept a whole
                // leaf's 1 KiB, and a reload of a million small sections took 1.3 GB.
                var short: [Int64] = []
                short.reserveCapacity(pending.count)
                short.append(contentsOf: pending)
                pending = short
            }
            leaves.append(Node(leaf: pending))
            pending = []
        }

        /// The tree of every row appended.
        package mutating func build() -> HeightTree {
            flush()
            return HeightTree(leaves: leaves)
        }
    }

    /// The number of rows.
    package var count: Int { root.count }
    /// The sum of all heights.
    package var total: Points { Points(raw: root.sum) }

    /// The height of row `index`, which must be in `0..<count`. Inlined: a caller that
    /// read the tree out of an array (a pan's next row, `TableLayout.row(at:)`) retained
    /// and released its root around a call, and the inlined walk makes none.
    @inline(__always)
    package func height(at index: Int) -> Points {
        precondition(index >= 0 && index < count, "row index out of range")
        // A section of one leaf: read it without taking a reference to the walk's node
        // (a retain and a release).
        if root.isLeaf { return Points(raw: root.run ?? root.heights[index]) }
        var node = root
        var i = index
        while !node.isLeaf {
            var k = 0
            while i >= node.childCounts[k] { i -= node.childCounts[k]; k += 1 }
            node = node.children[k]
        }
        return Points(raw: node.run ?? node.heights[i])
    }

    /// The sum of the heights of rows `0..<index`; `index` may equal `count`.
    package func offset(of index: Int) -> Points {
        precondition(index >= 0 && index <= count, "row index out of range")
        if index == count { return total }
        var node = root
        var i = index
        var acc: Int64 = 0
        while !node.isLeaf {
            var k = 0
            while i >= node.childCounts[k] {
                i -= node.childCounts[k]
                acc &+= node.childSums[k]
                k += 1
            }
            node = node.children[k]
        }
        if let run = node.run { return Points(raw: acc &+ Int64(i) &* run) }
        for j in 0..<i { acc &+= node.heights[j] }
        return Points(raw: acc)
    }

    /// The row whose span `[offset, offset + height)` contains `y`, or nil when
    /// `y` is outside `[0, total)`. Zero-height rows never contain anything.
    package func index(containing y: Points) -> Int? {
        span(containing: y)?.index
    }

    /// The row whose span contains `y`, as `index(containing:)`, with its span
    /// `start..<end` in the section's coordinates.
    package func span(containing y: Points) -> (index: Int, start: Int64, end: Int64)? {
        guard y.raw >= 0, y.raw < root.sum else { return nil }
        var node = root
        var rest = y.raw
        var base = 0
        while !node.isLeaf {
            var k = 0
            while rest >= node.childSums[k] {
                rest -= node.childSums[k]
                base += node.childCounts[k]
                k += 1
            }
            node = node.children[k]
        }
        if let run = node.run {
            // 0 <= rest < count × run, so run > 0.
            let j = rest / run
            let start = y.raw &- (rest &- j &* run)
            return (base + Int(j), start, start &+ run)
        }
        let heights = node.heights
        var j = 0
        while rest >= heights[j] {
            rest -= heights[j]
            j += 1
        }
        let start = y.raw - rest
        return (base + j, start, start + heights[j])
    }

    /// All heights, in order. O(n) time and memory: for tests and small sections.
    package var heights: [Points] {
        var out: [Points] = []
        forEachRun { h, n in out.append(contentsOf: repeatElement(h, count: n)) }
        return out
    }

    /// Calls `body` with every maximal run of equal heights, in order (adjacent leaves
    /// of one height are one run): O(leaves), not O(rows).
    package func forEachRun(_ body: (Points, Int) -> Void) {
        var current: Int64 = 0
        var length = 0
        func add(_ h: Int64, _ n: Int) {
            if length > 0 && h == current {
                length += n
            } else {
                if length > 0 { body(Points(raw: current), length) }
                current = h
                length = n
            }
        }
        func visit(_ node: Node) {
            if !node.isLeaf {
                for child in node.children { visit(child) }
            } else if let run = node.run {
                if node.count > 0 { add(run, node.count) }
            } else {
                for h in node.heights { add(h, 1) }
            }
        }
        visit(root)
        if length > 0 { body(Points(raw: current), length) }
    }
}
