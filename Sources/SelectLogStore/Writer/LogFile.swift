#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SelectLog

/// A log file open for appending records. Used by one thread at a time.
final class LogFile {
    /// The log's path (a new log made beside it takes it once renamed over it).
    private(set) var path: String
    let header: FileHeader
    private(set) var size: Int
    /// The index entries of the records written or found, in order: one per record, but
    /// one per window for a window's continued batches (the index lists them on close).
    private(set) var entries: [IndexEntry]
    private(set) var eventCount: Int
    /// Events and coded batch bytes after the last checkpoint (or from the start), as
    /// found when a log is reopened for append (for `CheckpointPolicy`).
    private(set) var sinceCheckpoint = (events: 0, bytes: 0)
    private var fd: Int32
    /// The file's one writer (`WriterClaim`), given up when it is closed.
    private let claim: WriterClaim
    /// Writes that would take the file past this size fail as a full disk does (ENOSPC),
    /// writing nothing; tests set it (`Recorder.Options.failsWritesPast`) to fail a
    /// recorder's writer part-way through a session.
    var failsWritesPast = Int.max

    private init(path: String, fd: Int32, claim: WriterClaim, header: FileHeader, size: Int, entries: [IndexEntry], eventCount: Int) {
        self.path = path
        self.fd = fd
        self.claim = claim
        self.header = header
        self.size = size
        self.entries = entries
        self.eventCount = eventCount
    }

    deinit {
        guard fd >= 0 else { return }
        claim.release(fd)
        _ = closeDescriptor(fd)
    }

    /// Where `create` stages a new log's header: beside `path`, named after it and this
    /// process, so that a program that removes its temporary files when a signal ends it
    /// can remove this one too (the command line does). Left only by a process that died
    /// within the milliseconds of a creation, and then harmless.
    package static func stagingPath(for path: String) -> String {
        FileIO.sibling(of: path, suffix: ".creating-\(getpid())")
    }

    /// Creates (or replaces) a log with a fresh header carrying this build's behaviour
    /// fingerprint; the file and its directory entry are synced. The log is `version`
    /// (by default, this build's: 6). Without zstd (`zstd` and `Zstd.isAvailable`), from
    /// version 5, `append` range-codes its checkpoints (codec 2); its batches are stored.
    ///
    /// With `exclusive`, anything already at `path` is an error (`.alreadyExists`), a
    /// symbolic link too, dangling or not: the file is created by this call, with the
    /// descriptor it writes through (`O_EXCL`), so no link planted there is followed.
    /// It appears at `path` with its header whole and synced, or not at all: the header
    /// is written to a new file beside it, which is then linked to `path` (a process
    /// that died between creating the file and writing its header left an empty file no
    /// recorder would open, and `Recorder(creating:)` refusing it as existing). Where the
    /// file system has no hard links, the file is created at `path` directly.
    /// `mode`: the permission bits a new file is made with (less the umask).
    static func create(path: String, checkpointInterval: Int, salt: UInt64, zstd: Bool,
                       behaviour: UInt64 = BehaviourFingerprint.current, version: UInt16? = nil,
                       exclusive: Bool = false, staging: Bool = true, mode: mode_t = 0o644) throws(LogError) -> LogFile {
        func alreadyExists() -> LogError {
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                return LogError(.alreadyExists, "a directory is here; a log is a file: name one inside it", path: path)
            }
            return LogError(.alreadyExists, "a file already exists here; open it with Recorder(appendingTo:), or pass replacingExisting: true to replace it", path: path)
        }
        try FileIO.checkPath(path)
        if !exclusive, staging, let replaced = try replaceBeside(path, checkpointInterval: checkpointInterval, salt: salt, zstd: zstd,
                                                                 behaviour: behaviour, version: version) {
            return replaced
        }
        var staged: String?
        var fd: Int32 = -1
        if exclusive, staging {
            let name = stagingPath(for: path)
            fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if fd >= 0 { staged = name }
        }
        if fd < 0 {
            // A log being replaced is emptied only once its lock is taken, below: one
            // that another recorder is writing is left as it is.
            // Non-blocking, so that a FIFO nobody reads is an error, not a wait for good.
            fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | (exclusive ? O_EXCL : 0), mode)
            var info = stat()
            if fd < 0, errno == ENXIO, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFIFO {
                throw LogError(.io, "a FIFO that nothing reads is here; a log is written to a file (or to a FIFO with a reader)", path: path)
            }
            if fd >= 0, !FileIO.clearNonBlocking(fd) {
                let error = FileIO.error("fcntl", path)
                _ = closeDescriptor(fd)
                throw error
            }
        }
        guard fd >= 0 else {
            if exclusive, errno == EEXIST { throw alreadyExists() }
            throw FileIO.error("open", path)
        }
        // The log's one writer from now on (`WriterClaim`); a new file staged beside
        // `path` is claimed before it appears there.
        func abandon(_ error: LogError, releasing claim: WriterClaim? = nil) -> LogError {
            claim?.release(fd)
            _ = closeDescriptor(fd)
            if let staged { unlink(staged) }
            if exclusive, staged == nil { unlink(path) }
            return error
        }
        let claim: WriterClaim
        do throws(LogError) { claim = try WriterClaim.take(fd, path: path, verifying: staged == nil) } catch { throw abandon(error) }
        do throws(LogError) {
            if !exclusive, claim.isRegularFile { try MappedFile.truncate(fd, to: 0, path: path, doing: "replacing it") }
        } catch {
            throw abandon(error, releasing: claim)
        }
        var features = LogFormat.featureCheckpoints
        let packs = zstd && Zstd.isAvailable
        if packs { features |= LogFormat.featureZstd }
        let header = FileHeader(features: features, salt: salt, checkpointInterval: UInt32(clamping: checkpointInterval),
                                behaviour: behaviour, version: version ?? LogFormat.version)
        let file = LogFile(path: path, fd: fd, claim: claim, header: header, size: 0, entries: [], eventCount: 0)
        // Whether `path` is a file this call made (removed again if the call fails, so
        // that a retry does not find it "already exists").
        var made = exclusive && staged == nil
        // The staged file until it is linked and removed: a failure removes it too.
        var stagedLeft = staged
        do throws(LogError) {
            try file.write(header.encoded())
            try FileIO.syncData(fd, path: path)
            if let staged {
                let linked = link(staged, path) == 0
                let reason = errno
                unlink(staged)
                stagedLeft = nil
                if !linked {
                    if reason == EEXIST { throw alreadyExists() }
                    // No hard links on this file system (ENOSYS from some FUSE file systems):
                    // the file is made at `path` itself.
                    let refused = [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, EXDEV, ENOSYS]
                    guard refused.contains(reason) else {
                        errno = reason
                        throw FileIO.error("link", path)
                    }
                    return try create(path: path, checkpointInterval: checkpointInterval, salt: salt, zstd: zstd,
                                      behaviour: behaviour, version: version, exclusive: true, staging: false, mode: mode)
                }
                made = true
            }
            try FileIO.syncDirectory(of: path)
        } catch {
            if made { unlink(path) }
            if let stagedLeft { unlink(stagedLeft) }
            throw error
        }
        return file
    }

    /// Gives the file `mode` (its permission bits) and `group`, as far as this user may
    /// (`FileIO.carry`).
    func carry(mode: mode_t, group: gid_t) { FileIO.carry(mode: mode, group: group, to: fd) }

    /// Takes `path` as its name: the file was renamed there (`replaceBeside`).
    func renamed(to path: String) { self.path = path }

    /// Opens an existing log to append to it, as its one writer. `dropTail()` then cuts a
    /// torn tail and the index record of a clean close (written again on the next
    /// close); nothing is cut before. Damage before the end is an error: repair first.
    static func openForAppend(path: String) throws(LogError) -> LogFile {
        try FileIO.checkPath(path)
        // The claim first (`WriterClaim`): a log another recorder is writing may end in
        // a record not yet whole, which would pass for a torn tail and be cut.
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.error("open", path) }
        let claim: WriterClaim
        do throws(LogError) { claim = try WriterClaim.take(fd, path: path, verifying: true) } catch {
            _ = closeDescriptor(fd)
            throw error
        }
        var handedOver = false
        defer {
            if !handedOver {
                claim.release(fd)
                _ = closeDescriptor(fd)
            }
        }
        // The walk keeps no list of records and lets the kernel drop the pages it has
        // passed, so reopening a log of any length takes the same memory: only the index
        // entries (one per window and per checkpoint) are kept, built as it goes.
        var end = 0
        var entries: [IndexEntry] = []
        var since = (events: 0, bytes: 0)
        let scan: LogScan
        do {
            let mapped = try MappedFile(path: path)
            scan = LogScan.scan(mapped.bytes, deep: false, keep: false, release: { mapped.release($0) }) { r in
                switch r.header.kind {
                case .batch: since = (since.events + r.header.eventCount, since.bytes + r.header.rawLength)
                case .checkpoint: since = (0, 0)
                case .index: break
                }
                if r.header.kind == .index {
                    end = r.offset
                } else if r.header.continues, !entries.isEmpty {
                    entries[entries.count - 1].add(continued: r)
                } else {
                    entries.append(IndexEntry(r))
                }
            }
            // Zeros that stand in for pages another process cut off would pass for a torn
            // tail, which the recorder then cuts.
            if let cut = mapped.cutError() { throw cut }
        }
        guard let header = scan.header else {
            // The kind and offset a reader gives the same file header (`LogReader(path:)`):
            // a newer selectlog's log is `.unsupported`, not damage, so that an app
            // downgraded below its logs is not sent to repair them (INTEGRATION.md §9
            // repairs on `.damaged`). A file that is no log stays `.damaged` at offset 0:
            // that resume repairs it, finds nothing intact and starts a new session.
            let problem = scan.problem
            throw LogError(problem?.isNewer == true ? .unsupported : .damaged, problem?.reason ?? "no file header",
                           path: path, offset: problem?.offset ?? 0)
        }
        // The seek index's damage alone is cut with the index, as a torn tail is.
        if let problem = scan.problem, !problem.isTornTail, !problem.isIndexOnly {
            throw LogError(.damaged, "\(problem.reason); \(repairHint)", path: path,
                           offset: problem.offset, eventIndex: scan.eventCount)
        }
        guard let behaviour = header.behaviour else {
            throw LogError(.unsupported, "a version 1 log cannot be appended to; run `selectlog upgrade` first", path: path, offset: 8)
        }
        guard behaviour == BehaviourFingerprint.current else {
            throw LogError(.unsupported, BehaviourNotice.appendRefusal(recorded: behaviour), path: path, offset: 28)
        }
        // Where the next record goes: after the last good record, or where the index was.
        if scan.last?.header.kind != .index { end = scan.goodEnd }
        let file = LogFile(path: path, fd: fd, claim: claim, header: header, size: end, entries: entries, eventCount: scan.eventCount)
        handedOver = true
        file.sinceCheckpoint = since
        return file
    }

    /// What a refusal to append to a damaged log says to do.
    static let repairHint = "repair the log before appending (LogRepair.repair, or selectlog verify --repair)"
    /// What it says when the damage shows only in a replay (an event the engine rejects, a
    /// checkpoint that disagrees with its events): a repair that does not replay finds the
    /// log intact and cuts nothing, so the hint names the one that does.
    static let replayingRepairHint =
        "repair the log before appending, replaying it (LogRepair.repair(path, replaying: true), or selectlog verify --deep --repair)"

    /// Cuts what follows the last good record of a log opened by `openForAppend` (a torn
    /// tail, the stored index) and writes from there on. Called once the log's events have
    /// been read back: a log refused then is left as it was.
    func dropTail() throws(LogError) {
        if try FileIO.fileSize(fd, path: path) != size {
            // A LogReader in this process reads no further than its last record, which is
            // at or before `size`: only another walk of the whole file refuses the cut.
            try MappedFile.truncate(fd, to: size, path: path, doing: "cutting its stored index or torn tail to append")
            try FileIO.syncData(fd, path: path)
        }
        if lseek(fd, off_t(size), SEEK_SET) < 0 { throw FileIO.error("lseek", path) }
    }

    private func write(_ bytes: [UInt8]) throws(LogError) {
        if bytes.count > failsWritesPast &- size {
            throw LogError(.io, "write failed: \(String(cString: strerror(ENOSPC)))", path: path, errnoCode: ENOSPC)
        }
        try FileIO.writeAll(fd, bytes, path: path)
        size += bytes.count
    }

    /// Appends one record. `continues`: a continued batch (version 4), which must follow a
    /// batch; it is stored as it is (its short header has no codec). With a `compressor`
    /// every other record is zstd-compressed when that makes it smaller, but for the
    /// batches of a log of version 3 or later: they are range-coded, which zstd does not
    /// shrink (trying cost the writer about 5 instructions an event on random walks).
    /// Without one, in a log of version 5, a checkpoint is range-coded
    /// (codec 2) when that makes it smaller; the index is always stored.
    func append(_ kind: RecordKind, payload raw: [UInt8], firstEvent: Int, eventCount: Int, baseTime: Micros,
                continues: Bool = false, compressor: ZstdCompressor?) throws(LogError) {
        var out = BinaryWriter(capacity: 0)
        let info = layOut(kind, payload: raw, firstEvent: firstEvent, eventCount: eventCount, baseTime: baseTime,
                          continues: continues, compressor: compressor, at: size, into: &out)
        try write(laidOut: out.bytes, [info])
    }

    /// Lays one record out (as `append` describes) at the end of `out`, for the file
    /// offset `offset`; returns what the index needs of it (`note` it once written). The
    /// payload's checksum is computed once, for the header and the index both.
    func layOut(_ kind: RecordKind, payload raw: [UInt8], firstEvent: Int, eventCount: Int, baseTime: Micros,
                continues: Bool, compressor: ZstdCompressor?, at offset: Int, into out: inout BinaryWriter) -> RecordInfo {
        var stored = raw
        var codec = LogFormat.codecRaw
        let coded = kind == .batch && header.version >= LogFormat.codedBatchesVersion
        // A payload is packed only within the ratios a reader allows (`limitViolation`):
        // a snapshot of a million empty option titles zstd-compresses beyond 4096:1, and
        // its reader would call the record damaged.
        if !continues, !coded, Zstd.isAvailable, let compressor, let packed = compressor.compress(raw), packed.count < raw.count,
           raw.count <= packed.count * LogFormat.Limits.compressionRatio {
            stored = packed
            codec = LogFormat.codecZstd
        } else if compressor == nil, kind == .checkpoint, header.version >= LogFormat.rangeCodedVersion {
            let coded = ByteModelCoder.encode(raw)
            if coded.count < raw.count, raw.count <= coded.count * LogFormat.Limits.rangeCodedRatio {
                stored = coded
                codec = LogFormat.codecRange
            }
        }
        var header = RecordHeader(kind: kind, storedLength: stored.count, rawLength: raw.count, eventCount: eventCount,
                                  firstEvent: firstEvent, baseTime: continues ? .zero : baseTime, codec: codec)
        header.continues = continues
        let checksum = CRC32C.checksum(stored, salt: self.header.salt)
        RecordHeader.write(header, payload: stored, checksum: checksum, salt: self.header.salt, into: &out)
        return RecordInfo(offset: offset, header: header, payloadChecksum: checksum)
    }

    /// Notes a record `layOut` made, once written: the index's entries and the event count.
    func note(_ info: RecordInfo) {
        if info.header.continues, !entries.isEmpty {
            entries[entries.count - 1].add(continued: info)
        } else {
            entries.append(IndexEntry(info))
        }
        if info.header.kind == .batch { eventCount = info.header.firstEvent + info.header.eventCount }
    }

    /// Writes `bytes`, records that `layOut` made one after another from the end of the
    /// file, and notes `infos`, theirs, once written (none when the write fails).
    func write(laidOut bytes: [UInt8], _ infos: [RecordInfo]) throws(LogError) {
        guard !bytes.isEmpty else { return }
        try write(bytes)
        for info in infos { note(info) }
    }

    func sync() throws(LogError) { try FileIO.syncData(fd, path: path) }

    /// Writes the seek index as the last record and closes the file.
    ///
    /// The claim and the descriptor are let go even when the index or the sync fails:
    /// the log still reads back (a reader walks the records; a torn index is a torn tail,
    /// cut on the next append), and a claim kept would refuse every later writer, in
    /// this process and others, for as long as this object lives.
    func close(writingIndex: Bool, sync: Bool) throws(LogError) {
        guard fd >= 0 else { return }
        defer {
            claim.release(fd)
            _ = closeDescriptor(fd)
            fd = -1
        }
        if writingIndex {
            let offset = size
            try append(.index, payload: LogIndex.encode(entries, at: offset, version: header.version), firstEvent: eventCount, eventCount: 0,
                       baseTime: .zero, compressor: nil)
        }
        if sync { try self.sync() }
    }
}

/// `close(2)`, by a name that `LogFile.close()` does not hide.
func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
