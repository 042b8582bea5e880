import Foundation
import SelectLog
import SelectLogStore
@testable import selectlog
import Testing

/// `selectlog inspect --history S,R`: every change of a row's selection, following the
/// row through edits.
@Suite("selectlog inspect --history")
struct HistoryTests {
    @Test("the debugging example: a row tapped, undone, then moved twice by edits")
    func example() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", dir.appendingPathComponent("d.slog").path]).status == 0)
        let r = try CLI.run(["inspect", dir.appendingPathComponent("d.slog").path, "--history", "0,0"])
        #expect(r.stdout == """
            row [0, 0] after 12 events: 2 changes of its selection
              event       3 t 0 ms  reload: created not selected  as [0, 8]
              event       8 t 2000 ms  tap: not selected -> selected  as [0, 8]
              event       9 t 2500 ms  undo: selected -> not selected  as [0, 8]

            """, "\(r.stdout)")
        let j = try CLI.run(["inspect", dir.appendingPathComponent("d.slog").path, "--history", "0,6", "--json"])
        #expect(j.stdout.contains("{\"event\": 5, \"type\": \"panMoved\", \"t\": 1008, \"path\": [0, 3], \"kind\": \"changed\", \"before\": false, \"after\": true, \"gesture\": {\"kind\": \"strip pan\", \"first\": 4, \"last\": 7, \"unfinished\": false}}"), "\(j.stdout)")
    }

    @Test("a row created and never changed: its creation is not counted as a change, and says so")
    func createdOnly() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.slog").path
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", path]).status == 0)
        // Event 3 reloads the table; the tap on [0, 8] is event 8, so before it nothing changed.
        let r = try CLI.run(["inspect", path, "--history", "0,8", "--at", "5"])
        #expect(r.stdout == """
            row [0, 8] after 5 events: no change of its selection since it was created
              event       3 t 0 ms  reload: created not selected

            """, "\(r.stdout)")
        let why = try CLI.run(["inspect", path, "--why", "contentOffset", "--at", "2"])
        #expect(why.stdout.hasSuffix("  no event changed it: it has had this value since the log's start\n"), "\(why.stdout)")
    }

    @Test("on a long session, every change listed is real and none is missing (rows followed by the engine's own row operations)")
    func synthetic() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "15000", "--seed", "5", "-o", path, "--checkpoint-interval", "1000"]).status == 0)
        let log = try LogReader(path: path)
        let events = try log.events()
        let final = try log.state(at: events.count)
        var rng = SplitMix64(seed: 5)
        let rows = final.selection.paths
        for _ in 0..<3 {
            guard !rows.isEmpty else { break }
            let row = rows[Int.random(in: 0..<rows.count, using: &rng)]
            let history = try log.selectionHistory(of: row, at: events.count)
            // Reference: follow the row forward from its creation through every event's
            // row operations (reloads recreate it), recording each membership change.
            guard let created = history.first, created.kind == .inserted else {
                Issue.record("\(row): no creation found")
                continue
            }
            var state = try log.state(at: created.event + 1)
            var here: RowPath? = created.path
            var was = state.selection.contains(created.path)
            var expected: [Int] = []
            for i in (created.event + 1)..<events.count {
                let changes = try state.apply(events[i])
                guard var p = here else { break }
                if changes.reloaded { here = nil; break }
                if !changes.rowOperations.isEmpty {
                    var set = RowSet([p])
                    set = set.applying(changes.rowOperations)
                    guard let moved = set.first else { here = nil; break }
                    p = moved
                    here = p
                }
                let now = state.selection.contains(p)
                if now != was { expected.append(i) }
                was = now
            }
            #expect(here == row, "the reference followed \(row) to \(String(describing: here))")
            #expect(history.dropFirst().map(\.event) == expected, "\(row)")
            let cli = try CLI.run(["inspect", path, "--history", "\(row.section),\(row.row)", "--json"])
            #expect(cli.stdout.components(separatedBy: "\"kind\": \"changed\"").count - 1 == expected.count)
        }
    }
}

@Suite("inspect --why editor")
struct WhyEditorTests {
    @Test("comparing the editor's fields finds the same last change as comparing its whole value, at every event of a session with editors")
    func probeMatchesValue() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "6000", "--seed", "9", "-o", path, "--checkpoint-interval", "500"]).status == 0)
        let log = try LogReader(path: path)
        let editor = try StateExpectation("editor")
        var changes = 0
        for n in stride(from: 0, through: 6000, by: 97) {
            let byValue = try log.lastChange(at: n, of: { editor.value(in: $0).description })
            let byProbe = try log.lastChange(at: n, of: EditorProbe.init)
            #expect(byProbe == byValue, "n \(n)")
            if byValue != nil { changes += 1 }
        }
        #expect(changes > 10, "the session's editor changed: \(changes)")
    }
}

@Suite("LogCursor snapshots")
struct LogCursorSnapshotTests {
    @Test("a cursor's snapshot crosses a task boundary and is the state at its position")
    func snapshotCrossesTasks() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("d.slog").path
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", path]).status == 0)
        let log = try LogReader(path: path)
        let cursor = try LogCursor(log, at: 4)
        try cursor.stepForward()
        let snapshot = cursor.snapshot
        let seen = await Task.detached { snapshot.state.selection.paths }.value
        #expect(snapshot.position == 5)
        #expect(snapshot.state == (try log.state(at: 5)))
        #expect(seen == [RowPath(0, 2), RowPath(0, 3)])
    }
}
