import SelectLog

/// The answer to "who last changed this row's selection?".
public struct RowHistory: Sendable, Equatable {
    /// How the row's selection came to be what it is.
    public enum Kind: Sendable, Equatable {
        /// `event` changed the row's selection.
        case changed
        /// `event` created the row, and nothing has changed its selection since.
        case inserted
        /// Nothing in the log changed the row's selection; it was there from the first event.
        case untouched
    }
    /// What the answer is.
    public var kind: Kind
    /// The event (0-based), or nil when untouched.
    public var event: Int?
    /// Where the row was right after `event`.
    public var pathThen: RowPath?
}

/// One change of a row's selection: the event (0-based), where the row was right after
/// it, and whether it was selected then.
public struct SelectionChange: Sendable, Equatable {
    /// The event, 0-based (the command line shows `event + 1`).
    public var event: Int
    /// The row's path right after the event.
    public var path: RowPath
    /// Whether the row was selected right after the event.
    public var selected: Bool
    /// `.changed`, or `.inserted` for the event that created the row.
    public var kind: RowHistory.Kind
}

extension LogReader {
    /// The event that last changed the selection of `row` (its index path after `n` events).
    /// Walks back one checkpoint window at a time, following the row through edits.
    public func lastChange(of row: RowPath, at n: Int, progress: ((Int) -> Void)? = nil) throws(LogError) -> RowHistory {
        try reading { () throws(LogError) in
            // The state is let go at once: the walk below holds its own (a million sections'
            // state is 300 MB).
            guard try state(at: n).layout.contains(row) else {
                throw LogError(.outOfRange, "row \(row) does not exist after \(ReportText.counted(n, "event", "events"))", path: path, eventIndex: n)
            }
            var target = row
            var end = n
            while true {
                let (start, origin) = try origin(of: target, inWindowEndingAt: end)
                progress?(n - start)
                switch origin {
                case .changed(let i)?:
                    return RowHistory(kind: .changed, event: i, pathThen: try self.path(of: target, at: end, before: i + 1))
                case .inserted(let i)?:
                    return RowHistory(kind: .inserted, event: i, pathThen: try self.path(of: target, at: end, before: i + 1))
                case .existing(let p)?:
                    if start == 0 { return RowHistory(kind: .untouched, event: nil, pathThen: nil) }
                    target = p
                    end = start
                case nil:
                    throw LogError(.damaged, "lost track of row \(target) in events \(start)..<\(end)", path: path, eventIndex: end)
                }
            }
        }
    }

    /// The origin of the row at `target` after `end` events, seen from the start of the
    /// checkpoint window before `end`, and where that window starts. Its own function, so
    /// that the window's state and origins are gone before the caller replays again to
    /// find where the row was (two states of a million sections held 600 MB).
    private func origin(of target: RowPath, inWindowEndingAt end: Int) throws(LogError) -> (start: Int, origin: RowOrigin?) {
        var state = try windowStart(before: end)
        let start = state.events
        var origins = RowOrigins(layout: state.layout)
        try forEachEvent(from: start, to: end) { (i, e) throws(LogError) -> Bool in
            guard RowOrigins.movesRows(e.event) else {
                // The rows whose selection changed are the ones the engine reports. Keeping
                // the selection from before each event to compare made every change copy
                // it: a selection of a million ranges took minutes.
                origins.markChanged(reported: try applyReporting(e, index: i, to: &state), at: i)
                return true
            }
            let before = state.selection
            try apply(e, index: i, to: &state)
            origins.follow(e.event, at: i, to: state.layout, selection: (before, state.selection))
            return true
        }
        return (start, origins.origin(of: target))
    }

    /// Every change of a row's selection in the first `n` events, oldest first, following
    /// the row back through edits: each entry is the event (0-based), the row's path right
    /// after it, and whether it was selected after it. The first entry is the event that
    /// created the row (`RowHistory.Kind.inserted`) when the log has it.
    public func selectionHistory(of row: RowPath, at n: Int, progress: ((Int) -> Void)? = nil) throws(LogError) -> [SelectionChange] {
        try reading { () throws(LogError) in
            var out: [SelectionChange] = []
            var target = row
            var end = n
            while true {
                let h = try lastChange(of: target, at: end)
                progress?(n - end)
                guard let i = h.event, let then = h.pathThen else { break }
                let selected = try state(at: i + 1).selection.contains(then)
                out.append(SelectionChange(event: i, path: then, selected: selected, kind: h.kind))
                guard h.kind == .changed, let before = try self.path(of: then, at: i + 1, before: i) else { break }
                target = before
                end = i
            }
            return out.reversed()
        }
    }

    /// The path, after `m` events, of the row that is at `row` after `n` events (m ≤ n),
    /// found by running the window forward and following untouched rows back.
    private func path(of row: RowPath, at n: Int, before m: Int) throws(LogError) -> RowPath? {
        var state = try self.state(at: m)
        var origins = RowOrigins(layout: state.layout)
        try forEachEvent(from: m, to: n) { (i, e) throws(LogError) -> Bool in
            try apply(e, index: i, to: &state)
            origins.follow(e.event, at: i, to: state.layout)
            return true
        }
        if case .existing(let p)? = origins.origin(of: row) { return p }
        return nil
    }
}

/// Events are numbered from 1 here, as `LogError.description` and the command line number
/// them (`event` 4 is "event 5"): `last changed by event 5 (the row was [0, 1] then)`.
extension RowHistory: CustomStringConvertible {
    /// What `inspect --why ROW` says, in a line.
    public var description: String {
        let then = pathThen.map { " (the row was \($0) then)" } ?? ""
        switch (kind, event) {
        case (.changed, let e?): return "last changed by event \(ReportText.number(e))\(then)"
        case (.inserted, let e?): return "created by event \(ReportText.number(e))\(then)"
        default: return "no event changed its selection"
        }
    }
}

/// Numbered from 1, as `RowHistory`'s: `event 5: [0, 1] selected (created)`.
extension SelectionChange: CustomStringConvertible {
    /// The event, the row's path after it and whether it was selected then.
    public var description: String {
        "event \(ReportText.number(event)): \(path) \(selected ? "selected" : "deselected")\(kind == .inserted ? " (created)" : "")"
    }
}
