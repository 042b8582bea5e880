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
