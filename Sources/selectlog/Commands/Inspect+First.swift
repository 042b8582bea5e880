import ArgumentParser
import SelectLog
import SelectLogStore

extension Inspect {
    /// `--first EXPR`: the first event after which the expectation holds, found in one
    /// forward replay that evaluates the expectation on the state after every event.
    /// `badLine`: a script's invalid line after the events `reader` holds, noted when the
    /// answer comes before it (as `replay --at N` notes it) and the error when not.
    /// `whole`: false when `reader` holds a stream's events only up to the answer (see
    /// `Session.open`), whose count is then not the input's, and is not printed as one.
    func first(_ reader: LogReader, _ expectation: StateExpectation, badLine: Input.BadLine? = nil, whole: Bool = true) throws {
        let text = expectation.text
        var state = TableState()
        var found: Int? = expectation.holds(in: state) ? 0 : nil
        if found == nil {
            let progress = Progress("first", total: reader.eventCount)
            var watch = ExpectationWatch(expectation)
            try reader.forEachEvent { (i, e) throws(LogError) -> Bool in
                try reader.apply(e, index: i, to: &state)
                if i & 0xFFFF == 0 { progress.update(i) }
                if watch.holds(in: state) {
                    found = i + 1
                    return false
                }
                return true
            }
            progress.finish()
        }
        if let badLine {
            guard found != nil else {
                badLine.report()
                throw Exit.invalidInput
            }
            Input.noteBadLine(badLine, eventsBefore: reader.eventCount)
        }
        guard let n = found else {
            if json {
                print("{\"expect\": \(JSONText.quote(text)), \"event\": null, \"events\": \(reader.eventCount)}")
            } else {
                print("\(text) never holds in the \(counted(reader.eventCount, "event", "events")) of \(log)")
            }
            throw Exit.damaged
        }
        let before = n == 0 ? state : try reader.state(at: n - 1)
        let event = n == 0 ? nil : try reader.events(from: n - 1, to: n).first
        let gesture = n == 0 ? nil : try reader.gesture(containing: n - 1)
        if json {
            var o = ObjectWriter()
            o.string("expect", text)
            o.raw("event", String(n))
            o.raw("type", event.map { JSONText.quote($0.event.typeName) } ?? "null")
            o.raw("t", n == 0 ? "null" : state.t.description)
            o.raw("line", event.map { EventEncoder.line($0) } ?? "null")
            o.raw("gesture", InspectGesture.json(gesture, whole: whole))
            // The two states in pieces (`TableState.writeJSON`), as `replay --json` writes
            // one: a selection of millions of rows is listed without being held.
            print(o.text(openingLast: "before"), terminator: "")
            if n == 0 { print("null", terminator: "") } else { before.writeJSON { print($0, terminator: "") } }
            print(", \"after\": ", terminator: "")
            state.writeJSON { print($0, terminator: "") }
            print("}")
            return
        }
        guard let event else {
            print("\(text) holds before the first event")
            print(TablePicture(state).text)
            return
        }
        print("\(text) first holds after event \(n)\(whole ? " of \(reader.eventCount)" : " (the input read no further)"), at t \(state.t) ms")
        print("  event \(n): \(Inspect.describe(event, number: n, log: log))")
        if let g = gesture, g.events.count > 1 {
            print("  part of a \(InspectGesture.text(g, whole: whole))")
        }
        for line in Replay.readLines(expectation, in: state) { print("  \(line)") }
        print("\nbefore (after event \(n - 1)):")
        print(TablePicture(before).text)
        print("\nafter (after event \(n)):")
        print(TablePicture(state).text)
    }
}

/// Whether an expectation holds in the state after each event of a replay, in order
/// (`inspect --first`, and the reading of a stream that stops at its answer). An
/// expectation on the hash gets it from a hasher that keeps the table's part while the
/// table stays the same (`StateHasher`), not from a walk of every row height after
/// every event.
struct ExpectationWatch {
    let expectation: StateExpectation
    private let readsHash: Bool
    private var hasher = StateHasher()

    init(_ expectation: StateExpectation) {
        self.expectation = expectation
        readsHash = expectation.fields.contains("hash")
    }

    /// Whether the expectation holds in `state`, the state after the next event.
    mutating func holds(in state: TableState) -> Bool {
        guard readsHash else { return expectation.holds(in: state) }
        // The hash made only when the evaluation reaches it, once an event.
        var known: UInt64?
        return expectation.holds(in: state) {
            if let known { return known }
            let hash = hasher.hash(state)
            known = hash
            return hash
        }
    }
}
