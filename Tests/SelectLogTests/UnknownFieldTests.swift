import Foundation
import Testing
@testable import SelectLog

@Suite("4, 5.11. Unknown fields and the field table")
struct UnknownFieldTests {
    func error(_ line: String) -> InvalidEvent? {
        do {
            _ = try EventDecoder.decode(line: Array(line.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("the contract's example: a misspelt configure flag is invalid and the right one suggested")
    func contractExample() {
        let e = error(#"{"type": "configure", "allowMultipleSelection": true}"#)
        #expect(e?.description == #"configure: unknown field "allowMultipleSelection" (did you mean "allowsMultipleSelection"?)"#)
        #expect(e?.field == "allowMultipleSelection")
    }

    @Test("the typo no longer leaves the table in single mode: the script stops at its line")
    func typoStopsScript() {
        let text = "{\"type\": \"viewport\", \"width\": 390, \"height\": 600}\n{\"type\": \"configure\", \"allowMultipleSelection\": true}\n"
        #expect(throws: ScriptError.self) { try Script(bytes: Array(text.utf8)) }
        do {
            _ = try Script(bytes: Array(text.utf8))
        } catch {
            #expect(error.line == 2)
        }
    }

    @Test("unknown fields of every kind name the field and, when one is close, suggest it", arguments: [
        (#"{"type": "configure", "scrollAndSelect": {"enable": true}}"#,
         #"configure: unknown field "scrollAndSelect.enable" (did you mean "enabled"?)"#, "scrollAndSelect.enable"),
        (#"{"type": "configure", "scrollAndSelect": {"rowsPerSec": 10}}"#,
         #"configure: unknown field "scrollAndSelect.rowsPerSec" (did you mean "rowsPerSecond"?)"#, "scrollAndSelect.rowsPerSec"),
        (#"{"type": "reload", "sections": [{"rows": 1}, {"rows": 2, "rowheight": 30}]}"#,
         #"reload: unknown field "sections[1].rowheight" (did you mean "rowHeight"?)"#, "sections[1].rowheight"),
        (#"{"type": "insertSections", "at": [0], "sections": [{"rows": 2, "titel": "A"}]}"#,
         #"insertSections: unknown field "sections[0].titel" (did you mean "title"?)"#, "sections[0].titel"),
        (#"{"type": "tap", "x": 1, "y": 2, "pressure": 0.5}"#, #"tap: unknown field "pressure""#, "pressure"),
        (#"{"type": "tap", "x": 1, "y": 2, "fingers": 2}"#, #"tap: unknown field "fingers""#, "fingers"),
        (#"{"type": "panBegan", "x": 1, "y": 2, "finger": 2}"#, #"panBegan: unknown field "finger" (did you mean "fingers"?)"#, "finger"),
        (#"{"type": "panEnded", "targetOfset": 10}"#, #"panEnded: unknown field "targetOfset" (did you mean "targetOffset"?)"#, "targetOfset"),
        (#"{"type": "batch", "delets": [[0, 1]]}"#, #"batch: unknown field "delets" (did you mean "deletes"?)"#, "delets"),
        (#"{"type": "toggleEditor", "row": [0, 1], "choosen": [0]}"#, #"toggleEditor: unknown field "choosen" (did you mean "chosen"?)"#, "choosen"),
        (#"{"type": "undo", "rows": []}"#, #"undo: unknown field "rows""#, "rows"),
        (#"{"type": "tick", "time": 5}"#, #"tick: unknown field "time""#, "time"),
        (#"{"type": "tick", "T": 5}"#, #"tick: unknown field "T" (did you mean "t"?)"#, "T"),
        (#"{"type": "tap", "x": 1, "y": 2, "z": 3}"#, #"tap: unknown field "z""#, "z"),
        (#"{"type": "reload", "sections": [{"rows": 2, "t": 5}]}"#, #"reload: unknown field "sections[0].t""#, "sections[0].t"),
    ])
    func unknownFields(line: String, message: String, field: String) {
        let e = error(line)
        #expect(e?.description == message)
        #expect(e?.field == field)
    }

    @Test("an unknown type is invalid, with the closest type suggested", arguments: [
        (#"{"type": "tapp", "x": 1, "y": 2}"#, #"tapp: unknown event type (did you mean "tap"?)"#),
        (#"{"type": "selectall"}"#, #"selectall: unknown event type (did you mean "selectAll"?)"#),
        (#"{"type": "panBegin", "x": 1, "y": 2}"#, #"panBegin: unknown event type (did you mean "panBegan"?)"#),
        (#"{"type": "insertRow", "at": [[0, 0]]}"#, #"insertRow: unknown event type (did you mean "insertRows"?)"#),
        // UIKit's gesture states: no spelling distance finds these.
        (#"{"type": "panChanged", "x": 1, "y": 2}"#, #"panChanged: unknown event type (did you mean "panMoved"?)"#),
        (#"{"type": "swipeChanged", "offset": 3}"#, #"swipeChanged: unknown event type (did you mean "swipeMoved"?)"#),
        (#"{"type": "wiggle"}"#, "wiggle: unknown event type"),
    ])
    func unknownType(line: String, message: String) {
        #expect(error(line)?.description == message)
    }

    @Test("t and type are known in every event; explicit nulls still count as absent")
    func envelope() throws {
        for type in EventType.allCases where type.fields.isEmpty {
            let e = try EventDecoder.decode(line: Array(#"{"type": "\#(type.rawValue)", "t": 5}"#.utf8))
            #expect(e?.t == Micros.milliseconds(5))
            #expect(e?.event.type == type)
        }
    }

    @Test("the field table is the contract's section 5.11, row by row")
    func tableIsTheContract() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/EVENTS.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        guard let start = text.range(of: "### 5.11") else {
            Issue.record("docs/EVENTS.md has no section 5.11")
            return
        }
        var eventsSeen: Set<EventType> = [], objectsSeen: Set<EventObject> = []
        for line in text[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard line.hasPrefix("|"), cells.count == 2, cells[0].hasPrefix("`") || cells[0].hasPrefix("a section") else { continue }
            let names = { (cell: String) in cell.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) } }
            let fields = cells[1] == "none" ? [] : names(cells[1])
            if cells[0].hasPrefix("a section") {
                #expect(EventObject.section.fields.map(\.rawValue) == fields)
                objectsSeen.insert(.section)
            } else if cells[0].hasPrefix("`scrollAndSelect`") {
                #expect(EventObject.scrollAndSelect.fields.map(\.rawValue) == fields)
                objectsSeen.insert(.scrollAndSelect)
            } else {
                for name in names(cells[0]) {
                    guard let type = EventType(rawValue: name) else {
                        Issue.record("5.11 names an event type \(name) the decoder does not know")
                        continue
                    }
                    #expect(type.fields.map(\.rawValue) == fields, "\(name)")
                    eventsSeen.insert(type)
                }
            }
        }
        #expect(eventsSeen == Set(EventType.allCases))
        #expect(objectsSeen == Set(EventObject.allCases))
        // No name in the field enumeration that no event or object uses.
        let used = Set(EventType.allCases.flatMap(\.fields) + EventObject.allCases.flatMap(\.fields))
        #expect(used == Set(EventField.allCases))
    }

    @Test("the encoder writes exactly the table's fields, in its order, for events with every field")
    func encoderUsesTheTable() throws {
        for type in EventType.allCases {
            var written: Set<String> = []
            for event in UnknownFieldTests.full(type) {
                try checkEncoding(event, type, &written)
            }
            #expect(written == Set(type.fields.map(\.rawValue)), "\(type)")
        }
    }

    func checkEncoding(_ event: Event, _ type: EventType, _ written: inout Set<String>) throws {
        #expect(event.type == type)
        let line = EventEncoder.line(TimedEvent(event, t: Micros(raw: 1500)))
        guard case .object(let members) = try JSONParser.parse(Array(line.utf8)) else {
            Issue.record("not an object: \(line)")
            return
        }
        let keys = members.map(\.key)
        #expect(Array(keys.prefix(2)) == ["type", "t"])
        // The written fields are the table's, in the table's order.
        #expect(type.fields.map(\.rawValue).filter(keys.contains) == Array(keys.dropFirst(2)), "\(line)")
        written.formUnion(keys.dropFirst(2))
        if case .configure = event, case .object(let strip)? = members.first(where: { $0.key == "scrollAndSelect" })?.value {
            #expect(strip.map(\.key) == EventObject.scrollAndSelect.fields.map(\.rawValue))
        }
        if case .reload = event, case .array(let sections)? = members.first(where: { $0.key == "sections" })?.value,
           case .object(let section)? = sections.first {
            #expect(section.map(\.key) == EventObject.section.fields.map(\.rawValue))
        }
        #expect(try EventDecoder.decode(line: Array(line.utf8)) == TimedEvent(event, t: Micros(raw: 1500)))
    }

    /// Events of `type` with every optional field given; two where fields exclude each other.
    static func full(_ type: EventType) -> [Event] {
        if type == .scroll { return [.scroll(.to(Points(5)), phase: .decelerate, target: Points(9)), .scroll(.by(Points(-5)), phase: .idle, target: nil)] }
        if type == .jumpToSection { return [.jumpToSection(.index(1)), .jumpToSection(.title("A"))] }
        return [one(type)]
    }

    static func one(_ type: EventType) -> Event {
        let point = ViewportPoint(x: Points(3), y: Points(raw: 7))
        let section = SectionSpec(rows: 4, rowHeight: Points(30), rowHeights: [Points(1)], header: Points(2), footer: Points(3), title: "A")
        switch type {
        case .configure:
            var strip = StripPatch()
            strip.enabled = true
            strip.edge = .trailing
            strip.stripWidth = Points(60)
            strip.topAnchor = Points(30)
            strip.bottomAnchor = Points(-30)
            strip.rowsPerSecond = Points(10)
            strip.reversal = .restore
            strip.jitter = Points(2)
            var p = ConfigurationPatch()
            p.allowsSelection = false
            p.allowsMultipleSelection = true
            p.allowsSelectionDuringEditing = true
            p.allowsMultipleSelectionDuringEditing = true
            p.scrollAndSelect = strip
            p.multiSelectInteraction = true
            p.optionWidth = Points(80)
            p.editorHeight = Points(40)
            p.undoLimit = 9
            return .configure(p)
        case .viewport: return .viewport(width: Points(390), height: Points(600))
        case .reload: return .reload(sections: [section])
        case .setEditing: return .setEditing(true)
        case .tap: return .tap(point)
        case .panBegan: return .panBegan(point, fingers: 2)
        case .panMoved: return .panMoved(point)
        case .panEnded: return .panEnded(point, targetOffset: Points(100))
        case .panCancelled: return .panCancelled
        case .scroll: return .scroll(.to(Points(5)), phase: .decelerate, target: Points(9))
        case .jumpToSection: return .jumpToSection(.index(1))
        case .swipeBegan: return .swipeBegan(row: RowPath(0, 1))
        case .swipeMoved: return .swipeMoved(offset: Points(20))
        case .swipeEnded: return .swipeEnded(velocity: Points(300))
        case .setOptionVisible: return .setOptionVisible(row: RowPath(0, 1), visible: true)
        case .toggleEditor: return .toggleEditor(row: RowPath(0, 1), options: ["a", "b"], multiple: true, chosen: [1])
        case .choose: return .choose(option: 1)
        case .tick: return .tick
        case .insertRows: return .insertRows(at: [RowPath(0, 1)], heights: [Points(44)])
        case .deleteRows: return .deleteRows(at: [RowPath(0, 1)])
        case .moveRow: return .moveRow(from: RowPath(0, 1), to: RowPath(0, 2))
        case .reloadRows: return .reloadRows(at: [RowPath(0, 1)], heights: [Points(44)])
        case .batch:
            return .batch(BatchUpdate(deletes: [RowPath(0, 1)], inserts: [RowPath(0, 3)], insertHeights: [Points(5)],
                                      moves: [.init(from: RowPath(0, 2), to: RowPath(0, 0))], reloads: [RowPath(0, 4)], reloadHeights: [Points(6)]))
        case .insertSections: return .insertSections(at: [1], sections: [section])
        case .deleteSections: return .deleteSections(at: [0])
        case .select: return .select(rows: [RowPath(0, 1)])
        case .deselect: return .deselect(rows: [RowPath(0, 1)])
        case .selectAll: return .selectAll
        case .deselectAll: return .deselectAll
        case .undo: return .undo
        case .redo: return .redo
        }
    }

    @Test("edit distance: swaps cost one, case costs nothing, far names are not suggested")
    func distance() {
        func d(_ a: String, _ b: String) -> Int { NameSuggestion.distance(Array(a.unicodeScalars), Array(b.unicodeScalars)) }
        #expect(d("ab", "ba") == 1)
        #expect(d("kitten", "sitting") == 3)
        #expect(d("", "abc") == 3)
        #expect(d("rows", "rows") == 0)
        #expect(NameSuggestion.closest(to: "ROWHEIGHT", among: ["rows", "rowHeight"]) == "rowHeight")
        #expect(NameSuggestion.closest(to: "jiter", among: ["jitter", "edge"]) == "jitter")
        #expect(NameSuggestion.closest(to: "colour", among: ["x", "y", "t", "type"]) == nil)
        #expect(NameSuggestion.closest(to: String(repeating: "a", count: 100), among: ["a"]) == nil)
    }
}
