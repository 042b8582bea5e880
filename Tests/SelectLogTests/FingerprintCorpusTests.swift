import Testing
@testable import SelectLog

@Suite("The behaviour fingerprint's hand-written corpus")
struct FingerprintCorpusTests {
    /// The states after each of the corpus's hand-written events.
    func states() throws -> [TableState] {
        var s = TableState()
        var states: [TableState] = []
        for (k, e) in BehaviourFingerprint.handWritten.enumerated() {
            do {
                try s.apply(e)
            } catch {
                Issue.record("event \(k + 1), \(e), is rejected: \(error)")
            }
            states.append(s)
        }
        return states
    }

    @Test("every event is accepted, and the pan cases at its end do what they are there for")
    func handWrittenCases() throws {
        let events = BehaviourFingerprint.handWritten.map(\.event)
        let states = try states()
        // The configure that moves the bottom zone away from the still finger stops auto-scroll.
        let away = try #require(events.lastIndex {
            if case .configure(let patch) = $0 { return patch.scrollAndSelect?.bottomAnchor != nil }
            return false
        })
        #expect(states[away - 1].pan?.autoscroll == .down)
        #expect(states[away].pan?.autoscroll == nil)
        #expect(states[away + 1].contentOffset == states[away].contentOffset, "the tick after it scrolls no more")
        // The pan that began over the editor row finds its start row when the editor
        // closes (the last toggleEditor before the jump).
        let jumpAt = try #require(events.lastIndex {
            if case .jumpToSection = $0 { return true }
            return false
        })
        let closes = try #require(events[..<jumpAt].lastIndex {
            if case .toggleEditor = $0 { return true }
            return false
        })
        #expect(states[closes - 1].pan?.start == nil)
        #expect(states[closes].pan?.start == RowPath(0, 1))
        #expect(states[closes].selection.contains(RowPath(0, 1)) != states[closes - 1].selection.contains(RowPath(0, 1)),
                "the start row takes the pan's mode at once")
        // The jump to a precomposed "é" lands on the second section, not on the first
        // ("e" and a combining acute), which Swift's String calls equal.
        let jump = try #require(events.lastIndex {
            if case .jumpToSection = $0 { return true }
            return false
        })
        #expect(states[jump].contentOffset == states[jump].layout.top(ofSection: 1))
        #expect(states[jump].contentOffset > .zero)
        // The choose steps: single choice [2] → [0] → [1], two undos and a redo; then a
        // multiple choice [1] → [0, 1] → [0], a redo of the undone step and two undos.
        let chosen = states[(jump + 1)...].map { $0.editor?.chosen ?? [-1] }
        #expect(chosen == [[2], [0], [1], [0], [2], [0], [1], [0, 1], [0], [0, 1], [0], [0, 1], [1]], "\(chosen)")
    }

    /// The engine before this session's fixes, one rule at a time: after a `configure`,
    /// `viewport` or `toggleEditor`, the pan (and the selection it changed) as it was.
    static func without(_ rule: String, when changed: @escaping @Sendable (TableState, TableState) -> Bool) -> EngineBehaviour {
        EngineBehaviour(name: "without \(rule)") { (state: inout TableState, e: TimedEvent) throws(InvalidEvent) in
            let before = state
            let changes = try state.apply(e)
            switch e.event {
            case .configure, .viewport, .toggleEditor:
                if changed(before, state) {
                    state.gesture = before.gesture
                    state.history.selection = before.history.selection
                }
            default: break
            }
            return changes
        }
    }

    @Test("an engine without any one of the rules the corpus was extended for has another fingerprint")
    func eachRuleIsSeen() {
        let noStartRow = Self.without("the start row found after a layout change") { before, after in
            before.pan?.start == nil && after.pan?.start != nil
        }
        let zoneIgnored = Self.without("auto-scroll stopping when the zone leaves the finger") { before, after in
            before.pan?.autoscroll != nil && after.pan?.autoscroll == nil
        }
        let canonicalTitles = EngineBehaviour(name: "titles compared canonically") { (state: inout TableState, e: TimedEvent) throws(InvalidEvent) in
            if case .jumpToSection(.title(let title)) = e.event,
               let i = state.layout.sections.firstIndex(where: { $0.title == title }) {
                return try state.apply(TimedEvent(.jumpToSection(.index(i)), t: e.t))
            }
            return try state.apply(e)
        }
        // The variants really differ from the standard engine on the corpus's own cases.
        #expect(EngineBehaviour.standard.fingerprint == BehaviourFingerprint.current)
        for variant in [noStartRow, zoneIgnored, canonicalTitles] {
            #expect(variant.fingerprint != BehaviourFingerprint.current, "\(variant.name)")
        }
    }
}
