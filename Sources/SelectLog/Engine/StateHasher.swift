/// Hashes the states of one session as a walk reaches them: each state's `hashValue64`,
/// keeping the part of the hash that the configuration and the layout's sections make
/// (the canonical form's first part) while they stay the same. A state whose table did
/// not change then costs its selection, gesture, editor and history, not a walk of every
/// row height: the viewer, which shows the hash after every event of its window, took
/// about a millisecond an event on a table of 20,000 varied heights.
package struct StateHasher {
    /// What the kept part was made from; nil before the first state.
    private var configuration: Configuration?
    private var editorHeight = Points.zero
    /// Held, so that an unchanged array is found by its identity (`Array ==` compares the
    /// buffers first, and a row's `HeightTree` its root) without a walk of the heights.
    private var sections: [LayoutSection] = []
    /// The hash of the first part.
    private var table = CanonicalHasher()

    package init() {}

    /// `state.hashValue64`.
    package mutating func hash(_ state: TableState) -> UInt64 {
        let layout = state.layout
        if configuration != state.configuration || editorHeight != layout.editorHeight || sections != layout.sections {
            var w = BinaryWriter(capacity: 1024)
            w.hasher = CanonicalHasher()
            state.writeCanonicalTable(into: &w)
            var h = w.hasher ?? CanonicalHasher()
            h.bytes(w.bytes)
            (table, configuration, editorHeight, sections) = (h, state.configuration, layout.editorHeight, layout.sections)
        }
        var w = BinaryWriter(capacity: 1024)
        w.hasher = table
        state.writeCanonicalRest(into: &w)
        var h = w.hasher ?? table
        h.bytes(w.bytes)
        return h.digest
    }
}
