import Testing
@testable import SelectLog

/// `RowOrigins` (runs of rows with the event that last touched them) against a plain
/// array of origins per section, one entry per row, edited with `Array.insert`/`remove`.
@Suite("Row origins agree with a plain array per section")
struct ModelRowOriginsTests {
    @Test("random removals, insertions, moves, section edits and selection changes", arguments: 0..<2)
    func randomOperations(shard: Int) throws {
        for k in 0..<60 {
            let seed = UInt64(60_000 + shard * 60 + k)
            var rng = SeededRandom(seed: seed)
            let counts = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Int.random(in: 0...40, using: &rng) }
            var state = TableState()
            try state.apply(.reload(sections: counts.map { SectionSpec(rows: $0) }))
            let reloaded = Bool.random(using: &rng)
            var origins = reloaded ? RowOrigins(layout: state.layout, insertedAt: 0) : RowOrigins(layout: state.layout)
            var model: [[RowOrigin]] = counts.enumerated().map { s, n in
                (0..<n).map { reloaded ? .inserted(0) : .existing(RowPath(s, $0)) }
            }
            for index in 1...40 {
                var carried: [Int: RowOrigin] = [:]
                var operations: [RowOperation] = []
                switch Int.random(in: 0..<5, using: &rng) {
                case 0:
                    // Selection changes: a few random rows of random sections.
                    var rows: [RowPath] = []
                    for _ in 0..<Int.random(in: 0...6, using: &rng) {
                        guard let s = model.indices.randomElement(using: &rng), !model[s].isEmpty else { continue }
                        let first = Int.random(in: 0..<model[s].count, using: &rng)
                        for r in first..<min(first + Int.random(in: 1...5, using: &rng), model[s].count) { rows.append(RowPath(s, r)) }
                    }
                    origins.markChanged(RowSet(rows), at: index)
                    for p in rows { model[p.section][p.row] = .changed(index) }
                case 1:
                    // A new section with rows.
                    let i = Int.random(in: 0...model.count, using: &rng)
                    let n = Int.random(in: 0...5, using: &rng)
                    var carry = RowCarry()
                    carry.newSections[i] = LayoutSection(count: n)
                    origins.follow([.insertSection(i)], of: index, carry: &carry)
                    model.insert(Array(repeating: .inserted(index), count: n), at: i)
                case 2 where !model.isEmpty:
                    let i = Int.random(in: 0..<model.count, using: &rng)
                    operations = [.removeSection(i)]
                    model.remove(at: i)
                default:
                    // Removals (some carried as moves), then insertions (some of the carried rows).
                    var moves = 0
                    for _ in 0..<Int.random(in: 0...3, using: &rng) {
                        guard let s = model.indices.randomElement(using: &rng), !model[s].isEmpty else { continue }
                        let r = Int.random(in: 0..<model[s].count, using: &rng)
                        let move: Int? = Bool.random(using: &rng) ? moves : nil
                        operations.append(.remove(RowPath(s, r), move: move))
                        let origin = model[s].remove(at: r)
                        if let move {
                            carried[move] = origin
                            moves += 1
                        }
                    }
                    var pending = Array(0..<moves)
                    for n in 0..<Int.random(in: 0...3, using: &rng) + moves {
                        guard let s = model.indices.randomElement(using: &rng) else { continue }
                        let r = Int.random(in: 0...model[s].count, using: &rng)
                        if let m = pending.popLast() {
                            operations.append(.insert(RowPath(s, r), source: .move(m)))
                            model[s].insert(carried[m] ?? .inserted(index), at: r)
                        } else {
                            operations.append(.insert(RowPath(s, r), source: .new(n)))
                            model[s].insert(.inserted(index), at: r)
                        }
                    }
                }
                var carry = RowCarry()
                if !operations.isEmpty { origins.follow(operations, of: index, carry: &carry) }
                if Int.random(in: 0..<8, using: &rng) == 0 {
                    // Operations naming a section past the end are ignored, never a trap.
                    let past = model.count
                    origins.follow([.removeSection(past), .remove(RowPath(past, 0), move: nil), .insert(RowPath(past, 0), source: .new(0))],
                                   of: index, carry: &carry)
                    origins.markChanged(RowSet([RowPath(past, 0), RowPath(past + 1, 2)]), at: index)
                }
                for (s, rows) in model.enumerated() {
                    for (r, expected) in rows.enumerated() {
                        let actual = origins.origin(of: RowPath(s, r))
                        #expect(actual == expected, "seed \(seed) step \(index): row [\(s), \(r)] after \(operations)")
                        if actual != expected { return }
                    }
                    #expect(origins.origin(of: RowPath(s, rows.count)) == nil, "seed \(seed) step \(index): a row past section \(s)")
                }
                #expect(origins.origin(of: RowPath(model.count, 0)) == nil, "seed \(seed) step \(index): a section past the end")
            }
        }
    }
}

extension ModelRowOriginsTests {
    /// The plain array per section, following one operation as its definition says.
    static func follow(_ operation: RowOperation, model: inout [[RowOrigin]], carried: inout [Int: RowOrigin],
                       newSections: [Int: Int], index: Int) {
        switch operation {
        case let .remove(p, move):
            guard p.section < model.count, p.row < model[p.section].count else { return }
            let origin = model[p.section].remove(at: p.row)
            if let move { carried[move] = origin }
        case let .insert(p, source):
            guard p.section < model.count else { return }
            var origin = RowOrigin.inserted(index)
            if case .move(let m) = source, let c = carried[m] { origin = c }
            model[p.section].insert(origin, at: min(p.row, model[p.section].count))
        case .insertSection(let i):
            model.insert(Array(repeating: .inserted(index), count: newSections[i] ?? 0), at: min(i, model.count))
        case .removeSection(let i):
            if i < model.count { model.remove(at: i) }
        }
    }

    @Test("a run of rows takes 24 bytes, and keeps every origin it is given")
    func runLayout() {
        #expect(MemoryLayout<RowOrigins.Run>.stride == 24)
        for value in [RowOrigins.Value.changed(Int.max), .inserted(0), .existing(section: (1 << 30) - 1, firstRow: (1 << 30) - 1),
                      .existing(section: 0, firstRow: 0), .changed(12_345_678_901)] {
            var run = RowOrigins.Run(start: (1 << 30) - 2, count: 1 << 29, value: value)
            #expect(run.value == value && run.start == (1 << 30) - 2 && run.count == 1 << 29)
            run.start += 1
            run.value = .inserted(7)
            #expect(run.value == .inserted(7) && run.start == (1 << 30) - 1)
        }
    }

    @Test("batches of many deletes, inserts and moves, and many sections at once, give the origins of one operation at a time",
          arguments: 0..<2)
    func largeBatches(shard: Int) {
        var followedAsRuns = 0
        defer { #expect(followedAsRuns > 25 * 12 / 2, "only \(followedAsRuns) edits had runs to follow at once") }
        for k in 0..<25 {
            let seed = UInt64(61_000 + shard * 25 + k)
            var rng = SeededRandom(seed: seed)
            let counts = (0..<Int.random(in: 1...4, using: &rng)).map { _ in Int.random(in: 0...300, using: &rng) }
            var model: [[RowOrigin]] = counts.enumerated().map { s, n in (0..<n).map { .existing(RowPath(s, $0)) } }
            var origins = RowOrigins(layout: TableLayout(sections: counts.map { LayoutSection(count: $0) }))
            for index in 1...12 {
                var operations: [RowOperation]
                var newSections: [Int: Int] = [:]
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    // Several sections removed, or several inserted, in one event.
                    let n = Int.random(in: 2...6, using: &rng)
                    if Bool.random(using: &rng), model.count > n {
                        operations = (0..<model.count).shuffled(using: &rng).prefix(n).sorted(by: >).map { .removeSection($0) }
                    } else {
                        let at = (0..<model.count + n).shuffled(using: &rng).prefix(n).sorted()
                        for i in at { newSections[i] = Int.random(in: 0...20, using: &rng) }
                        operations = at.map { .insertSection($0) }
                    }
                } else {
                    // Selection changes first, so that runs hold `changed` and `existing` rows.
                    for _ in 0..<Int.random(in: 0...8, using: &rng) {
                        guard let s = model.indices.randomElement(using: &rng), !model[s].isEmpty else { continue }
                        let first = Int.random(in: 0..<model[s].count, using: &rng)
                        let rows = first..<min(first + Int.random(in: 1...30, using: &rng), model[s].count)
                        origins.markChanged(RowSet(rows.map { RowPath(s, $0) }), at: index)
                        for r in rows { model[s][r] = .changed(index) }
                    }
                    let paths = model.enumerated().flatMap { s, rows in rows.indices.map { RowPath(s, $0) } }.shuffled(using: &rng)
                    let deletes = Array(paths.prefix(Int.random(in: 0...min(150, paths.count), using: &rng)))
                    let sources = Array(paths.dropFirst(deletes.count).prefix(Int.random(in: 0...2, using: &rng)))
                    var after = model.map(\.count)
                    for p in deletes + sources { after[p.section] -= 1 }
                    let inserts = Int.random(in: 0...150, using: &rng)
                    let sections = model.isEmpty ? [] : (0..<inserts + sources.count).map { _ in Int.random(in: 0..<model.count, using: &rng) }
                    for s in sections { after[s] += 1 }
                    var free = after.map { Array(0..<$0).shuffled(using: &rng) }
                    let targets = sections.map { s in RowPath(s, free[s].popLast() ?? 0) }
                    operations = BatchUpdate(deletes: deletes, inserts: Array(targets.prefix(inserts)),
                                             moves: zip(sources, targets.dropFirst(inserts)).map { .init(from: $0, to: $1) }).operations
                }
                var carry = RowCarry()
                for (i, n) in newSections { carry.newSections[i] = LayoutSection(count: n) }
                origins.follow(operations, of: index, carry: &carry)
                var carried: [Int: RowOrigin] = [:]
                for operation in operations {
                    Self.follow(operation, model: &model, carried: &carried, newSections: newSections, index: index)
                }
                if OperationRun.split(operations).contains(where: { $0.run != nil }) { followedAsRuns += 1 }
                for (s, rows) in model.enumerated() {
                    for (r, expected) in rows.enumerated() where origins.origin(of: RowPath(s, r)) != expected {
                        Issue.record("seed \(seed) step \(index): row [\(s), \(r)] is \(String(describing: origins.origin(of: RowPath(s, r)))), one at a time \(expected)")
                        return
                    }
                    #expect(origins.origin(of: RowPath(s, rows.count)) == nil, "seed \(seed) step \(index): a row past section \(s)")
                }
                #expect(origins.origin(of: RowPath(model.count, 0)) == nil, "seed \(seed) step \(index): a section past the end")
            }
        }
    }
}

/// `RowOrigins` following whole events, as `inspect --why` does, against the naive model
/// of `ModelTable`: rows are flat arrays of identities that each edit rebuilds by UIKit's
/// rules (survivors in order, targets at their post-update indices), with a `Bool` for the
/// selection. Per identity the model knows where it was when the window began, the event
/// that created it, and the event that last changed its selection; after every event
/// RowOrigins must give exactly that answer for every row.
@Suite("Row origins follow events like the naive model")
struct RowOriginsEventTests {
    /// The model's answer for one row identity.
    struct Expected {
        /// With the selection followed (`lastChange`).
        var origin: RowOrigin
        /// With rows only (the path-then walk).
        var placed: RowOrigin
    }

    @Test("random row and section edits, selection changes and other events", arguments: 0..<4)
    func randomEdits(shard: Int) throws {
        var edits = 0
        for k in 0..<30 {
            let seed = UInt64(70_000 + shard * 30 + k)
            if let problem = try Self.firstDisagreement(seed: seed, events: 120, edits: &edits) {
                Issue.record("\(problem)")
                return
            }
        }
        // Most generated edits are valid, so the rows really went through edits.
        #expect(edits > 30 * 120 / 2, "only \(edits) accepted row and section edits")
    }

    /// Runs one seeded sequence, counting the accepted row and section edits; returns the
    /// first disagreement, described for a human, or nil.
    static func firstDisagreement(seed: UInt64, events: Int, edits: inout Int) throws -> String? {
        var rng = SeededRandom(seed: seed)
        var others = ModelEvents(rng: SeededRandom(seed: seed ^ 0x5EED), v2: true, maxRows: 8)
        var engine = TableState()
        var model = ModelTable()
        for e in others.setUp() {
            try engine.apply(e)
            try model.apply(TimedEvent(e))
        }
        var origins = RowOrigins(layout: engine.layout)
        var placed = RowOrigins(layout: engine.layout)
        var expected: [Int: Expected] = [:]
        for (s, section) in model.sections.enumerated() {
            for (r, row) in section.rows.enumerated() { expected[row.id] = Expected(origin: .existing(RowPath(s, r)), placed: .existing(RowPath(s, r))) }
        }
        var script: [String] = []
        for index in 1...events {
            let timed = Int.random(in: 0..<10, using: &rng) < 8 ? TimedEvent(edit(model, &rng)) : others.next(model)
            let event = timed.event
            script.append(EventEncoder.line(timed))
            let before = engine.selection
            let selectedBefore = Set(model.sections.flatMap(\.rows).filter(\.selected).map(\.id))
            var engineError: String?
            var modelError: String?
            do { try engine.apply(timed) } catch { engineError = "\(error)" }
            do { try model.apply(timed) } catch { modelError = "\(error)" }
            let context = { "seed \(seed) event \(index); the events so far:\n" + script.joined(separator: "\n") }
            if (engineError == nil) != (modelError == nil) {
                return "\(context())\nengine: \(engineError ?? "accepted"), model: \(modelError ?? "accepted")"
            }
            if engineError != nil { continue }
            if event.isRowEdit { edits += 1 }
            origins.follow(event, at: index, to: engine.layout, selection: (before, engine.selection))
            placed.follow(event, at: index, to: engine.layout)
            var reloaded = false
            if case .reload = event { reloaded = true }
            for row in model.sections.flatMap(\.rows) {
                let changed = row.selected != selectedBefore.contains(row.id)
                guard var e = expected[row.id] else {
                    // A row this event created: a selection it got at once is a change by the event.
                    let origin: RowOrigin = changed && !reloaded ? .changed(index) : .inserted(index)
                    expected[row.id] = Expected(origin: origin, placed: .inserted(index))
                    continue
                }
                if changed {
                    e.origin = .changed(index)
                    expected[row.id] = e
                }
            }
            for (s, section) in model.sections.enumerated() {
                for (r, row) in section.rows.enumerated() {
                    let path = RowPath(s, r)
                    let want = expected[row.id]
                    if origins.origin(of: path) != want?.origin {
                        return "\(context())\nrow \(path): RowOrigins says \(String(describing: origins.origin(of: path))), the model \(String(describing: want?.origin))"
                    }
                    if placed.origin(of: path) != want?.placed {
                        return "\(context())\nrow \(path), rows only: RowOrigins says \(String(describing: placed.origin(of: path))), the model \(String(describing: want?.placed))"
                    }
                }
                if origins.origin(of: RowPath(s, section.rows.count)) != nil { return "\(context())\na row past the end of section \(s)" }
            }
            if origins.origin(of: RowPath(model.sections.count, 0)) != nil { return "\(context())\na section past the end" }
        }
        return nil
    }

    /// A random edit the contract accepts (mostly): batches of deletes, moves, inserts and
    /// reloads with distinct sources and post-update targets in range, several sections
    /// inserted or deleted at once, single moves, selection changes, and now and then a reload.
    static func edit(_ m: ModelTable, _ rng: inout SeededRandom) -> Event {
        let counts = m.sections.map(\.rows.count)
        let paths = counts.enumerated().flatMap { s, n in (0..<n).map { RowPath(s, $0) } }.shuffled(using: &rng)
        func some(_ most: Int) -> Int { Int.random(in: 0...most, using: &rng) }
        func section(_ most: Int) -> SectionSpec { SectionSpec(rows: Int.random(in: 0...most, using: &rng)) }
        switch Int.random(in: 0..<20, using: &rng) {
        case 0..<8 where !counts.isEmpty:
            let deletes = Array(paths.prefix(some(3)))
            let sources = Array(paths.dropFirst(deletes.count).prefix(some(3)))
            let reloads = Array(paths.dropFirst(deletes.count + sources.count).prefix(some(1)))
            let inserts = some(3)
            var after = counts
            for p in deletes + sources { after[p.section] -= 1 }
            let sections = (0..<inserts + sources.count).map { _ in Int.random(in: 0..<counts.count, using: &rng) }
            for s in sections { after[s] += 1 }
            var free = after.map { Array(0..<$0).shuffled(using: &rng) }
            let targets = sections.map { s in RowPath(s, free[s].popLast() ?? 0) }
            return .batch(BatchUpdate(deletes: deletes, inserts: Array(targets.prefix(inserts)),
                                      moves: zip(sources, targets.dropFirst(inserts)).map { .init(from: $0, to: $1) }, reloads: reloads))
        case 8..<10 where !paths.isEmpty:
            let from = paths[0]
            let s = Int.random(in: 0..<counts.count, using: &rng)
            return .moveRow(from: from, to: RowPath(s, some(counts[s] - (from.section == s ? 1 : 0))))
        case 10..<12:
            let n = some(2) + 1
            let at = Array((0..<counts.count + n).shuffled(using: &rng).prefix(n))
            return .insertSections(at: at, sections: at.map { _ in section(5) })
        case 12 where !counts.isEmpty:
            return .deleteSections(at: Array((0..<counts.count).shuffled(using: &rng).prefix(some(min(2, counts.count - 1)) + 1)))
        case 13..<16: return .select(rows: Array(paths.prefix(some(4))))
        case 16: return .deselect(rows: Array(paths.prefix(some(4))))
        case 17: return Bool.random(using: &rng) ? .selectAll : .deselectAll
        case 18: return .reloadRows(at: Array(paths.prefix(some(2) + 1)), heights: nil)
        default: return .reload(sections: (0..<some(2) + 1).map { _ in section(6) })
        }
    }
}
