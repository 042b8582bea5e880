import Foundation
import SelectLog
import SelectLogStore
import Testing

/// `selectlog export LOG --from A --to B` on random slices of long sessions: replaying
/// the slice gives the original state after B, and its hash when the set-up carries the
/// undo history (when every step is one event's).
@Suite("selectlog export --from --to")
struct SliceTests {
    /// The state JSON without the fields a slice cannot reproduce: the event count, the
    /// undo and redo counts, and the hash (which covers the undo history).
    static func comparable(_ state: TableState) -> String {
        var text = state.json
        for key in ["\"events\": ", "\"undo\": ", "\"redo\": ", "\"hash\": "] {
            if let r = text.range(of: key), let end = text[r.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) {
                text.removeSubrange(r.lowerBound..<end)
            }
        }
        return text
    }

    @Test("random slices replay to the original state after B", arguments: [("standard", UInt64(7)), ("random walk", 5)])
    func randomSlices(generator: String, seed: UInt64) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.slog").path
        if generator == "standard" {
            #expect(try CLI.run(["synthesize", "--events", "20000", "--seed", String(seed), "-o", path, "--checkpoint-interval", "1000"]).status == 0)
        } else {
            let walk = RandomWalkSession(seed: seed, count: 20_000).map { EventEncoder.line($0) }.joined(separator: "\n") + "\n"
            let script = try CLI.write(walk, to: "walk.jsonl", in: dir)
            #expect(try CLI.run(["record", script, "-o", path, "--checkpoint-interval", "1000"]).status == 0)
        }
        let log = try LogReader(path: path)
        let events = try log.events()
        var rng = SplitMix64(seed: seed)
        var checked = 0
        for _ in 0..<8 {
            let a = Int.random(in: 1...19_000, using: &rng)
            var b = min(a + Int.random(in: 0...800, using: &rng), 20_000)
            // Undo and redo aside: end the slice before its first undo or redo.
            if let u = events[(a - 1)..<b].firstIndex(where: { if case .undo = $0.event { true } else if case .redo = $0.event { true } else { false } }) {
                b = u
            }
            guard b >= a else { continue }
            let r = try CLI.run(["export", path, "--from", String(a), "--to", String(b)])
            #expect(r.status == 0, "\(r.stderr)")
            let script = try Script(bytes: Array(r.stdout.utf8))
            var state = TableState()
            try script.replay(into: &state)
            let start = try log.gestureBoundary(atOrBefore: a - 1)
            #expect(start <= a - 1)
            #expect(try log.state(at: start).pan == nil, "the slice starts at a gesture boundary")
            if start != a - 1 { #expect(r.stderr.contains("the slice starts at event \(start + 1)")) }
            // The slice holds the set-up and events start+1 ... b: a few events for the
            // table, two to clear the set-up's own steps, one for each step of the history
            // (two for a redo step, made and undone) and two for each earlier opening of
            // the editor.
            let before = try log.state(at: start)
            #expect(script.entries.count - (b - start) <= 11 + before.undoCount + 2 * before.redoCount + 2 * before.editorOpenings)
            if !r.stderr.contains("cannot carry") {
                #expect(state.hashValue64 == (try log.state(at: b)).hashValue64, "\(generator) \(seed): \(a)..\(b), history carried")
            }
            #expect(SliceTests.comparable(state) == SliceTests.comparable(try log.state(at: b)), "\(generator) \(seed): \(a)..\(b)")
            checked += 1
        }
        #expect(checked >= 4)
    }

    @Test("a slice whose undo reaches a step from before it, or whose editor opened before, replays to the log's hash (an audit's two scripts)",
          arguments: [
            // The set-up's own select was the step the slice's undo undid: nothing selected.
            """
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 10}]}
            {"type": "tap", "x": 10, "y": 50}
            {"type": "tap", "x": 10, "y": 100}
            {"type": "undo"}
            """,
            // The set-up opened the editor once, where the log opened it three times.
            """
            {"type": "reload", "sections": [{"rows": 10}]}
            {"type": "toggleEditor", "row": [0, 0]}
            {"type": "toggleEditor", "row": [0, 0]}
            {"type": "toggleEditor", "row": [0, 1]}
            {"type": "tick", "t": 5}
            """,
            // Redo steps too, in single selection.
            """
            {"type": "reload", "sections": [{"rows": 10}]}
            {"type": "tap", "x": 10, "y": 50}
            {"type": "tap", "x": 10, "y": 100}
            {"type": "tap", "x": 10, "y": 150}
            {"type": "undo"}
            {"type": "undo"}
            {"type": "redo"}
            {"type": "undo"}
            """,
          ])
    func historyBeforeTheSlice(script: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try CLI.write(script + "\n", to: "s.jsonl", in: dir)
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["record", source, "-o", log]).status == 0)
        let reader = try LogReader(path: log)
        let last = reader.eventCount
        for a in 2...last {
            let r = try CLI.run(["export", log, "--from", String(a), "--to", String(last)])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("cannot carry"), "--from \(a): \(r.stderr)")
            let slice = try CLI.write(r.stdout, to: "slice.jsonl", in: dir)
            let sliceLog = dir.appendingPathComponent("slice-\(a).slog").path
            #expect(try CLI.run(["record", slice, "-o", sliceLog]).status == 0)
            let replayed = try LogReader(path: sliceLog)
            #expect(try replayed.state(at: replayed.eventCount).hashValue64 == reader.state(at: last).hashValue64,
                    "--from \(a): \(r.stdout)")
        }
    }

    @Test("a slice from the first event is the log's events themselves, with no set-up before them")
    func fromTheStart() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("editor.slog").path
        #expect(try CLI.run(["record", "Examples/editor-row.jsonl", "-o", path]).status == 0)
        let events = try LogReader(path: path).events()
        for arguments in [["--to", "4"], ["--from", "1", "--to", "4"]] {
            let r = try CLI.run(["export", path] + arguments)
            #expect(r.status == 0, "\(r.stderr)")
            let script = try Script(bytes: Array(r.stdout.utf8))
            #expect(script.events == Array(events.prefix(4)), "\(arguments): \(r.stdout)")
            #expect(r.stdout.hasPrefix("# events 1 to 4 of "), "\(r.stdout)")
        }
    }

    @Test("a slice names what it cannot carry, and bad ranges are usage errors")
    func messages() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", dir.appendingPathComponent("d.slog").path]).status == 0)
        let path = dir.appendingPathComponent("d.slog").path
        // Event 5 is inside the strip pan of events 4 to 7.
        let r = try CLI.run(["export", path, "--from", "5", "--to", "7"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("the slice starts at event 4"), "\(r.stderr)")
        // Steps no one event makes: two taps in single selection (each selects one row
        // and deselects another), then multiple selection, where a select only adds.
        let mixed = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 10}]}
            {"type": "tap", "x": 10, "y": 50}
            {"type": "tap", "x": 10, "y": 100}
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "tick", "t": 5}

            """, to: "mixed.jsonl", in: dir)
        let mixedLog = dir.appendingPathComponent("mixed.slog").path
        #expect(try CLI.run(["record", mixed, "-o", mixedLog]).status == 0)
        let late = try CLI.run(["export", mixedLog, "--from", "5", "--to", "5"])
        #expect(late.status == 0)
        #expect(late.stderr.contains("cannot carry 2 undo steps from before event 5"), "\(late.stderr)")
        #expect(try CLI.run(["export", path, "--from", "9", "--to", "40"]).status == 64)
        #expect(try CLI.run(["export", path, "--from", "0"]).status == 64)
        // An empty slice is refused as the others past the ends are (a review found
        // "--from 13" of 12 events and "--to 0" writing "events 13 to 12", "1 to 0").
        for arguments in [["--from", "13"], ["--to", "0"], ["--from", "10", "--to", "9"]] {
            let r = try CLI.run(["export", path] + arguments)
            #expect(r.status == 64, "\(arguments): \(r.stdout)")
            #expect(r.stdout.isEmpty, "\(arguments)")
        }
        let one = try CLI.run(["export", path, "--from", "12", "--to", "12"])
        #expect(one.status == 0 && one.stdout.contains("# events 12 to 12"), "\(one.stdout) \(one.stderr)")
    }
}
