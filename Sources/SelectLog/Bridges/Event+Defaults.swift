/// The events an app sends most, with the arguments it rarely sets left out: one
/// finger, no target offset, no heights. Each returns exactly the full case, so
/// `Event.panBegan(at: p) == .panBegan(p, fingers: 1)`.
extension Event {
    /// A one-finger pan began at `point` (`fingers: 1`).
    public static func panBegan(at point: ViewportPoint) -> Event { .panBegan(point, fingers: 1) }

    /// A pan ended at `point`, with no deceleration target (`targetOffset: nil`).
    public static func panEnded(at point: ViewportPoint) -> Event { .panEnded(point, targetOffset: nil) }

    /// The scroll view moved itself to `offset` (deceleration, `setContentOffset`), with no phase.
    public static func scroll(to offset: Points) -> Event { .scroll(.to(offset), phase: nil, target: nil) }

    /// The scroll view's deceleration began toward `target`, from the current offset.
    public static func decelerate(toward target: Points) -> Event { .scroll(nil, phase: .decelerate, target: target) }

    /// The viewport is now `size` (both lengths).
    public static func viewport(_ size: ViewportSize) -> Event { .viewport(width: size.width, height: size.height) }

    /// Rows inserted at `paths` (post-update), with their sections' row heights.
    public static func insertRows(at paths: [RowPath]) -> Event { .insertRows(at: paths, heights: nil) }

    /// Rows reloaded at `paths` (deselected, heights unchanged).
    public static func reloadRows(at paths: [RowPath]) -> Event { .reloadRows(at: paths, heights: nil) }
}
