// Usage: format7-decoding 6|7 standard|random-walk|random-walk-3x [events]
import Foundation
@testable import SelectLog
@testable import SelectLogStore

let arguments = CommandLine.arguments
guard arguments.count >= 3, ["6", "7"].contains(arguments[1]) else {
    print("usage: format7-decoding 6|7 standard|random-walk|random-walk-3x [events]")
    exit(64)
}
let format = arguments[1], generator = arguments[2]
let count = arguments.count > 3 ? Int(arguments[3]) ?? 200_000 : 200_000
let events: [TimedEvent] = switch generator {
case "standard": Array(SyntheticSession(seed: 1, count: count))
case "random-walk": Array(RandomWalkSession(seed: 1, count: count))
default: Array(RandomWalkSession(seed: 1, count: count, screenScale: 3))
}

/// One window's batches in both formats, and format 7's tables.
struct Window {
    var formatSix: [[UInt8]] = []
    var formatSeven: [[UInt8]] = []
    var tables = RANSTables.empty
}

var windows: [Window] = []
var six = BinaryEventEncoder(baseTime: .zero, version: LogFormat.version)
var start = 0
while start < events.count {
    let part = events[start..<min(start + 8192, events.count)]
    var counting = RANSEventEncoder(baseTime: .zero)
    for e in part { counting.append(e) }
    _ = counting.seal(with: .empty)
    var window = Window(tables: RANSTables(counts: counting.takeCounts()))
    var seven = RANSEventEncoder(baseTime: .zero)
    six.endWindow()
    var k = part.startIndex
    while k < part.endIndex {
        _ = six.startBatch(baseTime: .zero)
        let batch = part[k..<min(k + 100, part.endIndex)]
        for e in batch {
            six.append(e)
            seven.append(e)
        }
        window.formatSix.append(six.seal(events: batch.count))
        window.formatSeven.append(seven.seal(with: window.tables))
        k += 100
    }
    windows.append(window)
    start += 8192
}

/// Decodes every window's format 7 batches; returns the events with a time.
@inline(never)
func decodeFormat7(_ windows: [Window]) throws -> Int {
    var timed = 0
    let tables = RANSDecodingTables()
    var decoder = RANSEventDecoder(tables: tables, baseTime: .zero)
    for window in windows {
        tables.load(window.tables)
        decoder.reset(baseTime: .zero)
        for batch in window.formatSeven {
            try decoder.start(batch)
            while !decoder.isAtEnd {
                if let e = try decoder.next(), e.t != nil { timed &+= 1 }
            }
        }
    }
    return timed
}

/// Decodes every window's format 6 batches; returns the events with a time.
@inline(never)
func decodeFormat6(_ windows: [Window]) throws -> Int {
    var timed = 0
    var decoder = CodedEventDecoder([], baseTime: .zero, thirds: true)
    for window in windows {
        for (i, batch) in window.formatSix.enumerated() {
            if i == 0 { decoder.restart(batch, baseTime: .zero) } else { decoder.continueBatch(batch) }
            while !decoder.isAtEnd {
                if let e = try decoder.next(), e.t != nil { timed &+= 1 }
            }
        }
    }
    return timed
}

let clock = ContinuousClock()
let began = clock.now
let timed = format == "7" ? try decodeFormat7(windows) : try decodeFormat6(windows)
let took = clock.now - began
let bytes = windows.reduce(0) { sum, w in sum + (format == "7" ? w.formatSeven : w.formatSix).reduce(0) { $0 + $1.count } }
print("format \(format), \(generator): \(events.count) events (\(timed) timed) decoded in \(took); \(bytes) bytes of batches")
