#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only memory mapping of a whole file.
// @unchecked: every stored property is set once in `init`; `release` only tells the
// kernel it may drop clean pages of a read-only private mapping, which a later read
// faults back in from the file, so concurrent readers always see the file's bytes.
final class MappedFile: @unchecked Sendable {
    let path: String
    let bytes: UnsafeRawBufferPointer
    private let base: UnsafeMutableRawPointer?
    /// The mapping's slot in `LogTruncationGuard`, when the guard watches it.
    private let watchSlot: Int?
    /// The file mapped, by device and inode, while this mapping is in `MappedFile.mapped`.
    private let key: FileKey?
    /// This mapping's number in `MappedFile.mapped`.
    private let token: Int

    /// A file by the device and inode its descriptor reaches.
    struct FileKey: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
        }
        /// The file `fd` is open on; nil when `fstat` fails.
        init?(of fd: Int32) {
            var info = stat()
            guard fstat(fd, &info) == 0 else { return nil }
            self.init(info)
        }
    }

    /// This process's mappings of each file, with how far into the file each may still
    /// read: this process must not cut a file shorter than that, or a read of a page past
    /// the new end raises SIGBUS (`LogTruncationGuard` answers it on Linux, when
    /// installed; elsewhere it ends the process). A mapping may read the whole file until
    /// its owner says less (`LogReader`: up to its last record, `limitReads(to:)`).
    private static let mapped = LockedBox(Registry())

    /// The mappings by file, each by its number, with how far it may read.
    private struct Registry {
        var next = 0
        var reads: [FileKey: [Int: Int]] = [:]
        mutating func remove(_ token: Int, of key: FileKey) {
            reads[key]?[token] = nil
            if reads[key]?.isEmpty == true { reads[key] = nil }
        }
    }

    /// Lets the file be cut down to `end` under this mapping: its owner reads no further.
    func limitReads(to end: Int) {
        guard let key else { return }
        MappedFile.mapped.withLockedValue { $0.reads[key]?[token] = end }
    }

    /// Truncates the file `fd` is open on to `size`, unless a mapping in this process may
    /// still read past it (`.inUse`, saying what the caller was `doing`, nothing changed).
    /// The check and the cut are made under the lock a new mapping registers under, so
    /// none can map the file between them.
    static func truncate(_ fd: Int32, to size: Int, path: String, doing what: String) throws(LogError) {
        guard let key = FileKey(of: fd) else { throw FileIO.error("fstat", path) }
        try mapped.withLockedValue { (mapped: inout Registry) throws(LogError) in
            if let reads = mapped.reads[key], reads.values.contains(where: { $0 > size }) { throw readerInTheWay(path, doing: what) }
            try FileIO.truncate(fd, to: size, path: path)
        }
    }

    /// The `.inUse` error for cutting (`doing` what) a log that a reader in this process
    /// may still read past the cut.
    static func readerInTheWay(_ path: String, doing what: String) -> LogError {
        LogError(.inUse, "a LogReader in this process has this log open, and \(what) would take its bytes from under it (SIGBUS); close the reader (LogReader.close()) or let it go first. Nothing was changed",
                 path: path)
    }

    /// Whether a mapping in this process may still read the file `fd` is open on past `size`.
    static func readsPast(_ size: Int, of fd: Int32) -> Bool {
        guard let key = FileKey(of: fd) else { return false }
        return mapped.withLockedValue { $0.reads[key]?.values.contains { $0 > size } ?? false }
    }

    init(path: String) throws(LogError) {
        self.path = path
        try FileIO.checkPath(path)
        // Non-blocking, so that a FIFO with no writer cannot hang the open.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.error("open", path) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) != 0 { throw FileIO.error("fstat", path) }
        if let why = FileIO.notARegularFile(info.st_mode) { throw LogError(.io, why, path: path) }
        // Registered (as reading all of it) before its size is taken, under the lock a cut
        // checks and truncates under: no cut in this process falls between the two.
        let key = FileKey(info)
        let token = MappedFile.mapped.withLockedValue { mapped in
            mapped.next += 1
            mapped.reads[key, default: [:]][mapped.next] = .max
            return mapped.next
        }
        self.token = token
        func unregister() { MappedFile.mapped.withLockedValue { $0.remove(token, of: key) } }
        guard fstat(fd, &info) == 0 else {
            unregister()
            throw FileIO.error("fstat", path)
        }
        let size = Int(info.st_size)
        if size == 0 {
            unregister()
            base = nil
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            watchSlot = nil
            self.key = nil
            return
        }
        let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let p, p != MAP_FAILED else {
            unregister()
            throw FileIO.error("mmap", path)
        }
        base = p
        bytes = UnsafeRawBufferPointer(start: p, count: size)
        self.key = key
        #if canImport(Glibc)
        watchSlot = LogTruncationGuard.watch(p, count: size)
        #else
        watchSlot = nil
        #endif
        MappedFile.afterMapping.withLockedValue { $0 }?(path)
    }

    /// For tests: called with a file's path once it is mapped, before any of its bytes
    /// is read (to cut it there, as another process could).
    static let afterMapping = LockedBox<(@Sendable (String) -> Void)?>(nil)

    /// For tests: called with a file's path as its mapping goes, out of `mapped` already
    /// and before it is unmapped.
    static let beforeUnmapping = LockedBox<(@Sendable (String) -> Void)?>(nil)

    deinit {
        // Out of `mapped` while the mapping still holds the file: once it is unmapped (and
        // the file unlinked) its inode can be a new file's, which a stale entry would keep
        // from being created or cut (`.inUse` for a file no reader has open).
        if let key { MappedFile.mapped.withLockedValue { $0.remove(token, of: key) } }
        MappedFile.beforeUnmapping.withLockedValue { $0 }?(path)
        #if canImport(Glibc)
        if let watchSlot { LogTruncationGuard.unwatch(watchSlot) }
        #endif
        if let base { munmap(base, bytes.count) }
    }

    /// Whether a read found pages of the mapping gone, the file truncated under it (zeros
    /// stand in for them), when `LogTruncationGuard` watches it.
    var wasCut: Bool {
        #if canImport(Glibc)
        watchSlot.map(LogTruncationGuard.wasCut) ?? false
        #else
        false
        #endif
    }

    /// An error for a read of this mapping, when the file was cut shorter under it: a
    /// read found pages gone (`wasCut`), or the file is now shorter than the mapping (a
    /// cut inside the last page faults nowhere: the bytes past the new end read as
    /// zeros). Says the file's size now, and what to do.
    func cutError() -> LogError? {
        var info = stat()
        let size = stat(path, &info) == 0 ? Int(info.st_size) : nil
        guard wasCut || size.map({ $0 < bytes.count }) == true else { return nil }
        return LogError(.damaged, LogTruncationGuard.message(size: size), path: path)
    }

    /// What `release` drops at a time: whole aligned blocks of this many bytes. A read
    /// fault maps its neighbours too (Linux's fault-around, 64 KiB by default, and the
    /// whole of a large page-cache folio, up to 1 MiB here), so a page dropped while a
    /// neighbour is still to be read would come straight back; a block is dropped only
    /// once the walk has left it. With 256 KiB blocks, a 100M-event replay kept 768 KiB
    /// of every MiB of one region resident for good (38 MB peak); with 1 MiB, none.
    static let releaseBlock = 1 << 20

    /// Lets the kernel drop the pages of `range` from memory (they are read again from
    /// the file if touched), so that walking a large log keeps resident memory flat.
    /// Only whole blocks (`releaseBlock`) are dropped: the block holding the range's
    /// start goes, the one holding its end stays. A walk releases what it passed since
    /// its last release (ranges that follow one another leave no block behind), not
    /// everything before it: the kernel walks the whole range on every call.
    func release(_ range: Range<Int>) {
        guard let base, !range.isEmpty else { return }
        let block = MappedFile.releaseBlock
        let start = Swift.max(0, range.lowerBound) / block * block
        let end = Swift.min(range.upperBound, bytes.count) / block * block
        guard start < end else { return }
        _ = madvise(base + start, end - start, MADV_DONTNEED)
    }

    /// `release` of every whole block `range` touches, the one holding its end included:
    /// for a record read out of order (a checkpoint a check compares) after the walk that
    /// released its neighbours. A page still needed is read again from the file.
    func release(wholeBlocksOf range: Range<Int>) {
        let block = MappedFile.releaseBlock
        release(range.lowerBound..<((range.upperBound + block - 1) / block * block))
    }
}
