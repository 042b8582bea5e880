extension Recorder.Options {
    /// The first value out of its range, as an error naming it and the log at `path`,
    /// or nil. The
    /// recorder's initializers refuse such options (`.invalidOptions`) before they
    /// touch the file; the command line's `--checkpoint-interval` and
    /// `--batch-events` have the same bounds.
    package func problem(at path: String, checkingInterval: Bool = true) -> LogError? {
        func fail(_ what: String) -> LogError { LogError(.invalidOptions, "Recorder.Options: \(what)", path: path) }
        if batchEvents < 1 { return fail("batchEvents must be at least 1, not \(batchEvents)") }
        if batchBytes < 1 { return fail("batchBytes must be at least 1, not \(batchBytes)") }
        if flushIntervalMilliseconds < 1 { return fail("flushIntervalMilliseconds must be at least 1, not \(flushIntervalMilliseconds)") }
        // `UInt32(exactly:)`, not `Int(UInt32.max)`, which traps where `Int` has 32 bits (watchOS).
        if checkingInterval, UInt32(exactly: checkpointInterval) == nil {
            return fail("checkpointInterval must be from 0 (none) to 4294967295, not \(checkpointInterval)")
        }
        if compressionLevel < -131_072 || compressionLevel > 22 {
            return fail("compressionLevel must be from -131072 to 22, not \(compressionLevel)")
        }
        if case .interval(let ms) = durability, ms < 0 {
            return fail("durability .interval(milliseconds:) must not be negative, not \(ms)")
        }
        return nil
    }
}
