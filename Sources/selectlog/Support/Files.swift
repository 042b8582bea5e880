#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SelectLogStore

enum FileHandleWriter {
    static func writeStderr(_ s: String) {
        var bytes = Array(s.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}

/// `read(2)`, named apart from `InputFile.read(upTo:)`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// `close(2)`, for the commands whose own `close` closes a recorder.
func closeDescriptor(_ fd: Int32) { close(fd) }

/// The system's sentence for the current `errno`.
func systemReason() -> String { String(cString: strerror(errno)) }

/// Where temporary files go: `$TMPDIR`, or /tmp when it is unset or empty.
func temporaryDirectory() -> String {
    getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
}

/// A file opened once for reading, whatever it is: a regular file, a pipe, a FIFO,
/// a character device, `/dev/stdin`, or `-` (standard input). Its first bytes can be
/// looked at (`peek`) and are then read again by `read`, so content is sniffed from
/// the same descriptor. A directory, or a FIFO that no writer opens in time, is a
/// clear error instead of a strange one or a hang.
final class InputFile {
    /// What the descriptor is.
    enum Kind { case regular, pipe, device, other }

    /// The path as the user gave it (`-` for standard input).
    let path: String
    let kind: Kind
    /// Device and inode, to tell whether two paths are the same file.
    let identity: FileIdentity
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var peeked: [UInt8] = []

    /// How long a FIFO without a writer is waited for, in seconds
    /// (`SELECTLOG_FIFO_WAIT`, default 10).
    static var fifoWait: Int {
        guard let raw = getenv("SELECTLOG_FIFO_WAIT").map({ String(cString: $0) }) else { return 10 }
        guard let seconds = Int(raw) else {
            complain("note: SELECTLOG_FIFO_WAIT=\(raw) is not a whole number of seconds; waiting 10 s")
            return 10
        }
        let wait = max(0, min(seconds, 3600))
        if wait != seconds { complain("note: SELECTLOG_FIFO_WAIT=\(raw) is not from 0 to 3600 seconds; waiting \(wait) s") }
        return wait
    }

    /// A FIFO given as an output (`-o FIFO`), opened for writing once something
    /// opens it for reading: waited for as long as a FIFO input waits for a writer
    /// (`fifoWait`), then a clear error (exit 74) instead of blocking in `open` for good.
    /// The descriptor, blocking, for the caller to write through or to hold while the
    /// output is opened again by its name; nil when `path` is not a FIFO.
    static func openFIFOForWriting(_ path: String) throws -> Int32? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return nil }
        let seconds = fifoWait
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 {
                // Still the FIFO (not a file put at its name meanwhile), and blocking again.
                var opened = stat()
                guard fstat(fd, &opened) == 0, opened.st_mode & S_IFMT == S_IFIFO, FileIO.clearNonBlocking(fd) else {
                    close(fd)
                    complain("\(path): cannot open: it changed while it was opened (it is no longer a FIFO)")
                    throw Exit.io
                }
                return fd
            }
            guard errno == ENXIO || errno == EINTR else {
                complain("\(path): cannot open: \(systemReason())")
                throw Exit.io
            }
            if ContinuousClock.now >= deadline { break }
            usleep(20_000)
        }
        complain("\(path): a FIFO with no reader: nothing opened it for reading in \(seconds) s")
        throw Exit.io
    }

    /// Opens `path` (or standard input for `-`); complains and exits 74 when it cannot be
    /// read. `expecting` names what the command reads, for a directory's error: a
    /// command that takes only logs does not say a script would do.
    init(_ path: String, expecting: String = "a script or a log") throws {
        self.path = path
        if path.isEmpty {
            complain("an empty path: name a file, or - for standard input")
            throw Exit.usage
        }
        if path == "-" {
            fd = 0
            ownsDescriptor = false
        } else {
            // Non-blocking, so that opening a FIFO with no writer returns at once.
            fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else {
                complain("\(path): cannot open: \(systemReason())")
                throw Exit.io
            }
            ownsDescriptor = true
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = systemReason()
            if ownsDescriptor { close(fd) }
            complain("\(path): cannot read: \(reason)")
            throw Exit.io
        }
        identity = FileIdentity(info)
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFIFO, S_IFSOCK: kind = .pipe
        case S_IFCHR, S_IFBLK: kind = .device
        case S_IFDIR:
            if ownsDescriptor { close(fd) }
            complain("\(path): is a directory, not \(expecting)")
            throw Exit.io
        default: kind = .other
        }
        if ownsDescriptor {
            if kind == .pipe { try waitForWriter() }
            _ = FileIO.clearNonBlocking(fd)
        }
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    /// A named FIFO with no writer reads as an empty file: wait a while for one to
    /// open it and write, then give up with a clear error. Anonymous pipes
    /// (`/dev/stdin`, `<(…)`) have their writer already.
    private func waitForWriter() throws {
        if path == "/dev/stdin" || path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/") { return }
        var byte: UInt8 = 0
        let n = systemRead(fd, &byte, 1)
        if n == 1 {
            peeked.append(byte)
            return
        }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return } // a writer, no data yet
        // No writer: wait for one to write (or to open and close).
        let seconds = InputFile.fifoWait
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let left = deadline - ContinuousClock.now
            let ms = max(0, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let ready = poll(&entry, 1, ms)
            if ready > 0 { return }
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 {
                complain("\(path): cannot read: \(systemReason())")
                throw Exit.io
            }
            if ContinuousClock.now >= deadline { break }
        }
        complain("\(path): a FIFO with no writer: nothing arrived in \(seconds) s")
        throw Exit.io
    }

    /// Up to `count` bytes, fewer only at the end of the input; nil at the end.
    func read(upTo count: Int) throws -> [UInt8]? {
        if !peeked.isEmpty {
            let out = Array(peeked.prefix(count))
            peeked.removeFirst(out.count)
            return out
        }
        var out = [UInt8](repeating: 0, count: count)
        while true {
            let n = out.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, count) }
            if n > 0 {
                out.removeSubrange(n...)
                return out
            }
            if n == 0 { return nil }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, -1)
                continue
            }
            complain("\(path): cannot read: \(systemReason())")
            throw Exit.io
        }
    }

    /// The first `count` bytes (fewer if the input is shorter), kept to be read again.
    func peek(_ count: Int) throws -> [UInt8] {
        while peeked.count < count {
            var more = [UInt8](repeating: 0, count: count - peeked.count)
            let n = more.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                peeked.append(contentsOf: more[..<n])
                continue
            }
            if n == 0 { break }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, -1)
                continue
            }
            complain("\(path): cannot read: \(systemReason())")
            throw Exit.io
        }
        return Array(peeked.prefix(count))
    }
}

/// A file's device and inode: two paths with the same identity are the same file.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file at `path`, or nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The identity of the file open on descriptor `fd`, or nil when it is not open.
    init?(descriptor fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity of the file `info` describes.
    init(_ info: stat) {
        self.init(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
    }

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The first of `descriptors` open on this file, if any.
    func descriptor(among descriptors: [Int32]) -> Int32? {
        descriptors.first { FileIdentity(descriptor: $0) == self }
    }
}

/// Refuses (exit 64) an `output` that is the `input` a command reads, under any path
/// (same device and inode): `view`, `shrink` and `testgen` replace their output, and
/// would replace the session they were given with a page, a script or a test.
/// `-` is standard input, whatever file it was redirected from. Only a regular file can
/// be lost so (a terminal is both `/dev/stdin` and `/dev/stdout`).
func refuseOutputOverInput(_ output: String, input: String) throws {
    var out = stat()
    guard stat(output, &out) == 0, out.st_mode & S_IFMT == S_IFREG else { return }
    let read = input == "-" ? FileIdentity(descriptor: 0) : FileIdentity(path: input)
    guard read == FileIdentity(out) else { return }
    complain("\(output): is the input \(input); choose another output")
    throw Exit.usage
}

/// Reads a whole input, or exits 74 with the path and the system's reason.
func readFile(_ path: String) throws -> [UInt8] {
    let file = try InputFile(path)
    var out: [UInt8] = []
    while let chunk = try file.read(upTo: 1 << 20) { out.append(contentsOf: chunk) }
    return out
}

/// The first `count` bytes of an input (fewer if it is shorter).
func readPrefix(_ path: String, count: Int) throws -> [UInt8] {
    try InputFile(path).peek(count)
}

/// Buffered standard output for long listings.
struct OutputBuffer {
    private var buffer: [UInt8] = []

    mutating func line(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes the buffered lines; a failed write ends the command (74), since the rest
    /// of the listing would go nowhere (`StandardStreams.failedWrite`).
    mutating func flush() {
        var done = 0
        // Lines `print` buffered come first.
        if !buffer.isEmpty { StandardStreams.flushPrinted() }
        while done < buffer.count {
            let n = buffer.withUnsafeBytes { write(1, $0.baseAddress.map { $0 + done }, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                // A non-blocking standard output (shared with another program): wait.
                StandardStreams.waitUntilWritable()
                continue
            }
            if n <= 0 { StandardStreams.failedWrite() }
            done += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes all of `bytes` to `fd`, or complains naming `path` and exits 74.
func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + done }, $0.count - done) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 {
            complain("\(path): cannot write: \(systemReason())")
            throw Exit.io
        }
        done += n
    }
}
