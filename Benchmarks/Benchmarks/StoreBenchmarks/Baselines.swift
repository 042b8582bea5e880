#if canImport(Glibc)
import Glibc
#endif
import SelectLog

/// Baseline (a): the same events as raw fixed-layout structs written with plain write(2).
/// 24 bytes an event: type, has-t, two spare bytes, x, y (1/64 pt), t (µs). Not a real
/// format (most event types lose their fields): the physical limit of writing events.
func writeRawStructs(_ events: [TimedEvent], to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var used = 0
    for e in events {
        if used + 24 > buffer.count {
            _ = buffer.withUnsafeBytes { write(fd, $0.baseAddress, used) }
            used = 0
        }
        var x: Int32 = 0, y: Int32 = 0
        switch e.event {
        case .tap(let p), .panMoved(let p), .panBegan(let p, _): x = Int32(truncatingIfNeeded: p.x.raw); y = Int32(truncatingIfNeeded: p.y.raw)
        case .scroll(.to(let v)?, _, _): y = Int32(truncatingIfNeeded: v.raw)
        default: break
        }
        let t = e.t?.raw ?? -1
        buffer.withUnsafeMutableBytes { b in
            b[used] = UInt8(truncatingIfNeeded: e.event.typeName.utf8.count)
            b[used + 1] = e.t == nil ? 0 : 1
            b.storeBytes(of: x, toByteOffset: used + 4, as: Int32.self)
            b.storeBytes(of: y, toByteOffset: used + 8, as: Int32.self)
            b.storeBytes(of: t, toByteOffset: used + 16, as: Int64.self)
        }
        used += 24
    }
    _ = buffer.withUnsafeBytes { write(fd, $0.baseAddress, used) }
}

/// Baseline (b): JSON Lines of the same events, written plainly.
func writeJSONLines(_ events: [TimedEvent], to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return }
    defer { close(fd) }
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 17)
    for e in events {
        buffer.append(contentsOf: EventEncoder.line(e).utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 {
            _ = buffer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            buffer.removeAll(keepingCapacity: true)
        }
    }
    _ = buffer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}
