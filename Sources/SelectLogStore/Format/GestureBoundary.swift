import SelectLog

/// Where gestures begin, for reports: what `TableState.apply` reports in
/// `TableChanges.gestures` (where one ends, for the state fingerprints the log stores,
/// is `TableChanges.endsGesture`).
enum GestureBoundary {
    /// The kind of gesture the event whose changes are `changes` began, for reports, in
    /// the words `inspect` uses (`GestureBoundaries.name`: "strip pan", "multi-select
    /// pan", "drag scroll", "swipe"), so that `check` and `inspect` name a gesture alike;
    /// or nil.
    static func kind(began changes: TableChanges) -> String? {
        for case .began(let kind) in changes.gestures {
            return GestureBoundaries.name(kind)
        }
        return nil
    }
}
