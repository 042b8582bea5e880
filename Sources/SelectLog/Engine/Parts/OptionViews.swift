/// The open swipe-to-reveal option view and the swipe in progress (spec 5.5).
public struct OptionViews: Hashable, Sendable {
    /// The row whose option view is open; at most one.
    public var open: RowPath?
    /// The swipe in progress, if any.
    public var swipe: Swipe?

    /// A swipe in progress: active on a row, or ignored.
    public enum Swipe: Hashable, Sendable {
        /// A swipe on `row`, revealing `offset` points.
        case active(row: RowPath, offset: Points)
        /// A swipe that began where swipes do nothing; its events are ignored until it ends.
        case ignored
    }
    /// No option view open, no swipe.
    public init() {}
}

extension OptionViews: RowFollowing {
    /// The open row and the swiped row follow their rows; deleting a row closes its
    /// option view and turns its swipe into an ignored one (spec 5.5).
    mutating func follow(_ operation: RowOperation, carry: inout RowCarry) {
        switch operation {
        case let .remove(p, move):
            if let move {
                if open == p { carry.moved[move, default: CarriedRow()].optionOpen = true }
                if case .active(p, let offset)? = swipe { carry.moved[move, default: CarriedRow()].swipeOffset = offset }
            }
        case .insert, .insertSection, .removeSection:
            break
        }
        open = open.flatMap(operation.follow)
        if case .active(let row, let offset)? = swipe {
            swipe = operation.follow(row).map { .active(row: $0, offset: offset) } ?? .ignored
        }
        if case let .insert(p, .move(m)) = operation, let c = carry.moved[m] {
            if c.optionOpen { open = p }
            if let offset = c.swipeOffset { swipe = .active(row: p, offset: offset) }
        }
    }
}
