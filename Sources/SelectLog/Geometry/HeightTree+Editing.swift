extension HeightTree {
    /// Inserts a row of height `height` before row `index` (`index` may equal `count`).
    package mutating func insert(_ height: Points, at index: Int) {
        precondition(index >= 0 && index <= count, "row index out of range")
        makeRootUnique()
        if let sibling = HeightTree.insert(height.raw, at: index, into: root) {
            root = Node(children: [root, sibling])
        }
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
        HeightTree.set(height.raw, at: index, in: root)
    }

    private mutating func makeRootUnique() {
        if !isKnownUniquelyReferenced(&root) { root = Node(copying: root) }
    }

    /// Makes `node.children[k]` unique and returns it.
    private static func uniqueChild(_ node: Node, _ k: Int) -> Node {
        if !isKnownUniquelyReferenced(&node.children[k]) {
            node.children[k] = Node(copying: node.children[k])
        }
        return node.children[k]
    }

    /// Inserts into a unique `node`; returns a new right sibling when the node split.
    private static func insert(_ h: Int64, at index: Int, into node: Node) -> Node? {
        node.count += 1
        node.sum &+= h
        if node.isLeaf {
            node.heights.insert(h, at: index)
            guard node.heights.count > leafCapacity else { return nil }
            let half = node.heights.count / 2
            let right = Node(leaf: Array(node.heights[half...]))
            node.heights.removeSubrange(half...)
            node.count -= right.count
            node.sum &-= right.sum
            return right
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
        if let split {
            node.children.insert(split, at: k + 1)
            node.childCounts.insert(split.count, at: k + 1)
            node.childSums.insert(split.sum, at: k + 1)
        }
        guard node.children.count > fanout else { return nil }
        let half = node.children.count / 2
        let right = Node(children: Array(node.children[half...]))
        node.children.removeSubrange(half...)
        node.childCounts.removeSubrange(half...)
        node.childSums.removeSubrange(half...)
        node.count -= right.count
        node.sum &-= right.sum
        return right
    }

    private static func remove(at index: Int, from node: Node) -> Int64 {
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
        let capacity = child.isLeaf ? leafCapacity : fanout
        guard child.width < capacity / 2, node.children.count > 1 else { return }
        let left = k > 0 ? k - 1 : k
        let a = node.children[left], b = node.children[left + 1]
        guard a.width + b.width <= capacity else { return }
        let merged = a.isLeaf ? Node(leaf: a.heights + b.heights) : Node(children: a.children + b.children)
        node.children.replaceSubrange(left...left + 1, with: [merged])
        node.childCounts.replaceSubrange(left...left + 1, with: [merged.count])
        node.childSums.replaceSubrange(left...left + 1, with: [merged.sum])
    }

    private static func set(_ h: Int64, at index: Int, in node: Node) {
        if node.isLeaf {
            node.sum &+= h &- node.heights[index]
            node.heights[index] = h
            return
        }
        var i = index
        var k = 0
        while i >= node.childCounts[k] {
            i -= node.childCounts[k]
            k += 1
        }
        let child = uniqueChild(node, k)
        let before = child.sum
        set(h, at: i, in: child)
        node.childSums[k] = child.sum
        node.sum &+= child.sum &- before
    }
}

extension HeightTree: Equatable {
    package static func == (a: HeightTree, b: HeightTree) -> Bool {
        if a.root === b.root { return true }
        guard a.count == b.count, a.total == b.total else { return false }
        return a.heights == b.heights
    }
}
