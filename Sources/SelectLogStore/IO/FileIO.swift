#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SelectLog

/// The system calls the log needs, with errors that name the path and the call.
package enum FileIO {
    static func error(_ call: String, _ path: String) -> LogError {
        let code = errno
        return LogError(.io, "\(call) failed: \(String(cString: strerror(code)))", path: path, errnoCode: code)
    }

    /// Refuses an empty path before any system call: `open("")` fails with ENOENT, and the
    /// error read ": link failed: No such file or directory", naming neither the path nor
    /// the mistake. `.io` with ENOENT still, as that call gives, for callers that go by it.
    ///
    /// A NUL byte, too: the system reads the path only up to it, so that a recorder was
    /// refused with "a file already exists here" for a file that did not, or a reader
    /// named a file the caller never did. `.io` with EINVAL, naming the part before it.
    static func checkPath(_ path: String) throws(LogError) {
        if path.isEmpty { throw LogError(.io, "the log's path is empty: name a file", errnoCode: ENOENT) }
        guard let nul = path.utf8.firstIndex(of: 0) else { return }
        let before = String(decoding: path.utf8[..<nul], as: UTF8.self)
        throw LogError(.io, "the log's path holds a NUL byte (after \(Quoted.value(before))), which no file name can hold", errnoCode: EINVAL)
    }

    /// Makes `fd`, opened non-blocking (so that opening a FIFO could not wait), blocking
    /// again; false (with `errno`) when it cannot.
    package static func clearNonBlocking(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0
    }

    /// Writes all of `bytes` at the end of `fd`, or at `offset` (`pwrite`), retrying
    /// short writes and EINTR.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int? = nil, path: String) throws(LogError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                if let offset { pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done)) }
                else { write(fd, buffer.baseAddress! + done, buffer.count - done) }
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw error(offset == nil ? "write" : "pwrite", path)
            }
            done += n
        }
    }

    /// Takes the advisory lock that gives a log one writer at a time across processes
    /// (`WriterClaim`): an exclusive `flock` on `fd`'s open file description, held until
    /// `unlock` or the descriptor is closed (or the process ends, however it ends). Two
    /// descriptors of one file conflict even in one process.
    ///
    /// Held elsewhere: `.inUse`. A special file (`-o /dev/null`) is not locked, nor is
    /// a file on a file system without locks (NFS without lockd, some FUSE and CIFS
    /// mounts): there the log is written without one, as before there were locks.
    package static func lockForWriting(_ fd: Int32, path: String) throws(LogError) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        try lockRegularFile(fd, device: info.st_dev, path: path, waits: false) {}
    }

    /// `lockForWriting(_:path:)` for a regular file already known to be one, on `device`
    /// (its `st_dev`); with `waits`, a lock held elsewhere is waited for, `waiting` called
    /// once before.
    static func lockRegularFile(_ fd: Int32, device: dev_t, path: String, waits: Bool, _ waiting: () -> Void) throws(LogError) {
        if isSMB(device) { return }
        var mode = LOCK_NB
        while flock(fd, LOCK_EX | mode) != 0 {
            let reason = errno
            if reason == EINTR { continue }
            if reason == EWOULDBLOCK, mode != 0 {
                guard waits else { throw inUse(path) }
                waiting()
                mode = 0
                continue
            }
            // No lock to be had: a file system without locks, or NFS, where Linux emulates
            // `flock` with `fcntl` locks and an exclusive one needs a descriptor open for
            // writing (EBADF on a read-only one).
            guard reason == ENOLCK || reason == EOPNOTSUPP || reason == ENOTSUP || reason == ENOSYS || reason == EINVAL
                || reason == EBADF else {
                throw error("flock", path)
            }
            return
        }
    }

    /// Whether `fd` is on an SMB (CIFS) mount, where Linux (from 5.5) makes a `flock` a
    /// mandatory byte-range lock: reads through any other descriptor (a reader of the
    /// log, the recorder's own scan of it) would then fail with EACCES. Such a log is
    /// written without a lock. Found in `/proc/self/mountinfo` by the file's device.
    private static func isSMB(_ device: dev_t) -> Bool {
        #if os(Linux)
        let dev = UInt64(device)
        let major = ((dev >> 8) & 0xFFF) | ((dev >> 32) & ~0xFFF)
        let minor = (dev & 0xFF) | ((dev >> 12) & ~0xFF)
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        return fileSystemType(inMountInfo: table, device: "\(major):\(minor)").map(smbTypes.contains) ?? false
        #else
        return false
        #endif
    }

    /// The file system types of SMB mounts.
    static let smbTypes: Set<String> = ["cifs", "smb3", "smbfs", "smb2"]

    /// The type of the file system mounted from `device` ("major:minor") in the text of a
    /// `/proc/PID/mountinfo` (proc(5): the third field is the device, and the first word
    /// after the " - " separator is the type), or nil when no line names it.
    static func fileSystemType(inMountInfo table: String, device: String) -> String? {
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count > 2, fields[2] == device, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { continue }
            return String(fields[dash + 1])
        }
        return nil
    }

    /// Releases `fd`'s lock (`lockForWriting`), before it is closed (`WriterClaim.release`
    /// says why).
    package static func unlock(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
    }

    /// Whether `path` names the file `fd` is open on (the same device and inode): false
    /// once another file was renamed over it, or it was removed.
    package static func names(_ path: String, _ fd: Int32) -> Bool {
        var named = stat(), opened = stat()
        return stat(path, &named) == 0 && fstat(fd, &opened) == 0 && named.st_dev == opened.st_dev && named.st_ino == opened.st_ino
    }

    /// The error of a log another writer holds (`lockForWriting`).
    package static func inUse(_ path: String) -> LogError {
        LogError(.inUse, "another writer has this log open (a recorder, in this process or another, or a selectlog command replacing or repairing it); nothing was changed: close that one first",
                 path: path)
    }

    static func syncData(_ fd: Int32, path: String) throws(LogError) {
        guard syncToStorage(fd) != 0 else { return }
        let reason = errno
        // A special file that cannot be synced (`-o /dev/null`): nothing to make durable.
        var st = stat()
        if reason == EINVAL, fstat(fd, &st) == 0, st.st_mode & S_IFMT != S_IFREG { return }
        throw LogError(.syncFailed, "\(syncCall) failed: \(String(cString: strerror(reason)))", path: path, errnoCode: reason)
    }

    /// Makes `fd`'s written data durable: 0, or -1 with `errno` set. On Linux,
    /// `fdatasync`. On Apple platforms `fsync` leaves the data in the drive's cache,
    /// where a power loss can still take it or reorder it (Apple's `fsync(2)`), so it
    /// is `fcntl(F_FULLFSYNC)`, and `fsync` only where a file system refuses that.
    package static func syncToStorage(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
        // Only a file system that has no F_FULLFSYNC gets plain fsync: after a real
        // failure (EIO), a second call could report success for data already lost.
        guard errno == ENOTSUP || errno == EOPNOTSUPP || errno == ENOTTY || errno == EINVAL else { return -1 }
        return fsync(fd)
        #elseif canImport(Glibc)
        return fdatasync(fd)
        #else
        return fsync(fd)
        #endif
    }

    /// The call `syncToStorage` makes, for messages.
    package static var syncCall: String {
        #if canImport(Darwin)
        "fcntl(F_FULLFSYNC)"
        #elseif canImport(Glibc)
        "fdatasync"
        #else
        "fsync"
        #endif
    }

    /// Makes a new directory entry durable: a sync of the containing directory (`fsync`;
    /// on Apple platforms `F_FULLFSYNC`, as `syncToStorage`).
    package static func syncDirectory(of path: String) throws(LogError) {
        let dir = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : "."
        let fd = open(dir.isEmpty ? "/" : dir, O_RDONLY)
        guard fd >= 0 else { throw error("open directory", dir) }
        defer { close(fd) }
        #if canImport(Darwin)
        // The entry, like the data, is only in the drive's cache after fsync (see `syncToStorage`).
        if syncToStorage(fd) != 0 {
            let code = errno
            throw LogError(.syncFailed, "\(syncCall) of directory failed: \(String(cString: strerror(code)))", path: dir, errnoCode: code)
        }
        #else
        if fsync(fd) != 0 {
            let code = errno
            throw LogError(.syncFailed, "fsync of directory failed: \(String(cString: strerror(code)))", path: dir, errnoCode: code)
        }
        #endif
    }

    /// The longest name of a directory entry, in bytes (NAME_MAX on Linux and the Apple
    /// platforms' file systems).
    static let longestName = 255

    /// A file beside `path` named after it: `path` followed by `suffix`, with the name's
    /// part before `suffix` shortened (at a character's boundary) when the whole would be
    /// longer than a directory entry may be. The files `verify --repair`, `upgrade` and
    /// `compact` write beside a log are named so: a log whose name is within a few bytes
    /// of the limit could not be repaired or rewritten in place otherwise.
    package static func sibling(of path: String, suffix: String) -> String {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { String(path[...$0]) } ?? ""
        var name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let room = longestName - suffix.utf8.count
        if name.utf8.count > room {
            // Whole characters only, so that the name stays valid UTF-8.
            var kept = 0
            var end = name.startIndex
            for character in name {
                let length = character.utf8.count
                if kept + length > Swift.max(room, 1) { break }
                kept += length
                end = name.index(after: end)
            }
            name = String(name[..<end])
        }
        return directory + name + suffix
    }

    static func truncate(_ fd: Int32, to size: Int, path: String) throws(LogError) {
        if ftruncate(fd, off_t(size)) != 0 { throw error("ftruncate", path) }
    }

    /// Why a file of `mode` cannot be a log that is mapped or rewritten in place (a
    /// directory, a pipe, a device), or nil for a regular file.
    static func notARegularFile(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a directory, not a log"
        case S_IFIFO, S_IFSOCK: "is a pipe, not a log file; save the log to a file first"
        case S_IFCHR, S_IFBLK: "is a device, not a log file"
        default: "is not a regular file"
        }
    }

    static func fileSize(_ fd: Int32, path: String) throws(LogError) -> Int {
        var st = stat()
        if fstat(fd, &st) != 0 { throw error("fstat", path) }
        return Int(st.st_size)
    }

    /// Gives the file open on `fd` `mode` (its permission bits), and `owner` and `group`
    /// as far as this user may. A group it cannot give (not one of its groups) takes its
    /// bits with it: they would otherwise go to this user's own group, which the file the
    /// mode came from did not let in.
    package static func carry(mode: mode_t, owner: uid_t? = nil, group: gid_t, to fd: Int32) {
        var now = stat()
        // The owner and group together where this user may (root), else the group alone.
        if owner.map({ fchown(fd, $0, group) }) != 0 { _ = fchown(fd, uid_t.max, group) }
        let grouped = fstat(fd, &now) == 0 && now.st_gid == group
        _ = fchmod(fd, grouped ? mode : mode & ~0o2070)
    }

    /// The read and write bits of the file at `path` (`0o600`, `0o644`, …), for a copy of
    /// it to be made with from its first byte; nil when it cannot be looked at.
    package static func readWriteBits(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o666 : nil
    }

    /// Reads `count` bytes at `offset`.
    static func read(_ fd: Int32, at offset: Int, count: Int, path: String) throws(LogError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw error("pread", path)
            }
            if n == 0 { break }
            done += n
        }
        out.removeSubrange(done...)
        return out
    }
}
