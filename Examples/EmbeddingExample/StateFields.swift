import SelectLog

/// The state JSON's fields read through the Swift spellings of the DocC article
/// `EventsInSwift.md` ("State"), compiled here against the public API alone (the tests
/// import the core `@testable`, and would compile a spelling an app cannot use).
/// `EventsInSwiftTests` checks that every spelling in the article's table appears here.
func stateFieldSpellings(_ state: TableState) -> [String: Any] {
    [
        "events": state.events,
        "t": state.t,
        "sections": state.layout.sections.map(\.rowCount),
        "editing": state.editing,
        "selected": state.selection,
        "contentOffset": state.contentOffset,
        "contentHeight": state.layout.contentHeight,
        "visible": state.visibleRows as Any,
        "dragging": state.dragging,
        "decelerating": state.decelerating,
        "rowsToLoad": state.rowsToLoad as Any,
        "pan": state.pan as Any,
        "optionOpen": state.options.open as Any,
        "swipe": state.options.swipe as Any,
        "editor": state.editor as Any,
        "editorRow": state.layout.editorRow as Any,
        "undo": state.undoCount,
        "redo": state.redoCount,
        "hash": state.hashHex,
    ]
}
