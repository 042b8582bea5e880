import SelectLog

/// Where gestures end, for the state fingerprints the log stores.
///
/// Pans and swipes end at `panEnded`, `panCancelled` and `swipeEnded`.
/// (When `TableState.apply` reports `TableChanges.gestures`, this is the one place to
/// switch to it.)
enum GestureBoundary {
    /// Whether `event` ends a gesture.
    static func endsGesture(_ event: Event) -> Bool {
        switch event {
        case .panEnded, .panCancelled, .swipeEnded: true
        default: false
        }
    }

    /// The gesture's kind, named by the event that began it, for reports.
    static func kind(beganBy event: Event) -> String? {
        switch event {
        case .panBegan(_, let fingers): fingers >= 2 ? "two-finger pan" : "pan"
        case .swipeBegan: "swipe"
        default: nil
        }
    }
}
