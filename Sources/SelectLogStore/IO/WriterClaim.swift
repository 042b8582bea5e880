#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A log's one writer: what a `LogFile` holds from opening a log until it closes it.
///
/// Two layers refuse a second writer (`.inUse`), before it reads, cuts or empties
/// anything:
/// - in this process, a set of the files open for writing, by device and inode, on
///   every platform: an app's two scenes, or two recorders a test made;
/// - across processes, an exclusive `flock` (`FileIO.lockForWriting`), where holding
///   one for a session is safe. Not on iOS (but for Mac Catalyst and an iPad app on a
///   Mac), tvOS, watchOS or visionOS: their system terminates a suspended app that
///   holds a file lock in a container it shares with its extensions (0xdead10cc). An
///   app's log belongs in its own container, which no other process writes; one in a
///   shared container is not guarded against an extension writing it too.
///
/// A special file (`-o /dev/null`) is neither: any number may write to it.
struct WriterClaim {
    /// A file, by the device and inode its descriptor reaches.
    private struct Key: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The files this process has open for writing.
    private static let claimed = LockedBox(Set<Key>())

    /// Whether a claim holds a `flock` across processes too (see the type's comment): not
    /// where the system suspends apps, but on a Mac (Mac Catalyst, an iPad app running on
    /// a Mac), where nothing is terminated for it and `selectlog` may run beside the app.
    #if os(iOS) && !targetEnvironment(macCatalyst)
    static let locksAcrossProcesses = ProcessInfo.processInfo.isiOSAppOnMac
    #elseif os(tvOS) || os(watchOS) || os(visionOS)
    static let locksAcrossProcesses = false
    #else
    static let locksAcrossProcesses = true
    #endif

    /// Nil for a special file, which is not claimed.
    private let key: Key?

    /// Whether the claim is on a regular file (a special file is not claimed).
    var isRegularFile: Bool { key != nil }

    /// Claims the file `fd` is open on for writing; `.inUse` when another writer has it.
    ///
    /// `verifying`: `fd` was opened by `path`, which must still name that file once it is
    /// claimed. A writer that replaced the log in between (a new log renamed over it)
    /// held the old file until then; claimed after it, the old file would take this
    /// writer's records where no reader looks (`.inUse`: open it again).
    static func take(_ fd: Int32, path: String, verifying: Bool = false) throws(LogError) -> WriterClaim {
        let claim = try take(fd, path: path, waits: false) {}
        guard verifying, claim.isRegularFile, !FileIO.names(path, fd) else { return claim }
        claim.release(fd)
        throw LogError(.inUse, "another writer replaced this log while it was being opened; nothing was changed: open it again", path: path)
    }

    /// Claims the file `fd` is open on for writing, waiting for a writer in another
    /// process (`waiting` is called once before it waits); `.inUse` when one in this
    /// process has it, which could not end while this thread waited for it.
    static func take(_ fd: Int32, path: String, waiting: () -> Void) throws(LogError) -> WriterClaim {
        try take(fd, path: path, waits: true, waiting)
    }

    private static func take(_ fd: Int32, path: String, waits: Bool, _ waiting: () -> Void) throws(LogError) -> WriterClaim {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileIO.error("fstat", path) }
        guard info.st_mode & S_IFMT == S_IFREG else { return WriterClaim(key: nil) }
        let key = Key(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
        let inserted = claimed.withLockedValue { $0.insert(key).inserted }
        guard inserted else { throw FileIO.inUse(path) }
        if locksAcrossProcesses {
            do throws(LogError) {
                try FileIO.lockRegularFile(fd, device: info.st_dev, path: path, waits: waits, waiting)
            } catch {
                _ = claimed.withLockedValue { $0.remove(key) }
                throw error
            }
        }
        return WriterClaim(key: key)
    }

    /// Gives the file up, before `fd` is closed. The lock is released explicitly:
    /// closing alone would leave it held while a child process forked meanwhile (by any
    /// thread) still shares the descriptor, until that child execs, and a recorder closed
    /// and opened again at once would find its own log in use.
    func release(_ fd: Int32) {
        guard let key else { return }
        if WriterClaim.locksAcrossProcesses { FileIO.unlock(fd) }
        _ = WriterClaim.claimed.withLockedValue { $0.remove(key) }
    }
}
