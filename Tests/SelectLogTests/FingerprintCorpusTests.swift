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
        let chosen = states[(jump + 1)...].prefix(13).map { $0.editor?.chosen ?? [-1] }
        #expect(chosen == [[2], [0], [1], [0], [2], [0], [1], [0, 1], [0], [0, 1], [0], [0, 1], [1]], "\(chosen)")
    }

    @Test("the option views, row reloads, edits, pans and scrolls at the corpus's end do what they are there for")
    func optionViewCases() throws {
        let events = BehaviourFingerprint.handWritten.map(\.event)
        let states = try states()
        func index(_ k: Int = 0, _ match: (Event) -> Bool) throws -> Int {
            let all = events.indices.filter { match(events[$0]) }
            return try #require(all.count > k ? all[k] : nil)
        }
        let swipeEnds = events.indices.filter { if case .swipeEnded = events[$0] { return true }; return false }
        #expect(swipeEnds.map { states[$0].options.open } == [RowPath(0, 2), RowPath(0, 6), nil])
        // After the first swipe, a tap on row 4 selects it and leaves row 2 open; a tap
        // on row 2 closes its option view and selects nothing.
        let other = swipeEnds[0] + 1, open = other + 1
        #expect(states[other].options.open == RowPath(0, 2) && states[other].selection.contains(RowPath(0, 4)))
        #expect(states[open].options.open == nil && states[open].selection == states[other].selection)
        let shown = try index { if case .setOptionVisible(_, true) = $0 { return true }; return false }
        #expect(states[shown].options.open == RowPath(0, 3))
        #expect(states[shown + 1].options.open == nil, "a swipe on another row closes it at once")
        let reload = try index { if case .reloadRows = $0 { return true }; return false }
        #expect(states[reload].layout.height(of: RowPath(0, 4)) == Points(80))
        #expect(!states[reload].selection.contains(RowPath(0, 4)) && states[reload].selection.contains(RowPath(0, 1)),
                "a reloaded row is deselected, as UIKit's reloadRows deselects it")
        let reloadOpen = try index(1) { if case .reloadRows = $0 { return true }; return false }
        #expect(states[reloadOpen - 1].options.open == RowPath(0, 5) && states[reloadOpen].options.open == RowPath(0, 5),
                "a reloaded row keeps its option view open (EVENTS.md 5.10, 8)")
        let delete = try index(1) { if case .deleteRows = $0 { return true }; return false }
        #expect(states[delete - 1].selection.isEmpty)
        #expect(states[delete - 1].contentOffset == Points(300) && states[delete].layout.rowCount(in: 0) == 18)
        let twoFingers = try index { if case .panBegan(_, fingers: 2) = $0 { return true }; return false }
        #expect(states[twoFingers + 2].selection.count > 1, "the two-finger pan selected the rows it crossed")
        let cancelled = try index { if case .panCancelled = $0 { return true }; return false }
        #expect(states[cancelled].pan == nil && states[cancelled - 1].pan != nil)
    }

    @Test("every event type is in the hand-written corpus", arguments: EventType.allCases)
    func everyType(_ type: EventType) {
        #expect(BehaviourFingerprint.handWritten.contains { $0.event.type == type })
    }

    /// An engine that ignores the events `ignores` picks out (leaves the state as it was).
    static func ignoring(_ name: String, _ ignores: @escaping @Sendable (TableState, Event) -> Bool) -> EngineBehaviour {
        EngineBehaviour(name: "ignoring \(name)") { (state: inout TableState, e: TimedEvent) throws(InvalidEvent) in
            if ignores(state, e.event) { return TableChanges() }
            return try state.apply(e)
        }
    }

    /// The fingerprint of `engine` over the hand-written session alone.
    static func handWrittenFingerprint(_ engine: EngineBehaviour) -> UInt64 {
        BehaviourFingerprint.compute(with: engine, over: [AnySequence(BehaviourFingerprint.handWritten)])
    }

    @Test("an engine that ignores any one event type has another fingerprint, from the hand-written session alone",
          arguments: EventType.allCases)
    func eachTypeIsSeen(_ type: EventType) {
        let variant = Self.ignoring(type.rawValue) { _, e in e.type == type }
        #expect(Self.handWrittenFingerprint(variant) != Self.handWrittenFingerprint(.standard))
        #expect(variant.fingerprint != BehaviourFingerprint.current)
    }

    @Test("an engine that ignores a tap on the row whose option view is open, a row reload's heights, or a delete with nothing selected has another fingerprint")
    func contextsAreSeen() {
        let variants = [
            Self.ignoring("taps on the row whose option view is open") { s, e in
                if case .tap(let p) = e, let open = s.options.open { return s.row(at: p) == open }
                return false
            },
            Self.ignoring("deletes with nothing selected") { s, e in
                if case .deleteRows = e { return s.selection.isEmpty }
                return false
            },
            EngineBehaviour(name: "row reloads keeping their heights") { (state: inout TableState, e: TimedEvent) throws(InvalidEvent) in
                if case .reloadRows(let rows, _) = e.event { return try state.apply(TimedEvent(.reloadRows(at: rows, heights: nil), t: e.t)) }
                return try state.apply(e)
            },
        ]
        for variant in variants {
            #expect(Self.handWrittenFingerprint(variant) != Self.handWrittenFingerprint(.standard), "\(variant.name)")
            #expect(variant.fingerprint != BehaviourFingerprint.current, "\(variant.name)")
        }
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
