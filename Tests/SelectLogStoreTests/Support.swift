import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// A fresh temporary directory, removed by the caller when it wants.
func temporaryDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("selectlog-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

/// Writes `events` to a new log at `path` and returns the state after them.
@discardableResult
func writeLog(_ events: [TimedEvent], to path: String, options: Recorder.Options = Recorder.Options()) throws -> TableState {
    let recorder = try Recorder(creating: path, options: options)
    for e in events { try recorder.append(e) }
    try recorder.close()
    return recorder.state
}

/// `events` encoded as one batch of format `version` and decoded back.
func batchRoundTrip(_ events: [TimedEvent], version: UInt16) throws -> [TimedEvent] {
    var encoder = BinaryEventEncoder(baseTime: .zero, version: version)
    for e in events { encoder.append(e) }
    var decoder = BinaryEventDecoder(encoder.out.bytes, baseTime: .zero, version: version)
    var back: [TimedEvent] = []
    while let e = try decoder.next() { back.append(e) }
    return back
}

/// The state after replaying `events` in memory.
func replayed(_ events: [TimedEvent]) throws -> TableState {
    var s = TableState()
    for e in events { try s.apply(e) }
    return s
}

/// The core's seeded SplitMix64: property tests print the seed they failed with.
typealias SeededRandom = SplitMix64

/// Small options so that short sessions still make several batches and checkpoints (one
/// at every multiple of the interval).
func smallBatches(checkpointInterval: Int = 40) -> Recorder.Options {
    var o = Recorder.Options()
    o.batchEvents = 25
    o.checkpointInterval = checkpointInterval
    o.putsOffLargeCheckpoints = false
    o.durability = .none
    o.salt = 0x5EED
    return o
}

let examplesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples")
