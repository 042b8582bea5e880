// libFuzzer harness: a script through the streaming reader, the decoder and the
// engine, with both codecs round-tripped and the invariants checked after every
// event. Built by Fuzz/build.sh; run by `make fuzz`.
@testable import SelectLog
@testable import SelectLogStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size <= 1 << 16 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkScript(bytes)
    return 0
}

func checkScript(_ bytes: [UInt8]) {
    // Split the input where its first byte says, so chunk boundaries are fuzzed too.
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var reader = ScriptReader(maxLineLength: 1 << 15)
    reader.append(bytes[..<split])
    var events: [TimedEvent] = []
    var state = TableState()
    var accepted: [TimedEvent] = []
    func drain() -> Bool {
        do {
            while let (_, event) = try reader.nextEvent() {
                events.append(event)
                checkJSONRoundTrip(event)
                let before = state
                do {
                    _ = try state.apply(event)
                    accepted.append(event)
                    let problems = state.invariantViolations()
                    if !problems.isEmpty { finding("invariants broken after \(EventEncoder.line(event)): \(problems)") }
                } catch {
                    if state != before { finding("a rejected event changed the state: \(EventEncoder.line(event))") }
                }
            }
            return true
        } catch {
            return false
        }
    }
    guard drain() else { return finishScript(events, accepted, state) }
    reader.append(bytes[split...])
    reader.finish()
    _ = drain()
    finishScript(events, accepted, state)
}

/// JSON encoder → decoder gives the event back.
func checkJSONRoundTrip(_ event: TimedEvent) {
    let line = EventEncoder.line(event)
    do {
        guard let again = try EventDecoder.decode(line: Array(line.utf8)) else { finding("encoded as a blank line: \(line)") }
        if again != event { finding("JSON round trip changed \(line) into \(EventEncoder.line(again))") }
    } catch {
        finding("JSON round trip rejected \(line): \(error)")
    }
}

func finishScript(_ events: [TimedEvent], _ accepted: [TimedEvent], _ state: TableState) {
    // Binary writer → reader gives the events back (one batch, as the recorder writes).
    var encoder = BinaryEventEncoder(baseTime: .zero)
    for e in events { encoder.append(e) }
    var decoder = BinaryEventDecoder(encoder.out.bytes, baseTime: .zero)
    var decoded: [TimedEvent] = []
    do {
        while let e = try decoder.next() { decoded.append(e) }
    } catch {
        finding("binary round trip failed: \(error)")
    }
    if decoded != events { finding("binary round trip changed the events") }
    // A snapshot of the final state restores the same state.
    do {
        let restored = try TableState(snapshot: state.snapshot())
        if restored != state { finding("snapshot round trip changed the state") }
    } catch {
        finding("snapshot round trip failed: \(error)")
    }
    // Replaying the accepted events gives the same state again (determinism).
    var again = TableState()
    for e in accepted {
        do { _ = try again.apply(e) } catch { finding("an accepted event was rejected on replay: \(error)") }
    }
    if again != state { finding("replaying the accepted events gave another state") }
}
