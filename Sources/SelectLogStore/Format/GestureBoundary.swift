import SelectLog

/// Where gestures begin and end, for the state fingerprints the log stores: what
/// `TableState.apply` reports in `TableChanges.gestures`.
enum GestureBoundary {
    /// Whether the event whose changes are `changes` ended or cancelled a gesture.
    @inline(__always)
    static func endsGesture(_ changes: TableChanges) -> Bool { changes.endsGesture }

    /// The kind of gesture the event whose changes are `changes` began, for reports
    /// ("strip pan", "multiSelect pan", "scroll pan", "swipe"), or nil.
    static func kind(began changes: TableChanges) -> String? {
        for case .began(let kind) in changes.gestures {
            return kind == .swipe ? "swipe" : "\(kind.rawValue) pan"
        }
        return nil
    }
}
