/// The engine's *behaviour fingerprint*: a digest of the states a fixed, built-in
/// corpus of sessions replays to.
///
/// Two builds whose reducers fold the corpus into the same states share a
/// fingerprint; a build whose reducers changed (a fixed bug, a new rule) almost
/// surely does not. The log records the fingerprint of the build that wrote it, and a
/// reader whose fingerprint differs does not trust the log's checkpoints: they hold
/// states the old engine computed. The corpus is a few thousand events (hand-written
/// edge cases, then both synthetic generators), so the fingerprint costs
/// milliseconds, once per process.
///
/// Changing the corpus changes every fingerprint: readers then replay older logs from
/// the start, which is always correct, only slower.
public enum BehaviourFingerprint {
    /// The fingerprint of this build's engine, computed on first use.
    public static let current: UInt64 = compute(with: .standard)

    /// Bumped when the corpus changes.
    static let corpusVersion: UInt64 = 4

    /// The fingerprint of `engine`: every event's outcome (accepted or rejected) and
    /// the content offset after it, the gesture fingerprint every 8 events, plus the
    /// full state hash every 250 events and at the end of each session; in the
    /// hand-written session, whose every event is there for a rule, the full state hash
    /// after each event.
    package static func compute(with engine: EngineBehaviour) -> UInt64 {
        compute(with: engine, over: corpus)
    }

    /// The fingerprint of `engine` over `sessions`, the first of which is hashed after
    /// every event (for tests of one session's reach: `[AnySequence(handWritten)]`).
    package static func compute(with engine: EngineBehaviour, over sessions: [AnySequence<TimedEvent>]) -> UInt64 {
        var h = WordHasher()
        h.mix(corpusVersion)
        for (n, session) in sessions.enumerated() {
            let hashEvery = n == 0 ? 1 : 250
            var state = TableState()
            var k = 0
            for event in session {
                do {
                    try engine.apply(event, to: &state)
                    h.mix(UInt64(bitPattern: state.contentOffset.raw))
                    if k % 8 == 0 { h.mix(UInt64(state.gestureFingerprint)) }
                } catch {
                    h.mix(0xDEAD)
                }
                k += 1
                if k % hashEvery == 0 { h.mix(state.hashValue64) }
            }
            h.mix(state.hashValue64)
        }
        return h.digest
    }

    /// The corpus: hand-written cases of every event type, then the standard synthetic
    /// session and the random-walk session.
    package static var corpus: [AnySequence<TimedEvent>] {
        [AnySequence(handWritten),
         AnySequence(SyntheticSession(seed: 0xF1, count: 1_000)),
         AnySequence(RandomWalkSession(seed: 0xF2, count: 1_000))]
    }

    /// Taps that select and deselect in single and multiple mode, in and out of
    /// editing, explicit selection, edits that move the selection, undo and redo; then
    /// a strip pan whose auto-scroll a `configure` stops by moving the zone away from the
    /// still finger, one that began over the editor row and finds its start row when the
    /// editor closes, a jump to a title that another title equals only canonically, and
    /// `choose` undo steps in both kinds of editor, undone and redone (rules whose fixes
    /// or whose steps' form changed no other session's hashed states, so the corpus holds
    /// them itself); last, option views opened and closed by swipes, by a tap and by
    /// `setOptionVisible`, row reloads, rows deleted with nothing selected, a two-finger
    /// pan, a cancelled pan and a deceleration. Every event type is here, where the
    /// state hash after each event sees what it does: an engine that ignored any one type
    /// (or a tap on a row whose option view is open) gets another fingerprint from this
    /// session alone, whatever the generated sessions happen to hold.
    static var handWritten: [TimedEvent] {
        func tap(_ y: Int) -> Event { .tap(ViewportPoint(x: Points(40), y: Points(y))) }
        var single = ConfigurationPatch()
        single.allowsMultipleSelection = false
        single.allowsSelection = true
        var multiple = ConfigurationPatch()
        multiple.allowsMultipleSelection = true
        multiple.allowsMultipleSelectionDuringEditing = true
        var strip = ConfigurationPatch()
        strip.scrollAndSelect = StripPatch()
        strip.scrollAndSelect?.enabled = true
        strip.scrollAndSelect?.rowsPerSecond = Points(10)
        var zoneAway = ConfigurationPatch()
        zoneAway.scrollAndSelect = StripPatch()
        zoneAway.scrollAndSelect?.bottomAnchor = Points(-5)
        func finger(_ y: Int) -> ViewportPoint { ViewportPoint(x: Points(10), y: Points(y)) }
        var options = ConfigurationPatch()
        options.optionWidth = Points(120)
        options.multiSelectInteraction = true
        let events: [Event] = [
            .configure(single),
            .viewport(width: Points(390), height: Points(400)),
            .reload(sections: [SectionSpec(rows: 30, rowHeight: Points(44), header: Points(28), title: "A"),
                               SectionSpec(rows: 12, rowHeights: (0..<12).map { Points(30 + 7 * $0) }, title: "B")]),
            tap(50), tap(50), tap(100), tap(150), tap(150),
            .configure(multiple),
            tap(50), tap(100), tap(150), tap(100), tap(50), .undo, .undo, .redo,
            .setEditing(true), tap(60), tap(200), tap(60), .setEditing(false),
            .select(rows: [RowPath(0, 3), RowPath(1, 2)]), .deselect(rows: [RowPath(0, 3)]),
            .insertRows(at: [RowPath(1, 0)], heights: [Points(50)]), .deleteRows(at: [RowPath(0, 0)]),
            .moveRow(from: RowPath(1, 3), to: RowPath(0, 1)),
            .batch(BatchUpdate(deletes: [RowPath(0, 4)], inserts: [RowPath(0, 0)], insertHeights: [Points(44)])),
            .selectAll, .jumpToSection(.title("B")), tap(20), tap(300), .deselectAll, .undo, .undo, .redo,
            .insertSections(at: [0], sections: [SectionSpec(rows: 3, rowHeight: Points(60))]), .deleteSections(at: [2]),
            .scroll(.by(Points(120)), phase: nil, target: nil), tap(10), tap(390), .scroll(.to(Points(0)), phase: .idle, target: nil),
            // Section 0 now holds 3 rows of 60 pt, in a 400-pt viewport at offset 0.
            .configure(strip), .panBegan(finger(100), fingers: 1), .panMoved(finger(390)), .tick,
            .configure(zoneAway), .tick, .panEnded(nil, targetOffset: nil),
            .scroll(.to(Points(0)), phase: nil, target: nil), .toggleEditor(row: RowPath(0, 0), options: ["x"], multiple: false, chosen: []),
            .panBegan(finger(70), fingers: 1), .toggleEditor(row: RowPath(0, 0), options: ["x"], multiple: false, chosen: []),
            .panEnded(nil, targetOffset: nil),
            // Titles are compared exactly: "é" is not "e" and a combining acute.
            .reload(sections: [SectionSpec(rows: 10, header: Points(20), title: "e\u{301}"),
                               SectionSpec(rows: 10, header: Points(20), title: "\u{e9}"), SectionSpec(rows: 30)]),
            .jumpToSection(.title("\u{e9}")),
            // Choose steps flip options: two in a single-choice editor, one in a multiple.
            .toggleEditor(row: RowPath(0, 1), options: ["a", "b", "c"], multiple: false, chosen: [2]),
            .choose(option: 0), .choose(option: 1), .undo, .undo, .redo,
            .toggleEditor(row: RowPath(0, 2), options: ["a", "b", "c"], multiple: true, chosen: [1]),
            .choose(option: 0), .choose(option: 1), .undo, .redo, .undo, .undo,
            // Option views: rows of 44 pt from offset 0, 120-pt option views. A swipe
            // opens row 2 by its offset (90 of 120); a tap on row 4 selects it, and one on
            // row 2 only closes its option view; row 3, opened by the host, closes when
            // row 6 starts a swipe, which its velocity opens and a second one's closes.
            .reload(sections: [SectionSpec(rows: 20, rowHeight: Points(44)), SectionSpec(rows: 8, rowHeight: Points(50), title: "C")]),
            .configure(options), .scroll(.to(Points(0)), phase: nil, target: nil),
            .swipeBegan(row: RowPath(0, 2)), .swipeMoved(offset: Points(40)), .swipeMoved(offset: Points(90)),
            .swipeEnded(velocity: nil), tap(200), tap(100),
            .setOptionVisible(row: RowPath(0, 3), visible: true), .swipeBegan(row: RowPath(0, 6)),
            .swipeMoved(offset: Points(20)), .swipeEnded(velocity: Points(300)),
            .swipeBegan(row: RowPath(0, 6)), .swipeMoved(offset: Points(100)), .swipeEnded(velocity: Points(-250)),
            .setOptionVisible(row: RowPath(1, 1), visible: true), .setOptionVisible(row: RowPath(1, 1), visible: false),
            // Row reloads, which deselect their rows and keep an open option view; then
            // rows deleted above the offset with nothing selected, and one inserted.
            .select(rows: [RowPath(0, 1), RowPath(0, 4)]),
            .reloadRows(at: [RowPath(0, 4)], heights: [Points(80)]),
            .setOptionVisible(row: RowPath(0, 5), visible: true), .reloadRows(at: [RowPath(0, 5)], heights: nil),
            .setOptionVisible(row: RowPath(0, 5), visible: false),
            .deselectAll, .scroll(.to(Points(300)), phase: nil, target: nil),
            .deleteRows(at: [RowPath(0, 0), RowPath(0, 1)]), .insertRows(at: [RowPath(0, 0)], heights: [Points(100)]),
            // A two-finger pan over the rows, a strip pan cancelled, a deceleration.
            .panBegan(ViewportPoint(x: Points(200), y: Points(60)), fingers: 2),
            .panMoved(ViewportPoint(x: Points(200), y: Points(250))), .panEnded(nil, targetOffset: nil),
            .panBegan(finger(100), fingers: 1), .panMoved(finger(200)), .panCancelled,
            .scroll(nil, phase: .decelerate, target: Points(500)), .scroll(.by(Points(50)), phase: nil, target: nil),
            .scroll(nil, phase: .idle, target: nil),
        ]
        return events.enumerated().map { TimedEvent($0.element, t: Micros(raw: Int64($0.offset) * 100_000)) }
    }
}
