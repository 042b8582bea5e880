import SelectLog

/// What `selectlog inspect` summarises: counts, times and sizes of a log.
public struct LogSummary: Sendable, Equatable {
    /// The number of events.
    public var events = 0
    /// The first and last `t` any logged event carries (nil when none does).
    public var firstT: Micros?
    /// The last `t` a logged event carries.
    public var lastT: Micros?
    /// The number of event batches.
    public var batches = 0
    /// The number of state checkpoints.
    public var checkpoints = 0
    /// Batch payload bytes before and after compression.
    public var rawBytes = 0
    /// Batch payload bytes as stored (after compression).
    public var storedBytes = 0
    /// Events per type name.
    public var types: [String: Int] = [:]
    /// The number of pans begun.
    public var pans = 0
    /// The number of taps.
    public var taps = 0
    /// The number of swipes begun.
    public var swipes = 0
}

extension LogReader {
    /// Reads every event once (decoding only, no replay) and counts.
    public func summary(progress: ((Int) -> Void)? = nil) throws(LogError) -> LogSummary {
        var s = LogSummary()
        var counts = [Int](repeating: 0, count: 128)
        var names = [String](repeating: "", count: 128)
        try forEachEvent { i, e in
            let tag = Int(BinaryEventEncoder.tag(of: e.event).rawValue)
            if counts[tag] == 0 { names[tag] = e.event.typeName }
            counts[tag] += 1
            if let t = e.t {
                if s.firstT == nil { s.firstT = t }
                s.lastT = t
            }
            if i & 0xFFFF == 0 { progress?(i) }
            return true
        }
        for (tag, n) in counts.enumerated() where n > 0 { s.types[names[tag]] = n }
        s.events = eventCount
        s.pans = s.types["panBegan", default: 0]
        s.taps = s.types["tap", default: 0]
        s.swipes = s.types["swipeBegan", default: 0]
        try forEachRecord { r in
            switch r.header.kind {
            case .batch:
                s.batches += 1
                s.rawBytes += r.header.rawLength
                s.storedBytes += r.header.storedLength
            case .checkpoint: s.checkpoints += 1
            case .index: break
            }
            return true
        }
        return s
    }
}

extension LogReader {
    /// Whether the log has a checkpoint at every multiple of its checkpoint interval: it
    /// was recorded with every one (`record --checkpoint-interval`, or
    /// `Recorder.Options.putsOffLargeCheckpoints` off), or none was put off. `compact`
    /// and `upgrade` then write every one too, so the log they make keeps its
    /// checkpoints where they were. (A checkpoint put off to a later multiple leaves one
    /// fewer than the multiples; the writer puts none before its multiple.)
    package func checkpointsAtEveryInterval() throws(LogError) -> Bool {
        let interval = Int(header.checkpointInterval)
        guard interval > 0 else { return false }
        var count = 0
        try forEachRecord { r in
            if r.header.kind == .checkpoint { count += 1 }
            return true
        }
        return count == eventCount / interval
    }
}
