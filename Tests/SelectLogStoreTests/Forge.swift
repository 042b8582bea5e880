import Foundation
@testable import SelectLog
@testable import SelectLogStore

/// Builds log files byte by byte from docs/LOG-FORMAT.md (versions 1 to 4), with correct
/// checksums, so that tests can forge what a buggy writer or an attacker would.
struct Forge {
    var salt: UInt64 = 0x5EED
    var bytes: [UInt8] = []
    /// (offset, kind, codec, stored length, raw length, event count, first event, base time, payload CRC)
    var entries: [(Int, UInt8, UInt8, Int, Int, Int, Int, Int64, UInt32)] = []
    /// Version 4: for each of `entries`, the continued batches after it in its window.
    var continued: [Continued] = []

    /// The format version forged: 2, 1 (32-byte header, no behaviour fingerprint, v1
    /// prediction), 3 (coded batches) or 4 (coded batches in windows of continued batches).
    var version: UInt16 = 2

    /// A window's continued batches, as the version 4 index sums them into its first batch's entry.
    struct Continued: Equatable {
        var count = 0
        /// Their bytes, 16-byte headers included.
        var bytes = 0
        var events = 0
    }

    init(behaviour: UInt64 = BehaviourFingerprint.current, interval: UInt32 = 4, version: UInt16 = 2) {
        self.version = version
        bytes = Array("SELECTLG".utf8)
        bytes += [UInt8(version), 0, version == 1 ? 32 : 40, 0]
        Forge.put32(&bytes, LogFormat.featureCheckpoints)
        Forge.put64(&bytes, salt)
        Forge.put32(&bytes, interval)
        if version >= 2 { Forge.put64(&bytes, behaviour) }
        Forge.put32(&bytes, CRC32C.checksum(bytes, salt: 0))
    }

    static func put32(_ b: inout [UInt8], _ v: UInt32) { for k in 0..<4 { b.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }
    static func put64(_ b: inout [UInt8], _ v: UInt64) { for k in 0..<8 { b.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }

    /// A 48-byte record header and its payload; `rawLength` defaults to the payload's length.
    @discardableResult
    mutating func record(_ kind: Unicode.Scalar, _ payload: [UInt8], rawLength: Int? = nil, events: Int = 0, first: Int = 0,
                         baseTime: Int64 = 0, codec: UInt8 = 0) -> Int {
        let offset = bytes.count
        var h = Array("SLR".utf8) + [UInt8(ascii: kind)]
        let payloadCRC = CRC32C.checksum(payload, salt: salt)
        Forge.put32(&h, 0)
        Forge.put32(&h, payloadCRC)
        Forge.put32(&h, UInt32(payload.count))
        Forge.put32(&h, UInt32(rawLength ?? payload.count))
        Forge.put32(&h, UInt32(events))
        Forge.put64(&h, UInt64(first))
        Forge.put64(&h, UInt64(bitPattern: baseTime))
        h += [codec, 0, 0, 0, 0, 0, 0, 0]
        Forge.setHeaderChecksum(&h, salt: salt)
        bytes += h + payload
        entries.append((offset, h[3], codec, payload.count, rawLength ?? payload.count, events, first, baseTime, payloadCRC))
        continued.append(Continued())
        return offset
    }

    /// A continued batch (version 4, kind "b"): the 16-byte header — "SLR" "b", the header
    /// check (low 16 bits of the salted CRC-32C of bytes 0-3 and 6-15), the payload CRC, the
    /// stored length (u24) and the event count (u24) — and its payload, stored. Added to the
    /// index entry of the record before it, as a writer would.
    @discardableResult
    mutating func continuedRecord(_ payload: [UInt8], events: Int) -> Int {
        let offset = bytes.count
        var h = Array("SLR".utf8) + [UInt8(ascii: "b"), 0, 0]
        Forge.put32(&h, CRC32C.checksum(payload, salt: salt))
        for v in [payload.count, events] { h += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16)] }
        Forge.setContinuedCheck(&h, salt: salt)
        bytes += h + payload
        if !continued.isEmpty {
            continued[continued.count - 1].count += 1
            continued[continued.count - 1].bytes += h.count + payload.count
            continued[continued.count - 1].events += events
        }
        return offset
    }

    /// Sets the header check of the 16-byte continued-batch header at `at` in `b`.
    static func setContinuedCheck(_ b: inout [UInt8], at: Int = 0, salt: UInt64) {
        let covered = Array(b[at..<(at + 4)]) + Array(b[(at + 6)..<(at + 16)])
        let check = CRC32C.checksum(covered, salt: salt)
        b[at + 4] = UInt8(truncatingIfNeeded: check)
        b[at + 5] = UInt8(truncatingIfNeeded: check >> 8)
    }

    /// Sets the payload CRC and then the header check of the continued batch at `at` in
    /// `b`, after a test changed its payload or fields; its stored length must fit `b`.
    static func fixContinued(_ b: inout [UInt8], at: Int, salt: UInt64) {
        let stored = Int(b[at + 10]) | Int(b[at + 11]) << 8 | Int(b[at + 12]) << 16
        let crc = CRC32C.checksum(Array(b[(at + 16)..<(at + 16 + stored)]), salt: salt)
        for k in 0..<4 { b[at + 6 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
        setContinuedCheck(&b, at: at, salt: salt)
    }

    /// The coded payloads of a version 4 window: one batch per element of `batches`, the
    /// first with fresh models from `baseTime`, each later one carrying on the models,
    /// predictions and time of the one before (as a continued batch must).
    static func windowPayloads(_ batches: [[TimedEvent]], baseTime: Int64) -> [[UInt8]] {
        var e = BinaryEventEncoder(baseTime: Micros(raw: baseTime), version: 4)
        var out: [[UInt8]] = []
        for batch in batches {
            _ = e.startBatch(baseTime: Micros(raw: baseTime))
            for x in batch { e.append(x) }
            out.append(e.seal(events: batch.count))
        }
        return out
    }

    /// A version 4 window: a batch with a 48-byte header, then a continued batch for each
    /// later element of `batches`. Returns the records' offsets.
    @discardableResult
    mutating func window(_ batches: [[TimedEvent]], first: Int, baseTime: Int64) -> [Int] {
        let payloads = Forge.windowPayloads(batches, baseTime: baseTime)
        var offsets: [Int] = []
        for (k, (batch, payload)) in zip(batches, payloads).enumerated() {
            offsets.append(k == 0 ? record("B", payload, events: batch.count, first: first, baseTime: baseTime)
                                  : continuedRecord(payload, events: batch.count))
        }
        return offsets
    }

    /// Sets the file header's checksum (bytes 36-39, over bytes 0-35; version 2 and
    /// later) in `b`, after a test changed the header's fields.
    static func setFileHeaderChecksum(_ b: inout [UInt8]) {
        let crc = CRC32C.checksum(Array(b[0..<36]), salt: 0)
        for k in 0..<4 { b[36 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
    }

    static func setHeaderChecksum(_ h: inout [UInt8], salt: UInt64) {
        let covered = Array(h[0..<4]) + Array(h[8..<48])
        let crc = CRC32C.checksum(covered, salt: salt)
        for k in 0..<4 { h[4 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
    }

    /// A batch of `events` (delta-encoded as the format says), stored uncompressed; in
    /// version 4, a window of one batch.
    @discardableResult
    mutating func batch(_ events: [TimedEvent], first: Int, baseTime: Int64) -> Int {
        if version >= 4 { return window([events], first: first, baseTime: baseTime)[0] }
        var e = BinaryEventEncoder(baseTime: Micros(raw: baseTime), version: version)
        for x in events { e.append(x) }
        return record("B", e.out.bytes, events: events.count, first: first, baseTime: baseTime)
    }

    /// The index record over every record so far (or over `override`), and the trailer. In
    /// version 4 each entry also lists its window's continued batches (`continued`, or
    /// `continuedOverride`; none past their end). Its header holds the log's event count,
    /// 0 events and base time 0, or `header`'s (first event, event count, base time).
    mutating func index(_ override: [(Int, UInt8, UInt8, Int, Int, Int, Int, Int64, UInt32)]? = nil,
                        continuedOverride: [Continued]? = nil, header: (Int, Int, Int64)? = nil) {
        let list = override ?? entries
        let windows = continuedOverride ?? continued
        var w = BinaryWriter()
        w.varint(list.count)
        var lastOffset = 0, lastFirst = 0
        var lastTime: Int64 = 0
        for (k, (offset, kind, codec, stored, raw, count, first, time, crc)) in list.enumerated() {
            w.u8(kind)
            w.u8(codec)
            w.varint(offset - lastOffset)
            w.varint(first - lastFirst)
            w.varint(count)
            w.varint(stored)
            w.varint(raw)
            w.signed(time &- lastTime)
            w.u32(crc)
            if version >= 4 {
                let c = k < windows.count ? windows[k] : Continued()
                w.varint(c.count)
                w.varint(c.bytes)
                w.varint(c.events)
            }
            lastOffset = offset
            lastFirst = first
            lastTime = time
        }
        let at = bytes.count
        w.u64(UInt64(at))
        w.append(Array("SLINDEX1".utf8))
        let events = list.last.map { $0.6 + $0.5 + (list.count <= windows.count ? windows[list.count - 1].events : 0) } ?? 0
        record("I", w.bytes, events: header?.1 ?? 0, first: header?.0 ?? events, baseTime: header?.2 ?? 0)
    }

    func write(to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
}
