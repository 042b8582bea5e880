import SelectLog

/// Where gestures begin, for reports: what `TableState.apply` reports in
/// `TableChanges.gestures` (where one ends, for the state fingerprints the log stores,
/// is `TableChanges.endsGesture`).
enum GestureBoundary {
    /// The kind of gesture the event whose changes are `changes` began, for reports
    /// ("strip pan", "multiSelect pan", "scroll pan", "swipe"), or nil.
    static func kind(began changes: TableChanges) -> String? {
        for case .began(let kind) in changes.gestures {
            return kind == .swipe ? "swipe" : "\(kind.rawValue) pan"
        }
        return nil
    }
}
