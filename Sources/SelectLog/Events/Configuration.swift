/// Which way a `scrollAndSelect` strip hugs the table.
public enum StripEdge: String, Hashable, Sendable {
    /// The strip hugs x = 0.
    case leading
    /// The strip hugs x = width.
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
    /// Whether strip pans select.
    public var enabled = false
    /// The edge the strip hugs.
    public var edge = StripEdge.leading
    /// The strip's width.
    public var stripWidth = Points(70)
    /// Auto-scroll up while the finger's y is below this.
    public var topAnchor = Points(40)
    /// Auto-scroll down while the finger's y is above height plus this.
    public var bottomAnchor = Points(-40)
    /// Rows per second, on the 1/64 grid like a length (spec 5.10.1).
    public var rowsPerSecond = Points(20)
    /// What a turning finger does.
    public var reversal = Reversal.flip
    /// Finger moves under this many points are ignored.
    public var jitter = Points(5)
    /// The contract's defaults.
    public init() {}
}

/// The table's settings (spec 5.1).
public struct Configuration: Hashable, Sendable {
    /// Whether rows can be selected outside editing.
    public var allowsSelection = true
    /// Whether several rows can be selected outside editing.
    public var allowsMultipleSelection = false
    /// Whether rows can be selected while editing.
    public var allowsSelectionDuringEditing = false
    /// Whether several rows can be selected while editing.
    public var allowsMultipleSelectionDuringEditing = false
    /// The touch strip (`scrollAndSelect`).
    public var strip = StripSettings()
    /// Whether a two-finger pan starts multi-select (5.3).
    public var multiSelectInteraction = false
    /// The width of a row's option view; 0 means none.
    public var optionWidth = Points.zero
    /// The most undo steps kept.
    public var undoLimit = 1000
    /// The contract's defaults.
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
    /// New `StripSettings.enabled`, or nil.
    public var enabled: Bool?
    /// New `StripSettings.edge`, or nil.
    public var edge: StripEdge?
    /// New `StripSettings.stripWidth` (not negative), or nil.
    public var stripWidth: Points?
    /// New `StripSettings.topAnchor`, or nil.
    public var topAnchor: Points?
    /// New `StripSettings.bottomAnchor`, or nil.
    public var bottomAnchor: Points?
    /// New `StripSettings.rowsPerSecond` (not negative), or nil.
    public var rowsPerSecond: Points?
    /// New `StripSettings.reversal`, or nil.
    public var reversal: Reversal?
    /// New `StripSettings.jitter` (not negative), or nil.
    public var jitter: Points?
    /// A patch of the fields given; `StripPatch()` changes nothing.
    public init(enabled: Bool? = nil, edge: StripEdge? = nil, stripWidth: Points? = nil, topAnchor: Points? = nil,
                bottomAnchor: Points? = nil, rowsPerSecond: Points? = nil, reversal: Reversal? = nil, jitter: Points? = nil) {
        self.enabled = enabled
        self.edge = edge
        self.stripWidth = stripWidth
        self.topAnchor = topAnchor
        self.bottomAnchor = bottomAnchor
        self.rowsPerSecond = rowsPerSecond
        self.reversal = reversal
        self.jitter = jitter
    }
}

/// A `configure` event: a partial update; nil fields keep their value.
public struct ConfigurationPatch: Hashable, Sendable {
    /// New `Configuration.allowsSelection`, or nil.
    public var allowsSelection: Bool?
    /// New `Configuration.allowsMultipleSelection`, or nil.
    public var allowsMultipleSelection: Bool?
    /// New `Configuration.allowsSelectionDuringEditing`, or nil.
    public var allowsSelectionDuringEditing: Bool?
    /// New `Configuration.allowsMultipleSelectionDuringEditing`, or nil.
    public var allowsMultipleSelectionDuringEditing: Bool?
    /// Changes to the touch strip, merged into the current settings, or nil.
    public var scrollAndSelect: StripPatch?
    /// New `Configuration.multiSelectInteraction`, or nil.
    public var multiSelectInteraction: Bool?
    /// New `Configuration.optionWidth` (not negative), or nil.
    public var optionWidth: Points?
    /// The editor row's height (not negative), or nil.
    public var editorHeight: Points?
    /// New `Configuration.undoLimit` (not negative), or nil.
    public var undoLimit: Int?
    /// A patch of the fields given, in one expression; `ConfigurationPatch()` changes
    /// nothing.
    ///
    /// ```swift
    /// try table.apply(.configure(ConfigurationPatch(allowsMultipleSelection: true,
    ///                                               scrollAndSelect: StripPatch(enabled: true))))
    /// ```
    public init(allowsSelection: Bool? = nil, allowsMultipleSelection: Bool? = nil, allowsSelectionDuringEditing: Bool? = nil,
                allowsMultipleSelectionDuringEditing: Bool? = nil, scrollAndSelect: StripPatch? = nil,
                multiSelectInteraction: Bool? = nil, optionWidth: Points? = nil, editorHeight: Points? = nil, undoLimit: Int? = nil) {
        self.allowsSelection = allowsSelection
        self.allowsMultipleSelection = allowsMultipleSelection
        self.allowsSelectionDuringEditing = allowsSelectionDuringEditing
        self.allowsMultipleSelectionDuringEditing = allowsMultipleSelectionDuringEditing
        self.scrollAndSelect = scrollAndSelect
        self.multiSelectInteraction = multiSelectInteraction
        self.optionWidth = optionWidth
        self.editorHeight = editorHeight
        self.undoLimit = undoLimit
    }
}

extension StripPatch {
    /// A patch that sets every strip setting to `settings`' value.
    public init(setting settings: StripSettings) {
        enabled = settings.enabled
        edge = settings.edge
        stripWidth = settings.stripWidth
        topAnchor = settings.topAnchor
        bottomAnchor = settings.bottomAnchor
        rowsPerSecond = settings.rowsPerSecond
        reversal = settings.reversal
        jitter = settings.jitter
    }
}

extension ConfigurationPatch {
    /// A patch that sets every field to `configuration`'s value (and the editor row's
    /// height to `editorHeight`): the one `configure` event that recreates a configuration,
    /// as a slice's set-up prefix does, or as a reader does to validate a checkpoint's.
    public init(setting configuration: Configuration, editorHeight: Points) {
        allowsSelection = configuration.allowsSelection
        allowsMultipleSelection = configuration.allowsMultipleSelection
        allowsSelectionDuringEditing = configuration.allowsSelectionDuringEditing
        allowsMultipleSelectionDuringEditing = configuration.allowsMultipleSelectionDuringEditing
        scrollAndSelect = StripPatch(setting: configuration.strip)
        multiSelectInteraction = configuration.multiSelectInteraction
        optionWidth = configuration.optionWidth
        self.editorHeight = editorHeight
        undoLimit = configuration.undoLimit
    }
}

extension ConfigurationPatch {
    /// This patch followed by `later`: one patch with the effect of `configure` with this
    /// patch's fields and then `later`'s (the fields `later` sets win; `scrollAndSelect`
    /// fields merge one by one).
    package func merging(_ later: ConfigurationPatch) -> ConfigurationPatch {
        var p = self
        if let v = later.allowsSelection { p.allowsSelection = v }
        if let v = later.allowsMultipleSelection { p.allowsMultipleSelection = v }
        if let v = later.allowsSelectionDuringEditing { p.allowsSelectionDuringEditing = v }
        if let v = later.allowsMultipleSelectionDuringEditing { p.allowsMultipleSelectionDuringEditing = v }
        if let v = later.multiSelectInteraction { p.multiSelectInteraction = v }
        if let v = later.optionWidth { p.optionWidth = v }
        if let v = later.editorHeight { p.editorHeight = v }
        if let v = later.undoLimit { p.undoLimit = v }
        if let s = later.scrollAndSelect {
            var strip = p.scrollAndSelect ?? StripPatch()
            if let v = s.enabled { strip.enabled = v }
            if let v = s.edge { strip.edge = v }
            if let v = s.stripWidth { strip.stripWidth = v }
            if let v = s.topAnchor { strip.topAnchor = v }
            if let v = s.bottomAnchor { strip.bottomAnchor = v }
            if let v = s.rowsPerSecond { strip.rowsPerSecond = v }
            if let v = s.reversal { strip.reversal = v }
            if let v = s.jitter { strip.jitter = v }
            p.scrollAndSelect = strip
        }
        return p
    }
}
