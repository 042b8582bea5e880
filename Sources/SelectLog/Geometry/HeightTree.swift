/// The row heights of one section, as a counted B-tree.
///
/// Every operation a table needs at scale — height at an index, the sum of the
/// heights before an index, the row containing a content offset, inserting and
/// removing a row — costs O(log n), so a section of millions of rows never has
/// to be walked. Nodes are shared between copies and copied on write, path by
/// path, so copying a tree (a checkpoint, an undo snapshot) costs O(1).
package struct HeightTree: Sendable {
    /// Heights per leaf, at most.
    static let leafCapacity = 128
    /// Children per inner node, at most.
    static let fanout = 32

    final class Node: @unchecked Sendable {
        // Mutated only through `HeightTree`'s mutating methods, and only after
        // `isKnownUniquelyReferenced` proved this node is not shared: the
        // copy-on-write discipline makes the unchecked `Sendable` sound. For the same
        // reason no access to a field overlaps another (nothing calls out while it
        // changes one), so the fields skip the runtime exclusivity check: it cost more
        // than the rest of a lookup (a pan sample's row under the finger reads a leaf).
        @exclusivity(unchecked) var heights: [Int64]      // leaves only
        @exclusivity(unchecked) var children: [Node]      // inner nodes only
        @exclusivity(unchecked) var childCounts: [Int]    // inner nodes: rows under each child
        @exclusivity(unchecked) var childSums: [Int64]    // inner nodes: total height under each child
        @exclusivity(unchecked) var count: Int
        @exclusivity(unchecked) var sum: Int64

        init(leaf heights: [Int64]) {
            self.heights = heights
            self.children = []
            self.childCounts = []
            self.childSums = []
            self.count = heights.count
            var sum: Int64 = 0
            for h in heights { sum &+= h }
            self.sum = sum
        }

        init(children: [Node]) {
            self.heights = []
            self.children = children
            self.childCounts = children.map(\.count)
            self.childSums = children.map(\.sum)
            self.count = childCounts.reduce(0, +)
            self.sum = childSums.reduce(0, &+)
        }

        init(copying other: Node) {
            heights = other.heights
            children = other.children
            childCounts = other.childCounts
            childSums = other.childSums
            count = other.count
            sum = other.sum
        }

        var isLeaf: Bool { children.isEmpty }
        /// Entries in this node: heights in a leaf, children in an inner node.
        var width: Int { isLeaf ? heights.count : children.count }
    }

    var root: Node

    /// An empty section.
    package init() { root = Node(leaf: []) }

    /// A section with the given heights, built bottom-up in O(n).
    package init(_ heights: [Points]) {
        self.init(raw: heights.map(\.raw))
    }

    /// `count` rows of height `height`.
    package init(repeating height: Points, count: Int) {
        self.init(raw: Array(repeating: height.raw, count: count))
    }

    init(raw heights: [Int64]) {
        guard heights.count > HeightTree.leafCapacity else {
            root = Node(leaf: heights)
            return
        }
        var level: [Node] = []
        level.reserveCapacity(heights.count / HeightTree.leafCapacity + 1)
        var start = 0
        while start < heights.count {
            let end = min(start + HeightTree.leafCapacity, heights.count)
            level.append(Node(leaf: Array(heights[start..<end])))
            start = end
        }
        while level.count > 1 {
            var next: [Node] = []
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

    /// The number of rows.
    package var count: Int { root.count }
    /// The sum of all heights.
    package var total: Points { Points(raw: root.sum) }

    /// The height of row `index`, which must be in `0..<count`.
    package func height(at index: Int) -> Points {
        precondition(index >= 0 && index < count, "row index out of range")
        // A section of at most `leafCapacity` rows is one leaf: read it without taking
        // a reference to the walk's node (a retain and a release).
        if root.isLeaf { return Points(raw: root.heights[index]) }
        var node = root
        var i = index
        while !node.isLeaf {
            var k = 0
            while i >= node.childCounts[k] { i -= node.childCounts[k]; k += 1 }
            node = node.children[k]
        }
        return Points(raw: node.heights[i])
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
        let heights = node.heights
        var j = 0
        while rest >= heights[j] {
            rest -= heights[j]
            j += 1
        }
        let start = y.raw - rest
        return (base + j, start, start + heights[j])
    }

    /// All heights, in order. O(n).
    package var heights: [Points] {
        var out: [Points] = []
        out.reserveCapacity(count)
        HeightTree.collect(root, into: &out)
        return out
    }

    private static func collect(_ node: Node, into out: inout [Points]) {
        if node.isLeaf {
            for h in node.heights { out.append(Points(raw: h)) }
        } else {
            for child in node.children { collect(child, into: &out) }
        }
    }

    /// Calls `body` with every height, in order, without building an array.
    package func forEachHeight(_ body: (Points) -> Void) {
        func visit(_ node: Node) {
            if node.isLeaf {
                for h in node.heights { body(Points(raw: h)) }
            } else {
                for child in node.children { visit(child) }
            }
        }
        visit(root)
    }
}
