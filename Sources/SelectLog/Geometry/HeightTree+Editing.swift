extension HeightTree {
    /// Inserts a row of height `height` before row `index` (`index` may equal `count`).
    package mutating func insert(_ height: Points, at index: Int) {
        precondition(index >= 0 && index <= count, "row index out of range")
        makeRootUnique()
        adoptAtRoot(HeightTree.insert(height.raw, at: index, into: root))
    }

    /// Removes row `index` and returns its height.
    @discardableResult
    package mutating func remove(at index: Int) -> Points {
        precondition(index >= 0 && index < count, "row index out of range")
        makeRootUnique()
        let h = HeightTree.remove(at: index, from: root)
        while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
        return Points(raw: h)
    }

    /// Sets the height of row `index`.
    package mutating func setHeight(_ height: Points, at index: Int) {
        precondition(index >= 0 && index < count, "row index out of range")
        makeRootUnique()
        adoptAtRoot(HeightTree.set(height.raw, at: index, in: root).siblings)
        while !root.isLeaf && root.children.count == 1 { root = root.children[0] }
    }

    private mutating func makeRootUnique() {
        if !isKnownUniquelyReferenced(&root) { root = Node(copying: root) }
    }

    /// Puts the root and the right siblings it split into under a new root.
    private mutating func adoptAtRoot(_ siblings: [Node]) {
        guard !siblings.isEmpty else { return }
        root = Node(children: [root] + siblings)
        HeightTree.coalesce(root, from: 0, through: siblings.count)
        if root.children.count == 1 { root = root.children[0] }
    }

    /// Makes `node.children[k]` unique and returns it.
    private static func uniqueChild(_ node: Node, _ k: Int) -> Node {
        if !isKnownUniquelyReferenced(&node.children[k]) {
            node.children[k] = Node(copying: node.children[k])
        }
        return node.children[k]
    }

    /// Inserts into a unique `node`; returns the right siblings it split into (none, one,
    /// or two when a run was cut around the new row).
    private static func insert(_ h: Int64, at index: Int, into node: Node) -> [Node] {
        if let run = node.run {
            if run == h {
                node.count += 1
                node.sum &+= h
                return []
            }
            return cut(node, at: index, replacing: false, with: h)
        }
        node.count += 1
        node.sum &+= h
        if node.isLeaf {
            node.heights.insert(h, at: index)
            guard node.heights.count > leafCapacity else { return [] }
            let half = node.heights.count / 2
            let right = Node(leaf: Array(node.heights[half...]))
            node.heights.removeSubrange(half...)
            node.count -= right.count
            node.sum &-= right.sum
            return [right]
        }
        var i = index
        var k = 0
        while k < node.children.count - 1 && i > node.childCounts[k] {
            i -= node.childCounts[k]
            k += 1
        }
        let child = uniqueChild(node, k)
        let split = insert(h, at: i, into: child)
        node.childCounts[k] = child.count
        node.childSums[k] = child.sum
        adopt(split, after: k, in: node)
        return splitIfFull(node)
    }

    /// Cuts the run leaf `node` around row `index`, which becomes `h` (`replacing`) or
    /// gets `h` inserted before it: `node` becomes the first piece, and the pieces after
    /// it are returned. Rows of the run within `shortestRunLeaf` of the cut are stored
    /// as heights beside `h`; longer stretches stay runs.
    private static func cut(_ node: Node, at index: Int, replacing: Bool, with h: Int64) -> [Node] {
        guard let run = node.run else { return [] }
        let after = node.count - index - (replacing ? 1 : 0)
        var pieces: [Node] = []
        var middle: [Int64] = []
        if index >= shortestRunLeaf {
            pieces.append(Node(run: run, count: index))
        } else {
            middle.append(contentsOf: repeatElement(run, count: index))
        }
        middle.append(h)
        if after >= shortestRunLeaf {
            pieces.append(Node(leaf: middle))
            pieces.append(Node(run: run, count: after))
        } else {
            middle.append(contentsOf: repeatElement(run, count: after))
            pieces.append(Node(leaf: middle))
        }
        node.become(pieces[0])
        return Array(pieces.dropFirst())
    }

    /// Puts `siblings` after child `k` of the unique inner `node` (whose count and sum
    /// already include theirs), then merges the leaves around them that fit in one
    /// (`merged(_:_:)`).
    private static func adopt(_ siblings: [Node], after k: Int, in node: Node) {
        guard !siblings.isEmpty else { return }
        node.children.insert(contentsOf: siblings, at: k + 1)
        node.childCounts.insert(contentsOf: siblings.map(\.count), at: k + 1)
        node.childSums.insert(contentsOf: siblings.map(\.sum), at: k + 1)
        coalesce(node, from: k - 1, through: k + siblings.count + 1)
    }

    /// Merges neighbouring leaves among children `lower...upper` of the unique inner `node`.
    private static func coalesce(_ node: Node, from lower: Int, through upper: Int) {
        var j = min(upper, node.children.count - 1)
        while j > max(lower, 0) {
            if let m = merged(node.children[j - 1], node.children[j]) {
                node.children.replaceSubrange(j - 1...j, with: [m])
                node.childCounts.replaceSubrange(j - 1...j, with: [m.count])
                node.childSums.replaceSubrange(j - 1...j, with: [m.sum])
            }
            j -= 1
        }
    }

    /// One leaf for two neighbouring leaves, when they make one: a run and a run or
    /// heights all of its height (an edit inside a run undone folds back into it), or at
    /// most `leafCapacity` rows of which none is in a run of `shortestRunLeaf` or more (so
    /// merging never turns a long run into heights). Nil otherwise.
    private static func merged(_ a: Node, _ b: Node) -> Node? {
        guard a.isLeaf, b.isLeaf else { return nil }
        if let x = a.run ?? b.run, (a.run ?? x) == x, (b.run ?? x) == x,
           a.heights.allSatisfy({ $0 == x }), b.heights.allSatisfy({ $0 == x }) {
            return Node(run: x, count: a.count + b.count)
        }
        guard a.count + b.count <= leafCapacity else { return nil }
        if a.run != nil && a.count >= shortestRunLeaf || b.run != nil && b.count >= shortestRunLeaf { return nil }
        return Node(leaf: a.leafHeights + b.leafHeights)
    }

    /// Splits the unique inner `node` in two when it has more than `fanout` children;
    /// returns the right half, if any.
    private static func splitIfFull(_ node: Node) -> [Node] {
        guard node.children.count > fanout else { return [] }
        let half = node.children.count / 2
        let right = Node(children: Array(node.children[half...]))
        node.children.removeSubrange(half...)
        node.childCounts.removeSubrange(half...)
        node.childSums.removeSubrange(half...)
        node.count -= right.count
        node.sum &-= right.sum
        return [right]
    }

    private static func remove(at index: Int, from node: Node) -> Int64 {
        if let run = node.run {
            node.count -= 1
            node.sum &-= run
            return run
        }
        if node.isLeaf {
            let h = node.heights.remove(at: index)
            node.count -= 1
            node.sum &-= h
            return h
        }
        var i = index
        var k = 0
        while i >= node.childCounts[k] {
            i -= node.childCounts[k]
            k += 1
        }
        let child = uniqueChild(node, k)
        let h = remove(at: i, from: child)
        node.count -= 1
        node.sum &-= h
        node.childCounts[k] = child.count
        node.childSums[k] = child.sum
        rebalance(node, child: k)
        return h
    }

    /// Keeps children non-empty and merges a child that fell below half with a neighbour
    /// when the two fit in one node, so that depth and node count stay logarithmic.
    private static func rebalance(_ node: Node, child k: Int) {
        let child = node.children[k]
        if child.count == 0 {
            node.children.remove(at: k)
            node.childCounts.remove(at: k)
            node.childSums.remove(at: k)
            return
        }
        if child.isLeaf {
            // Only a leaf that fell below half (or a run now too short to stay one) looks
            // for a neighbour to merge with, as before runs: most removes look at nothing.
            let small = child.run == nil ? child.heights.count < leafCapacity / 2 : child.count < shortestRunLeaf
            if small { coalesce(node, from: k - 1, through: k + 1) }
            return
        }
        guard child.width < fanout / 2, node.children.count > 1 else { return }
        let left = k > 0 ? k - 1 : k
        let a = node.children[left], b = node.children[left + 1]
        guard !a.isLeaf, !b.isLeaf, a.width + b.width <= fanout else { return }
        let merged = Node(children: a.children + b.children)
        node.children.replaceSubrange(left...left + 1, with: [merged])
        node.childCounts.replaceSubrange(left...left + 1, with: [merged.count])
        node.childSums.replaceSubrange(left...left + 1, with: [merged.sum])
    }

    /// Sets row `index` of the unique `node` to `h`; returns its height before and the
    /// right siblings `node` split into (a run cut around the row).
    private static func set(_ h: Int64, at index: Int, in node: Node) -> (old: Int64, siblings: [Node]) {
        if let run = node.run {
            if run == h { return (h, []) }
            return (run, cut(node, at: index, replacing: true, with: h))
        }
        if node.isLeaf {
            let old = node.heights[index]
            node.sum &+= h &- old
            node.heights[index] = h
            return (old, [])
        }
        var i = index
        var k = 0
        while i >= node.childCounts[k] {
            i -= node.childCounts[k]
            k += 1
        }
        let child = uniqueChild(node, k)
        let (old, split) = set(h, at: i, in: child)
        node.sum &+= h &- old
        node.childCounts[k] = child.count
        node.childSums[k] = child.sum
        if split.isEmpty {
            // A leaf of heights set back to a neighbouring run's height folds into it.
            if child.isLeaf && child.run == nil { coalesce(node, from: k - 1, through: k + 1) }
        } else {
            adopt(split, after: k, in: node)
        }
        return (old, splitIfFull(node))
    }
}

extension HeightTree: Equatable {
    /// Equal heights in the same order, however they are stored (runs or heights).
    package static func == (a: HeightTree, b: HeightTree) -> Bool {
        if a.root === b.root { return true }
        guard a.count == b.count, a.total == b.total else { return false }
        var runs: [(Points, Int)] = []
        a.forEachRun { h, n in runs.append((h, n)) }
        var i = 0
        var same = true
        b.forEachRun { h, n in
            if same, i < runs.count, runs[i].0 == h, runs[i].1 == n { i += 1 } else { same = false }
        }
        return same && i == runs.count
    }
}
