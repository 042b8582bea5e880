import Testing
@testable import SelectLog

/// A row's height encodes its identifier, so the engine's layout says which row is where.
private func height(_ id: Int) -> Points { Points(raw: 64 + Int64(id)) }

/// A table whose rows are `lists` (identifiers), multiple selection, option views 80 pt wide.
private func table(_ lists: [[Int]]) throws -> TableState {
    var state = TableState()
    var config = ConfigurationPatch()
    config.allowsMultipleSelection = true
    config.optionWidth = Points(80)
    try state.apply(.configure(config))
    try state.apply(.reload(sections: lists.map { SectionSpec(rows: $0.count, rowHeights: $0.map(height)) }))
    return state
}

/// The identifiers in the table's order, read back from the row heights.
private func identities(_ state: TableState) -> [[Int]] {
    state.layout.sections.indices.map { s in
        (0..<state.layout.sections[s].rows.count).map { r in Int(state.layout.height(of: RowPath(s, r)).raw - 64) }
    }
}

private func paths(of ids: Set<Int>, in lists: [[Int]]) -> [RowPath] {
    var out: [RowPath] = []
    for (s, section) in lists.enumerated() {
        for (r, id) in section.enumerated() where ids.contains(id) { out.append(RowPath(s, r)) }
    }
    return out
}

private func path(of id: Int, in lists: [[Int]]) -> RowPath? { paths(of: [id], in: lists).first }

/// Applies the update computed from `old` to `new` through the engine, with `selected`
/// selected, the option view open on `open` and the editor below `editor`, and checks
/// that rows, selection, option view and editor follow their identities.
private func check(_ old: [[Int]], _ new: [[Int]], selected: Set<Int> = [], open: Int? = nil, editor: Int? = nil,
                   comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
    var state = try table(old)
    if !selected.isEmpty { try state.apply(.select(rows: paths(of: selected, in: old))) }
    if let open, let p = path(of: open, in: old) { try state.apply(.setOptionVisible(row: p, visible: true)) }
    if let editor, let p = path(of: editor, in: old) { try state.apply(.toggleEditor(row: p, options: ["x"], multiple: false, chosen: [])) }
    let update = try BatchUpdate(from: old, to: new, height: height)
    try state.apply(.batch(update))
    #expect(identities(state) == new, comment, sourceLocation: sourceLocation)
    let surviving = selected.filter { path(of: $0, in: new) != nil }
    #expect(state.selection.paths == paths(of: surviving, in: new), comment, sourceLocation: sourceLocation)
    if let open { #expect(state.options.open == path(of: open, in: new), comment, sourceLocation: sourceLocation) }
    if let editor { #expect(state.layout.editorRow == path(of: editor, in: new), comment, sourceLocation: sourceLocation) }
}

@Suite("Edits from identifiers")
struct IdentifierDiffTests {
    // The classic cases of list-diffing test suites (IGListKit's IGListDiff, DifferenceKit),
    // written again for index paths and the engine.

    @Test("empty to empty, and equal lists, change nothing")
    func noChanges() throws {
        #expect(try BatchUpdate(from: [[Int]](), to: []) == BatchUpdate())
        #expect(try BatchUpdate(from: [[1, 2, 3], []], to: [[1, 2, 3], []]) == BatchUpdate())
    }

    @Test("from empty every row is inserted; to empty every row is deleted")
    func allInsertedOrDeleted() throws {
        #expect(try BatchUpdate(from: [[]], to: [[1, 2]]) == BatchUpdate(inserts: [p(0, 0), p(0, 1)]))
        #expect(try BatchUpdate(from: [[1, 2]], to: [[]]) == BatchUpdate(deletes: [p(0, 0), p(0, 1)]))
        try check([[]], [[1, 2]])
        try check([[1, 2]], [[]], selected: [1])
    }

    @Test("swapping two rows is one move, and the selection goes with them")
    func swap() throws {
        let u = try BatchUpdate(from: [[1, 2]], to: [[2, 1]])
        #expect(u.moves.count == 1 && u.deletes.isEmpty && u.inserts.isEmpty)
        try check([[1, 2]], [[2, 1]], selected: [1], open: 2)
    }

    @Test("moving the last row to the front moves only that row")
    func rotate() throws {
        let u = try BatchUpdate(from: [[1, 2, 3, 4]], to: [[4, 1, 2, 3]])
        #expect(u.moves == [BatchUpdate.Move(from: p(0, 3), to: p(0, 0))])
        try check([[1, 2, 3, 4]], [[4, 1, 2, 3]], selected: [4, 2], editor: 4)
    }

    @Test("reversing a list: all but one row move, and every identity lands in place")
    func reverse() throws {
        let old = [Array(0..<10)]
        let new = [Array((0..<10).reversed())]
        #expect(try BatchUpdate(from: old, to: new).moves.count == 9)
        try check(old, new, selected: [0, 3, 9], open: 5, editor: 7)
    }

    @Test("deletes, inserts and moves at once (the words of Heckel's paper, made unique)")
    func mixed() throws {
        let words = ["much", "writing", "is", "like", "snow", "a", "mass", "of", "long", "words"]
        let later = ["a", "mass", "of", "writing", "is", "like", "snow", "falling", "fast"]
        let ids: [String: Int] = Dictionary(uniqueKeysWithValues: Set(words + later).sorted().enumerated().map { ($1, $0) })
        let old = [words.map { ids[$0]! }], new = [later.map { ids[$0]! }]
        let u = try BatchUpdate(from: old, to: new)
        #expect(u.deletes == [p(0, 0), p(0, 8), p(0, 9)])       // much, long, words
        #expect(u.inserts == [p(0, 7), p(0, 8)])                 // falling, fast
        #expect(u.moves.count == 3)                              // writing is like snow stays; a mass of moves… or the reverse
        try check(old, new, selected: Set([ids["writing"]!, ids["long"]!, ids["a"]!]), open: ids["snow"]!)
    }

    @Test("a row moves from one section to another with its selection and option view")
    func crossSection() throws {
        let old = [[1, 2, 3], [4, 5]], new = [[1, 3], [4, 2, 5]]
        #expect(try BatchUpdate(from: old, to: new).moves == [BatchUpdate.Move(from: p(0, 1), to: p(1, 1))])
        try check(old, new, selected: [2, 5], open: 2)
        try check(old, new, editor: 2)
    }

    @Test("a reloaded row is reloaded in place (and deselected); one that also moves is deleted and inserted")
    func reloads() throws {
        let u = try BatchUpdate(from: [[1, 2, 3]], to: [[1, 2, 3]], reloading: [2, 9], height: height)
        #expect(u == BatchUpdate(reloads: [p(0, 1)], reloadHeights: [height(2)]))
        let v = try BatchUpdate(from: [[1, 2, 3]], to: [[3, 1, 2]], reloading: [3])
        #expect(v.deletes == [p(0, 2)] && v.inserts == [p(0, 0)] && v.moves.isEmpty)
        var state = try table([[1, 2, 3]])
        try state.apply(.select(rows: [p(0, 1), p(0, 2)]))
        try state.apply(.batch(u))
        #expect(state.selection.paths == [p(0, 2)])
        #expect(identities(state) == [[1, 2, 3]])
    }

    @Test("a duplicate identifier is rejected, naming the list, the identifier and both index paths")
    func duplicates() throws {
        do {
            _ = try BatchUpdate(from: [[1, 2], [3, 2]], to: [[1], []])
            Issue.record("a duplicate was accepted")
        } catch {
            #expect(error.reason == .duplicateInOld)
            #expect(error.first == p(0, 1) && error.second == p(1, 1))
            #expect(error.description == "old lists: identifier \"2\" appears twice, at [0, 1] and [1, 1]; identifiers must be unique across all sections")
        }
        #expect(throws: IdentifierDiffError.self) { try BatchUpdate(from: [["a"]], to: [["b", "b"]]) }
        do {
            _ = try BatchUpdate(from: [[1]], to: [[1], []])
            Issue.record("a change of section count was accepted")
        } catch {
            #expect(error.reason == .sectionCountChanged)
            #expect(error.sectionCounts! == (1, 2))
        }
    }

    @Test("random pairs of lists: the engine ends with the new order, and selected identities stay selected",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomPairs(seed: UInt64) throws {
        var g = SplitMix64(seed: seed)
        for round in 0..<60 {
            let sections = Int.random(in: 1...3, using: &g)
            let pool = Array(0..<40).shuffled(using: &g)
            let oldIDs = pool.prefix(Int.random(in: 0...30, using: &g))
            let newIDs = (pool.filter { id in oldIDs.contains(id) ? Int.random(in: 0..<4, using: &g) > 0 : Int.random(in: 0..<3, using: &g) == 0 }).shuffled(using: &g)
            func split(_ ids: some Collection<Int>) -> [[Int]] {
                var lists = [[Int]](repeating: [], count: sections)
                for id in ids { lists[Int.random(in: 0..<sections, using: &g)].append(id) }
                return lists
            }
            let old = split(oldIDs), new = split(newIDs)
            let selected = Set(oldIDs.filter { _ in Bool.random(using: &g) })
            let open = oldIDs.randomElement(using: &g)
            let editor = oldIDs.randomElement(using: &g)
            try check(old, new, selected: selected, open: open, editor: editor,
                      comment: "seed \(seed) round \(round): \(old) -> \(new)")
        }
    }

    @Test("the longest increasing run is longest and increasing (against brute force)")
    func longestRun() {
        var g = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 0...9, using: &g)).map { _ in Int.random(in: 0..<12, using: &g) }
            let run = BatchUpdate.longestIncreasingRun(values)
            #expect(zip(run, run.dropFirst()).allSatisfy { $0 < $1 && values[$0] < values[$1] })
            var best = 0
            for mask in 0..<(1 << values.count) {
                let picked = values.indices.filter { mask & (1 << $0) != 0 }.map { values[$0] }
                if zip(picked, picked.dropFirst()).allSatisfy({ $0 < $1 }) { best = max(best, picked.count) }
            }
            #expect(run.count == best, "\(values)")
        }
    }
}
