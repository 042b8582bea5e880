// Encodes (and decodes) the same events with format 6's range coder and with the rANS
// coder of "format 7", cut into batches as a recorder cuts them, for counting the
// instructions each takes an event (callgrind) and timing them.
//
// Usage: format7-encoding MODE standard|random-walk|random-walk-3x [events] [repeats]
//   MODE  setup   only generate, apply and cut the events (and prepare decoding input)
//         asm6    format 6 through `LogAssembler.add`, as the recorder's writer thread calls it
//         enc6    format 6 through `BinaryEventEncoder` directly (start/append/seal a batch)
//         enc7    rANS, as a recorder would: append (counting symbols), seal each batch
//                 under the window before's tables, and at each window's end build the next
//                 window's tables from the counts and write them (`encoded()`)
//         dec6    format 6's decoder (`CodedEventDecoder`), every event built
//         dec7    rANS decoder, each window's tables read from their bytes and loaded
//         check   enc7's and format 6's batches decode to as many timed events
//         all     every one of the above, timed (no valgrind)
// Without valgrind each measured function runs `repeats` times and prints the wall time of
// each run and the median, in ns an event. Under callgrind collect one function:
//   valgrind --tool=callgrind --toggle-collect='*measureEnc7*' .build/release/format7-encoding enc7 random-walk 200000 1
// and divide `Collected` by the events.
import Foundation
@testable import SelectLog
@testable import SelectLogStore

let arguments = CommandLine.arguments
let modes = ["setup", "asm6", "enc6", "enc7", "dec6", "dec7", "check", "all"]
guard arguments.count >= 3, modes.contains(arguments[1]) else {
    print("usage: format7-encoding \(modes.joined(separator: "|")) standard|random-walk|random-walk-3x [events] [repeats]")
    exit(64)
}
let mode = arguments[1], generator = arguments[2]
let count = arguments.count > 3 ? Int(arguments[3]) ?? 200_000 : 200_000
let repeats = arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1

// MARK: The events, as the recorder's writer gets them

/// An event as the writer thread takes it from its slot: the event, the state's time
/// before it (`Appended.before`) and, at a gesture end, the state's gesture fingerprint.
struct Slot {
    var event: TimedEvent
    var before: Micros
    var fingerprint: UInt32?
}

/// A window: its batches as ranges of `slots`.
struct Window {
    var batches: [Range<Int>]
}

let events: [TimedEvent] = switch generator {
case "standard": Array(SyntheticSession(seed: 1, count: count))
case "random-walk": Array(RandomWalkSession(seed: 1, count: count))
default: Array(RandomWalkSession(seed: 1, count: count, screenScale: 3))
}

// Cut as Tests/SelectLogStoreTests/Format7Measurements.swift cuts them: a batch ends at a
// gesture end (with its fingerprint) or at 4,096 events (`Recorder.Options.batchEvents`);
// a window ends with the batch that brings it to 8,192 events or more.
var slots: [Slot] = []
slots.reserveCapacity(events.count)
var windows: [Window] = []
do {
    var state = TableState()
    var window = Window(batches: [])
    var batchStart = 0, inWindow = 0
    for (i, e) in events.enumerated() {
        let before = state.t
        let ends = (try? state.apply(e))?.endsGesture ?? false
        slots.append(Slot(event: e, before: before, fingerprint: ends ? state.gestureFingerprint : nil))
        guard ends || i + 1 - batchStart >= 4096 || i == events.count - 1 else { continue }
        window.batches.append(batchStart..<i + 1)
        inWindow += i + 1 - batchStart
        batchStart = i + 1
        if inWindow >= 8192 || i == events.count - 1 {
            windows.append(window)
            window = Window(batches: [])
            inWindow = 0
        }
    }
}
let batchCount = windows.reduce(0) { $0 + $1.batches.count }

// MARK: Encoding

/// Format 6 as the recorder's writer codes it: `LogAssembler.add` for every event (no
/// checkpoints: the encoder's own window limit of 8,192 ends windows), the records let go
/// of every 1,024 events as the writer's rounds do. Returns the bytes of the batches.
@inline(never)
func measureAsm6(_ slots: [Slot]) -> Int {
    var assembler = LogAssembler(events: 0, time: .zero, version: LogFormat.version, checkpointInterval: 0,
                                 putsOffLargeCheckpoints: false, batchEvents: 4096)
    var records: [LogAssembler.Record] = []
    var bytes = 0
    func drain() {
        for r in records { if case .batch(let raw, _, _, _, _) = r { bytes &+= raw.count } }
        records.removeAll(keepingCapacity: true)
    }
    for (i, s) in slots.enumerated() {
        assembler.add(s.event, before: s.before, gestureFingerprint: s.fingerprint, offered: nil, into: &records)
        if i & 1023 == 1023 { drain() }
    }
    assembler.seal(into: &records)
    drain()
    return bytes
}

/// Format 6 through `BinaryEventEncoder`, batch by batch, as `LogAssembler` drives it.
/// Returns every batch's bytes (for the decoders) when `keep`, else only their count.
@inline(never)
func measureEnc6(_ slots: [Slot], _ windows: [Window], keep: Bool) -> (bytes: Int, sealed: [[[UInt8]]]) {
    var encoder = BinaryEventEncoder(baseTime: .zero, version: LogFormat.version)
    var bytes = 0
    var sealed: [[[UInt8]]] = []
    for window in windows {
        encoder.endWindow()
        var mine: [[UInt8]] = []
        for batch in window.batches {
            _ = encoder.startBatch(baseTime: slots[batch.lowerBound].before)
            for i in batch {
                encoder.append(slots[i].event)
                if let f = slots[i].fingerprint { encoder.appendGestureFingerprint(f) }
            }
            let raw = encoder.seal(events: batch.count)
            bytes &+= raw.count
            if keep { mine.append(raw) }
        }
        if keep { sealed.append(mine) }
    }
    return (bytes, sealed)
}

/// The rANS coder as a recorder would run it: every event appended (its symbols counted),
/// every batch sealed under the tables of the window before (the first window's all
/// escapes), and at each window's start that window's tables written (`encoded()`); at
/// its end the counts taken and the next window's tables built.
@inline(never)
func measureEnc7(_ slots: [Slot], _ windows: [Window], keep: Bool)
    -> (bytes: Int, tableBytes: Int, sealed: [[[UInt8]]], tables: [[UInt8]]) {
    var encoder = RANSEventEncoder(baseTime: .zero)
    var tables = RANSTables.empty
    var bytes = 0, tableBytes = 0
    var sealed: [[[UInt8]]] = []
    var written: [[UInt8]] = []
    for window in windows {
        encoder.reset(baseTime: slots[window.batches[0].lowerBound].before)
        let coded = tables.encoded()
        tableBytes &+= coded.count
        var mine: [[UInt8]] = []
        for batch in window.batches {
            for i in batch {
                encoder.append(slots[i].event)
                if let f = slots[i].fingerprint { encoder.appendFingerprint(f) }
            }
            let raw = encoder.seal(with: tables)
            bytes &+= raw.count
            if keep { mine.append(raw) }
        }
        if keep {
            sealed.append(mine)
            written.append(coded)
        }
        tables = RANSTables(counts: encoder.takeCounts())
    }
    return (bytes, tableBytes, sealed, written)
}

// MARK: Decoding

/// Format 6's batches decoded, every event built; returns the events with a time.
@inline(never)
func measureDec6(_ sealed: [[[UInt8]]], _ slots: [Slot], _ windows: [Window]) throws -> Int {
    var timed = 0
    var decoder = CodedEventDecoder([], baseTime: .zero, thirds: true)
    for (w, window) in sealed.enumerated() {
        let base = slots[windows[w].batches[0].lowerBound].before
        for (i, batch) in window.enumerated() {
            if i == 0 { decoder.restart(batch, baseTime: base) } else { decoder.continueBatch(batch) }
            while !decoder.isAtEnd {
                if let e = try decoder.next(), e.t != nil { timed &+= 1 }
            }
        }
    }
    return timed
}

/// The rANS batches decoded, each window's tables read from their bytes and loaded first.
@inline(never)
func measureDec7(_ sealed: [[[UInt8]]], _ tableBytes: [[UInt8]], _ slots: [Slot], _ windows: [Window]) throws -> Int {
    var timed = 0
    let decoding = RANSDecodingTables()
    var decoder = RANSEventDecoder(tables: decoding, baseTime: .zero)
    for (w, window) in sealed.enumerated() {
        guard let tables = RANSTables(decoding: tableBytes[w]) else { fatalError("tables of window \(w) do not read") }
        decoding.load(tables)
        decoder.reset(baseTime: slots[windows[w].batches[0].lowerBound].before)
        for batch in window {
            try decoder.start(batch)
            while !decoder.isAtEnd {
                if let e = try decoder.next(), e.t != nil { timed &+= 1 }
            }
        }
    }
    return timed
}

// MARK: Running

let n = Double(slots.count)
let clock = ContinuousClock()

/// Runs `body` `repeats` times; prints each run's ns/event and the median.
func timed(_ name: String, _ body: () throws -> String) rethrows {
    var runs: [Double] = []
    var note = ""
    for _ in 0..<repeats {
        let began = clock.now
        note = try body()
        let took = clock.now - began
        let (s, atto) = took.components
        runs.append((Double(s) * 1e9 + Double(atto) / 1e9) / n)
    }
    let sorted = runs.sorted()
    let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    print(String(format: "%@ %@: median %.1f ns/event; runs %@; %@", name, generator, median,
                 runs.map { String(format: "%.1f", $0) }.joined(separator: " "), note))
}

print("\(generator): \(slots.count) events, \(batchCount) batches, \(windows.count) windows")

// Decoding input is made outside the measured functions.
let needs6 = mode == "dec6" || mode == "all", needs7 = mode == "dec7" || mode == "check" || mode == "all"
let six = needs6 ? measureEnc6(slots, windows, keep: true).sealed : []
let seven = needs7 ? measureEnc7(slots, windows, keep: true) : (bytes: 0, tableBytes: 0, sealed: [], tables: [])

if mode == "asm6" || mode == "all" {
    timed("asm6") { "\(measureAsm6(slots)) bytes" }
}
if mode == "enc6" || mode == "all" {
    timed("enc6") { "\(measureEnc6(slots, windows, keep: false).bytes) bytes" }
}
if mode == "enc7" || mode == "all" {
    timed("enc7") {
        let r = measureEnc7(slots, windows, keep: false)
        return "\(r.bytes) bytes + \(r.tableBytes) bytes of tables"
    }
}
if mode == "check" {
    let seven7 = try measureDec7(seven.sealed, seven.tables, slots, windows)
    let six6 = try measureDec6(measureEnc6(slots, windows, keep: true).sealed, slots, windows)
    guard seven7 == six6 else { fatalError("enc7's batches decode to \(seven7) timed events, format 6's to \(six6)") }
    print("enc7's batches decode back: \(seven7) timed events, as format 6's")
}
if mode == "dec6" || mode == "all" {
    try timed("dec6") { "\(try measureDec6(six, slots, windows)) timed events" }
}
if mode == "dec7" || mode == "all" {
    try timed("dec7") { "\(try measureDec7(seven.sealed, seven.tables, slots, windows)) timed events" }
}
