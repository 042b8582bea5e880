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

extension LogSummary: CustomStringConvertible {
    /// The counts `selectlog inspect` shows, in a few lines: events and the times they span
    /// (milliseconds, and as m:ss.mmm), records and the batches' sizes before and after
    /// compression, gestures, then the events per type, most frequent first.
    ///
    /// ```
    /// 3000 events, t 0 ms to 60160.595 ms (1:00.160)
    /// 168 batches, 75 checkpoints; batches 6050 -> 6050 bytes compressed (1.00x)
    /// 24 pans, 10 taps, 5 swipes
    /// types: panMoved 1600, tick 635, scroll 632, swipeMoved 55, panBegan 24, …
    /// ```
    public var description: String {
        var lines: [String] = []
        if events == 0 {
            lines.append("0 events")
        } else if let firstT {
            let last = lastT ?? firstT
            lines.append("\(ReportText.counted(events, "event", "events")), t \(firstT) ms to \(last) ms (\(ReportText.duration(ReportText.span(from: firstT.raw, to: last.raw))))")
        } else {
            lines.append("\(ReportText.counted(events, "event", "events")), no times")
        }
        var records = "\(ReportText.counted(batches, "batch", "batches")), \(ReportText.counted(checkpoints, "checkpoint", "checkpoints"))"
        if storedBytes > 0 {
            let ratio = ReportText.ratio(rawBytes, over: storedBytes)
            records += "; batches \(rawBytes) -> \(ReportText.counted(storedBytes, "byte", "bytes")) compressed (\(ratio))"
        }
        lines.append(records)
        lines.append("\(ReportText.counted(pans, "pan", "pans")), \(ReportText.counted(taps, "tap", "taps")), \(ReportText.counted(swipes, "swipe", "swipes"))")
        if !types.isEmpty {
            let sorted = types.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            lines.append("types: " + sorted.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}

extension LogReader {
    /// Reads every event once (decoding only, no replay) and counts.
    public func summary(progress: ((Int) -> Void)? = nil) throws(LogError) -> LogSummary {
        try reading { () throws(LogError) in
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
        try reading { () throws(LogError) in
            try forEachRecord { r in
                if r.header.kind == .checkpoint { count += 1 }
                return true
            }
        }
        return count == eventCount / interval
    }
}
