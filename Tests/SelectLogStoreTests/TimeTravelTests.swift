import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// A naive reference for "who last changed this row?": every row gets an id that follows
/// it through edits in plain arrays, and each event's change is found by comparing the
/// sets of selected ids before and after it.
private struct Reference {
    var ids: [[Int]] = []
    var next = 0
    var lastChange: [Int: Int] = [:]
    var born: [Int: Int] = [:]
    /// Where each row was right after the event that last changed (or created) it.
    var pathThen: [Int: RowPath] = [:]
    /// The ids selected after the last step, when it found them.
    var selectedAfterLast: Set<Int>?

    mutating func remember(_ wanted: Set<Int>) {
        guard !wanted.isEmpty else { return }
        for (s, rows) in ids.enumerated() {
            for (r, id) in rows.enumerated() where wanted.contains(id) { pathThen[id] = RowPath(s, r) }
        }
    }

    mutating func fresh(_ n: Int, _ i: Int) -> [Int] {
        (0..<n).map { _ in
            next += 1
            born[next] = i
            return next
        }
    }

    func selectedIDs(_ state: TableState) -> Set<Int> {
        Set(state.selection.paths.map { ids[$0.section][$0.row] })
    }

    mutating func step(_ i: Int, _ event: Event, before: TableState, after: TableState) {
        // The ids selected before this event are those the last step found after its own.
        let wasSelected = selectedAfterLast ?? selectedIDs(before)
        selectedAfterLast = nil
        if case .reload = event {
            ids = (0..<after.layout.sectionCount).map { fresh(after.layout.rowCount(in: $0), i) }
            remember(Set(ids.joined()))
            return
        }
        // Ids are handed out in order, so the rows this event created are those after `first`.
        let first = next
        switch event {
        case .insertSections(let at, let specs):
            for (k, spec) in zip(at, specs).sorted(by: { $0.0 < $1.0 }) { ids.insert(fresh(spec.rows, i), at: k) }
        case .deleteSections(let at):
            for k in at.sorted(by: >) { ids.remove(at: k) }
        default:
            if let ops = event.rowOperations {
                var carried: [Int: Int] = [:]
                for op in ops {
                    switch op {
                    case let .remove(p, move):
                        let id = ids[p.section].remove(at: p.row)
                        if let move { carried[move] = id }
                    case let .insert(p, .move(m)):
                        ids[p.section].insert(carried[m] ?? -1, at: p.row)
                    case let .insert(p, .new):
                        ids[p.section].insert(fresh(1, i)[0], at: p.row)
                    default: break
                    }
                }
            }
        }
        let nowSelected = selectedIDs(after)
        selectedAfterLast = nowSelected
        var touched = Set(first < next ? Array(first + 1...next) : [])
        let changed = wasSelected.symmetricDifference(nowSelected)
        if !changed.isEmpty {
            let alive = Set(ids.joined())
            for id in changed where alive.contains(id) {
                lastChange[id] = i
                touched.insert(id)
            }
        }
        remember(touched)
    }

    func expected(_ row: RowPath) -> RowHistory.Kind {
        lastChange[ids[row.section][row.row]] != nil ? .changed : .inserted
    }
}

/// A script's events, recorded to a log at `path` in small batches.
private func scriptLog(_ script: String, at path: String, checkpointInterval: Int) throws -> ([TimedEvent], LogReader) {
    let events = try Script(bytes: Array(script.utf8)).events
    try writeLog(events, to: path, options: smallBatches(checkpointInterval: checkpointInterval))
    return (events, try LogReader(path: path))
}

@Suite("Time travel")
struct TimeTravelTests {
    @Test("lastChange agrees with a naive id-tracking reference, across checkpoint windows", arguments: [21, 22, 23])
    func whyAgreesWithReference(seed: UInt64) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: seed, count: 4000))
        let path = dir.appendingPathComponent("w.slog").path
        try writeLog(events, to: path, options: smallBatches(checkpointInterval: 97))
        let log = try LogReader(path: path)
        var rng = SeededRandom(seed: seed)
        let probes = Set((0..<6).map { _ in Int.random(in: 200...events.count, using: &rng) })
        var reference = Reference()
        var state = TableState()
        var checked = 0
        for (i, e) in events.enumerated() {
            let before = state
            try state.apply(e)
            reference.step(i, e.event, before: before, after: state)
            guard probes.contains(i + 1) else { continue }
            let n = i + 1
            for _ in 0..<8 {
                let s = Int.random(in: 0..<state.layout.sectionCount, using: &rng)
                guard state.layout.rowCount(in: s) > 0 else { continue }
                let row = RowPath(s, Int.random(in: 0..<state.layout.rowCount(in: s), using: &rng))
                let id = reference.ids[row.section][row.row]
                let history = try log.lastChange(of: row, at: n)
                #expect(history.kind == reference.expected(row), "seed \(seed) n \(n) row \(row)")
                #expect(history.event == (reference.lastChange[id] ?? reference.born[id]), "seed \(seed) n \(n) row \(row)")
                #expect(history.pathThen == reference.pathThen[id], "seed \(seed) n \(n) row \(row)")
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test("a gesture the log ends in is unfinished: a pan, a swipe, not one ended by the last event nor one the walk did not reach the end of",
          arguments: [1, 3])
    func unfinishedGestures(checkpointInterval: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let setUp = """
            {"type": "configure", "allowsMultipleSelection": true, "optionWidth": 80, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 30, "rowHeight": 50}]}
            """
        let pan = "\n{\"type\": \"panBegan\", \"x\": 10, \"y\": 175}\n{\"type\": \"panMoved\", \"x\": 10, \"y\": 275}\n{\"type\": \"panMoved\", \"x\": 10, \"y\": 375}"
        let swipe = "\n{\"type\": \"swipeBegan\", \"row\": [0, 20]}\n{\"type\": \"swipeMoved\", \"offset\": 30}"
        let cases: [(String, Int, LoggedGesture)] = [
            (setUp + pan, 4, LoggedGesture(kind: "strip pan", events: 3...5, isUnfinished: true)),
            (setUp + pan + "\n{\"type\": \"panEnded\"}", 4, LoggedGesture(kind: "strip pan", events: 3...6)),
            (setUp + swipe, 3, LoggedGesture(kind: "swipe", events: 3...4, isUnfinished: true)),
            (setUp + swipe + "\n{\"type\": \"swipeEnded\", \"velocity\": 0}", 4, LoggedGesture(kind: "swipe", events: 3...5)),
            // A swipe ended and a pan begun after it: the swipe is finished, the pan not.
            (setUp + swipe + "\n{\"type\": \"swipeEnded\", \"velocity\": 0}" + pan, 3, LoggedGesture(kind: "swipe", events: 3...5)),
            (setUp + swipe + "\n{\"type\": \"swipeEnded\", \"velocity\": 0}" + pan, 7, LoggedGesture(kind: "strip pan", events: 6...8, isUnfinished: true)),
        ]
        for (k, (script, index, expected)) in cases.enumerated() {
            let (_, log) = try scriptLog(script, at: dir.appendingPathComponent("u\(k).slog").path, checkpointInterval: checkpointInterval)
            #expect(try log.gesture(containing: index) == expected, "case \(k)")
        }
        #expect(LoggedGesture(kind: "strip pan", events: 3...5, isUnfinished: true).description == "strip pan, events 4 to 6, unfinished when the log ends")
    }

    @Test("why: taps, pans, undo, and an edit that moved the row")
    func whyKinds() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = """
            {"type": "configure", "allowsMultipleSelection": true, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 30, "rowHeight": 50}]}
            {"type": "tap", "x": 200, "y": 75}
            {"type": "panBegan", "x": 10, "y": 175}
            {"type": "panMoved", "x": 10, "y": 275}
            {"type": "panMoved", "x": 10, "y": 375}
            {"type": "panEnded"}
            {"type": "tap", "x": 200, "y": 475}
            {"type": "undo"}
            {"type": "moveRow", "from": [0, 1], "to": [0, 20]}
            {"type": "insertRows", "at": [[0, 0]]}
            """
        let (events, log) = try scriptLog(script, at: dir.appendingPathComponent("k.slog").path, checkpointInterval: 4)
        // Row 1 was tapped (event 3), then moved to 20, then shifted to 21 by the insert.
        let tapped = try log.lastChange(of: RowPath(0, 21), at: events.count)
        #expect(tapped == RowHistory(kind: .changed, event: 3, pathThen: RowPath(0, 1)))
        #expect(try log.gesture(containing: 3) == LoggedGesture(kind: "tap", events: 3...3))
        // Row 5 was selected by the pan's move at event 5 (rows 3-5); now row 5 after the move and insert.
        let panned = try log.lastChange(of: RowPath(0, 5), at: events.count)
        #expect(panned.kind == .changed && panned.event == 5)
        #expect(try log.gesture(containing: 5) == LoggedGesture(kind: "strip pan", events: 4...7))
        // Described with events numbered from 1, as the command line numbers them.
        #expect("\(tapped)" == "last changed by event 4 (the row was [0, 1] then)")
        #expect("\(try log.gesture(containing: 3))" == "tap, event 4")
        #expect("\(try log.gesture(containing: 5))" == "strip pan, events 5 to 8")
        // Row 9 was tapped at event 8 and the tap undone at event 9: now row 9 (after moving row 1 away and inserting at 0).
        let undone = try log.lastChange(of: RowPath(0, 9), at: events.count)
        #expect(undone.kind == .changed && undone.event == 9)
        #expect(try log.state(at: events.count).selection.contains(RowPath(0, 9)) == false)
        // The inserted row.
        #expect(try log.lastChange(of: RowPath(0, 0), at: events.count) == RowHistory(kind: .inserted, event: 11, pathThen: RowPath(0, 0)))
        // A row never touched since the reload.
        #expect(try log.lastChange(of: RowPath(0, 29), at: events.count).kind == .inserted)
        #expect(throws: LogError.self) { try log.lastChange(of: RowPath(0, 31), at: events.count) }
        // Event indices out of range name the index asked for and the ones there are.
        for index in [-1, events.count] {
            let error = #expect(throws: LogError.self) { try log.gesture(containing: index) }
            #expect(error?.code == .outOfRange)
            #expect(error?.message == "no event at index \(index): the log has 12 events (indices 0 to 11)", "\(error?.message ?? "")")
        }
    }

    @Test("a drag scroll inside an open swipe is a gesture of its own, and the swipe goes on to its end around it",
          arguments: [1, 4])
    func panInsideSwipe(checkpointInterval: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = """
            {"type": "configure", "optionWidth": 80}
            {"type": "viewport", "width": 390, "height": 600}
            {"type": "reload", "sections": [{"rows": 40, "rowHeight": 50}]}
            {"type": "swipeBegan", "row": [0, 3], "t": 0}
            {"type": "swipeMoved", "offset": 30, "t": 16}
            {"type": "panBegan", "x": 200, "y": 300, "t": 100}
            {"type": "panMoved", "x": 200, "y": 200, "t": 116}
            {"type": "panEnded", "t": 132}
            {"type": "swipeMoved", "offset": 60, "t": 200}
            {"type": "swipeEnded", "velocity": 0, "t": 216}
            {"type": "tap", "x": 200, "y": 475, "t": 300}
            """
        let (_, log) = try scriptLog(script, at: dir.appendingPathComponent("s.slog").path, checkpointInterval: checkpointInterval)
        let swipe = LoggedGesture(kind: "swipe", events: 3...9), drag = LoggedGesture(kind: "drag scroll", events: 5...7)
        for (index, expected) in [(3, swipe), (4, swipe), (5, drag), (6, drag), (7, drag), (8, swipe), (9, swipe)] {
            #expect(try log.gesture(containing: index) == expected, "event index \(index)")
        }
        #expect(try log.gesture(containing: 10) == LoggedGesture(kind: "tap", events: 10...10))
        // A slice starting inside the drag scroll starts where the swipe began.
        #expect(try log.gestureBoundary(atOrBefore: 6) == 3)
    }

    @Test("why: a row moved into a new section, then a row deleted above it, still has its path then")
    func whyThroughNewSection() throws {
        // Before the fix, the path-then walk left a new section's rows untracked: deleting
        // one of them above the moved row dropped the moved row instead, and `--why` lost
        // where the row was when it was selected (and `--history` lost the whole history).
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = """
            {"type": "reload", "sections": [{"rows": 3}]}
            {"type": "select", "rows": [[0, 0]]}
            {"type": "insertSections", "at": [1], "sections": [{"rows": 3}]}
            {"type": "moveRow", "from": [0, 0], "to": [1, 3]}
            {"type": "deleteRows", "at": [[1, 0]]}
            """
        let (events, log) = try scriptLog(script, at: dir.appendingPathComponent("s.slog").path, checkpointInterval: 0)
        let state = try log.state(at: events.count)
        #expect(state.selection == RowSet([RowPath(1, 2)]))
        #expect(try log.lastChange(of: RowPath(1, 2), at: events.count) == RowHistory(kind: .changed, event: 1, pathThen: RowPath(0, 0)))
        #expect(try log.selectionHistory(of: RowPath(1, 2), at: events.count) == [
            SelectionChange(event: 0, path: RowPath(0, 0), selected: false, kind: .inserted),
            SelectionChange(event: 1, path: RowPath(0, 0), selected: true, kind: .changed),
        ])
        #expect(try log.selectionHistory(of: RowPath(1, 2), at: events.count).map(\.description)
                == ["event 1: [0, 0] deselected (created)", "event 2: [0, 0] selected"])
        #expect("\(RowHistory(kind: .untouched, event: nil, pathThen: nil))" == "no event changed its selection")
        #expect("\(RowHistory(kind: .inserted, event: 2, pathThen: RowPath(1, 2)))" == "created by event 3 (the row was [1, 2] then)")
        // The new section's surviving rows were created by the insertSections.
        #expect(try log.lastChange(of: RowPath(1, 1), at: events.count) == RowHistory(kind: .inserted, event: 2, pathThen: RowPath(1, 2)))
    }

    @Test("state(at:) equals a full replay of the first N events, without checkpoints too")
    func stateAtWithoutCheckpoints() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 31, count: 1500))
        let path = dir.appendingPathComponent("n.slog").path
        try writeLog(events, to: path, options: smallBatches(checkpointInterval: 0))
        let log = try LogReader(path: path)
        #expect(!log.records.contains { $0.header.kind == .checkpoint })
        var rng = SeededRandom(seed: 31)
        for _ in 0..<10 {
            let n = Int.random(in: 0...events.count, using: &rng)
            #expect(try log.state(at: n) == replayed(Array(events.prefix(n))), "n = \(n)")
        }
    }

    @Test("a cursor steps by event and by undo step, both ways")
    func cursor() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 41, count: 3000))
        let path = dir.appendingPathComponent("c.slog").path
        try writeLog(events, to: path, options: smallBatches(checkpointInterval: 200))
        let log = try LogReader(path: path)
        // The events that recorded an undo step, found by replaying.
        var state = TableState()
        var stepEvents: [Int] = []
        for (i, e) in events.enumerated() {
            let before = state.stepsRecorded
            try state.apply(e)
            if state.stepsRecorded > before { stepEvents.append(i) }
        }
        #expect(stepEvents.count > 5)
        let cursor = try LogCursor(log, at: 0)
        for expected in stepEvents.prefix(5) {
            #expect(try cursor.stepToNextUndoStep())
            #expect(cursor.position == expected + 1)
            let expectedState = try log.state(at: expected + 1)
            #expect(cursor.state == expectedState)
        }
        try cursor.move(to: 2999)
        for expected in stepEvents.reversed().prefix(5) {
            #expect(try cursor.stepToPreviousUndoStep())
            #expect(cursor.position == expected + 1)
        }
        let p = cursor.position
        #expect(try cursor.stepForward())
        let next = try log.state(at: p + 1)
        #expect(cursor.position == p + 1 && cursor.state == next)
        #expect(try cursor.stepBack())
        let back = try log.state(at: p)
        #expect(cursor.state == back)
        try cursor.move(to: 0)
        #expect(try !cursor.stepBack())
    }
}
