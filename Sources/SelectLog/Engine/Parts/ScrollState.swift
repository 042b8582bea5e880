/// The viewport's size (spec 2).
public struct ViewportSize: Hashable, Sendable {
    /// The viewport's width in points.
    public var width: Points
    /// The viewport's height in points.
    public var height: Points
    /// A viewport of `width` × `height`.
    public init(width: Points, height: Points) {
        self.width = width
        self.height = height
    }
}

/// The scroll view: viewport, content offset and deceleration (spec 2, 5.4). The
/// part of the state that owns where the table is scrolled.
public struct ScrollState: Hashable, Sendable {
    /// The viewport's size (default 390 × 844).
    public internal(set) var viewport = ViewportSize(width: Points(390), height: Points(844))
    /// The content y at the viewport's top, always within `[0, maxOffset]`.
    public internal(set) var offset = Points.zero
    /// Whether the scroll view is decelerating (spec 5.4).
    public internal(set) var decelerating = false
    /// Where a deceleration will stop, clamped.
    public internal(set) var target: Points?

    init() {}

    /// Re-clamps the offset and the deceleration target to `[0, maxOffset]`.
    mutating func reclamp(maxOffset: Points) {
        offset = offset.clamped(.zero, maxOffset)
        if let target { self.target = target.clamped(.zero, maxOffset) }
    }

    /// Ends a deceleration (`panBegan`, `reload`, a `scroll` with phase idle).
    mutating func stopDecelerating() {
        decelerating = false
        target = nil
    }
}
