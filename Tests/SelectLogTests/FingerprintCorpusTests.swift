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
        // The pan that began over the editor row finds its start row when the editor closes.
        let closes = try #require(events.lastIndex {
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
    }
}
