/// Storage that `apply(_:)` reuses for the lists of the `TableChanges` it returns.
///
/// A non-empty array is a heap allocation, and most events that change anything change
/// one row or begin one gesture. The state keeps a reference to the storage of the
/// lists it returned last; once the caller has dropped those changes (the recorder,
/// replay, a host that mirrors them at once), the state is its only owner and the next
/// lists are written into it in place, so a pan sample that selects a row allocates
/// nothing. A caller that keeps its changes keeps their storage, and the next list is
/// allocated afresh, as it would be without this. A list longer than `keptCapacity`
/// (a `selectAll` of a million rows) is not kept, so the state never holds on to more
/// than a few kilobytes. It is no part of the state's value.
struct ChangeBuffers: Equatable, Sendable {
    var selected: [RowPath] = []
    var deselected: [RowPath] = []
    var gestures: [GestureTransition] = []

    /// Buffers are no part of a state's value: equal states may hold different ones.
    static func == (_: ChangeBuffers, _: ChangeBuffers) -> Bool { true }

    /// The most elements whose storage a buffer keeps between events.
    static let keptCapacity = 256

    /// Moves `buffer`'s storage, emptied, into `list` (empty) to be filled in place,
    /// for a list that will not be empty; the caller then keeps a reference to it with
    /// `buffer = list` and `trim(_:)`. In place rather than returned: assigning a list
    /// to a field of the `TableChanges` being built makes the optimizer copy the whole
    /// value.
    static func lend<T>(_ buffer: inout [T], to list: inout [T]) {
        swap(&list, &buffer)
        list.removeAll(keepingCapacity: true)
    }

    /// Lets go of `buffer`'s storage if it is larger than `keptCapacity`. Called after
    /// `buffer = list`, on the buffer alone: passing the list of the `TableChanges`
    /// being built to a function makes the optimizer copy the whole value.
    static func trim<T>(_ buffer: inout [T]) {
        if buffer.capacity > keptCapacity { buffer = [] }
    }
}
