import Testing
@testable import SelectLog
@testable import SelectLogStore

extension AppendQueueTests {
    /// One event of every case, its payload filled in.
    static let everyCase: [Event] = {
        let p = ViewportPoint(x: Points(10), y: Points(20)), row = RowPath(0, 1)
        return [
            .configure(ConfigurationPatch()), .viewport(width: Points(320), height: Points(480)),
            .reload(sections: [SectionSpec(rows: 3)]), .setEditing(true), .tap(p), .panBegan(p, fingers: 1),
            .panMoved(p), .panEnded(p, targetOffset: Points(5)), .panCancelled,
            .scroll(.by(Points(3)), phase: .decelerate, target: Points(9)), .jumpToSection(.title("A")),
            .jumpToSection(.index(1)), .swipeBegan(row: row), .swipeMoved(offset: Points(-4)),
            .swipeEnded(velocity: Points(2)), .setOptionVisible(row: row, visible: true),
            .toggleEditor(row: row, options: ["x"], multiple: false, chosen: [0]), .choose(option: 0), .tick,
            .insertRows(at: [row], heights: [Points(44)]), .deleteRows(at: [row]), .moveRow(from: row, to: row),
            .reloadRows(at: [row], heights: nil), .batch(BatchUpdate()), .insertSections(at: [0], sections: [SectionSpec(rows: 1)]),
            .deleteSections(at: [0]), .select(rows: [row]), .deselect(rows: [row]), .selectAll, .deselectAll, .undo, .redo,
        ]
    }()

    /// Whether every value in `event`'s payload is plain data (no reference, list or string).
    static func payloadIsPlain(_ event: Event) -> Bool {
        func plain<T>(_: T.Type) -> Bool { _isPOD(T.self) }
        guard let payload = Mirror(reflecting: event).children.first?.value else { return true }
        // (Mirror sees through an indirect case's box, which is a reference whatever it
        // holds: `Recorder.ownsNothing` lists no indirect case.)
        return _openExistential(type(of: payload), do: plain)
    }

    @Test("a queue slot is left undestroyed only for an event whose payload owns nothing")
    func slotsLeftUndestroyedOwnNothing() {
        for event in Self.everyCase where Recorder.ownsNothing(event) {
            #expect(Self.payloadIsPlain(event), "\(event) is left undestroyed in its slot but owns something")
        }
        // The cases that own something are destroyed.
        for event: Event in [.configure(ConfigurationPatch()), .reload(sections: []), .jumpToSection(.title("A")),
                             .toggleEditor(row: RowPath(0, 0), options: [], multiple: false, chosen: []),
                             .insertRows(at: [], heights: nil), .batch(BatchUpdate()), .select(rows: [])] {
            #expect(!Recorder.ownsNothing(event), "\(event) owns something and must be destroyed")
        }
    }
}
