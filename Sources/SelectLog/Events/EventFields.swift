/// The `type` of an event, as scripts write it (spec 4, 5.11).
///
/// Each type knows the fields the contract names for it (`fields`); the JSON
/// decoder, the JSON encoder, the unknown-field check and its "did you mean" all
/// read that one table, so adding a field to an event is one edit here.
public enum EventType: String, CaseIterable, Hashable, Sendable {
    /// Set-up (5.1).
    case configure, viewport, reload, setEditing
    /// Taps (5.2).
    case tap
    /// Pans (5.3).
    case panBegan, panMoved, panEnded, panCancelled
    /// Scrolling (5.4).
    case scroll, jumpToSection
    /// Option views (5.5).
    case swipeBegan, swipeMoved, swipeEnded, setOptionVisible
    /// The editor row (5.6).
    case toggleEditor, choose
    /// Time (5.7).
    case tick
    /// Row edits (5.8).
    case insertRows, deleteRows, moveRow, reloadRows, batch, insertSections, deleteSections
    /// Programmatic selection and undo (5.9).
    case select, deselect, selectAll, deselectAll, undo, redo

    /// The fields the contract names for this type besides `t` and `type` (spec 5.11),
    /// in the order the encoder writes them.
    package var fields: [EventField] {
        switch self {
        case .configure:
            [.allowsSelection, .allowsMultipleSelection, .allowsSelectionDuringEditing,
             .allowsMultipleSelectionDuringEditing, .scrollAndSelect, .multiSelectInteraction,
             .optionWidth, .editorHeight, .undoLimit]
        case .viewport: [.width, .height]
        case .reload: [.sections]
        case .setEditing: [.editing]
        case .tap, .panMoved: [.x, .y]
        case .panBegan: [.x, .y, .fingers]
        case .panEnded: [.x, .y, .targetOffset]
        case .scroll: [.y, .dy, .phase, .target]
        case .jumpToSection: [.section, .title]
        case .swipeBegan: [.row]
        case .swipeMoved: [.offset]
        case .swipeEnded: [.velocity]
        case .setOptionVisible: [.row, .visible]
        case .toggleEditor: [.row, .options, .multiple, .chosen]
        case .choose: [.option]
        case .insertRows, .reloadRows: [.at, .heights]
        case .deleteRows, .deleteSections: [.at]
        case .moveRow: [.from, .to]
        case .batch: [.deletes, .inserts, .insertHeights, .moves, .reloads, .reloadHeights]
        case .insertSections: [.at, .sections]
        case .select, .deselect: [.rows]
        case .panCancelled, .tick, .selectAll, .deselectAll, .undo, .redo: []
        }
    }
}

/// A nested object of an event, with fields of its own (spec 5.11).
package enum EventObject: String, CaseIterable, Sendable {
    /// `configure`'s `scrollAndSelect`.
    case scrollAndSelect
    /// One entry of `reload`'s or `insertSections`' `sections`.
    case section

    /// The fields the contract names for the object, in the order the encoder writes them.
    package var fields: [EventField] {
        switch self {
        case .scrollAndSelect: [.enabled, .edge, .stripWidth, .topAnchor, .bottomAnchor, .rowsPerSecond, .reversal, .jitter]
        case .section: [.rows, .rowHeight, .rowHeights, .header, .footer, .title]
        }
    }
}

/// Every field name the contract uses in an event or its nested objects, besides
/// `t` and `type` (which every event may carry).
package enum EventField: String, CaseIterable, Sendable {
    // configure
    case allowsSelection, allowsMultipleSelection, allowsSelectionDuringEditing, allowsMultipleSelectionDuringEditing
    case scrollAndSelect, multiSelectInteraction, optionWidth, editorHeight, undoLimit
    // scrollAndSelect
    case enabled, edge, stripWidth, topAnchor, bottomAnchor, rowsPerSecond, reversal, jitter
    // a section
    case rows, rowHeight, rowHeights, header, footer, title
    // the events
    case width, height, sections, editing
    case x, y, fingers, targetOffset
    case dy, phase, target, section
    case row, offset, velocity, visible
    case options, multiple, chosen, option
    case at, heights, from, to
    case deletes, inserts, insertHeights, moves, reloads, reloadHeights

    /// The time field every event may carry.
    package static let time = "t"
    /// The type field every event carries.
    package static let type = "type"
}

extension Event {
    /// The event's type.
    public var type: EventType {
        switch self {
        case .configure: .configure
        case .viewport: .viewport
        case .reload: .reload
        case .setEditing: .setEditing
        case .tap: .tap
        case .panBegan: .panBegan
        case .panMoved: .panMoved
        case .panEnded: .panEnded
        case .panCancelled: .panCancelled
        case .scroll: .scroll
        case .jumpToSection: .jumpToSection
        case .swipeBegan: .swipeBegan
        case .swipeMoved: .swipeMoved
        case .swipeEnded: .swipeEnded
        case .setOptionVisible: .setOptionVisible
        case .toggleEditor: .toggleEditor
        case .choose: .choose
        case .tick: .tick
        case .insertRows: .insertRows
        case .deleteRows: .deleteRows
        case .moveRow: .moveRow
        case .reloadRows: .reloadRows
        case .batch: .batch
        case .insertSections: .insertSections
        case .deleteSections: .deleteSections
        case .select: .select
        case .deselect: .deselect
        case .selectAll: .selectAll
        case .deselectAll: .deselectAll
        case .undo: .undo
        case .redo: .redo
        }
    }
}
