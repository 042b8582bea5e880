import Foundation
import Testing
@testable import SelectLog

/// The DocC article `EventsInSwift.md` maps the contract's JSON names to Swift: these
/// tests hold its two tables to the engine. Each Swift spelling the article gives is
/// compiled here, as written, and must make an event of its row's type (or read the
/// state field its row names).
@Suite("The JSON-to-Swift tables of EventsInSwift.md")
struct EventsInSwiftTests {
    /// The repository's root.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static let article: String? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SelectLog/SelectLog.docc/EventsInSwift.md")
        return try? String(contentsOf: url, encoding: .utf8)
    }()

    /// The rows of the table under `heading`: its cells' code spans, by row.
    static func table(under heading: String) -> [(name: String, spellings: [String])] {
        guard let text = article, let start = text.range(of: heading) else { return [] }
        var rows: [(String, [String])] = []
        var started = false
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("|") {
                started = true
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                guard cells.count == 2, !cells.first!.contains("---"), !cells.first!.contains("JSON") else { continue }
                rows.append((codeSpans(cells.first!).first ?? "", codeSpans(cells.last!)))
            } else if started {
                break
            }
        }
        return rows
    }

    static func codeSpans(_ cell: Substring) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    static let p = ViewportPoint(x: Points(20), y: Points(100))
    static let patch: ConfigurationPatch = {
        var patch = ConfigurationPatch()
        patch.scrollAndSelect = StripPatch(setting: StripSettings())
        return patch
    }()

    /// Every Swift spelling of the events table, compiled as written.
    static let spellings: [String: Event] = {
        let p = Self.p, patch = Self.patch
        return [
            ".configure(patch)": .configure(patch),
            ".viewport(width: Points(390), height: Points(844))": .viewport(width: Points(390), height: Points(844)),
            ".viewport(ViewportSize(width: Points(390), height: Points(844)))": .viewport(ViewportSize(width: Points(390), height: Points(844))),
            ".reload(sections: [SectionSpec(rows: 200, rowHeight: Points(44))])": .reload(sections: [SectionSpec(rows: 200, rowHeight: Points(44))]),
            ".setEditing(true)": .setEditing(true),
            ".tap(p)": .tap(p),
            ".panBegan(p, fingers: 1)": .panBegan(p, fingers: 1),
            ".panBegan(at: p)": .panBegan(at: p),
            ".panMoved(p)": .panMoved(p),
            ".panEnded(p, targetOffset: nil)": .panEnded(p, targetOffset: nil),
            ".panEnded(at: p)": .panEnded(at: p),
            ".panCancelled": .panCancelled,
            ".scroll(.by(Points(12)), phase: nil, target: nil)": .scroll(.by(Points(12)), phase: nil, target: nil),
            ".scroll(to: Points(300))": .scroll(to: Points(300)),
            ".decelerate(toward: Points(900))": .decelerate(toward: Points(900)),
            ".jumpToSection(.index(3))": .jumpToSection(.index(3)),
            ".jumpToSection(.title(\"C\"))": .jumpToSection(.title("C")),
            ".swipeBegan(row: RowPath(0, 2))": .swipeBegan(row: RowPath(0, 2)),
            ".swipeMoved(offset: Points(40))": .swipeMoved(offset: Points(40)),
            ".swipeEnded(velocity: Points(300))": .swipeEnded(velocity: Points(300)),
            ".setOptionVisible(row: RowPath(0, 2), visible: true)": .setOptionVisible(row: RowPath(0, 2), visible: true),
            ".toggleEditor(row: RowPath(0, 2), options: [\"Red\", \"Blue\"], multiple: false, chosen: [])":
                .toggleEditor(row: RowPath(0, 2), options: ["Red", "Blue"], multiple: false, chosen: []),
            ".choose(option: 1)": .choose(option: 1),
            ".tick": .tick,
            ".insertRows(at: [RowPath(0, 0)], heights: nil)": .insertRows(at: [RowPath(0, 0)], heights: nil),
            ".insertRows(at: [RowPath(0, 0)])": .insertRows(at: [RowPath(0, 0)]),
            ".deleteRows(at: [RowPath(0, 0)])": .deleteRows(at: [RowPath(0, 0)]),
            ".moveRow(from: RowPath(0, 0), to: RowPath(0, 5))": .moveRow(from: RowPath(0, 0), to: RowPath(0, 5)),
            ".reloadRows(at: [RowPath(0, 1)], heights: [Points(88)])": .reloadRows(at: [RowPath(0, 1)], heights: [Points(88)]),
            ".reloadRows(at: [RowPath(0, 1)])": .reloadRows(at: [RowPath(0, 1)]),
            ".batch(BatchUpdate(deletes: [RowPath(0, 0)], inserts: [RowPath(0, 3)]))": .batch(BatchUpdate(deletes: [RowPath(0, 0)], inserts: [RowPath(0, 3)])),
            ".insertSections(at: [1], sections: [SectionSpec(rows: 10)])": .insertSections(at: [1], sections: [SectionSpec(rows: 10)]),
            ".deleteSections(at: [1])": .deleteSections(at: [1]),
            ".select(rows: [RowPath(0, 2)])": .select(rows: [RowPath(0, 2)]),
            ".deselect(rows: [RowPath(0, 2)])": .deselect(rows: [RowPath(0, 2)]),
            ".selectAll": .selectAll,
            ".deselectAll": .deselectAll,
            ".undo": .undo,
            ".redo": .redo,
        ]
    }()

    @Test("the events table has every event type once, and each Swift spelling makes an event of its row's type")
    func eventsTable() throws {
        let rows = Self.table(under: "### Events")
        #expect(rows.map(\.name) == EventType.allCases.map(\.rawValue), "the rows in the contract's order")
        for row in rows {
            let code = row.spellings.filter { $0.hasPrefix(".") }
            #expect(!code.isEmpty, "\(row.name) has no Swift spelling")
            for spelling in code {
                guard let event = Self.spellings[spelling] else {
                    Issue.record("\(row.name): the spelling \(spelling) is not compiled by this test")
                    continue
                }
                #expect(event.typeName == row.name, "\(spelling)")
                // And it is the event the contract's JSON names: it reads back as itself.
                let line = EventEncoder.line(TimedEvent(event))
                #expect(line.contains("\"type\": \"\(row.name)\""), "\(line)")
                #expect(try EventDecoder.decode(line: line)?.event == event, "\(line)")
                #expect(try EventDecoder.decode(line: Array(line.utf8))?.event == event, "\(line)")
            }
        }
        let documented = Set(rows.flatMap(\.spellings))
        for spelling in Self.spellings.keys { #expect(documented.contains(spelling), "\(spelling) is compiled here but not in the article") }
    }

    /// A state with every field of the state JSON set: selected rows, an open editor, an
    /// open option view, an active pan, undo and redo steps.
    static func busyState() throws -> TableState {
        try play("""
            {"type": "configure", "allowsMultipleSelection": true, "optionWidth": 80, "scrollAndSelect": {"enabled": true}}
            {"type": "viewport", "width": 390, "height": 300}
            {"type": "reload", "sections": [{"rows": 40, "rowHeight": 44}, {"rows": 5, "rowHeight": 30}]}
            {"t": 10, "type": "tap", "x": 200, "y": 60}
            {"t": 20, "type": "tap", "x": 200, "y": 110}
            {"t": 30, "type": "undo"}
            {"t": 40, "type": "setOptionVisible", "row": [0, 5], "visible": true}
            {"t": 50, "type": "toggleEditor", "row": [0, 3], "options": ["Red", "Blue"], "multiple": false, "chosen": [1]}
            {"t": 60, "type": "scroll", "y": 30}
            {"t": 70, "type": "panBegan", "x": 20, "y": 100}
            {"t": 80, "type": "panMoved", "x": 20, "y": 160}
            """)
    }

    @Test("the state table names every field of the state JSON, in its order, and each Swift property reads that field")
    func stateTable() throws {
        let state = try Self.busyState()
        let rows = Self.table(under: "### State")
        guard case .object(let members) = try JSONParser.parse(Array(state.json.utf8)) else {
            Issue.record("the state JSON is not an object")
            return
        }
        #expect(rows.map(\.name) == members.map(\.key))
        #expect(state.pan != nil && state.editor != nil && state.options.open != nil && state.undoCount > 0 && state.redoCount > 0,
                "the state sets every field")
        // Each row's Swift spelling, compiled, rendered as the state JSON renders it.
        let path = JSONText.path, range = JSONText.range
        let read: [String: (String, String)] = [
            "events": ("state.events", String(state.events)),
            "t": ("state.t", state.t.description),
            "sections": ("state.layout.sections.map(\\.rowCount)", "[" + state.layout.sections.map(\.rowCount).map(String.init).joined(separator: ", ") + "]"),
            "editing": ("state.editing", String(state.editing)),
            "selected": ("state.selection", "[" + state.selection.paths.map { path($0) }.joined(separator: ", ") + "]"),
            "contentOffset": ("state.contentOffset", state.contentOffset.description),
            "contentHeight": ("state.layout.contentHeight", state.layout.contentHeight.description),
            "visible": ("state.visibleRows", range(state.visibleRows)),
            "dragging": ("state.dragging", String(state.dragging)),
            "decelerating": ("state.decelerating", String(state.decelerating)),
            "rowsToLoad": ("state.rowsToLoad", range(state.rowsToLoad)),
            "pan": ("state.pan", "{\"kind\": \"\(state.pan?.kind.rawValue ?? "")\""),
            "optionOpen": ("state.options.open", path(state.options.open)),
            "swipe": ("state.options.swipe", state.options.swipe == nil ? "null" : "{"),
            "editor": ("state.editor", "{\"row\": \(path(state.layout.editorRow)), \"options\": [\(state.editor?.options.map(JSONText.quote).joined(separator: ", ") ?? "")]"),
            "undo": ("state.undoCount", String(state.undoCount)),
            "redo": ("state.redoCount", String(state.redoCount)),
            "hash": ("state.hashHex", "\"\(state.hashHex)\""),
        ]
        let json = state.json
        let publicClient = try String(contentsOfFile: Self.repository + "/Examples/EmbeddingExample/StateFields.swift", encoding: .utf8)
        for row in rows {
            guard let (spelling, rendered) = read[row.name] else {
                Issue.record("\(row.name) is not read by this test")
                continue
            }
            #expect(row.spellings.first == spelling, "\(row.name)")
            // And they compile in a client of the public API alone (this test's import is @testable).
            for s in row.spellings where s.hasPrefix("state.") {
                // The whole spelling, not a prefix of a longer one ("state.t" of "state.target").
                #expect(publicClient.contains(s + ",") || publicClient.contains(s + " "), "\(s) is not in Examples/EmbeddingExample/StateFields.swift")
            }
            #expect(json.contains("\"\(row.name)\": \(rendered)"), "\(row.name): \(rendered) in \(json)")
        }
    }
}
