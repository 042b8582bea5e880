import Testing
@testable import SelectLog

/// The engine against the naive model of `ModelTable`: the same random events go to both,
/// and after every event they must agree on which events are rejected and on every value
/// of the state JSON (spec 6) the model predicts; and `changes(since:)` must name exactly
/// the JSON fields that changed.
@Suite("The engine agrees with a naive model of the contract")
struct ModelPropertyTests {
    /// Runs one seeded sequence; returns the first disagreement, described for a human, or nil.
    static func firstDisagreement(seed: UInt64, v2: Bool, events: Int, maxRows: Int = 12) -> String? {
        var gen = ModelEvents(rng: SeededRandom(seed: seed), v2: v2, maxRows: maxRows)
        var engine = TableState()
        var model = ModelTable()
        var script: [String] = []
        for e in gen.setUp() {
            script.append(EventEncoder.line(TimedEvent(e)))
            do {
                try engine.apply(e)
                try model.apply(TimedEvent(e))
            } catch {
                return "seed \(seed): set-up event \(script.last ?? "") was rejected: \(error)"
            }
        }
        var previous = topLevelJSONValues(engine.json)
        for step in 0..<events {
            let event = gen.next(model)
            let before = engine
            script.append(EventEncoder.line(event))
            var engineError: String?
            var modelError: String?
            do { try engine.apply(event) } catch { engineError = "\(error)" }
            do { try model.apply(event) } catch { modelError = "\(error)" }
            let context = { "seed \(seed) (v2: \(v2)) event \(step + 1) \(script.last ?? ""); the script so far:\n" + script.joined(separator: "\n") }
            if (engineError == nil) != (modelError == nil) {
                return "\(context())\nengine: \(engineError ?? "accepted"), model: \(modelError ?? "accepted")"
            }
            let actual = topLevelJSONValues(engine.json)
            for (key, expected) in model.json.sorted(by: { $0.key < $1.key }) {
                guard let value = actual[key] else { return "\(context())\nthe engine's JSON has no \"\(key)\"" }
                if value != expected { return "\(context())\n\(key): engine \(value), model \(expected)" }
            }
            // The counts agree with the stacks the history builds when they are read.
            if engine.undoCount != engine.undoStack.count || engine.redoCount != engine.redoStack.count {
                return "\(context())\nundoCount \(engine.undoCount) / \(engine.undoStack.count) steps, redoCount \(engine.redoCount) / \(engine.redoStack.count)"
            }
            // `changes(since:)` (what inspect --diff prints) names exactly the fields whose JSON
            // changed (the editor's options under `editor.options`), and the hash when only
            // what the JSON does not show changed.
            let named = Set(engine.changes(since: before).map { $0.field == "editor.options" ? "editor" : $0.field })
            var differing = Set(ModelPropertyTests.diffedFields.filter { previous[$0] != actual[$0] })
            if differing.isEmpty && previous["hash"] != actual["hash"] { differing.insert("hash") }
            if named != differing { return "\(context())\nchanges(since:) names \(named.sorted()), the JSON differs in \(differing.sorted())" }
            previous = actual
        }
        return nil
    }

    /// The state-JSON fields `changes(since:)` reports on.
    static let diffedFields = ["sections", "editing", "selected", "contentOffset", "contentHeight", "visible", "dragging",
                               "decelerating", "rowsToLoad", "pan", "optionOpen", "swipe", "editor", "undo", "redo"]

    @Test("sequences every engine generation must agree on: selection, offset, pans, auto-scroll, option views, editor, undo",
          arguments: 0..<4)
    func agreesOnSharedBehaviour(shard: Int) {
        for k in 0..<40 {
            let seed = UInt64(40_000 + shard * 40 + k)
            if let problem = ModelPropertyTests.firstDisagreement(seed: seed, v2: false, events: 100) {
                Issue.record("\(problem)")
                return
            }
        }
    }

    @Test("sections of hundreds of rows, where the layout's trees have several levels")
    func agreesOnLargeSections() {
        for k in 0..<12 {
            let seed = UInt64(45_000 + k)
            if let problem = ModelPropertyTests.firstDisagreement(seed: seed, v2: false, events: 80, maxRows: 400) {
                Issue.record("\(problem)")
                return
            }
        }
    }

    @Test("v2 scenarios: interrupted pans, pans that begin over no data row, drag scrolls through edits",
          arguments: 0..<4)
    func agreesOnContractV2(shard: Int) {
        for k in 0..<40 {
            let seed = UInt64(50_000 + shard * 40 + k)
            if let problem = ModelPropertyTests.firstDisagreement(seed: seed, v2: true, events: 100) {
                Issue.record("\(problem)")
                return
            }
        }
    }
}
