/// Which way a `scrollAndSelect` strip hugs the table.
public enum StripEdge: String, Hashable, Sendable {
    case leading
    case trailing
}

/// What a selection pan does when the finger turns back (spec 5.3).
public enum Reversal: String, Hashable, Sendable {
    /// TableViewScrollAndSelect: the mode flips.
    case flip
    /// iOS multi-select: rows the finger retreats over go back to what they were.
    case restore
}

/// The touch strip of TableViewScrollAndSelect (spec 5.1).
public struct StripSettings: Hashable, Sendable {
    public var enabled = false
    public var edge = StripEdge.leading
    public var stripWidth = Points(70)
    public var topAnchor = Points(40)
    public var bottomAnchor = Points(-40)
    /// Rows per second, on the 1/64 grid like a length (spec 5.10.1).
    public var rowsPerSecond = Points(20)
    public var reversal = Reversal.flip
    public var jitter = Points(5)
    public init() {}
}

/// The table's settings (spec 5.1).
public struct Configuration: Hashable, Sendable {
    public var allowsSelection = true
    public var allowsMultipleSelection = false
    public var allowsSelectionDuringEditing = false
    public var allowsMultipleSelectionDuringEditing = false
    public var strip = StripSettings()
    public var multiSelectInteraction = false
    public var optionWidth = Points.zero
    public var undoLimit = 1000
    public init() {}

    /// The current mode's multiple flag (spec 3).
    public func multiple(editing: Bool) -> Bool {
        editing ? allowsMultipleSelectionDuringEditing : allowsMultipleSelection
    }

    /// The current mode's selection flag, or multiple (spec 3).
    public func selectable(editing: Bool) -> Bool {
        (editing ? allowsSelectionDuringEditing : allowsSelection) || multiple(editing: editing)
    }
}

/// The fields of a `scrollAndSelect` object; nil fields keep their value.
public struct StripPatch: Hashable, Sendable {
    public var enabled: Bool?
    public var edge: StripEdge?
    public var stripWidth: Points?
    public var topAnchor: Points?
    public var bottomAnchor: Points?
    public var rowsPerSecond: Points?
    public var reversal: Reversal?
    public var jitter: Points?
    public init() {}
}

/// A `configure` event: a partial update; nil fields keep their value.
public struct ConfigurationPatch: Hashable, Sendable {
    public var allowsSelection: Bool?
    public var allowsMultipleSelection: Bool?
    public var allowsSelectionDuringEditing: Bool?
    public var allowsMultipleSelectionDuringEditing: Bool?
    public var scrollAndSelect: StripPatch?
    public var multiSelectInteraction: Bool?
    public var optionWidth: Points?
    public var editorHeight: Points?
    public var undoLimit: Int?
    public init() {}
}
