#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SelectLogStore

/// A log that arrived through a pipe, copied to a temporary file for the log reader,
/// which maps a file (`InputFile.spool`); or a script recorded to a temporary log for
/// the same reader (`Session.open`).
///
/// On Linux the file is unlinked as soon as it is made, and read through
/// `/proc/self/fd/N` of a descriptor kept open on it: whatever ends the process leaves
/// nothing behind, a CI job's `kill -9` of a command waiting on a hung producer
/// included (the signal handlers of `TemporaryFiles` remove it after SIGINT and SIGTERM,
/// but nothing runs after SIGKILL, and a piped log can be gigabytes). Elsewhere, or where
/// `/proc` is not mounted, it keeps its name until `remove()`.
///
/// A reader's `path` may still name `/proc/self/fd/N` after `remove()` (a `LogReader`
/// keeps it for messages, which show the input's name instead): nothing opens it again
/// once the log is mapped, and a `stat` of it then finds another file or none, as the
/// removed copy's name found none before.
struct SpooledCopy {
    /// The path the reader opens; never shown to the user (messages name the input).
    let path: String
    /// Open on the copy until `remove()`: the spooled copy's own writing descriptor, or
    /// one opened on a log another writer made.
    let descriptor: Int32
    /// Whether the copy still has its name (not Linux, or no `/proc`).
    private let named: Bool

    /// Lets go of the copy: closes its descriptor (the kernel frees an unlinked one) and
    /// removes a named one. Called once.
    func remove() {
        close(descriptor)
        if named { TemporaryFiles.delete(path) }
    }

    /// `copy`, just made, watched by `TemporaryFiles` and open on `descriptor`, unlinked
    /// when it can be read through `/proc/self/fd/descriptor` (Linux); otherwise named.
    /// `descriptor` is the copy's from then on (`remove()` closes it).
    static func unlinking(_ copy: String, openOn descriptor: Int32) -> SpooledCopy {
        #if os(Linux)
        let path = "/proc/self/fd/\(descriptor)"
        // `/proc` may be missing in a container: then the copy keeps its name.
        if let identity = FileIdentity(descriptor: descriptor), FileIdentity(path: path) == identity {
            TemporaryFiles.delete(copy)
            return SpooledCopy(path: path, descriptor: descriptor, named: false)
        }
        #endif
        return SpooledCopy(path: copy, descriptor: descriptor, named: true)
    }

    /// `unlinking(_:openOn:)` for a log another writer made at `copy` (a script recorded
    /// by a `Recorder`): opened here to be kept; named when it cannot be.
    static func unlinking(_ copy: String) -> SpooledCopy? {
        let descriptor = open(copy, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        return unlinking(copy, openOn: descriptor)
    }
}

extension InputFile {
    /// Copies the rest of the input into a new temporary file (for a log that arrived
    /// through a pipe: the log reader maps a file). Stops with an error past `limit` bytes.
    /// With `magic`, an input that does not start with it is not copied past its first
    /// bytes: the reader says what it is not, without waiting for the rest (`/dev/zero`
    /// through a pipe, a script given to `verify`). So is one whose first bytes
    /// `soundHead` refuses (a log's file header, damaged or a newer build's: the reader
    /// says so from those bytes alone). The caller lets go of the copy (`remove()`).
    func spool(limit: Int, magic: [UInt8]? = nil, soundHead: (([UInt8]) -> Bool)? = nil) throws -> SpooledCopy {
        let (copy, out) = try createTemporaryCopy()
        // Before the first byte is read: a producer that hangs is when a CI job kills.
        let spooled = SpooledCopy.unlinking(copy, openOn: out)
        // A failed write (a full disk) names the input and the directory, not the copy's
        // name, which is gone (Linux) or differs from run to run.
        let named = "\(path): a temporary copy in \(temporaryDirectory())"
        var total = 0
        do {
            if let magic {
                // Enough for the reader to get past the size of a file header to the magic.
                let head = try peek(Swift.max(magic.count, 64))
                if !head.starts(with: magic) || soundHead.map({ !$0(head) }) == true {
                    try writeAll(out, head, path: named)
                    return spooled
                }
            }
            while let chunk = try read(upTo: 1 << 20) {
                total += chunk.count
                if total > limit {
                    complain("\(path): longer than \(limit >> 30) GiB: a log read from a pipe is copied to a temporary file, at most that much")
                    // `check --json` calls it no log it can hold: the same cause here.
                    ReadFailure.keep(LogError(.notALog, "longer than \(limit >> 30) GiB", path: path))
                    throw Exit.invalidInput
                }
                try writeAll(out, chunk, path: named)
            }
        } catch {
            spooled.remove()
            throw error
        }
        return spooled
    }

    /// A new temporary file for `spool`, open for writing, and its path. The path is
    /// watched (`TemporaryFiles`) before the file is made, so that a signal at any moment
    /// removes it: a name `mkstemp` chose could only be watched once the file existed, and
    /// a Ctrl-C in between left it behind. A name someone else has taken is passed over.
    private func createTemporaryCopy() throws -> (path: String, descriptor: Int32) {
        let directory = temporaryDirectory()
        for _ in 0..<100 {
            let copy = "\(directory)/selectlog-input-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            TemporaryFiles.add(copy)
            // Read and write: the descriptor that keeps an unlinked copy (`SpooledCopy`).
            let out = open(copy, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if out >= 0 { return (copy, out) }
            let failure = errno, reason = systemReason()
            TemporaryFiles.forget(copy)
            if failure == EEXIST || failure == EINTR { continue }
            complain("\(path): cannot create a temporary copy in \(directory) (the log is copied there to be read; set TMPDIR to a writable directory): \(reason)")
            throw Exit.io
        }
        complain("\(path): cannot create a temporary copy in \(directory): every name tried was taken")
        throw Exit.io
    }
}
