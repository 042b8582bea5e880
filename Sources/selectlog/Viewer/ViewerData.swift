import SelectLog

/// The events of a window and the frames the page draws, computed by the engine and
/// written as one JSON object for the page to embed.
///
/// Events are numbered from 1 (spec 7); the window shows the states after `from`
/// through after `to` events. Every `keyInterval` states the whole frame is stored;
/// besides, each event stores the frame fields it changed, so the page
/// reaches any state by taking the key frame at or before it and overwriting fields
/// with at most `keyInterval - 1` deltas — it never applies an event itself.
struct ViewerData {
    /// A whole frame is stored every this many states.
    static let keyInterval = 128

    /// The most bytes of frames and events a page holds. A window of the synthetic
    /// session's 50,000 events takes about 7.5 MB; what grows faster (a selection of many
    /// ranges stored at each change, an editor of a million options, thousands of headers
    /// in view) stops the page at the event before the budget, which the command notes.
    /// Counted as the page holds them (`ViewerPage.embeddedCount`), where `<` is six bytes.
    static let byteBudget = 32 << 20

    let file: String
    /// The file's count of events; nil when it was read no further than the window needs
    /// (a pipe), as the page then says.
    let total: Int?
    let from: Int
    /// The last event the page holds: the window's end, or the event before the one
    /// that would have taken it past `byteBudget`.
    private(set) var to: Int
    /// Whether the page stops before the window's end (`byteBudget`).
    private(set) var stoppedEarly = false
    /// The state the page opens at (at most `to`).
    private(set) var start: Int
    /// The bytes of frames, events and gesture spans the page holds, as written.
    private(set) var byteCount = 0
    /// The bytes of the window's opening frame, the first of `byteCount`.
    private(set) var openingBytes = 0
    private let budget: Int
    /// What the page says about itself above the table (`budgetNotes`), as `view` says
    /// it on standard error: the page is what gets attached to a report.
    var notes: [String] = []

    private var types: [String] = []
    private var typeIndex: [String: Int] = [:]
    private var keys = ViewerText()
    private var events = ViewerText()
    private var gestures: [String] = []
    private var openGestures: [String: (kind: String, began: Int)] = [:]
    private var previous: ViewerFrame?
    private var shape: ViewerFrame.Shape?
    private var firstHash = ""
    /// The hash after every event, its table's part kept while the table stays the same.
    private var hasher = StateHasher()
    private var firstT = ""

    init(file: String, total: Int?, from: Int, to: Int, start: Int, budget: Int = ViewerData.byteBudget) {
        self.file = file
        self.total = total
        self.from = from
        self.to = to
        self.start = start
        self.budget = budget
    }

    /// Records the state the window starts from.
    mutating func begin(_ state: TableState) {
        let shape = ViewerFrame.Shape(state)
        self.shape = shape
        let frame = ViewerFrame(state, shape: shape)
        let key = frame.json(shape)
        keys.startEntry()
        keys.append(key)
        // Whatever it takes: a page holds at least the state it starts from, and
        // `budgetNotes` says when that alone is past the budget.
        openingBytes = ViewerPage.embeddedCount(key)
        byteCount += openingBytes
        previous = frame
        firstHash = ViewerData.hex(hasher.hash(state))
        firstT = state.t.description
        for (slot, kind) in ViewerData.gestures(of: state) { openGestures[slot] = (kind, from) }
    }

    /// Records event `number`, which took `before` to `after`; false, recording nothing,
    /// when it would take the page past its byte budget (the page then ends before it).
    ///
    /// What the event adds is counted whole before it is kept, as the page holds it
    /// (`ViewerPage.embeddedCount`): its record (its fields, which an event's 1 MiB of
    /// strings can make megabytes of JSON, its frame's delta, a row edit's changes), a key
    /// frame when one falls due, the gesture spans it ends and the separators between them.
    mutating func add(_ number: Int, _ e: TimedEvent, before: TableState, after: TableState) -> Bool {
        guard let shape else { return false }
        let frame = ViewerFrame(after, shape: shape, previous: previous)
        let key = (number - from) % ViewerData.keyInterval == 0 ? frame.json(shape) : nil
        let delta = previous.flatMap { frame.delta(from: $0, shape) } ?? "0"
        let name = e.event.typeName
        let type = typeIndex[name] ?? types.count
        // The event's fields without its type, as a JSON object: `{"x": 30, "y": 175}`.
        let line = EventEncoder.line(TimedEvent(e.event))
        let fields = line.dropFirst(("{\"type\": \"" + name + "\"").count)
        let body = fields.hasPrefix(", ") ? "{" + fields.dropFirst(2) : "0"
        let step = after.stepsRecorded > before.stepsRecorded ? 1 : 0
        let opening = "[\(type), \(after.t), \(body), \"\(ViewerData.hex(hasher.hash(after)))\", \(step), "
        // A row edit's selection changes follow rows through the edit: only the engine can
        // say which rows changed, so its words go with the event. Other events' changes are
        // exactly the frame fields in their delta.
        let changes = e.event.isRowEdit
            ? ", " + JSONText.quote(after.changes(since: before, across: e.event).map(\.description).joined(separator: "; ")) : ""
        let (spans, open) = gestureSpans(number, e, after)
        let separator = 2  // `,\n` between entries (`ViewerText`), `, ` between spans
        var cost = ViewerPage.embeddedCount(opening) + ViewerPage.embeddedCount(delta) + ViewerPage.embeddedCount(changes) + 1
        cost += events.count > 0 ? separator : 0
        if let key { cost += ViewerPage.embeddedCount(key) + (keys.count > 0 ? separator : 0) }
        for span in spans { cost += span.utf8.count + separator }
        // The first event is kept whatever it costs (`budgetNotes` says when the page is
        // then past its budget): a page ending at its start would show no event, and the
        // note's `--from K` would name the same page again.
        if number > from + 1, byteCount + cost > budget {
            to = number - 1
            start = min(start, to)
            stoppedEarly = true
            return false
        }
        byteCount += cost
        if let key {
            keys.startEntry()
            keys.append(key)
        }
        previous = frame
        if type == types.count {
            typeIndex[name] = type
            types.append(name)
        }
        // Written into the page's storage in pieces: the delta can be most of a megabyte.
        events.startEntry()
        events.append(opening)
        events.append(delta)
        events.append(changes)
        events.append("]")
        gestures += spans
        openGestures = open
        return true
    }

    /// The gesture spans event `number` ends, and the gestures open after it: a pan or a
    /// swipe that ended, a new swipe on another row, or a pan that became interrupted.
    private func gestureSpans(_ number: Int, _ e: TimedEvent, _ after: TableState)
        -> (spans: [String], open: [String: (kind: String, began: Int)]) {
        var spans: [String] = []
        var open = openGestures
        let now = ViewerData.gestures(of: after)
        for slot in ["pan", "swipe"] {
            // A new swipe on another row, or a pan that became interrupted, starts a new span.
            var restarted = now[slot] != nil && now[slot] != open[slot]?.kind
            if case .swipeBegan = e.event, slot == "swipe" { restarted = true }
            if let began = open[slot], now[slot] == nil || restarted {
                spans.append("[\(JSONText.quote(began.kind)), \(began.began), \(number)]")
                open[slot] = nil
            }
            if open[slot] == nil, let kind = now[slot] { open[slot] = (kind, number) }
        }
        return (spans, open)
    }

    /// What `view` notes about the page's budget, each a sentence for standard error
    /// (after `note: `) and for the page: that the page is past its budget (its opening
    /// frame, or that and its first event, which a page holds whatever they take), and
    /// that it ends before the window's end `windowEnd`, with where to go on from. `at`
    /// is the state the page was asked to open at.
    func budgetNotes(windowEnd: Int, at: Int?) -> [String] {
        var notes: [String] = []
        let budgetText = ViewerData.megabytes(budget)
        if byteCount > budget {
            let why = "a selection of very many ranges, a large editor or very many sections"
            let held = to > from ? "the state it starts from and its first event whatever they take" : "the state it starts from whatever it takes"
            let opening = openingBytes > budget
                ? "the state it starts from (after event \(from)) alone takes \(ViewerData.megabytes(openingBytes))"
                : "the state it starts from (after event \(from)) takes \(ViewerData.megabytes(openingBytes)) and event \(from + 1) \(ViewerData.megabytes(byteCount - openingBytes))"
            notes.append("the page takes \(ViewerData.megabytes(byteCount)), past its \(budgetText) budget: \(opening) (\(why)); a page holds \(held)")
        }
        if stoppedEarly {
            let opens = (at ?? 0) > to ? "; it opens there, not at --at \(at ?? 0)" : ""
            notes.append("the page ends after event \(to) of the window's \(windowEnd)\(opens): the events after it would take it past \(budgetText) (a selection of very many ranges, a large editor or many headers in view change at each); view them with --from \(to)")
        }
        return notes
    }

    /// `bytes` in MB of 2^20 bytes, as the budget is given, rounded up to a tenth: `32 MB`,
    /// `38.2 MB` (a page a few bytes past 32 MB is `32.1 MB`, not `32 MB`).
    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 20) - 1) >> 20
        return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }

    /// `hash` as `TableState.hashHex` writes it, 16 lower-case hex digits, each looked up
    /// and written in place: the page holds one hash per event.
    static func hex(_ hash: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { digits in
            for i in 0..<16 {
                digits[i] = hexDigits[Int(truncatingIfNeeded: (hash >> UInt64(60 - 4 * i)) & 0xF)]
            }
            return 16
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The gestures in progress in `state`: a pan (by its kind) and a swipe.
    private static func gestures(of state: TableState) -> [String: String] {
        var out: [String: String] = [:]
        if let pan = state.pan { out["pan"] = pan.kind.rawValue }
        if case .active = state.options.swipe { out["swipe"] = "swipe" }
        return out
    }

    /// The whole data object, with gestures still in progress ending at the window's end.
    func json() -> String {
        var out: [UInt8] = []
        writeJSON { out += $0 }
        return String(decoding: out, as: UTF8.self)
    }

    /// `json()`, handed to `emit` in pieces: the keys' and events' chunks as they are held
    /// (`ViewerText`), so that a page's data is never copied whole.
    func writeJSON(_ emit: ([UInt8]) throws -> Void) rethrows {
        var spans = gestures
        for open in openGestures.values.sorted(by: { $0.began < $1.began }) {
            spans.append("[\(JSONText.quote(open.kind)), \(open.began), \(to)]")
        }
        var out = "{\"file\": \(JSONText.quote(file)), \"total\": \(total.map(String.init) ?? "null"), \"from\": \(from), \"to\": \(to), \"start\": \(start)"
        out += ", \"keyInterval\": \(ViewerData.keyInterval)"
        out += ", \"notes\": [" + notes.map(JSONText.quote).joined(separator: ", ") + "]"
        let names = shape?.names ?? [], order = shape?.jsonOrder ?? []
        out += ", \"names\": [" + names.map(JSONText.quote).joined(separator: ", ") + "]"
        out += ", \"specCount\": \(shape?.specKeys.count ?? 0)"
        out += ", \"jsonOrder\": [" + order.map(JSONText.quote).joined(separator: ", ") + "]"
        out += ", \"firstHash\": \"\(firstHash)\", \"firstT\": \(firstT)"
        out += ", \"types\": [" + types.map(JSONText.quote).joined(separator: ", ") + "]"
        out += ",\n\"gestures\": [" + spans.joined(separator: ", ") + "]"
        func list(_ name: String, _ items: ViewerText) throws {
            out += ",\n\"\(name)\": [\n"
            try emit(Array(out.utf8))
            out = ""
            for chunk in items.chunks { try emit(chunk) }
            out += "]"
        }
        try list("keys", keys)
        try list("events", events)
        out += "}"
        try emit(Array(out.utf8))
    }
}
