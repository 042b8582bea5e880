/// Which states a viewer page holds: the states after `from` through after `to` events.
///
/// Default: the last `limit` events; with `at` alone, `limit` events centred on it;
/// `from` and `to` as given otherwise. A window never holds more than `limit` events,
/// which keeps a page within 10 MB and fast to move in.
struct ViewerWindow: Equatable {
    /// The most events one page holds.
    static let limit = 50_000

    /// A window that cannot be made, with a sentence saying why.
    struct Problem: Error {
        var message: String
        /// For an option past the last event: which, its value and the events there are
        /// (`view` says it as every command does: `--at 99: LOG has only 12 events`).
        var pastEnd: (option: String, value: Int, events: Int)?
    }

    let from: Int
    let to: Int
    /// The state the page opens at.
    let start: Int

    init(total: Int, from: Int?, to: Int?, at: Int?, limit: Int = ViewerWindow.limit) throws(Problem) {
        for (name, value) in [("--from", from), ("--to", to), ("--at", at)] {
            if let value, value > total {
                throw Problem(message: "\(name) \(value): there are only \(total) events", pastEnd: (name, value, total))
            }
        }
        var low: Int, high: Int
        switch (from, to) {
        case let (from?, to?):
            low = from
            high = to
        case let (from?, nil):
            low = from
            high = min(total, from + limit)
        case let (nil, to?):
            high = to
            low = max(0, to - limit)
        case (nil, nil):
            if let at {
                low = max(0, at - limit / 2)
                high = min(total, low + limit)
                low = max(0, high - limit)
            } else {
                high = total
                low = max(0, total - limit)
            }
        }
        if high - low > limit {
            throw Problem(message: "--from \(low) --to \(high) is \(high - low) events; a page holds at most \(limit)")
        }
        if let at, at < low || at > high {
            throw Problem(message: "--at \(at) is outside the window --from \(low) --to \(high)")
        }
        self.from = low
        self.to = high
        self.start = at ?? high
    }

    private init(from: Int, to: Int, start: Int) {
        self.from = from
        self.to = to
        self.start = start
    }

    /// The windows to try, in turn, when a page of this window ended at its byte budget
    /// after `fitted` of its states, before the state it opens at: one that starts half
    /// of that before it, then one that starts at it. Each keeps this window's end, so
    /// it is never more than a window's events, which is what a script read once keeps
    /// around the state it opens at.
    func nearer(fitted: Int) -> [ViewerWindow] {
        let half = max(from, start - fitted / 2)
        return (half < start ? [half, start] : [start]).filter { $0 > from }.map { ViewerWindow(from: $0, to: to, start: start) }
    }
}
