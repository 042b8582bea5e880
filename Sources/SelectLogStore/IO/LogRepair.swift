#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts a damaged log back to its intact prefix, saving the cut bytes beside it.
///
/// The cut bytes go to `LOG.cut-OFFSET` through a temporary file that is synced and
/// renamed, so a failed attempt (a full disk) leaves nothing that blocks a retry; a
/// retry that finds the cut bytes already saved (the truncation failed last time)
/// reuses them. The saved bytes are never deleted.
public enum LogRepair {
    /// What a repair did.
    public struct Result: Sendable, Equatable {
        /// Bytes kept in the log.
        public var keptBytes: Int
        /// Bytes cut off and saved.
        public var savedBytes: Int
        /// Where the cut bytes are (empty when there were none to cut).
        public var savedPath: String
    }

    /// Saves the bytes of `path` from `offset` on beside it, then truncates the log to
    /// `offset`, which is past the file header (`.outOfRange` otherwise). A log that a
    /// `LogReader` in this process reads past `offset` is not cut (`.inUse`): let the
    /// reader go first. (A reader reads up to the last record it found intact, so a torn
    /// tail after it is cut.) A log has one writer at a time (`WriterClaim`): a repair
    /// waits for a recorder or another repair of the log in another process to finish, calling
    /// `waiting` once before it waits (a command says so: it may take a while), and is
    /// refused (`.inUse`) while one in this process has it. One that then
    /// finds the log already `offset` bytes long (another repair cut it) saves nothing
    /// and returns `savedBytes` 0 and an empty `savedPath`. With `checkedSize`, the size
    /// the log had when it was checked, a log of any other size is refused (`.inUse`):
    /// a writer appended to it meanwhile, and what was a torn tail may now be a record.
    public static func cut(_ path: String, at offset: Int, checkedSize: Int? = nil,
                           waiting: () -> Void = {}) throws(LogError) -> Result {
        try holding(path, waiting: waiting) { log throws(LogError) in try log.cut(at: offset, checkedSize: checkedSize) }
    }

    /// What `repair(_:replaying:checked:waiting:)` found and did.
    public struct Outcome: Sendable, Equatable {
        /// The check the repair acted on: `checked`, or the check made while the log was
        /// held (`checkedWhileHeld`).
        public var report: VerifyReport
        /// Whether `report` was made while the log was held as its one writer: no
        /// `checked` report was given, or the log's size had changed since it (another
        /// repair cut it, or a recorder appended and closed).
        public var checkedWhileHeld: Bool
        /// What was cut; `nil` when nothing was: the log was intact, its damage is in its
        /// file header, so there was nothing to keep, or a newer selectlog wrote what this
        /// build cannot read (`report.problem.isNewer`), which is kept for a newer build.
        public var cut: Result?
        /// What the log's first 8 bytes read before the repair wrote its magic there again
        /// (`LogProblem.isDamagedMagic`); nil when it did not. `report` is then the check
        /// made after, which `cut` acted on.
        public var restoredMagic: [UInt8]?

        /// Whether the log is intact now: it was, or the repair cut it back to its intact
        /// prefix (after writing its magic again, if it did). False when its file header
        /// is damaged, it is not a log, it is cut inside its header (no prefix can be
        /// kept), or a newer selectlog wrote part of it: the file is left as it was.
        public var isIntact: Bool { report.problem == nil || cut != nil }
    }

    /// Checks the log at `path` and, when it is damaged or ends in a torn tail, cuts it
    /// back to its intact prefix (`cut(_:at:checkedSize:waiting:)`), all while holding
    /// it as its one writer, so that the check still holds when it cuts: a recorder or
    /// another repair of the log in another process is waited for (`waiting` is called
    /// once before it waits), one in this process refuses it (`.inUse`). A log whose
    /// magic alone is damaged (`LogProblem.isDamagedMagic`) first gets the magic written
    /// again (`Outcome.restoredMagic`), if its header still reads so once held, and is
    /// checked again; a cut that then fails throws an error that says the magic was
    /// written.
    ///
    /// - Parameters:
    ///   - path: The log's file.
    ///   - replaying: Also replay the events and compare every checkpoint
    ///     (`LogReader.verify(path:replaying:)`).
    ///   - checked: A report of the log made before, unheld (to show its verdict first),
    ///     by a check with the same `replaying`: it is used as it is while the log still
    ///     has its size; otherwise the log is checked again.
    ///   - waiting: Called once, before the repair waits for a recorder or another repair
    ///     of the log in another process (to say so); not called when nothing holds it.
    ///
    /// ```swift
    /// let outcome = try LogRepair.repair(path)
    /// if let cut = outcome.cut, cut.savedBytes > 0 {
    ///     print("kept \(cut.keptBytes) bytes; the rest is in \(cut.savedPath)")
    /// } else if !outcome.isIntact {
    ///     print("nothing to keep: \(outcome.report.problem?.reason ?? "")")
    /// }
    /// ```
    public static func repair(_ path: String, replaying: Bool = false, checked: VerifyReport? = nil,
                              waiting: () -> Void = {}) throws(LogError) -> Outcome {
        try holding(path, waiting: waiting) { held throws(LogError) -> Outcome in
            var outcome: Outcome
            if let checked, try held.size() == checked.fileSize {
                // The log as it was checked: nothing can have written it since.
                outcome = Outcome(report: checked, checkedWhileHeld: false, cut: nil)
            } else {
                // Read again, whole, where nothing can cut it: a cut met before is answered.
                LogTruncationGuard.answerFaultsSoFar()
                outcome = Outcome(report: try LogReader.verify(path: path, replaying: replaying), checkedWhileHeld: true, cut: nil)
            }
            if outcome.report.problem?.isDamagedMagic == true {
                // The rest of the header checks out, so the file is this log: write the
                // magic again (if it is still damaged now that the log is held: a check
                // made before, unheld, may be another repair's to act on), then check
                // the log as it now reads (it may be damaged further on too).
                outcome.restoredMagic = try held.restoreMagic()
                LogTruncationGuard.answerFaultsSoFar()
                outcome.report = try LogReader.verify(path: path, replaying: replaying)
                outcome.checkedWhileHeld = true
            }
            let report = outcome.report
            // What a newer selectlog wrote is no damage: a newer build reads it, so it is kept.
            guard let problem = report.problem, !problem.isNewer, report.intactBytes >= LogFormat.fileHeaderSizeV1 else { return outcome }
            do throws(LogError) {
                outcome.cut = try held.cut(at: report.intactBytes, checkedSize: report.fileSize)
            } catch {
                // The magic written stays written: the error says so, as the outcome would.
                guard let restored = outcome.restored else { throw error }
                var told = error
                told.message = "\(restored); then \(error.message)"
                throw told
            }
            return outcome
        }
    }

    /// A log held for a repair (`holding(_:waiting:_:)`): no recorder or other repair
    /// writes it, in this process or another, until the body that was given it returns.
    /// Kept past the body, it refuses (`.closed`): its descriptor may name another file by then.
    struct Held {
        /// The log's path.
        let path: String
        let fd: Int32
        /// Set when the body returns.
        let released: LockedBox<Bool>

        /// The log's size now.
        func size() throws(LogError) -> Int {
            guard !released.withLockedValue({ $0 }) else {
                throw LogError(.closed, "the log is no longer held (its repair has ended)", path: path)
            }
            return try FileIO.fileSize(fd, path: path)
        }

        /// Writes the magic over the held log's first 8 bytes and syncs it, when its file
        /// header, read again now, still checks out but for them; returns what they read
        /// before, or nil when nothing was written (another repair wrote it meanwhile).
        func restoreMagic() throws(LogError) -> [UInt8]? {
            _ = try size()
            let head = try FileIO.read(fd, at: 0, count: LogFormat.fileHeaderSize, path: path)
            guard head.withUnsafeBytes(FileHeader.onlyMagicDamaged) else { return nil }
            try FileIO.writeAll(fd, LogFormat.magic, at: 0, path: path)
            try FileIO.syncData(fd, path: path)
            return Array(head.prefix(LogFormat.magic.count))
        }

        /// `LogRepair.cut(_:at:checkedSize:waiting:)` of the held log.
        func cut(at offset: Int, checkedSize: Int? = nil) throws(LogError) -> Result {
            let size = try size()
            guard offset >= 0 else {
                throw LogError(.outOfRange, "cannot cut at byte offset \(offset): an offset is 0 or more", path: path)
            }
            guard offset <= size else {
                throw LogError(.outOfRange, "cannot cut at byte offset \(offset): the file has \(ReportText.counted(size, "byte", "bytes")) (cut since it was checked? check it again)",
                               path: path)
            }
            // The header's own size (32 bytes in version 1, 40 since); 40 when it does not
            // decode.
            let start = (try? FileIO.read(fd, at: 0, count: Swift.min(size, LogFormat.fileHeaderSize), path: path)) ?? []
            let headerSize = start.withUnsafeBytes { (try? FileHeader.decode($0).get())?.size } ?? LogFormat.fileHeaderSize
            guard offset >= headerSize else {
                throw LogError(.outOfRange, "cannot cut at byte offset \(offset): inside the file header (its first \(headerSize) bytes), which would leave no log to read or append to",
                               path: path)
            }
            if size == offset { return Result(keptBytes: offset, savedBytes: 0, savedPath: "") }
            if let checkedSize, size != checkedSize {
                throw LogError(.inUse, "the log has \(size) bytes, not the \(checkedSize) it had when it was checked: another writer appended to it meanwhile; nothing was cut: check it again",
                               path: path)
            }
            // Refused before the cut bytes are saved; checked again as it truncates.
            if MappedFile.readsPast(offset, of: fd) { throw MappedFile.readerInTheWay(path, doing: "cutting it") }
            return try LogRepair.save(fd, path: path, from: offset, length: size - offset)
        }
    }

    /// Runs `body` with the log at `path` held as its one writer (`WriterClaim`), so that
    /// what it checks stays true until it cuts: waits for a recorder or a repair in another
    /// process to finish (calling `waiting` once before it waits), and is refused
    /// (`.inUse`) while one in this process has it.
    static func holding<T>(_ path: String, waiting: () -> Void = {},
                                  _ body: (Held) throws(LogError) -> T) throws(LogError) -> T {
        try FileIO.checkPath(path)
        var said = false
        // A log replaced at `path` while this waited (`compact` renames its copy over it)
        // is opened again: the claim is on the file, and the file must be the one there.
        for _ in 0..<3 {
            var info = stat()
            if stat(path, &info) == 0, let why = FileIO.notARegularFile(info.st_mode) { throw LogError(.io, why, path: path) }
            let fd = open(path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { throw FileIO.error("open", path) }
            let claim: WriterClaim
            do throws(LogError) {
                claim = try WriterClaim.take(fd, path: path) {
                    if !said { waiting() }
                    said = true
                }
            } catch {
                close(fd)
                throw error
            }
            let released = LockedBox(false)
            defer {
                released.withLockedValue { $0 = true }
                claim.release(fd)
                close(fd)
            }
            var held = stat(), there = stat()
            guard fstat(fd, &held) == 0, stat(path, &there) == 0, held.st_dev == there.st_dev, held.st_ino == there.st_ino else {
                continue
            }
            return try body(Held(path: path, fd: fd, released: released))
        }
        throw LogError(.inUse, "the log was replaced at its path again and again while this waited for it; nothing was cut: check it again",
                       path: path)
    }

    /// Saves the `length` bytes of the held log `fd` from `offset` on as `LOG.cut-OFFSET`
    /// (or the first free name after it), then truncates the log to `offset`.
    private static func save(_ fd: Int32, path: String, from offset: Int, length: Int) throws(LogError) -> Result {
        var suffix = ".cut-\(offset)"
        var target = FileIO.sibling(of: path, suffix: suffix)
        var attempt = 1
        while true {
            switch try existing(target, matches: fd, from: offset, length: length) {
            case .absent, .partial: break
            case .same:
                try MappedFile.truncate(fd, to: offset, path: path, doing: "cutting it")
                try FileIO.syncData(fd, path: path)
                return Result(keptBytes: offset, savedBytes: length, savedPath: target)
            case .other:
                attempt += 1
                guard attempt <= maximumAttempts else {
                    throw LogError(.io, "no free name for the cut bytes beside the log: \(target) and the \(maximumAttempts - 1) names before it are taken",
                                   path: path)
                }
                suffix = ".cut-\(offset)-\(attempt)"
                target = FileIO.sibling(of: path, suffix: suffix)
                continue
            }
            break
        }
        try save(from: fd, path: path, offset: offset, length: length, to: target,
                 through: FileIO.sibling(of: path, suffix: "\(suffix).partial"))
        try MappedFile.truncate(fd, to: offset, path: path, doing: "cutting it")
        try FileIO.syncData(fd, path: path)
        return Result(keptBytes: offset, savedBytes: length, savedPath: target)
    }

    /// How many names `cut` tries for the cut bytes (`LOG.cut-OFFSET`, then
    /// `LOG.cut-OFFSET-2` and on) before it gives up.
    static let maximumAttempts = 1_000

    private enum Existing { case absent, partial, same, other }

    /// Whether `target` already holds the bytes to save (`same`), a prefix of them left
    /// by an interrupted attempt (`partial`, overwritten), or something else: a file this
    /// user cannot read, or a directory or file of other bytes (`other`, another name is
    /// tried). Any other failure to open it is an error: another name would fail the same
    /// way.
    private static func existing(_ target: String, matches log: Int32, from offset: Int, length: Int) throws(LogError) -> Existing {
        // Non-blocking, so that a FIFO there cannot hang the repair (holding the lock).
        let fd = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            switch errno {
            case ENOENT: return .absent
            case EACCES, EISDIR, ELOOP, ENXIO: return .other
            default: throw FileIO.error("open", target)
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, FileIO.notARegularFile(info.st_mode) == nil else { return .other }
        let size = try FileIO.fileSize(fd, path: target)
        guard size <= length else { return .other }
        var done = 0
        while done < size {
            let n = Swift.min(1 << 20, size - done)
            let a = try FileIO.read(fd, at: done, count: n, path: target)
            let b = try FileIO.read(log, at: offset + done, count: n, path: target)
            if a != b { return .other }
            done += n
        }
        return size == length ? .same : .partial
    }

    /// Writes the bytes to `partial`, syncs it and renames it `target`. What is at
    /// `partial` is removed first (a file an interrupted repair left, or a link planted
    /// there: the entry, never what it leads to) and the file created new (`O_EXCL`), so
    /// nothing is written through a link. The lock on the log keeps another repair from
    /// using the same name meanwhile.
    private static func save(from log: Int32, path: String, offset: Int, length: Int, to target: String,
                             through partial: String) throws(LogError) {
        // An error about the copy names the log, and says what it was for: "cannot save the cut
        // bytes beside it", not the name of a file the user never asked for.
        func failed(_ call: String, _ met: LogError? = nil) -> LogError {
            var error = met ?? FileIO.error(call, partial)
            error.message = "cannot save the cut bytes beside it (as \(partial)), so nothing is cut: \(error.message)"
            error.path = path
            return error
        }
        if unlink(partial) != 0, errno != ENOENT { throw failed("unlink") }
        // Readable by whom the log is: the bytes are the log's (a 0600 log's tail stays 0600).
        var info = stat()
        let mode = fstat(log, &info) == 0 ? info.st_mode & 0o777 : 0o600
        var out = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw failed("open") }
        // Closed once, whichever way this ends: closed twice, the second could close a
        // descriptor another thread opened meanwhile.
        defer { if out >= 0 { close(out) } }
        do throws(LogError) {
            // Best effort: a file system without modes (vfat, exFAT, some SMB mounts)
            // refuses it, and the copy stays 0600, readable by its owner only.
            _ = fchmod(out, mode)
            var done = 0
            while done < length {
                let chunk = try FileIO.read(log, at: offset + done, count: Swift.min(1 << 20, length - done), path: path)
                if chunk.isEmpty { throw LogError(.io, "the log shrank while it was being repaired", path: path) }
                do throws(LogError) {
                    try FileIO.writeAll(out, chunk, path: partial)
                } catch {
                    throw failed("write", error)
                }
                done += chunk.count
            }
            do throws(LogError) {
                try FileIO.syncData(out, path: partial)
            } catch {
                throw failed("fsync", error)
            }
            close(out)
            out = -1
            if rename(partial, target) != 0 { throw failed("rename") }
            do throws(LogError) {
                try FileIO.syncDirectory(of: target)
            } catch {
                throw failed("fsync", error)
            }
        } catch {
            unlink(partial)
            throw error
        }
    }
}
