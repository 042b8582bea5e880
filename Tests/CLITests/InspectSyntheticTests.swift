import Foundation
import SelectLog
import SelectLogStore
import Testing

/// Every inspect view on a synthetic session, checked against the library and `replay`.
@Suite("selectlog inspect on a synthetic session")
struct InspectSyntheticTests {
    func makeLog(_ dir: URL) throws -> String {
        let path = dir.appendingPathComponent("synthetic.slog").path
        let r = try CLI.run(["synthesize", "--events", "20000", "--seed", "7", "-o", path, "--checkpoint-interval", "1000"])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    @Test("summary counts match the log's events")
    func summary() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try makeLog(dir)
        let events = Array(SyntheticSession(seed: 7, count: 20000))
        let r = try CLI.run(["inspect", path, "--json"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"events\": 20000,"))
        #expect(r.stdout.contains("\"checkpoints\": 20,"))
        #expect(r.stdout.contains("\"pans\": \(events.filter { if case .panBegan = $0.event { true } else { false } }.count),"))
        #expect(r.stdout.contains("\"taps\": \(events.filter { if case .tap = $0.event { true } else { false } }.count),"))
        let moved = events.filter { if case .panMoved = $0.event { true } else { false } }.count
        #expect(r.stdout.contains("\"panMoved\": \(moved)"))
        #expect(r.stdout.contains("\"lastT\": \(events.compactMap(\.t).last?.description ?? "")"))
        let text = try CLI.run(["inspect", path])
        #expect(text.stdout.contains("events      20000,"))
        #expect(text.stdout.contains("20 checkpoints (at multiples of 1000 events), index stored"))
    }

    @Test("--at N is the state of replay --at N; --diff compares exactly those states")
    func atAndDiff() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try makeLog(dir)
        for n in [0, 1, 999, 1000, 12_345, 20000] {
            let at = try CLI.run(["inspect", path, "--at", String(n), "--json"])
            let replay = try CLI.run(["replay", path, "--at", String(n), "--json", "--from-start"])
            #expect(at.stdout == replay.stdout, "n = \(n)")
        }
        let log = try LogReader(path: path)
        let a = try log.state(at: 5000), b = try log.state(at: 15000)
        let diff = try CLI.run(["inspect", path, "--diff", "5000..15000", "--json"])
        // The selection is followed through edits: what was selected at A, less what edits
        // deleted and what was deselected, plus what was added, is what is selected at B.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        let changes = try #require(object["changes"] as? [[String: Any]])
        let selected = try #require(changes.first { $0["field"] as? String == "selected" })
        func rows(_ key: String) -> RowSet {
            var set = RowSet()
            for r in (selected[key] as? [[Int]]) ?? [] { set.insert(r[1]..<(r[2] + 1), in: r[0]) }
            return set
        }
        let added = rows("added"), removed = rows("removed")
        let deleted = try #require(selected["deleted"] as? Int)
        #expect(a.selection.count - deleted - removed.count + added.count == b.selection.count)
        #expect(added.subtracting(b.selection).isEmpty && removed.intersection(b.selection).isEmpty)
        for pair in (selected["moved"] as? [[[Int]]]) ?? [] {
            #expect(a.selection.contains(RowPath(pair[0][0], pair[0][1])) && b.selection.contains(RowPath(pair[1][0], pair[1][1])))
        }
        #expect(diff.stdout.hasPrefix("{\"from\": 5000, \"to\": 15000, \"changes\": ["))
    }

    @Test("--events lists each event with its index and type; --why names a real event")
    func eventsAndWhy() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try makeLog(dir)
        let events = Array(SyntheticSession(seed: 7, count: 20000))
        let r = try CLI.run(["inspect", path, "--events", "10000..10050", "--json"])
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 50)
        for (k, line) in lines.enumerated() {
            #expect(line.hasPrefix("{\"index\": \(10001 + k), "), "events are numbered from 1")
            #expect(line.contains("\"type\": \"\(events[10000 + k].event.typeName)\""))
        }
        let log = try LogReader(path: path)
        let state = try log.state(at: 20000)
        let row = try #require(state.selection.first)
        let why = try CLI.run(["inspect", path, "--why", "\(row.section),\(row.row)", "--json"])
        let history = try log.lastChange(of: row, at: 20000)
        let named = (history.event ?? -2) + 1
        #expect(why.stdout.contains("\"kind\": \"changed\", \"event\": \(named),"))
        // The event --why names is the one --at N shows the state after.
        let then = try #require(history.pathThen)
        #expect(try log.state(at: named).selection.contains(then))
        #expect(try !log.state(at: named - 1).selection.contains(then))
    }
}
