// libFuzzer harness: the log reader on forged files (mutations with their
// checksums recomputed, so they reach the decoders behind the checksums). Besides
// never crashing, it checks reads against each other: a read that starts anywhere
// gives what a read from the start gives, a log verify calls intact replays to the
// same states from its checkpoints as from the start and checks as the same, and a
// replay decoded on several threads (in short segments, as long logs are) gives what
// one in turn gives, as does a verify whose batches are checked on other threads.
// Built by Fuzz/build.sh; run by `make fuzz`.
#if canImport(Glibc)
import Glibc
#endif
@testable import SelectLog
@testable import SelectLogStore

let logPath: String = {
    let dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    // Removed when the harness exits (libFuzzer ends a timed run with `exit`): one was
    // left in /dev/shm, memory, by every run, `make test`'s smoke included. A finding
    // (a crash) leaves it, beside the input libFuzzer saves.
    atexit { removeLogFile() }
    return "\(dir)/selectlog-fuzz-\(getpid()).slog"
}()

func removeLogFile() {
    unlink(logPath)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size <= 1 << 20 else { return 0 }
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Half the inputs keep their checksums as mutated, half are forged.
    if size > 32, bytes[size - 1] & 1 == 0 { forgeChecksums(&bytes) }
    let fd = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return 0 }
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    checkLog()
    return 0
}

func checkLog() {
    // With `replaying`, verify also compares every checkpoint with a replay from the start.
    let intact = (try? LogReader.verify(path: logPath, replaying: true))?.isIntact ?? false
    checkPooledVerify()
    guard let reader = try? LogReader(path: logPath) else { return }
    // verify --deep compares what check compares (every checkpoint and gesture fingerprint):
    // a log it calls intact, this build checks as the same.
    if intact && reader.checkpointsTrusted, let report = try? reader.check(), !report.isSame {
        finding("verify --deep says intact, but check diverges: \(report)")
    }
    let total = reader.eventCount
    // Positions compared below: the middle, the end, the first event of a continued batch
    // (format 4: decoding starts at its window's first batch) and one inside it.
    var positions = Set([0, total / 2, total])
    if total <= 100_000, let b = reader.records.first(where: { $0.header.continues && $0.header.firstEvent < total }) {
        positions.insert(b.header.firstEvent)
        positions.insert(Swift.min(total, b.header.firstEvent + b.header.eventCount / 2))
    }
    // The events read from the start (kept for short logs only) and the states at `positions`.
    var events: [TimedEvent] = []
    var states: [Int: TableState] = [:]
    var count = 0
    var state = TableState()
    var replayed = true
    do {
        try reader.forEachEvent { index, event in
            if index != count { finding("event index \(index), expected \(count)") }
            if positions.contains(count) { states[count] = state }
            count += 1
            if total <= 100_000 { events.append(event) }
            do { _ = try state.apply(event) } catch {
                replayed = false
                return false
            }
            let problems = state.invariantViolations()
            if !problems.isEmpty { finding("invariants broken at event \(index): \(problems)") }
            return true
        }
    } catch {
        if intact { finding("verify says intact, but a read from the start fails: \(error)") }
        return
    }
    if intact && reader.checkpointsTrusted && !replayed { finding("verify replayed the log, but TableState.apply rejects event \(count - 1)") }
    if count > total { finding("\(count) events read, \(total) counted") }
    if intact && replayed && count < total { finding("verify says intact, but a read from the start stops after \(count) of \(total) events") }
    if count == total && replayed { states[total] = state }
    // A read that starts anywhere gives the events a read from the start gives. A fresh
    // reader: one that has met damage (past the last event, say) throws it on every read.
    // (Only after a whole read: one stopped by a rejected event did not decode the rest.)
    if count == total && replayed && total <= 100_000, let fresh = try? LogReader(path: logPath) {
        for n in positions where n < total {
            let end = Swift.min(total, n + 64)
            guard let slice = try? fresh.events(from: n, to: end) else { finding("events(from: \(n)) fails, a read from the start does not") }
            if slice != Array(events[n..<end]) { finding("events(from: \(n)) differ from a read from the start") }
        }
    }
    checkPipelinedReplay(total)
    // Time travel lands on states the engine could reach: sound ones.
    for n in positions {
        if let s = try? reader.state(at: n), !s.invariantViolations().isEmpty { finding("state(at: \(n)) is unsound") }
    }
    // A log verify calls intact replays to the same state from its checkpoints and from the start.
    if intact && reader.checkpointsTrusted && count == total && replayed {
        for (n, expected) in states {
            guard let s = try? reader.state(at: n) else { finding("verify says intact, but state(at: \(n)) fails") }
            if s != expected { finding("state(at: \(n)) differs from a replay from the start of a log verify calls intact") }
        }
    }
}

/// `verify` with its batches checked on other threads (as a log of 1 MiB or more is)
/// reports what a scan in turn reports, whatever the file: the same first bad byte,
/// reason, intact events and records.
func checkPooledVerify() {
    let inTurn = Result { () throws(LogError) in try LogReader.verify(path: logPath, replaying: false, engine: .standard, checkThreads: 0) }
    for threads in [1, 3] {
        let pooled = Result { () throws(LogError) in
            try LogReader.verify(path: logPath, replaying: false, engine: .standard, checkThreads: threads)
        }
        if "\(pooled)" != "\(inTurn)" {
            finding("verify with \(threads) checking threads reports \(pooled), in turn \(inTurn)")
        }
    }
}

/// A replay decoded on other threads gives what a replay in turn gives, whatever the
/// file: the same state, and the same error (message, offset, event) at the same event.
/// Long logs (65,536 events or more) replay so; here segments of a few events cut the
/// short logs the fuzzer makes, at windows (as long logs are cut) and not, by two to
/// four threads. Each replay has a fresh reader: one that met damage keeps throwing it.
func checkPipelinedReplay(_ total: Int) {
    guard total > 1, let inTurnReader = try? LogReader(path: logPath) else { return }
    var inTurn = TableState()
    var inTurnError: LogError?
    do { try inTurnReader.replay(into: &inTurn, to: total, pipelinedFrom: Int.max) } catch { inTurnError = error }
    for (segment, decoders, aligned) in [(5, 3, true), (64, 2, false), (17, 4, true)] {
        guard let reader = try? LogReader(path: logPath) else { finding("a second reader of the same file fails to open") }
        var state = TableState()
        var caught: LogError?
        do {
            try reader.pipelinedReplay(into: &state, to: total, segmentEvents: segment, decoders: decoders, alignsToWindows: aligned)
        } catch { caught = error }
        if caught?.description != inTurnError?.description {
            finding("pipelined replay (segments of \(segment), \(decoders) threads, aligned \(aligned)) fails with "
                    + "\(caught.map(String.init(describing:)) ?? "no error"), in turn with \(inTurnError.map(String.init(describing:)) ?? "no error")")
        }
        if state != inTurn {
            finding("pipelined replay (segments of \(segment), \(decoders) threads, aligned \(aligned)) reaches another state "
                    + "(\(state.events) events) than a replay in turn (\(inTurn.events))")
        }
    }
}
