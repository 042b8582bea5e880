/// A read-only description of the active pan (spec 6's `pan` object, and more), for
/// display and tests. The engine keeps its pans in `PanState`.
public struct Pan: Hashable, Sendable {
    /// The kinds of pan the state JSON names (spec 6, 5.10.12).
    public enum Kind: String, Hashable, Sendable {
        /// A one-finger pan in the `scrollAndSelect` strip.
        case strip
        /// A two-finger multi-select pan.
        case multiSelect
        /// A drag scroll.
        case scroll
        /// A selection pan that another event ended while the finger stayed down.
        case interrupted
    }

    /// What kind of pan this is.
    public var kind: Kind
    /// A selection pan's reversal rule, fixed at `panBegan`.
    public var reversal: Reversal?
    /// The last counted finger position (a drag scroll: where it began).
    public var finger: ViewportPoint
    /// Which way the finger last moved (a counted move), if it has.
    public var direction: Direction?
    /// The start row S, once the finger has reached a data row.
    public var start: RowPath?
    /// The mode decided at S.
    public var mode: PanMode?
    /// The anchor A.
    public var anchor: RowPath?
    /// The far end R of the current range.
    public var end: RowPath?
    /// The running auto-scroll's direction.
    public var autoscroll: Direction?

    /// Whether this is a strip or multi-select pan.
    public var isSelectionPan: Bool { kind == .strip || kind == .multiSelect }
}

extension PanState {
    /// The description of the active pan, or nil when idle.
    var description: Pan? {
        switch state {
        case .idle:
            return nil
        case .dragScroll(let d):
            return Pan(kind: .scroll, finger: d.began)
        case .interrupted(let finger):
            return Pan(kind: .interrupted, finger: finger)
        case .waitingForStartRow(let p), .running(let p), .autoScrolling(let p, _):
            return Pan(kind: p.kind, reversal: p.reversal, finger: p.finger, direction: p.direction, start: p.rows?.start,
                       mode: p.rows?.mode, anchor: p.rows?.anchor, end: p.rows?.end, autoscroll: autoscroll?.direction)
        }
    }
}
