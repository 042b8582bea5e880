import Testing
@testable import SelectLog

@Suite("The set-up of a slice (export --from) on large tables")
struct SetUpScriptTests {
    /// The state `setUp` rebuilds from an empty table.
    static func rebuilt(_ setUp: SetUpScript) throws -> TableState {
        var table = TableState()
        for e in setUp.events { try table.apply(e) }
        return table
    }

    /// Random sessions of taps, selects, deselects, undos, redos and editor openings in
    /// `table`'s mode: the state after each prefix, and its set-up.
    static func histories(_ table: String, seed: UInt64, count: Int, body: (TableState, SetUpScript) throws -> Void) throws {
        var random = SeededRandom(seed: seed)
        var state = try play(table)
        for k in 0..<count {
            let row = RowPath(0, Int(random.next() % 20))
            let event: Event
            switch random.next() % 10 {
            case 0, 1: event = .tap(ViewportPoint(x: Points(100), y: Points(row.row * 50 + 10)))
            case 2: event = .select(rows: state.isMultiple ? [row, RowPath(0, row.row + 3)] : [row])
            case 3: event = .deselect(rows: [row, RowPath(0, row.row + 1)])
            case 4, 5: event = .undo
            case 6: event = .redo
            case 7: event = .toggleEditor(row: row, options: ["a", "b"], multiple: false, chosen: [])
            case 8: event = state.isMultiple ? .selectAll : .deselectAll
            default: event = .deselectAll
            }
            _ = try? state.apply(TimedEvent(event, t: .milliseconds(k)))
            try body(state, SetUpScript(reproducing: state))
        }
    }

    @Test("a history of taps, selects, deselects, undos and redos is carried: the slice's state has the log's hash, undo history and editor openings included",
          arguments: [UInt64(1), 2, 3, 4])
    func historyIsCarried(seed: UInt64) throws {
        let table = seed <= 2 ? multipleTable : singleTable
        var carried = 0
        try Self.histories(table, seed: seed, count: 300) { state, setUp in
            let undoNotes = setUp.notCarried.filter { $0.contains("undo") || $0.contains("redo") || $0.contains("opening") }
            guard undoNotes.isEmpty else { return }
            let table = try Self.rebuilt(setUp)
            #expect(table.hashValue64 == state.hashValue64, "events \(state.events): \(state.undoCount) undo, \(state.redoCount) redo")
            #expect(table.history.undoStack == state.history.undoStack && table.history.redoStack == state.history.redoStack)
            #expect(table.editorOpenings == state.editorOpenings)
            if state.undoCount + state.redoCount > 0 { carried += 1 }
        }
        // Every step of these sessions is one event's (a pan's, which selects and
        // deselects at once in a multiple mode, would not be): nearly every state of the
        // 300 has a history, and it is carried.
        #expect(carried > 250, "\(carried) states carried a history")
    }

    @Test("choose steps in the open editor are carried with the rest of the history: the slice's state has the log's hash, and its undo unchooses as the log's does",
          arguments: [UInt64(5), 6, 7, 8])
    func chooseStepsAreCarried(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let multiple = seed % 2 == 0
        var state = try play(seed <= 6 ? multipleTable : singleTable)
        let options = ["Spring", "Summer", "Autumn", "Winter"]
        try state.apply(.toggleEditor(row: RowPath(0, 2), options: options, multiple: multiple, chosen: [1]))
        var carried = 0
        for k in 0..<300 {
            let row = RowPath(0, Int(random.next() % 20))
            let event: Event
            switch random.next() % 12 {
            case 0, 1, 2: event = .choose(option: Int(random.next() % 4))
            case 3: event = .tap(ViewportPoint(x: Points(100), y: Points(row.row * 50 + 10)))
            case 4: event = .select(rows: [row])
            case 5, 6: event = .undo
            case 7: event = .redo
            // Now and then the editor closes and opens elsewhere: the steps chosen in it
            // before then are no one event's (the history is not carried until they go).
            case 8: event = random.next() % 20 == 0 ? .toggleEditor(row: row, options: options, multiple: multiple, chosen: []) : .undo
            default: event = .deselect(rows: [row])
            }
            _ = try? state.apply(TimedEvent(event, t: .milliseconds(k)))
            let setUp = SetUpScript(reproducing: state)
            let chooses = (state.history.undoStack + state.history.redoStack).contains { if case .choose = $0 { true } else { false } }
            guard setUp.notCarried.isEmpty else {
                // Left out only for a choose of an editor that has closed since.
                let current = state.editor?.opening
                #expect((state.history.undoStack + state.history.redoStack).contains {
                    if case .choose(let opening, _) = $0 { opening != current } else { false }
                }, "\(setUp.notCarried) after \(state.events) events")
                continue
            }
            var table = try Self.rebuilt(setUp)
            #expect(table.hashValue64 == state.hashValue64, "after \(state.events) events")
            #expect(table.history.undoStack == state.history.undoStack && table.history.redoStack == state.history.redoStack)
            #expect(table.editor == state.editor)
            if chooses {
                carried += 1
                // One more undo each side: the same choices, the same selection.
                var log = state
                _ = try? log.apply(.undo)
                _ = try? table.apply(.undo)
                #expect(table.editor == log.editor && table.selection == log.selection)
            }
        }
        #expect(carried > 30, "\(carried) states carried a history with choose steps")
    }

    @Test("the set-up's own selecting leaves no undo step where the state has none (its history cleared by an undoLimit of 0)")
    func noStepOfItsOwn() throws {
        let state = try play(multipleTable + "\n" + """
            {"type": "select", "rows": [[0, 3], [0, 4]]}
            {"type": "configure", "undoLimit": 0}
            {"type": "configure", "undoLimit": 1000}
            """)
        #expect(state.undoCount == 0 && state.selected.count == 2)
        let setUp = SetUpScript(reproducing: state)
        #expect(setUp.notCarried.isEmpty, "\(setUp.notCarried)")
        var table = try Self.rebuilt(setUp)
        #expect(table.hashValue64 == state.hashValue64 && table.undoCount == 0)
        try table.apply(.undo)
        #expect(table.selected.count == 2, "an undo in the slice finds nothing to undo, as in the log")
    }

    @Test("steps of every row are one selectAll or deselectAll each: 200 of them on 100,000 rows are a few hundred events, not 10,000,000 rows listed")
    func wholeTableSteps() throws {
        var state = try play(#"{"type": "configure", "allowsMultipleSelection": true}"# + "\n"
                             + #"{"type": "reload", "sections": [{"rows": 100000}]}"#)
        try state.apply(.select(rows: [RowPath(0, 7)]))
        for _ in 0..<100 {
            try state.apply(.selectAll)
            try state.apply(.deselectAll)
        }
        try state.apply(.undo)
        let setUp = SetUpScript(reproducing: state)
        #expect(setUp.notCarried.isEmpty, "\(setUp.notCarried)")
        #expect(setUp.eventCount < 260, "\(setUp.eventCount) events")
        #expect(try Self.rebuilt(setUp).hashValue64 == state.hashValue64)
        // Rows past the limit in all (`historyRows`; here 50, then 80): no history. The
        // fifth select makes every row selected, a selectAll, which lists none.
        var scattered = try play(multipleTable)
        for k in 0..<5 { try scattered.apply(.select(rows: (0..<20).map { RowPath(0, k * 20 + $0) })) }
        #expect(scattered.undoCount == 5)
        #expect(SetUpScript.history(of: scattered, rowLimit: 50) == nil)
        #expect(SetUpScript.history(of: scattered, rowLimit: 80) != nil)
    }

    @Test("the editor's openings are carried when the history is not; a history past a lowered undoLimit is carried whole")
    func openingsWithoutHistoryAndLoweredLimit() throws {
        // Two taps in single selection, then multiple selection: steps no one event makes.
        var mixed = try play(singleTable + "\n" + """
            {"type": "tap", "x": 10, "y": 60}
            {"type": "tap", "x": 10, "y": 110}
            {"type": "toggleEditor", "row": [0, 1]}
            {"type": "toggleEditor", "row": [0, 1]}
            {"type": "toggleEditor", "row": [0, 4]}
            """)
        try apply(&mixed, #"{"type": "configure", "allowsMultipleSelection": true}"#)
        let setUp = SetUpScript(reproducing: mixed)
        #expect(setUp.notCarried.contains { $0.contains("undo step") } && !setUp.notCarried.contains { $0.contains("opening") }, "\(setUp.notCarried)")
        #expect(try Self.rebuilt(setUp).editorOpenings == mixed.editorOpenings)
        // Five undo steps and three redo steps, then the limit lowered to 6.
        var lowered = try play(multipleTable)
        for row in 0..<8 { try lowered.apply(.select(rows: [RowPath(0, row)])) }
        for _ in 0..<3 { try lowered.apply(.undo) }
        try apply(&lowered, #"{"type": "configure", "undoLimit": 6}"#)
        let carried = SetUpScript(reproducing: lowered)
        #expect(!carried.notCarried.contains { $0.contains("step") }, "\(carried.notCarried): \(lowered.undoCount) undo, \(lowered.redoCount) redo")
        #expect(try Self.rebuilt(carried).hashValue64 == lowered.hashValue64)
    }

    @Test("a few odd heights among 50,000,000 rows are one reloadRows, not a list of every height before them")
    func oddHeightsAreReloadedRows() throws {
        let state = try play("""
            {"type": "reload", "sections": [{"rows": 50000000}, {"rows": 3, "rowHeight": 10, "rowHeights": [25]}]}
            {"type": "reloadRows", "at": [[0, 49999999], [0, 7]], "heights": [60, 0]}
            """)
        let setUp = SetUpScript(reproducing: state)
        guard case .reload(let sections)? = setUp.events.map(\.event).first(where: { if case .reload = $0 { true } else { false } }) else {
            Issue.record("no reload")
            return
        }
        #expect(sections[0].rowHeights == nil, "50,000,000 rows: nothing listed")
        #expect(sections[1].rowHeights == [Points(25)], "a short section keeps its list, up to its last odd height")
        let reloads = setUp.events.compactMap { e -> [RowPath]? in if case .reloadRows(let at, _) = e.event { at } else { nil } }
        #expect(reloads == [[p(0, 7), p(0, 49_999_999)]])
        let table = try Self.rebuilt(setUp)
        #expect(table.layout == state.layout)
        #expect(table.layout.sections[0].rows.height(at: 49_999_999) == Points(60))
    }

    @Test("an offset past 1e9 pt (relative scrolls add up to it) is one scroll {y}, and its script line reads back",
          arguments: [false, true])
    func offsetPastALengthsLimit(decelerating: Bool) throws {
        var script = """
            {"type": "reload", "sections": [{"rows": 50000000, "rowHeight": 44}, {"rows": 50000000, "rowHeight": 30}]}
            {"type": "scroll", "dy": 1000000000}
            {"type": "scroll", "dy": 1000000000}
            {"type": "scroll", "dy": 1000000000}
            {"type": "scroll", "dy": -123456.5}
            """
        if decelerating { script += "\n" + #"{"type": "scroll", "phase": "decelerate", "target": 3456789012.25}"# }
        let state = try play(script)
        #expect(state.contentOffset > EventLimits.length)
        if decelerating { #expect(state.target == Points(raw: 3_456_789_012 * 64 + 16)) }
        let setUp = SetUpScript(reproducing: state)
        let scrolls = setUp.events.filter { if case .scroll = $0.event { true } else { false } }
        #expect(scrolls.count == 1)
        #expect(scrolls.first?.event == .scroll(.to(state.contentOffset), phase: decelerating ? .decelerate : nil,
                                                target: decelerating ? state.target : nil))
        // Through the script's text, as `export --from` writes it and `record` reads it.
        let text = setUp.events.map { EventEncoder.line($0) }.joined(separator: "\n")
        let table = try play(text)
        #expect(table.contentOffset == state.contentOffset)
        #expect(table.decelerating == state.decelerating && table.target == state.target)
        #expect(table.hashValue64 == state.hashValue64)   // no undo history here to tell them apart
    }

    @Test("every row of 100,000,000 selected but two is selectAll and a deselect of the two")
    func nearlyAllSelectedIsSelectAll() throws {
        let state = try play("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 50000000}, {"rows": 50000000}]}
            {"type": "selectAll"}
            {"type": "deselect", "rows": [[0, 3], [1, 49999999]]}
            """)
        let setUp = SetUpScript(reproducing: state)
        let kinds = setUp.events.map(\.event.typeName)
        #expect(kinds.suffix(2) == ["selectAll", "deselect"], "\(kinds)")
        let table = try Self.rebuilt(setUp)
        #expect(table.selection == state.selection)
        #expect(table.selection.count == 99_999_998)
        // A few rows selected are listed as before.
        let few = try play("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 10}]}
            {"type": "select", "rows": [[0, 2], [0, 5]]}
            """)
        let listed = SetUpScript(reproducing: few).events.compactMap { e -> [RowPath]? in if case .select(let rows) = e.event { rows } else { nil } }
        #expect(listed == [[p(0, 2), p(0, 5)]])
    }

    @Test("the state JSON written in pieces is the state JSON, in pieces of about 64 KiB")
    func jsonInPieces() throws {
        let state = try play("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 30000}, {"rows": 5}]}
            {"type": "selectAll"}
            {"type": "deselect", "rows": [[0, 7]]}
            """)
        var pieces: [String] = []
        state.writeJSON { pieces.append($0) }
        #expect(pieces.joined() == state.json)
        #expect(pieces.count > 3, "\(pieces.count) pieces")
        #expect(pieces.allSatisfy { $0.utf8.count < (1 << 16) + 64 })
        #expect(state.json.contains(#""selected": [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [0, 8], "#))
        let unlisted = state.json(listingSelection: false)
        #expect(unlisted == state.json.replacing(#/"selected": \[[^"]*\], "contentOffset"/#, with: #""selected": [], "contentOffset""#))
    }

    @Test("a section grown past the 50,000,000 rows a reload can give is reloaded full, and the rest inserted")
    func grownSection() throws {
        let state = try play("""
            {"type": "reload", "sections": [{"rows": 50000000}, {"rows": 2}]}
            {"type": "insertRows", "at": [[0, 0], [0, 49999999]], "heights": [10, 20]}
            """)
        #expect(state.layout.rowCount(in: 0) == 50_000_002)
        let setUp = SetUpScript(reproducing: state)
        let table = try Self.rebuilt(setUp)
        #expect(table.layout == state.layout)
        #expect(table.layout.sections[0].rows.height(at: 49_999_999) == Points(20))
    }

    @Test("long lists of rows are cut into events of at most eventRows, which rebuild the same selection")
    func longListsAreCut() throws {
        // Every other row of section 0 selected, all of section 1: neither the selected
        // rows nor the others are few.
        var state = try play("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 250000, "rowHeight": 10}, {"rows": 3}]}
            {"type": "selectAll"}
            """)
        let every = (0..<125_000).map { "[0, \($0 * 2)]" }.joined(separator: ", ")
        try apply(&state, #"{"type": "deselect", "rows": [\#(every)]}"#)
        let setUp = SetUpScript(reproducing: state)
        let lists = setUp.events.compactMap { e -> Int? in
            switch e.event {
            case .select(let rows), .deselect(let rows): rows.count
            default: nil
            }
        }
        #expect(lists.count >= 2 && lists.allSatisfy { $0 <= SetUpScript.eventRows }, "\(lists)")
        #expect(lists.reduce(0, +) == 125_000 || lists.reduce(0, +) == 125_003)
        let table = try Self.rebuilt(setUp)
        #expect(table.selection == state.selection)
    }

    /// Every set-up event is within `EventLimits.eventBytes`, and they rebuild `state`.
    static func expectWithinLimits(_ state: TableState, sourceLocation: SourceLocation = #_sourceLocation) throws -> SetUpScript {
        let setUp = SetUpScript(reproducing: state)
        let largest = setUp.events.compactMap(\.event.fieldBytes).max() ?? 0
        #expect(largest <= EventLimits.eventBytes, "an event of \(largest) bytes", sourceLocation: sourceLocation)
        let table = try Self.rebuilt(setUp)
        #expect(table.layout == state.layout, sourceLocation: sourceLocation)
        #expect(table.selection == state.selection, sourceLocation: sourceLocation)
        #expect(table.editor?.options == state.editor?.options && table.editor?.chosen == state.editor?.chosen, sourceLocation: sourceLocation)
        return setUp
    }

    @Test("a table that took many events to build fits events of EventLimits.eventBytes: heights, titles and sections are spread over several")
    func largeTablesFitEvents() throws {
        // 400,000 rows of distinct heights, given by reloadRows 40,000 at a time.
        var heights = TableState()
        try heights.apply(.reload(sections: [SectionSpec(rows: 400_000, rowHeight: Points(44))]))
        for part in 0..<10 {
            let rows = (part * 40_000..<(part + 1) * 40_000)
            try heights.apply(.reloadRows(at: rows.map { RowPath(0, $0) }, heights: rows.map { Points(raw: Int64(64 * 20 + $0 % 5000)) }))
        }
        try heights.apply(.select(rows: [RowPath(0, 3)]))
        let spread = try Self.expectWithinLimits(heights)
        #expect(spread.events.count > 8)

        // 4,000 sections titled with 600 bytes each (2.4 MB), added 1,000 at a time, and a
        // section whose title fills an event, with rows added to it since.
        var titles = TableState()
        try titles.apply(.configure({ var c = ConfigurationPatch(); c.allowsMultipleSelection = true; return c }()))
        for part in 0..<4 {
            try titles.apply(.insertSections(at: Array(part * 1_000..<(part + 1) * 1_000),
                                             sections: (0..<1_000).map { SectionSpec(rows: 2, title: String(repeating: "t", count: 590) + "\(part)-\($0)") }))
        }
        let long = String(repeating: "L", count: EventLimits.eventBytes - 16)
        try titles.apply(.insertSections(at: [4_000], sections: [SectionSpec(rows: 1, title: long)]))
        #expect(try #require(Event.insertSections(at: [4_000], sections: [SectionSpec(rows: 1, title: long)]).fieldBytes) <= EventLimits.eventBytes)
        try titles.apply(.insertRows(at: (0..<300).map { RowPath(4_000, $0) }, heights: nil))
        try titles.apply(.select(rows: [RowPath(5, 1), RowPath(4_000, 299)]))
        let sections = try Self.expectWithinLimits(titles)
        #expect(sections.notCarried.allSatisfy { !$0.hasPrefix("section") }, "\(sections.notCarried)")
        #expect(try Self.rebuilt(sections).layout.sections[4_000].title == long)
    }

    @Test("an editor whose choices grew one choose at a time past what one event holds: as many as fit, then a choose for each other")
    func largeEditorFitsEvents() throws {
        var state = try play(multipleTable)
        // 330,000 options with as many chosen as leave 300 bytes of the event's room; then
        // 150 chooses of options past them (3 bytes each in the list) do not fit.
        let options = Array(repeating: "", count: 330_000)
        func bytes(_ chosen: [Int]) -> Int {
            Event.toggleEditor(row: RowPath(0, 1), options: options, multiple: true, chosen: chosen).fieldBytes ?? 0
        }
        var room = EventLimits.eventBytes - 300 - bytes([]) - 2, chosen = 0
        while room >= 3 {
            room -= chosen < 128 ? 1 : chosen < 16_384 ? 2 : 3
            chosen += 1
        }
        try state.apply(.toggleEditor(row: RowPath(0, 1), options: options, multiple: true, chosen: Array(0..<chosen)))
        for option in chosen..<chosen + 150 { try state.apply(.choose(option: option)) }
        #expect(bytes(state.editor?.chosen ?? []) > EventLimits.eventBytes)
        let setUp = try Self.expectWithinLimits(state)
        let chooses = setUp.events.filter { if case .choose = $0.event { true } else { false } }.count
        #expect(chooses > 0 && chooses <= 150, "\(chooses)")
    }

    @Test("whole sections selected among whole sections not: selectAll, then the others inserted, in a few events")
    func wholeSectionsSelected() throws {
        var state = try play("""
            {"type": "configure", "allowsMultipleSelection": true}
            {"type": "reload", "sections": [{"rows": 30000000, "rowHeight": 10}, {"rows": 4, "rowHeights": [7]}]}
            {"type": "selectAll"}
            {"type": "insertSections", "at": [1, 3], "sections": [{"rows": 40000000, "rowHeight": 20, "title": "B"}, {"rows": 0}]}
            {"type": "tap", "x": 100, "y": 5}
            """)
        try apply(&state, #"{"type": "reloadRows", "at": [[1, 39999999]], "heights": [33]}"#)
        #expect(state.selection.count == 30_000_003)
        let setUp = SetUpScript(reproducing: state)
        #expect(setUp.events.count < 12, "\(setUp.events.map(\.event.typeName))")
        let listed = setUp.events.reduce(0) { n, e in
            switch e.event {
            case .select(let rows), .deselect(let rows): n + rows.count
            default: n
            }
        }
        #expect(listed == 1, "only the tapped row is listed")
        let table = try Self.rebuilt(setUp)
        #expect(table.layout == state.layout)
        #expect(table.selection == state.selection)
        #expect(table.layout.sections[1].title == "B" && table.layout.sections[1].rows.height(at: 39_999_999) == Points(33))
    }
}

