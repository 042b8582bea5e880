/// The shrinker's knowledge of how a UI session is built: gestures, runs of ticks and
/// scrolls, pan samples, set-up events.
extension ShrinkRun {
    /// `events` split into units: each gesture from the event that began it to the one
    /// that ended it (`TableChanges.gestures`), each run of ticks and scrolls outside a
    /// gesture, and every other event alone.
    func units(of events: [TimedEvent]) -> [[TimedEvent]] {
        var units: [[TimedEvent]] = []
        var current: [TimedEvent] = []
        var inGesture = false
        var inRun = false
        var state = TableState()
        func close() {
            if !current.isEmpty { units.append(current) }
            current = []
            inRun = false
        }
        for e in events {
            let changes: TableChanges
            do { changes = try state.apply(e) } catch { changes = TableChanges() }
            var began = false, ended = false
            for g in changes.gestures {
                if case .began = g { began = true } else { ended = true }
            }
            if inGesture {
                current.append(e)
                if ended && !began {
                    close()
                    inGesture = false
                }
                continue
            }
            if began {
                close()
                current.append(e)
                inGesture = true
                if ended { close(); inGesture = false }
                continue
            }
            switch e.event {
            case .tick, .scroll:
                if !inRun { close() }
                inRun = true
                current.append(e)
            default:
                close()
                units.append([e])
            }
        }
        close()
        return units
    }

    /// In every pan, tries keeping only the samples where the finger turned (its
    /// vertical direction changed) and the last one.
    mutating func collapsePanSamples(_ events: inout [TimedEvent]) {
        var i = 0
        while i < events.count {
            guard case .panBegan(let start, _) = events[i].event else {
                i += 1
                continue
            }
            var samples: [Int] = []
            var j = i + 1
            while j < events.count {
                if case .panMoved = events[j].event { samples.append(j) }
                if case .panEnded = events[j].event { break }
                if case .panCancelled = events[j].event { break }
                if case .panBegan = events[j].event { break }
                j += 1
            }
            if samples.count > 2 {
                var drop: Set<Int> = []
                var previousY = start.y
                for k in 0..<(samples.count - 1) {
                    guard case .panMoved(let here) = events[samples[k]].event,
                          case .panMoved(let next) = events[samples[k + 1]].event else { continue }
                    // A turning point: the direction from the last kept point differs from the next move's.
                    if (here.y.raw - previousY.raw).signum() * (next.y.raw - here.y.raw).signum() < 0 {
                        previousY = here.y
                    } else {
                        drop.insert(samples[k])
                    }
                }
                if !drop.isEmpty {
                    if budgetSpent() { return }
                    let candidate = events.enumerated().filter { !drop.contains($0.offset) }.map(\.element)
                    if passes(candidate) {
                        events = candidate
                        // `j` in the shorter list: every dropped sample came before it.
                        j -= drop.count
                        report("samples", events.count)
                    }
                }
            }
            // On past the pan's end; a `panBegan` that ended the scan is the next pan's.
            if j < events.count, case .panBegan = events[j].event { i = j } else { i = j + 1 }
        }
    }

    /// Tries merging adjacent `configure` events into one patch, and adjacent `viewport`
    /// events into one size.
    mutating func mergeSetUp(_ events: inout [TimedEvent]) {
        var i = 0
        while i + 1 < events.count {
            if let merged = ShrinkRun.merge(events[i], events[i + 1]) {
                if budgetSpent() { return }
                var candidate = events
                candidate.replaceSubrange(i...i + 1, with: [merged])
                if passes(candidate) {
                    events = candidate
                    report("set-up", events.count)
                    continue
                }
            }
            i += 1
        }
    }

    /// Tries replacing each run of two or more scrolls and ticks by one scroll to the
    /// offset the run ended at.
    mutating func collapseScrolls(_ events: inout [TimedEvent]) {
        var i = 0
        var state = TableState()
        while i < events.count {
            guard ShrinkRun.isScrollOrTick(events[i].event) else {
                do { try state.applyDiscardingChanges(events[i]) } catch { return }
                i += 1
                continue
            }
            var j = i
            var probe = state
            var scrolls = 0
            while j < events.count, ShrinkRun.isScrollOrTick(events[j].event) {
                if case .scroll = events[j].event { scrolls += 1 }
                do { try probe.applyDiscardingChanges(events[j]) } catch { return }
                j += 1
            }
            if j - i >= 2, scrolls > 0, probe.pan == nil, !probe.decelerating, !probe.dragging {
                if budgetSpent() { return }
                let one = TimedEvent(.scroll(.to(probe.contentOffset), phase: nil, target: nil), t: events[j - 1].t)
                var candidate = Array(events[..<i])
                candidate.append(one)
                candidate.append(contentsOf: events[j...])
                if passes(candidate) {
                    events = candidate
                    j = i + 1
                    report("scrolls", events.count)
                }
            }
            while i < j {
                do { try state.applyDiscardingChanges(events[i]) } catch { return }
                i += 1
            }
        }
    }

    static func isScrollOrTick(_ e: Event) -> Bool {
        switch e {
        case .scroll, .tick: true
        default: false
        }
    }

    /// Two set-up events as one, when they are both `configure` or both `viewport`.
    static func merge(_ a: TimedEvent, _ b: TimedEvent) -> TimedEvent? {
        switch (a.event, b.event) {
        case let (.configure(x), .configure(y)):
            return TimedEvent(.configure(x.merging(y)), t: b.t ?? a.t)
        case let (.viewport(w1, h1), .viewport(w2, h2)):
            return TimedEvent(.viewport(width: w2 ?? w1, height: h2 ?? h1), t: b.t ?? a.t)
        default:
            return nil
        }
    }
}
