import Foundation
import Testing
@testable import SelectLog

/// The scripts in Examples/bugs/: one per known defect of the components these behaviours come from.
@Suite("Bug zoo")
struct BugZooTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples")

    func replay(_ name: String, upTo limit: Int? = nil) throws -> TableState {
        let data = try Data(contentsOf: BugZooTests.examples.appendingPathComponent("bugs/\(name).jsonl"))
        var state = TableState()
        try Script(bytes: Array(data)).replay(upTo: limit, into: &state)
        return state
    }

    @Test("a fast pan that jumps eight rows between samples selects every row between, and none past the finger")
    func fastPan() throws {
        let s = try replay("fast-pan-skips-rows")
        #expect(s.selected == rows(1...9))
        #expect(s.undoStack.count == 1)
    }

    @Test("a reversal over a section header during auto-scroll stops the auto-scroll instead of scrolling the wrong way")
    func reversalOverHeader() throws {
        let before = try replay("reversal-over-header-during-autoscroll", upTo: 7)
        #expect(before.pan?.autoscroll == .down)
        #expect(before.offset == 100)
        let s = try replay("reversal-over-header-during-autoscroll")
        #expect(s.pan != nil && s.pan?.autoscroll == nil)
        #expect(s.offset == 100)
        #expect(s.pan?.mode == .deselect)
        #expect(s.selected == rows(6...11) + [p(1, 0), p(1, 1)])
    }

    @Test("an open option view follows its row when a row is inserted above it")
    func optionViewAfterInsert() throws {
        let s = try replay("option-view-after-insert")
        #expect(s.options.open == p(0, 4))
    }

    @Test("tapping the editor row itself changes nothing")
    func tapEditorRow() throws {
        let before = try replay("tap-editor-row", upTo: 3)
        let s = try replay("tap-editor-row")
        #expect(s.hashHex == before.hashHex)
        #expect(s.layout.editorRow == p(0, 2))
        #expect(s.selected.isEmpty && s.undoStack.isEmpty)
    }

    @Test("a two-finger pan where multiple selection during editing is off scrolls and does not enter editing")
    func twoFingerScrolls() throws {
        let s = try replay("two-finger-without-multiple-editing")
        #expect(!s.editing)
        #expect(s.pan?.kind == .scroll)
        #expect(s.dragging)
        #expect(s.offset == 100)
    }

    @Test("every example script replays with its invariants intact")
    func examplesReplay() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: BugZooTests.examples.path).filter { $0.hasSuffix(".jsonl") }
            + FileManager.default.contentsOfDirectory(atPath: BugZooTests.examples.appendingPathComponent("bugs").path).map { "bugs/" + $0 }
        #expect(names.count >= 12)
        for name in names {
            let data = try Data(contentsOf: BugZooTests.examples.appendingPathComponent(name))
            var state = TableState()
            try Script(bytes: Array(data)).replay(into: &state)
            #expect(state.invariantViolations().isEmpty, "\(name)")
        }
    }
}
