import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// A pipelined replay whose segments start at windows (`SegmentBounds`, as `replay`, `check`
/// and `verify --deep` cut them by default): segment k starts at the first event of the
/// window that holds event `start + k * size`, but not before segment k - 1's start (a
/// window that began before it leaves segment k - 1 empty). Wherever the cuts fall, the
/// replay must be indistinguishable from decoding and applying in turn: the same state,
/// the same error at the same event, no event applied twice or skipped. The logs here have
/// windows of about 600 events (a checkpoint every 300, most put off to 600; a window
/// starts after each), in batches of up to 100, so segments of 97 to 2,500 events cut both
/// at windows and inside them.
@Suite("Pipelined replay: segments that start at windows")
struct AlignedSegmentTests {
    static let count = 8_123

    /// The log the tests start from, written once: `count` random-walk events, a checkpoint
    /// every 300 events and batches of up to 100.
    static let pristine = Result { () throws -> (bytes: [UInt8], events: [TimedEvent]) in
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("a.slog").path
        let events = Array(RandomWalkSession(seed: 5, count: count))
        let w = try LogRewriter(path: path, checkpointInterval: 300, batchEvents: 100)
        for e in events { try w.append(e) }
        try w.close()
        return (try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), events)
    }

    /// `bytes` written to `name` in `dir`; its path.
    static func write(_ bytes: [UInt8], in dir: URL, _ name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The pristine log written to `a.slog` in `dir`, opened: its path, reader, bytes and events.
    static func pristineLog(in dir: URL) throws -> (path: String, log: LogReader, bytes: [UInt8], events: [TimedEvent]) {
        let (bytes, events) = try pristine.get()
        let path = try write(bytes, in: dir, "a.slog")
        return (path, try LogReader(path: path), bytes, events)
    }

    /// The first events of the log's windows: of every batch that does not continue the one
    /// before it (in versions 1 to 3, every batch).
    static func windowStarts(_ log: LogReader) -> [Int] {
        log.records.filter { $0.header.kind == .batch && !$0.header.continues }.map(\.header.firstEvent)
    }

    /// Where segment `k` of a replay from `start` in segments of `size` must start, worked
    /// out from the records rather than by `SegmentBounds` (`events`: the log's; past them,
    /// no window holds the event): the window's start, between the segment before's start
    /// and the segment's own first event.
    static func expectedStart(of k: Int, start: Int, size: Int, windows: [Int], events: Int = count) -> Int {
        var cut = start
        for j in stride(from: 1, through: k, by: 1) {
            let plain = start + j * size
            let window = plain < events ? windows.last { $0 <= plain } ?? plain : plain
            cut = Swift.min(plain, Swift.max(cut, window))
        }
        return cut
    }

    /// The state after each of `positions` events of `events`, applied in memory.
    static func states(_ events: [TimedEvent], at positions: [Int]) throws -> [Int: TableState] {
        var out: [Int: TableState] = [:]
        var state = TableState()
        for n in Set(positions).sorted() {
            while state.events < n { try state.apply(events[state.events]) }
            out[n] = state
        }
        return out
    }

    /// Changes `b[at ..< at + 4]` so that the salted CRC-32C of `b[range]` is `crc` again:
    /// damage that no checksum sees, only decoding. (The CRC is affine in the bits of the
    /// bytes it covers, so the 32 bits at `at` are solved for over GF(2).)
    static func restoreChecksum(_ b: inout [UInt8], of range: Range<Int>, at: Int, to crc: UInt32, salt: UInt64) {
        func current() -> UInt32 { CRC32C.checksum(Array(b[range]), salt: salt) }
        let base = current()
        // For each pivot bit, a change of the CRC and the bits at `at` that make it.
        var basis = [(change: UInt32, bits: UInt32)?](repeating: nil, count: 32)
        for bit in 0..<32 {
            b[at + bit / 8] ^= 1 << (bit % 8)
            var change = current() ^ base, bits = UInt32(1) << bit
            b[at + bit / 8] ^= 1 << (bit % 8)
            for p in stride(from: 31, through: 0, by: -1) where change >> p & 1 == 1 {
                guard let known = basis[p] else {
                    basis[p] = (change, bits)
                    break
                }
                change ^= known.change
                bits ^= known.bits
            }
        }
        var wanted = base ^ crc, flips: UInt32 = 0
        for p in stride(from: 31, through: 0, by: -1) where wanted >> p & 1 == 1 {
            guard let known = basis[p] else { break }
            wanted ^= known.change
            flips ^= known.bits
        }
        for bit in 0..<32 where flips >> bit & 1 == 1 { b[at + bit / 8] ^= 1 << (bit % 8) }
    }

    /// Does `damage` to `record` in `bytes`: flips a bit of its payload's last byte (its
    /// checksum fails), or overwrites six bytes in the middle of its payload and restores
    /// its checksum (only decoding fails).
    static func damage(_ bytes: inout [UInt8], _ damage: Damage, at record: RecordInfo, salt: UInt64) throws {
        switch damage {
        case .windowStartChecksum, .continuedChecksum, .checkpointChecksum:
            bytes[record.end - 1] ^= 0x40
        case .windowStartDecoding, .continuedDecoding, .checkpointContents:
            let at = record.payloadStart + record.header.storedLength / 2
            try #require(at + 10 <= record.end)
            for i in at..<(at + 6) { bytes[i] = 0xFF }
            restoreChecksum(&bytes, of: record.payloadStart..<record.end, at: at + 6, to: record.payloadChecksum, salt: salt)
            try #require(CRC32C.checksum(Array(bytes[record.payloadStart..<record.end]), salt: salt) == record.payloadChecksum)
        }
    }

    // MARK: Where segments start

    @Test("each segment starts at its window, not before the one before (or is empty), the same when asked twice")
    func segmentStarts() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, log, _, events) = try Self.pristineLog(in: dir)
        let windows = Self.windowStarts(log)
        #expect(windows.count > 10)
        let n = Self.count
        // Cuts at a window before the segment's own first event, and empty segments (no
        // window starts within the segment's span: the next one takes the whole window).
        var atWindows = 0, empty = 0
        let expected = try Self.states(events, at: [0, 1_234, n])
        for start in [0, 1_234] {
            for size in [97, 200, 300, 1_000, 2_500] {
                let bounds = SegmentBounds(reader: log, start: start, end: n, size: size, aligned: true)
                let segments = (n - start + size - 1) / size
                #expect(bounds.start(of: 0) == start)
                var before = start
                for k in 1..<segments {
                    let cut = bounds.start(of: k), plain = start + k * size
                    #expect(cut == Self.expectedStart(of: k, start: start, size: size, windows: windows),
                            "from \(start) in segments of \(size): segment \(k) starts at \(cut)")
                    #expect(cut >= before && cut <= plain, "from \(start) in segments of \(size): segment \(k) starts at \(cut)")
                    // Every cut is a window's start, or where the replay starts.
                    #expect(windows.contains(cut) || cut == start, "from \(start) in segments of \(size): segment \(k) starts at \(cut)")
                    // Asked again (the threads decoding segments k - 1 and k both ask), the same.
                    #expect(bounds.start(of: k) == cut)
                    if cut < plain, cut > before { atWindows += 1 }
                    if cut == before { empty += 1 }
                    before = cut
                }
                var state = try #require(expected[start])
                try log.pipelinedReplay(into: &state, to: n, segmentEvents: size, decoders: 2, alignsToWindows: true)
                #expect(state == expected[n], "from \(start) in segments of \(size)")
            }
        }
        #expect(atWindows > 20 && empty > 20, "\(atWindows) cuts at a window, \(empty) empty segments")
    }

    @Test("a segment's start is read once for the two threads that ask it: both cut at the same event even if the file changes between")
    func startsAreKeptForTheSecondAsk() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, log, bytes, _) = try Self.pristineLog(in: dir)
        let records = log.records
        // Segment 3 of segments of 1,000 holds event 5 of the second batch of a window
        // (after event 4,000): it starts at the window's first batch.
        let first = try #require(records.first { $0.header.kind == .batch && !$0.header.continues && $0.header.firstEvent > 4_000 })
        let second = try #require(records.first { $0.offset == first.end })
        try #require(second.header.continues)
        let plain = second.header.firstEvent + 5, start = plain - 3 * 1_000
        let bounds = SegmentBounds(reader: log, start: start, end: Self.count, size: 1_000, aligned: true)
        #expect(bounds.start(of: 3) == first.header.firstEvent)
        // The window's first batch header changes under the reader (the mapping shows it):
        // read again, the window is not found and the segment would start at `plain`.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(first.offset))
        try handle.write(contentsOf: [bytes[first.offset] ^ 0xFF])
        try handle.close()
        #expect(SegmentBounds(reader: log, start: start, end: Self.count, size: 1_000, aligned: true).start(of: 3) == plain,
                "the change is seen by a fresh read")
        // The second ask gets what the first found, so segment 2 ends where segment 3 starts.
        #expect(bounds.start(of: 3) == first.header.firstEvent)
        // Then it is forgotten (a start is asked twice), so the starts kept stay few.
        #expect(bounds.start(of: 3) == plain)
    }

    // MARK: Damage

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        /// The payload checksum of the batch that starts the window fails.
        case windowStartChecksum
        /// The batch that starts the window does not decode (its checksums hold).
        case windowStartDecoding
        /// The checksum of the continued batch that holds the segment's own first event fails.
        case continuedChecksum
        /// That continued batch does not decode (its checksums hold).
        case continuedDecoding
        /// The payload checksum of the checkpoint just before the window fails.
        case checkpointChecksum
        /// That checkpoint holds garbage (its checksums hold): a replay passes it.
        case checkpointContents

        var testDescription: String { rawValue }
    }

    @Test("damage at a segment that starts at a window, inside it or before it: the error and state of applying in turn",
          arguments: Damage.allCases)
    func damageAtAWindowCut(damage: Damage) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (pristinePath, pristineLog, pristine, events) = try Self.pristineLog(in: dir)
        let records = pristineLog.records
        let salt = pristineLog.header.salt
        // A window after event 4,000: the checkpoint before it, its first batch, and the
        // continued batch after that, which holds event `plain`.
        let first = try #require(records.first { $0.header.kind == .batch && !$0.header.continues && $0.header.firstEvent > 4_000 })
        let checkpoint = try #require(records.last { $0.end == first.offset })
        let second = try #require(records.first { $0.offset == first.end })
        try #require(checkpoint.header.kind == .checkpoint && second.header.continues)
        let plain = second.header.firstEvent + 5
        let record = switch damage {
        case .windowStartChecksum, .windowStartDecoding: first
        case .continuedChecksum, .continuedDecoding: second
        case .checkpointChecksum, .checkpointContents: checkpoint
        }
        var bytes = pristine
        try Self.damage(&bytes, damage, at: record, salt: salt)
        let path = try Self.write(bytes, in: dir, "d.slog")
        // Event by event on this thread, with a reader of its own.
        let (sequential, plainError) = try PipelinedReplayTests.appliedInTurn(path)
        if damage == .checkpointContents {
            #expect(plainError == nil)
            #expect(sequential.events == Self.count)
        } else {
            let error = try #require(plainError, "\(damage): applying in turn meets the damage")
            #expect(error.eventIndex.map { $0 >= first.header.firstEvent } == true, "\(error)")
        }
        for size in [97, 1_000] {
            // Segment 3 (from part-way, inside an earlier window) holds `plain`: on the
            // intact log it starts at the window's first event; on the damaged one too, but
            // where a checksum fails before `plain`, which the read of the window meets: then
            // at `plain`, and the segment before meets the damage.
            let start = plain - 3 * size
            let intact = try LogReader(path: pristinePath)
            #expect(SegmentBounds(reader: intact, start: start, end: Self.count, size: size, aligned: true).start(of: 3) == first.header.firstEvent)
            let checksumFails = [.windowStartChecksum, .continuedChecksum, .checkpointChecksum].contains(damage)
            #expect(SegmentBounds(reader: try LogReader(path: path), start: start, end: Self.count, size: size, aligned: true).start(of: 3)
                        == (checksumFails ? plain : first.header.firstEvent))
            let before = try #require(try Self.states(events, at: [start])[start])
            for decoders in 1...4 {
                let log = try LogReader(path: path)
                var state = before
                var caught: LogError?
                do {
                    try log.pipelinedReplay(into: &state, to: Self.count, segmentEvents: size, decoders: decoders, alignsToWindows: true)
                } catch {
                    caught = error
                }
                let what = "\(damage), from \(start) in segments of \(size), \(decoders) decoders"
                #expect(caught?.description == plainError?.description, "\(what)")
                #expect(caught?.offset == plainError?.offset && caught?.eventIndex == plainError?.eventIndex, "\(what)")
                #expect(state == sequential, "\(what): \(state.events) events applied, not \(sequential.events)")
            }
        }
        if damage == .checkpointContents {
            // A check's pipelined pass (segments at windows) must not find every checkpoint agreeing.
            let log = try LogReader(path: path)
            let pass = try? log.pipelinedCheck(segmentEvents: 1_000, alignsToWindows: true)
            #expect(pass == nil)
        }
    }

    // MARK: Part-way

    @Test("from part-way to part-way, inside windows or at their starts: the state of applying the events in turn",
          arguments: 1...4)
    func partWay(decoders: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, log, _, events) = try Self.pristineLog(in: dir)
        let windows = Self.windowStarts(log)
        try #require(windows.count > 10 && windows[1] - windows[0] > 40)
        // (from, to): inside windows; at window starts; within one window.
        let ranges = [(windows[2] + 34, windows[windows.count - 2] + 37), (windows[3], windows[9]),
                      (windows[5] + 3, windows[5] + 40)]
        let expected = try Self.states(events, at: ranges.flatMap { [$0.0, $0.1] })
        for (from, to) in ranges {
            for size in [97, 300, 1_000, 2_500] {
                var state = try #require(expected[from])
                try log.pipelinedReplay(into: &state, to: to, segmentEvents: size, decoders: decoders, alignsToWindows: true)
                #expect(state.events == to, "from \(from) to \(to) in segments of \(size)")
                #expect(state == expected[to], "from \(from) to \(to) in segments of \(size)")
            }
        }
    }

    // MARK: Other windows

    @Test("forged logs of versions 1 to 3 (a window a batch) and 4 (windows shorter and longer than segments) replay as in turn",
          arguments: [1, 2, 3, 4] as [UInt16])
    func forgedVersions(version: UInt16) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let n = 3_000
        let events = Array(RandomWalkSession(seed: 9, count: n))
        // The time before each event: a batch's base time.
        var times: [Int64] = [0]
        for e in events { times.append(e.t?.raw ?? times[times.count - 1]) }
        // Batches of 1 to 150 events; in version 4, windows of 1 to 17 of them (one of
        // 1,300 events or more, longer than most segments here).
        let sizes = [100, 37, 150, 1, 64, 99, 120]
        var batches: [Range<Int>] = []
        var at = 0
        while at < n {
            let size = min(sizes[batches.count % sizes.count], n - at)
            batches.append(at..<(at + size))
            at += size
        }
        let perWindow = [1, 3, 17, 2, 5, 1, 4]
        var f = Forge(interval: 0, version: version)
        var b = 0, w = 0
        while b < batches.count {
            let window = batches[b..<min(batches.count, b + (version >= 4 ? perWindow[w % perWindow.count] : 1))]
            let first = window.first!.lowerBound
            if version >= 4 {
                f.window(window.map { Array(events[$0]) }, first: first, baseTime: times[first])
            } else {
                f.batch(Array(events[window.first!]), first: first, baseTime: times[first])
            }
            b += window.count
            w += 1
        }
        f.index()
        let path = dir.appendingPathComponent("v\(version).slog").path
        try f.write(to: path)
        let log = try LogReader(path: path)
        #expect(log.header.version == version && log.eventCount == n)
        let windows = Self.windowStarts(log)
        #expect(windows.count == (version >= 4 ? w : batches.count))
        let expected = try Self.states(events, at: [0, 777, 2_345, n])
        // (A replay to past the log's end stops at its end, as in turn: the segments past it
        // start at their own first event, as no window holds it, and decode nothing.)
        for (from, to) in [(0, n), (777, 2_345), (2_345, n + 500)] {
            for size in [97, 250, 1_000] {
                let bounds = SegmentBounds(reader: log, start: from, end: to, size: size, aligned: true)
                var longer = 0
                for k in 1..<((to - from + size - 1) / size) {
                    let cut = bounds.start(of: k)
                    #expect(cut == Self.expectedStart(of: k, start: from, size: size, windows: windows, events: n),
                            "version \(version), from \(from) in segments of \(size): segment \(k)")
                    // No segment starts inside a window, however long (a window longer than
                    // the segments is decoded once, by the segment after the empty ones).
                    #expect(cut >= n || cut == from || windows.contains(cut), "version \(version), from \(from) in segments of \(size): segment \(k) at \(cut)")
                    if cut == bounds.start(of: k - 1), k > 1 { longer += 1 }
                }
                // (Windows of up to 1,425 events: some hold two or more plain cuts of 97 or 250.)
                if version >= 4, to == n, size < 1_000 {
                    #expect(longer > 0, "version \(version), from \(from) in segments of \(size): no empty segment")
                }
                for decoders in [1, 4] {
                    var state = try #require(expected[from])
                    try log.pipelinedReplay(into: &state, to: to, segmentEvents: size, decoders: decoders, alignsToWindows: true)
                    #expect(state == expected[Swift.min(to, n)], "version \(version), from \(from) to \(to) in segments of \(size), \(decoders) decoders")
                }
            }
        }
    }
}
