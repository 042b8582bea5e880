import SelectLog
import Testing

/// The shrink's "simplify" stage: a recorded app's whole table and every setting cut to
/// what the expectation needs, the script still 1-minimal.
@Suite("Shrink: reload and configure simplified")
struct ShrinkSimplifyTests {
    /// The events of `lines`, a script.
    static func events(_ lines: [String]) throws -> [TimedEvent] {
        try Script(bytes: Array(lines.joined(separator: "\n").utf8)).events
    }

    /// Whether `events` replays from an empty table with `expectation` holding at the end.
    static func passes(_ events: [TimedEvent], _ expectation: StateExpectation) -> Bool {
        var state = TableState()
        for e in events {
            do { try state.apply(e) } catch { return false }
        }
        return expectation.holds(in: state)
    }

    /// The script's lines, as `selectlog shrink` writes them (without times).
    static func lines(_ events: [TimedEvent]) -> [String] { events.map { EventEncoder.line(TimedEvent($0.event)) } }

    static func shrunk(_ lines: [String], _ expectation: String) throws -> (lines: [String], stages: [String]) {
        let expect = try StateExpectation(expectation)
        var stages: [String] = []
        let result = try Shrinker(expectation: expect).shrink(try events(lines)) { p in
            if stages.last != p.stage { stages.append(p.stage) }
        }
        #expect(passes(result.events, expect))
        // 1-minimal still: no single event can go.
        for k in result.events.indices {
            var fewer = result.events
            fewer.remove(at: k)
            #expect(!passes(fewer, expect), "event \(k + 1) could be deleted: \(Self.lines(result.events))")
        }
        return (Self.lines(result.events), stages)
    }

    /// Twenty sections with per-row heights, headers and titles, every setting configured.
    static let recordedTable: [String] = {
        let heights = (0..<30).map { [44, 88, 60][$0 % 3] }.map(String.init).joined(separator: ", ")
        let sections = (0..<20).map { #"{"rows": 30, "rowHeight": 44, "rowHeights": [\#(heights)], "header": 28, "footer": 10, "title": "S\#($0)"}"# }
        return [
            #"{"type": "configure", "allowsMultipleSelection": true, "allowsMultipleSelectionDuringEditing": true, "scrollAndSelect": {"enabled": true, "rowsPerSecond": 20, "jitter": 5}, "multiSelectInteraction": true, "optionWidth": 88, "undoLimit": 50}"#,
            #"{"type": "viewport", "width": 390, "height": 844}"#,
            #"{"type": "reload", "sections": [\#(sections.joined(separator: ", "))]}"#,
        ]
    }()

    /// The sections of the result's `reload`.
    static func reloaded(_ lines: [String]) throws -> [SectionSpec] {
        for e in try events(lines) { if case .reload(let sections) = e.event { return sections } }
        Issue.record("no reload in \(lines)")
        return []
    }

    @Test("a programmatic selection needs its section and row: later sections, rows and titles go, the settings too; no row moves")
    func selection() throws {
        let (lines, stages) = try Self.shrunk(Self.recordedTable + [#"{"type": "select", "rows": [[1, 5]]}"#], "selected contains [1, 5]")
        let sections = try Self.reloaded(lines)
        #expect(sections.count == 2, "\(lines)")
        // The last section's rows from the end only, as few as row 5 needs, their heights with them.
        #expect(sections.last?.rows == 6 && sections.last?.rowHeights?.count == 6, "\(lines)")
        // The first section stays as it was but for its title: the rows after it keep their places.
        #expect(sections.first?.rows == 30 && sections.first?.rowHeights?.count == 30 && sections.first?.header == Points(28), "\(lines)")
        #expect(sections.allSatisfy { $0.title == nil && $0.rowHeight == nil }, "a row height of 44 is the default: \(lines)")
        #expect(lines.count == 2 && lines.last == #"{"type": "select", "rows": [[1, 5]]}"#, "the configure went: \(lines)")
        #expect(stages.contains("events") && stages.last == "simplify", "\(stages)")
    }

    @Test("a jump by title keeps the title it names; the others go")
    func titleKept() throws {
        let (lines, _) = try Self.shrunk(Self.recordedTable + [#"{"type": "jumpToSection", "title": "S3"}"#], "contentOffset > 0")
        let sections = try Self.reloaded(lines)
        #expect(sections.count == 4 && sections[3].title == "S3", "\(lines)")
        #expect(sections.dropLast().allSatisfy { $0.title == nil }, "\(lines)")
    }

    @Test("the one title a jump names among thousands is kept in two candidates, not one for each title")
    func titlesByHalves() throws {
        let sections = (0..<4096).map { #"{"rows": 1, "title": "S\#($0)"}"# }.joined(separator: ", ")
        let script = [#"{"type": "reload", "sections": [\#(sections)]}"#, #"{"type": "jumpToSection", "title": "S4000"}"#]
        let expectation = try StateExpectation("contentOffset > 0")
        let result = try Shrinker(expectation: expectation).shrink(try Self.events(script))
        #expect(Self.passes(result.events, expectation))
        let kept = try Self.reloaded(Self.lines(result.events))
        #expect(kept.indices.filter { kept[$0].title != nil } == [4000], "\(kept.compactMap(\.title).prefix(5))")
        #expect(result.tests < 200, "\(result.tests) candidates")
    }

    /// Scripts whose set-up could be cut so that a tap lands on another row, and the
    /// expectation, which does not name the row, still hold (from a review of the stage).
    static let landingCases: [(lines: [String], expect: String)] = [
        // A table cut short clamps the scroll to another offset.
        ([#"{"type": "reload", "sections": [{"rows": 40}]}"#, #"{"type": "scroll", "y": 900}"#, #"{"type": "tap", "x": 200, "y": 10}"#],
         "count(selected) == 1 and contentOffset > 0"),
        // A section inserted after the reload moves up when the reload's last section is cut.
        ([#"{"type": "reload", "sections": [{"rows": 5}, {"rows": 5}, {"rows": 20}]}"#,
          #"{"type": "insertSections", "at": [3], "sections": [{"rows": 30}]}"#, #"{"type": "scroll", "y": 1000}"#,
          #"{"type": "tap", "x": 200, "y": 418}"#], "count(selected) == 1 and contentOffset == 1000"),
        // Without its editorHeight the editor row is shorter, and the rows below it move up.
        ([#"{"type": "configure", "allowsMultipleSelection": true, "editorHeight": 200}"#, #"{"type": "reload", "sections": [{"rows": 30}]}"#,
          #"{"type": "toggleEditor", "row": [0, 0], "options": ["a", "b"]}"#, #"{"type": "tap", "x": 200, "y": 300}"#,
          #"{"type": "tap", "x": 200, "y": 20}"#], "count(selected) >= 2 and editor != null"),
    ]

    @Test("no simplification makes a later tap land elsewhere: the shrunk script selects the rows the session did",
          arguments: Self.landingCases.indices)
    func landings(_ index: Int) throws {
        let c = Self.landingCases[index]
        var original = TableState()
        for e in try Self.events(c.lines) { try original.apply(e) }
        let (lines, _) = try Self.shrunk(c.lines, c.expect)
        var shrunk = TableState()
        for e in try Self.events(lines) { try shrunk.apply(e) }
        #expect(shrunk.selection.paths == original.selection.paths, "\(lines)")
        #expect(shrunk.contentOffset == original.contentOffset, "\(lines)")
    }

    @Test("a setting left out that would reveal a swipe to another width is not kept: the swipe reveals what it did")
    func swipeWidth() throws {
        // A swipe on the open row starts at `optionWidth` (EVENTS.md 5.10.10): 100 pt
        // here. Without the second configure's width, the first's 50 pt would apply,
        // the expectation would still hold, and nothing else would show it.
        let script = [#"{"type": "reload", "sections": [{"rows": 10}]}"#, #"{"type": "configure", "optionWidth": 50}"#,
                      #"{"type": "setOptionVisible", "row": [0, 7], "visible": true}"#,
                      #"{"type": "configure", "allowsMultipleSelection": true, "optionWidth": 100}"#,
                      #"{"type": "select", "rows": [[0, 1], [0, 2]]}"#, #"{"type": "swipeBegan", "row": [0, 7]}"#]
        var original = TableState()
        for e in try Self.events(script) { try original.apply(e) }
        let (lines, _) = try Self.shrunk(script, "swipe.row == [0, 7] and optionOpen == [0, 7] and count(selected) == 2")
        var shrunk = TableState()
        for e in try Self.events(lines) { try shrunk.apply(e) }
        #expect(original.options.swipe == .active(row: RowPath(0, 7), offset: Points(100)))
        #expect(shrunk.options.swipe == original.options.swipe, "\(lines)")
    }

    @Test("the fewest sections and rows, not the next power of two, nor the size as it was when no power of two will do")
    func fewest() throws {
        let (lines, _) = try Self.shrunk(Self.recordedTable + [#"{"type": "select", "rows": [[2, 2]]}"#], "selected contains [2, 2]")
        let sections = try Self.reloaded(lines)
        #expect(sections.count == 3 && sections.last?.rows == 3, "\(lines)")
        let (rows, _) = try Self.shrunk([#"{"type": "reload", "sections": [{"rows": 100}]}"#, #"{"type": "select", "rows": [[0, 69]]}"#],
                                        "selected contains [0, 69]")
        #expect(try Self.reloaded(rows).first?.rows == 70, "\(rows)")
        let seven = (0..<7).map { _ in #"{"rows": 3}"# }.joined(separator: ", ")
        let (five, _) = try Self.shrunk([#"{"type": "reload", "sections": [\#(seven)]}"#, #"{"type": "select", "rows": [[4, 1]]}"#],
                                        "selected contains [4, 1]")
        #expect(try Self.reloaded(five).count == 5, "\(five)")
    }

    @Test("a shorter table that would let a clamp do a scroll's work is not kept: the script keeps its route")
    func clampRoute() throws {
        let script = [#"{"type": "configure", "allowsMultipleSelection": true}"#, #"{"type": "reload", "sections": [{"rows": 100, "rowHeight": 50}]}"#,
                      #"{"type": "scroll", "y": 1000}"#, #"{"type": "select", "rows": [[0, 30]]}"#, #"{"type": "scroll", "dy": -300}"#,
                      #"{"type": "select", "rows": [[0, 35]]}"#, #"{"type": "scroll", "dy": 456}"#, #"{"type": "select", "rows": [[0, 20]]}"#,
                      #"{"type": "scroll", "dy": -1000}"#, #"{"type": "tap", "x": 200, "y": 10}"#]
        let (lines, _) = try Self.shrunk(script, "selected == [[0, 3], [0, 20], [0, 30], [0, 35]]")
        // The shrunk script with the recorded table put back scrolls and taps as it does.
        let shrunk = try Self.events(lines)
        let original = try Self.events(script)
        let restored = shrunk.map { e -> TimedEvent in
            if case .reload = e.event { return original[1] }
            return e
        }
        var a = TableState(), b = TableState()
        for (x, y) in zip(shrunk, restored) {
            try a.apply(x)
            try b.apply(y)
            #expect(a.contentOffset == b.contentOffset && a.selection == b.selection, "after \(x): \(lines)")
        }
    }

    @Test("a table cut so short that a pan's deceleration never starts is not kept")
    func deceleration() throws {
        let script = [#"{"type": "reload", "sections": [{"rows": 100}]}"#, #"{"type": "panBegan", "x": 200, "y": 500}"#,
                      #"{"type": "panMoved", "x": 200, "y": 464}"#, #"{"type": "panEnded", "x": 200, "y": 464, "targetOffset": 2000}"#]
        var original = TableState()
        for e in try Self.events(script) { try original.apply(e) }
        let (lines, _) = try Self.shrunk(script, "contentOffset == 36 and pan == null")
        var shrunk = TableState()
        for e in try Self.events(lines) { try shrunk.apply(e) }
        #expect(original.decelerating && shrunk.decelerating == original.decelerating, "\(lines)")
        #expect(shrunk.rowsToLoad == original.rowsToLoad, "\(lines)")
    }

    @Test("a session that configures 500 times, none of which can go, costs a candidate a configure, not one a setting")
    func manyConfigures() throws {
        var script = [#"{"type": "reload", "sections": [{"rows": 30}]}"#]
        for k in 0..<500 {
            script.append(#"{"type": "configure", "allowsMultipleSelection": \#(k % 2 == 0), "optionWidth": \#(k % 90 + 1), "undoLimit": \#(100 + k), "scrollAndSelect": {"enabled": true, "jitter": 3}}"#)
        }
        script.append(#"{"type": "select", "rows": [[0, 4]]}"#)
        // `events` counts them all: no configure can go, and each has six settings.
        let expectation = try StateExpectation("events == 502 and selected contains [0, 4]")
        var stages: [String: Int] = [:]
        var last = ("", 0)
        let result = try Shrinker(expectation: expectation).shrink(try Self.events(script)) { p in
            stages[last.0, default: 0] += p.tests - last.1
            last = (p.stage, p.tests)
        }
        stages[last.0, default: 0] += result.tests - last.1
        #expect(Self.passes(result.events, expectation))
        #expect(result.events.count == 502)
        #expect(result.events.dropFirst().dropLast().allSatisfy { $0.event == .configure(ConfigurationPatch()) }, "\(Self.lines(Array(result.events.prefix(3))))")
        // All six settings of each at once: about one candidate a configure (one a setting
        // would be 3,000), and one replay an event for the check that the result is still
        // 1-minimal. Counted between progress reports, so up to a report's worth (256) of
        // the stage before counts here too.
        #expect((stages["simplify"] ?? 0) <= 500 + 502 + 256 + 50, "\(stages)")
    }

    @Test("the debugging example keeps the row edit its pan needs: no row moves, so the pan selects what it did")
    func debuggingExample() throws {
        let script = try String(contentsOfFile: EventsInSwiftTests.repository + "/Examples/debugging-session.jsonl", encoding: .utf8)
        let (lines, _) = try Self.shrunk(script.split(separator: "\n").map(String.init), "selected contains [0, 6] and optionOpen == [0, 3]")
        #expect(lines.contains { $0.hasPrefix(#"{"type": "moveRow""#) }, "\(lines)")
        let sections = try Self.reloaded(lines)
        #expect(sections.count == 1 && sections[0].rowHeight == Points(50) && sections[0].rows < 20 && sections[0].title == nil, "\(lines)")
    }

    @Test("a strip pan keeps the strip and multiple selection; settings it does not need go")
    func stripPan() throws {
        var script = Self.recordedTable
        script += [#"{"type": "panBegan", "t": 1000, "x": 20, "y": 60}"#]
        for k in 1...12 { script.append(#"{"type": "panMoved", "t": \#(1000 + 8 * k), "x": 20, "y": \#(60 + 25 * k)}"#) }
        script.append(#"{"type": "panEnded", "t": 1200}"#)
        var state = TableState()
        for e in try Self.events(script) { try state.apply(e) }
        let row = try #require(state.selection.paths.last)
        let (lines, _) = try Self.shrunk(script, "selected contains [\(row.section), \(row.row)] and count(selected) >= 3")
        let configure = try #require(lines.first { $0.hasPrefix(#"{"type": "configure""#) }, "\(lines)")
        #expect(configure.contains(#""allowsMultipleSelection": true"#) && configure.contains(#""enabled": true"#), "\(configure)")
        #expect(!configure.contains("undoLimit") && !configure.contains("optionWidth") && !configure.contains("rowsPerSecond"), "\(configure)")
    }

}
