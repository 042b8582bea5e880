/// The lists of the `TableChanges` that `apply(_:)` returned last, reused for the next.
///
/// A non-empty array is a heap allocation, and most events that change anything change
/// one row or begin one gesture. The state keeps a reference to the lists it returned
/// last; once the caller has dropped those changes (the recorder, replay, a host that
/// mirrors them at once), the state is their only owner and the next lists are written
/// into them in place, so a pan sample that selects a row allocates nothing. A caller
/// that keeps its changes keeps their lists, and the next are allocated afresh, as they
/// would be without this. Lists holding storage for more than `keptCapacity` elements
/// (a `select` of hundreds of scattered rows; a `selectAll` is one run per section) are
/// not kept, so the state never holds on to more than a few kilobytes. It is no part of the state's value.
struct ChangeBuffers: Equatable, Sendable {
    private var kept: TableChanges.Lists?

    /// Buffers are no part of a state's value: equal states may hold different ones.
    static func == (_: ChangeBuffers, _: ChangeBuffers) -> Bool { true }

    /// The most elements whose storage a list keeps between events.
    static let keptCapacity = 256

    /// Puts empty lists for the next `TableChanges` in `lists` (nil) and returns them:
    /// the kept ones when nobody else holds them, else new ones, which are kept from now
    /// on. Call `trim()` once they are filled. Through `inout` rather than returned for
    /// the caller to assign: assigning to a field of the `TableChanges` being built makes
    /// the optimizer copy the whole value.
    mutating func lend(to lists: inout TableChanges.Lists?) -> TableChanges.Lists {
        if isKnownUniquelyReferenced(&kept), let kept {
            kept.removeAll()
            lists = kept
            return kept
        }
        let new = TableChanges.Lists()
        kept = new
        lists = new
        return new
    }

    /// Lets go of the kept lists if one of them grew past `keptCapacity`.
    mutating func trim() {
        if let lists = kept, lists.holdsMore(than: ChangeBuffers.keptCapacity) { kept = nil }
    }

    /// The kept `selected` list (tests).
    var selected: [RowRun] { kept?.selected ?? [] }
    /// The kept `deselected` list (tests).
    var deselected: [RowRun] { kept?.deselected ?? [] }
}
