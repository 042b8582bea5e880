import Foundation
@testable import SelectLog
@testable import SelectLogStore

/// Builds log files byte by byte from docs/LOG-FORMAT.md (version 2), with correct
/// checksums, so that tests can forge what a buggy writer or an attacker would.
struct Forge {
    var salt: UInt64 = 0x5EED
    var bytes: [UInt8] = []
    /// (offset, kind, codec, stored length, raw length, event count, first event, base time, payload CRC)
    var entries: [(Int, UInt8, UInt8, Int, Int, Int, Int, Int64, UInt32)] = []

    /// The format version forged: 2, or 1 (32-byte header, no behaviour fingerprint, v1 prediction).
    var version: UInt16 = 2

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
        return offset
    }

    static func setHeaderChecksum(_ h: inout [UInt8], salt: UInt64) {
        let covered = Array(h[0..<4]) + Array(h[8..<48])
        let crc = CRC32C.checksum(covered, salt: salt)
        for k in 0..<4 { h[4 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
    }

    /// A batch of `events` (delta-encoded as the format says), stored uncompressed.
    @discardableResult
    mutating func batch(_ events: [TimedEvent], first: Int, baseTime: Int64) -> Int {
        var e = BinaryEventEncoder(baseTime: Micros(raw: baseTime), version: version)
        for x in events { e.append(x) }
        return record("B", e.out.bytes, events: events.count, first: first, baseTime: baseTime)
    }

    /// The index record over every record so far (or over `override`), and the trailer.
    mutating func index(_ override: [(Int, UInt8, UInt8, Int, Int, Int, Int, Int64, UInt32)]? = nil) {
        let list = override ?? entries
        var w = BinaryWriter()
        w.varint(list.count)
        var lastOffset = 0, lastFirst = 0
        var lastTime: Int64 = 0
        for (offset, kind, codec, stored, raw, count, first, time, crc) in list {
            w.u8(kind)
            w.u8(codec)
            w.varint(offset - lastOffset)
            w.varint(first - lastFirst)
            w.varint(count)
            w.varint(stored)
            w.varint(raw)
            w.signed(time &- lastTime)
            w.u32(crc)
            lastOffset = offset
            lastFirst = first
            lastTime = time
        }
        let at = bytes.count
        w.u64(UInt64(at))
        w.append(Array("SLINDEX1".utf8))
        record("I", w.bytes, first: list.last.map { $0.6 + $0.5 } ?? 0)
    }

    func write(to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
}
