import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// What the rANS format's coder would store, against format 6, on 1M events of each synthetic
/// session: the coded batches alone (no record headers, checkpoints or index), batches
/// ended at gesture ends (or at 4,096 events) with a fingerprint there, windows of at
/// least 8,192 events, tables from the window before (as a recorder must) and from the
/// window itself (as `compact` could). Every window is decoded back and compared. A
/// measurement for docs/PERFORMANCE.md, run on request (about 90 s in a debug build):
/// `SELECTLOG_MEASURE=1 swift test --filter Format7Measurements`.
@Suite("rANS format sizes (a measurement)", .enabled(if: ProcessInfo.processInfo.environment["SELECTLOG_MEASURE"] != nil))
struct Format7Measurements {
    typealias Item = RANSBatchTests.Item

    /// The session's events cut into windows of batches, as a recorder cuts them.
    static func windows(_ events: [TimedEvent]) -> [[[Item]]] {
        var state = TableState()
        var windows: [[[Item]]] = []
        var window: [[Item]] = []
        var batch: [Item] = []
        var inWindow = 0
        for (i, e) in events.enumerated() {
            batch.append(.event(e))
            let ends = (try? state.apply(e))?.endsGesture ?? false
            if ends { batch.append(.fingerprint(UInt32(truncatingIfNeeded: i &* 0x9E37_79B9))) }
            guard ends || batch.count >= 4096 || i == events.count - 1 else { continue }
            window.append(batch)
            inWindow += batch.count
            batch = []
            if inWindow >= 8192 || i == events.count - 1 {
                windows.append(window)
                window = []
                inWindow = 0
            }
        }
        return windows
    }

    /// Format 6's coded batches of the windows, in bytes.
    static func formatSixBytes(_ windows: [[[Item]]]) -> Int {
        var encoder = BinaryEventEncoder(baseTime: .zero, version: LogFormat.version)
        var bytes = 0
        for window in windows {
            encoder.endWindow()
            for batch in window {
                _ = encoder.startBatch(baseTime: .zero)
                for item in batch {
                    switch item {
                    case .event(let e): encoder.append(e)
                    case .fingerprint(let v): encoder.appendGestureFingerprint(v)
                    }
                }
                bytes += encoder.seal(events: batch.count).count
            }
        }
        return bytes
    }

    /// One window coded under `tables` and decoded back; its bytes and the symbols it counted.
    static func formatSeven(_ window: [[Item]], tables: RANSTables) throws -> (bytes: Int, counts: [UInt32]) {
        let coded = RANSBatchTests.encode(window, tables: tables)
        #expect(try RANSBatchTests.decode(coded.sealed, tables: tables) == window)
        return (coded.sealed.reduce(0) { $0 + $1.count }, coded.counts)
    }

    @Test("bytes per event of the coded batches, format 6 against the rANS format", arguments: ["standard", "random-walk", "random-walk-3x"])
    func sizes(generator: String) throws {
        let n = 1_000_000
        let events: [TimedEvent] = switch generator {
        case "standard": Array(SyntheticSession(seed: 1, count: n))
        case "random-walk": Array(RandomWalkSession(seed: 1, count: n))
        default: Array(RandomWalkSession(seed: 1, count: n, screenScale: 3))
        }
        let windows = Self.windows(events)
        let six = Self.formatSixBytes(windows)
        var live = 0, liveTables = 0, own = 0, ownTables = 0
        var before = RANSTables.empty
        for window in windows {
            // A recorder's: the window before's counts.
            let coded = try Self.formatSeven(window, tables: before)
            live += coded.bytes
            liveTables += before.encoded().count
            // `compact`'s: the window's own counts.
            let mine = RANSTables(counts: coded.counts)
            own += try Self.formatSeven(window, tables: mine).bytes
            ownTables += mine.encoded().count
            before = mine
        }
        func perEvent(_ bytes: Int) -> String { String(format: "%.4f", Double(bytes) / Double(n)) }
        print("""
            rANS format sizes, \(generator), bytes/event of coded batches: format 6 \(perEvent(six)); \
            rANS format, tables from the window before \(perEvent(live)) + tables \(perEvent(liveTables)) = \(perEvent(live + liveTables)); \
            tables from the window itself \(perEvent(own)) + tables \(perEvent(ownTables)) = \(perEvent(own + ownTables))
            """)
    }
}
