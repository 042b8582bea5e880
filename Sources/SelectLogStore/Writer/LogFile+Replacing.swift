#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SelectLog

extension LogFile {
    /// Replaces the regular file at `path` with a new log made beside it and renamed over
    /// it, holding the old file as its one writer meanwhile (`WriterClaim`: a log a
    /// recorder is writing is refused, `.inUse`, as one a `LogReader` in this process has
    /// open is). A reader of the old log in another process keeps reading it, where
    /// emptying it in place raised SIGBUS there, and a failure to make the new log leaves
    /// the old one as it was. The new file takes the old one's permissions and group. Nil,
    /// nothing changed, where the file cannot be replaced so without changing more than
    /// its bytes (none there, a link, a file with other hard links or another owner, one
    /// this user may not write) or its directory will not take the new file: it is then
    /// emptied in place, as before.
    static func replaceBeside(_ path: String, checkpointInterval: Int, salt: UInt64, zstd: Bool,
                              behaviour: UInt64, version: UInt16?) throws(LogError) -> LogFile? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1, info.st_uid == geteuid() else { return nil }
        // A file this user may not write is not replaced beside: emptied in place, its
        // open fails as it always has.
        let old = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard old >= 0 else { return nil }
        var opened = stat()
        guard fstat(old, &opened) == 0, opened.st_ino == info.st_ino, opened.st_dev == info.st_dev else {
            _ = closeDescriptor(old)
            return nil
        }
        let claim: WriterClaim
        do throws(LogError) { claim = try WriterClaim.take(old, path: path, verifying: true) } catch {
            _ = closeDescriptor(old)
            throw error
        }
        defer {
            claim.release(old)
            _ = closeDescriptor(old)
        }
        // Kept for a reader in this process too, as when the log was emptied in place: an
        // app that replaces the log its own viewer shows is told so.
        if MappedFile.readsPast(0, of: old) {
            throw LogError(.inUse, "a LogReader in this process has this log open; close it (LogReader.close()) or let it go before replacing the log. Nothing was changed",
                           path: path)
        }
        // This process's staging name for `path`: a file left there by a process that died
        // with this one's id (no writer of this process makes it while the old log is held).
        let staged = stagingPath(for: path)
        unlink(staged)
        let file: LogFile
        do throws(LogError) {
            // Made private, then given the old log's mode: a log kept from other users is
            // not readable by them while its replacement is written beside it.
            file = try create(path: staged, checkpointInterval: checkpointInterval, salt: salt, zstd: zstd, behaviour: behaviour,
                              version: version, exclusive: true, staging: false, mode: 0o600)
        } catch {
            // A directory this user may not write, or a name taken: emptied in place.
            if error.code == .alreadyExists || [EACCES, EPERM].contains(error.errnoCode ?? 0) { return nil }
            // A full disk, say: the old log is as it was, and the error names it.
            var named = error
            if named.path == staged { named.path = path }
            throw named
        }
        file.carry(mode: info.st_mode & 0o7777, group: info.st_gid)
        guard rename(staged, path) == 0 else {
            let reason = errno
            unlink(staged)
            if [EPERM, EACCES, EXDEV, ENOTSUP, EOPNOTSUPP, EBUSY].contains(reason) { return nil }
            errno = reason
            throw FileIO.error("rename", path)
        }
        file.renamed(to: path)
        // The new log is in place: a directory that cannot be synced no longer fails the
        // replacement (the old log is gone either way).
        try? FileIO.syncDirectory(of: path)
        return file
    }
}
