#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

enum FileHandleWriter {
    static func writeStderr(_ s: String) {
        var bytes = Array(s.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}

/// Reads a whole file, or exits 74 with the path and the system's reason.
func readFile(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
        complain("\(path): cannot open: \(String(cString: strerror(errno)))")
        throw Exit.io
    }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            complain("\(path): cannot read: \(String(cString: strerror(errno)))")
            throw Exit.io
        }
        if n == 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    return out
}

/// The first `count` bytes of a file (fewer if it is shorter).
func readPrefix(_ path: String, count: Int) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
        complain("\(path): cannot open: \(String(cString: strerror(errno)))")
        throw Exit.io
    }
    defer { close(fd) }
    var out = [UInt8](repeating: 0, count: count)
    let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
    if n < 0 {
        complain("\(path): cannot read: \(String(cString: strerror(errno)))")
        throw Exit.io
    }
    return Array(out.prefix(n))
}

/// Buffered standard output for long listings.
struct OutputBuffer {
    private var buffer: [UInt8] = []

    mutating func line(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeBytes { write(1, $0.baseAddress! + done, $0.count - done) }
            if n <= 0 { break }
            done += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes `bytes` to `path`, replacing it.
func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else {
        complain("\(path): cannot create: \(String(cString: strerror(errno)))")
        throw Exit.io
    }
    defer { close(fd) }
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        if n <= 0 {
            complain("\(path): cannot write: \(String(cString: strerror(errno)))")
            throw Exit.io
        }
        done += n
    }
}
