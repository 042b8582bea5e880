import SelectLog

// TEMPORARY until `TableState.apply` returns `TableChanges` on main (the engine
// engineer's work): the recorder's `append` already has its final signature, and this
// one function is replaced by `try engine.apply(event)` at the merge.
extension TableState {
    mutating func applyReportingChanges(_ event: TimedEvent) throws(InvalidEvent) -> TableChanges {
        try apply(event)
        return TableChanges()
    }
}
