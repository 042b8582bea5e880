import SelectLog
import Testing

@Suite("A patch that sets a whole configuration")
struct ConfigurationPatchTests {
    @Test("configure with ConfigurationPatch(setting:) recreates every setting on a fresh table", arguments: 1...20)
    func recreates(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        func flag() -> Bool { rng.next() & 1 == 1 }
        func length(_ range: ClosedRange<Int64>) -> Points { Points(raw: range.lowerBound + Int64(rng.next() % UInt64(range.upperBound - range.lowerBound + 1))) }
        var patch = ConfigurationPatch()
        patch.allowsSelection = flag()
        patch.allowsMultipleSelection = flag()
        patch.allowsSelectionDuringEditing = flag()
        patch.allowsMultipleSelectionDuringEditing = flag()
        patch.multiSelectInteraction = flag()
        patch.optionWidth = length(0...6_400)
        patch.editorHeight = length(0...6_400)
        patch.undoLimit = Int(rng.next() % 2_000)
        var strip = StripPatch()
        strip.enabled = flag()
        strip.edge = flag() ? .leading : .trailing
        strip.stripWidth = length(0...9_000)
        strip.topAnchor = length(-3_000...3_000)
        strip.bottomAnchor = length(-3_000...3_000)
        strip.rowsPerSecond = length(0...3_000)
        strip.reversal = flag() ? .flip : .restore
        strip.jitter = length(0...1_000)
        patch.scrollAndSelect = strip
        var original = TableState()
        try original.apply(.configure(patch))

        var copy = TableState()
        try copy.apply(.configure(ConfigurationPatch(setting: original.configuration, editorHeight: original.layout.editorHeight)))
        #expect(copy.configuration == original.configuration, "seed \(seed)")
        #expect(copy.layout.editorHeight == original.layout.editorHeight, "seed \(seed)")
        #expect(copy.hashHex == original.hashHex, "seed \(seed)")
    }

    /// A configure took a `var` and an assignment per field (a review as an app developer).
    @Test("a patch made in one expression equals the one made field by field, and nil fields keep their value")
    func oneExpression() throws {
        let strip = StripPatch(enabled: true, edge: .trailing, rowsPerSecond: Points(12))
        var stripByField = StripPatch()
        stripByField.enabled = true
        stripByField.edge = .trailing
        stripByField.rowsPerSecond = Points(12)
        #expect(strip == stripByField)
        let patch = ConfigurationPatch(allowsMultipleSelection: true, scrollAndSelect: strip, undoLimit: 7)
        var byField = ConfigurationPatch()
        byField.allowsMultipleSelection = true
        byField.scrollAndSelect = stripByField
        byField.undoLimit = 7
        #expect(patch == byField)
        #expect(ConfigurationPatch() == ConfigurationPatch(allowsSelection: nil) && StripPatch() == StripPatch(jitter: nil))
        var table = TableState()
        try table.apply(.configure(ConfigurationPatch(allowsSelection: false)))
        try table.apply(.configure(patch))
        #expect(table.configuration.allowsSelection == false)
        #expect(table.configuration.allowsMultipleSelection && table.configuration.undoLimit == 7)
        #expect(table.configuration.strip.enabled && table.configuration.strip.edge == .trailing)
    }
}

