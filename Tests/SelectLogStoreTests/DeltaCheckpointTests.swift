import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// Format 7: a checkpoint stored as the changes from the checkpoint before it
/// (docs/LOG-FORMAT.md, "Delta checkpoints"). A delta must give back its snapshot exactly,
/// chains must stay within 15 deltas of a whole snapshot, and a delta that does not fit
/// its base (forged, or a buggy writer's) is damage named at its offset, never a state.
@Suite("Delta checkpoints (format 7)")
struct DeltaCheckpointTests {
    // MARK: The delta itself

    /// `base` with `edits` random changes: bytes inserted, removed, overwritten or moved.
    static func edited(_ base: [UInt8], edits: Int, maxRun: Int, _ rng: inout SplitMix64) -> [UInt8] {
        var s = base
        for _ in 0..<edits {
            let at = s.isEmpty ? 0 : Int(rng.next() % UInt64(s.count + 1))
            let run = 1 + Int(rng.next() % UInt64(maxRun))
            let fresh = (0..<run).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            switch rng.next() % 4 {
            case 0: s.insert(contentsOf: fresh, at: at)
            case 1: s.removeSubrange(at..<Swift.min(s.count, at + run))
            case 2: s.replaceSubrange(at..<Swift.min(s.count, at + run), with: fresh)
            default:
                let end = Swift.min(s.count, at + run)
                let block = Array(s[at..<end])
                s.removeSubrange(at..<end)
                s.insert(contentsOf: block, at: s.isEmpty ? 0 : Int(rng.next() % UInt64(s.count + 1)))
            }
        }
        return s
    }

    @Test("a delta gives back its snapshot exactly, is under half of it, and is made for a few small changes")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 0xD7)
        var made = 0
        for trial in 0..<400 {
            // Structured bytes (runs and repeats), as a snapshot's are, or noise.
            let length = Int(rng.next() % 6_000)
            let base: [UInt8] = trial % 3 == 0
                ? (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                : (0..<length).map { UInt8(truncatingIfNeeded: ($0 / 7) &* 31 ^ $0 % 5) }
            let small = trial % 2 == 0
            let snapshot = Self.edited(base, edits: small ? 1 + trial % 4 : 40, maxRun: small ? 20 : 400, &rng)
            guard !snapshot.isEmpty else { continue }
            let depth = 1 + trial % SnapshotDelta.maxDepth
            guard let delta = SnapshotDelta.make(from: base, to: snapshot, depth: depth, baseEvents: trial * 8_192) else {
                #expect(!(small && base.count >= 2_000), "a few small changes to \(base.count) bytes made no delta (trial \(trial))")
                continue
            }
            made += 1
            #expect(delta.count <= snapshot.count / 2)
            let h = try SnapshotDelta.header(delta)
            #expect(h.depth == depth && h.baseEvents == trial * 8_192 && h.length == snapshot.count)
            #expect(try SnapshotDelta.apply(delta, h, to: base) == snapshot, "trial \(trial)")
        }
        #expect(made > 150)
    }

    @Test("a delta is refused past the chain's depth or the sizes a reader holds")
    func limits() throws {
        let base = [UInt8](repeating: 7, count: 1_000), snapshot = base + [1, 2, 3]
        #expect(SnapshotDelta.make(from: base, to: snapshot, depth: 16, baseEvents: 0) == nil)
        #expect(SnapshotDelta.make(from: base, to: snapshot, depth: 0, baseEvents: 0) == nil)
        #expect(SnapshotDelta.make(from: base, to: [], depth: 1, baseEvents: 0) == nil)
        let huge = [UInt8](repeating: 1, count: SnapshotDelta.maxBytes + 1)
        #expect(SnapshotDelta.make(from: huge, to: snapshot, depth: 1, baseEvents: 0) == nil)
        // A reader's checks, whatever a writer made.
        var w = BinaryWriter()
        w.u8(SnapshotDelta.marker); w.u8(16); w.varint(0); w.varint(3)
        #expect(throws: BinaryError.self) { _ = try SnapshotDelta.header(w.bytes) }
        w = BinaryWriter()
        w.u8(SnapshotDelta.marker); w.u8(1); w.varint(0); w.varint(SnapshotDelta.maxBytes + 1)
        #expect(throws: BinaryError.self) { _ = try SnapshotDelta.header(w.bytes) }
        #expect(throws: BinaryError.self) {
            _ = try SnapshotDelta.header([SnapshotDelta.marker, 1, 0, 3] + [UInt8](repeating: 0, count: SnapshotDelta.maxDeltaBytes))
        }
    }

    // MARK: Logs

    /// A log of random-walk events with a checkpoint every 100 (none put off), its events
    /// and bytes, written in format `version`.
    static func log(in dir: URL, version: UInt16? = nil) throws -> (path: String, events: [TimedEvent], bytes: [UInt8]) {
        let path = dir.appendingPathComponent("d.slog").path
        let events = Array(RandomWalkSession(seed: 11, count: 3_000))
        var o = smallBatches(checkpointInterval: 100)
        o.formatVersion = version
        _ = try writeLog(events, to: path, options: o)
        return (path, events, try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The state after each of the first `n` events, every 100th kept.
    static func states(_ events: [TimedEvent]) throws -> [Int: TableState] {
        var state = TableState(), kept = [0: TableState()]
        for (k, e) in events.enumerated() {
            try state.apply(e)
            if (k + 1) % 100 == 0 { kept[k + 1] = state }
        }
        return kept
    }

    @Test("the writer chains up to 15 deltas from a whole snapshot, and every checkpoint reads as its state")
    func writtenChains() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, events, _) = try Self.log(in: dir)
        let log = try LogReader(path: path)
        #expect(log.header.version == 7)
        let checkpoints = log.records.filter { $0.header.kind == .checkpoint }
        #expect(checkpoints.count == 30)
        let depths = try checkpoints.map { c in
            let raw = try log.payload(c)
            return SnapshotDelta.isDelta(raw) ? try SnapshotDelta.header(raw).depth : 0
        }
        #expect(depths == (0..<30).map { $0 % 16 })
        // Every checkpoint read by a fresh reader (its chain walked back), and all of them
        // in turn (each from the one before), give the state the events make.
        let expected = try Self.states(events)
        for c in checkpoints.reversed() {
            let state = try LogReader(path: path).checkpointState(c)
            #expect(state == expected[c.header.firstEvent], "checkpoint after \(c.header.firstEvent) events")
        }
        for c in checkpoints { #expect(try log.checkpointState(c) == expected[c.header.firstEvent]) }
        let report = try LogReader.verify(path: path, replaying: true)
        #expect(report.isIntact && report.checkpointsReplayed == 30)
    }

    @Test("a log of version 6 stores every checkpoint whole, and reads back the same")
    func version6() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, events, _) = try Self.log(in: dir, version: 6)
        let log = try LogReader(path: path)
        #expect(log.header.version == 6)
        for c in log.records where c.header.kind == .checkpoint { #expect(try !SnapshotDelta.isDelta(log.payload(c))) }
        #expect(try log.state(at: 2_950) == Self.states(events)[2_900].map { s in
            var s = s
            for e in events[2_900..<2_950] { try s.apply(e) }
            return s
        })
    }

    // MARK: Damage

    /// `bytes` with record `r`'s payload replaced by `payload` (stored, codec 0) and its
    /// header's checksums made right; the stored index is cut off (the records after `r`
    /// moved), so a reader walks the records.
    static func replacing(_ bytes: [UInt8], _ r: RecordInfo, with payload: [UInt8], salt: UInt64, dataEnd: Int) -> [UInt8] {
        var h = Array(bytes[r.offset..<(r.offset + 48)])
        func put32(_ v: Int, at i: Int) { for k in 0..<4 { h[i + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) } }
        put32(Int(CRC32C.checksum(payload, salt: salt)), at: 8)
        put32(payload.count, at: 12)
        put32(payload.count, at: 16)
        h[40] = LogFormat.codecRaw
        Forge.setHeaderChecksum(&h, salt: salt)
        return Array(bytes[..<r.offset]) + h + payload + Array(bytes[r.end..<dataEnd])
    }

    /// A delta payload with the given header fields and operations.
    static func delta(depth: Int, base: Int, length: Int, _ ops: (inout BinaryWriter) -> Void) -> [UInt8] {
        var w = BinaryWriter()
        w.u8(SnapshotDelta.marker)
        w.u8(UInt8(depth))
        w.varint(base)
        w.varint(length)
        ops(&w)
        return w.bytes
    }

    enum Forgery: CaseIterable {
        case wrongBase, wrongDepth, copyOutside, wrongLength, firstCheckpoint, tooDeep, emptyOperation
    }

    @Test("a forged delta is damage at its checkpoint's offset: the reader, verify and the states before it say so",
          arguments: Forgery.allCases)
    func forged(_ forgery: Forgery) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, events, bytes) = try Self.log(in: dir)
        let log = try LogReader(path: path)
        let checkpoints = log.records.filter { $0.header.kind == .checkpoint }
        // The checkpoint after 500 events (depth 4 on the one after 400), or the first one.
        let target = forgery == .firstCheckpoint ? checkpoints[0] : checkpoints[4]
        let snapshot = try log.snapshot(of: target)
        let baseLength = try log.snapshot(of: checkpoints[3]).count
        let whole: (inout BinaryWriter) -> Void = { w in
            w.varint(UInt64(snapshot.count) << 1)
            w.append(snapshot)
        }
        let payload: [UInt8], reason: String
        switch forgery {
        case .wrongBase:
            (payload, reason) = (Self.delta(depth: 4, base: 401, length: snapshot.count, whole), "after 401 events, but the one before it is after 400")
        case .wrongDepth:
            (payload, reason) = (Self.delta(depth: 5, base: 400, length: snapshot.count, whole), "of depth 5 on a checkpoint of depth 3")
        case .copyOutside:
            (payload, reason) = (Self.delta(depth: 4, base: 400, length: snapshot.count) { w in
                w.varint(UInt64(snapshot.count) << 1 | 1)
                w.signed(Int64(baseLength - snapshot.count + 1))
            }, "a copy of \(snapshot.count) bytes from outside the base's \(baseLength)")
        case .wrongLength:
            (payload, reason) = (Self.delta(depth: 4, base: 400, length: snapshot.count + 1, whole), "the delta gives \(snapshot.count) bytes, its header says \(snapshot.count + 1)")
        case .firstCheckpoint:
            (payload, reason) = (Self.delta(depth: 1, base: 0, length: snapshot.count, whole), "with no checkpoint before it")
        case .tooDeep:
            (payload, reason) = (Self.delta(depth: 16, base: 400, length: snapshot.count, whole), "depth 16, not 1 to 15")
        case .emptyOperation:
            (payload, reason) = (Self.delta(depth: 4, base: 400, length: snapshot.count) { w in w.varint(1) }, "an empty operation")
        }
        let forged = Self.replacing(bytes, target, with: payload, salt: log.header.salt, dataEnd: log.dataEnd)
        let forgedPath = try AlignedSegmentTests.write(forged, in: dir, "forged.slog")
        let reader = try LogReader(path: forgedPath)
        let error = #expect(throws: LogError.self) { _ = try reader.state(at: target.header.firstEvent + 50) }
        #expect(error?.code == .damaged && error?.offset == target.offset, "\(String(describing: error))")
        #expect(error?.message.contains(reason) == true, "\(String(describing: error)) should say \(reason)")
        let report = try LogReader.verify(path: forgedPath, replaying: false)
        #expect(!report.isIntact && report.problem?.offset == target.offset, "\(report)")
        // Nothing recorded is lost: every event still reads, and the states before it.
        #expect(try reader.events() == events)
        if target.header.firstEvent > 100 {
            #expect(try reader.state(at: target.header.firstEvent - 50) == Self.states(events)[target.header.firstEvent - 100].map { s in
                var s = s
                for e in events[(target.header.firstEvent - 100)..<(target.header.firstEvent - 50)] { try s.apply(e) }
                return s
            })
        }
    }

    @Test("in a log of version 6 a payload that starts as a delta is a damaged snapshot, not a delta")
    func notInVersion6() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, _, bytes) = try Self.log(in: dir, version: 6)
        let log = try LogReader(path: AlignedSegmentTests.write(bytes, in: dir, "v6.slog"))
        let target = log.records.filter { $0.header.kind == .checkpoint }[4]
        let snapshot = try log.payload(target)
        let payload = Self.delta(depth: 4, base: 400, length: snapshot.count) { w in
            w.varint(UInt64(snapshot.count) << 1)
            w.append(snapshot)
        }
        let forged = Self.replacing(bytes, target, with: payload, salt: log.header.salt, dataEnd: log.dataEnd)
        let reader = try LogReader(path: AlignedSegmentTests.write(forged, in: dir, "forged6.slog"))
        let error = #expect(throws: LogError.self) { _ = try reader.state(at: 520) }
        #expect(error?.code == .damaged && error?.offset == target.offset && error?.message.contains("snapshot") == true,
                "\(String(describing: error))")
    }
}
