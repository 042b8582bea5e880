#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SelectLogStore

/// Writes `bytes` to `path`, replacing it; or, when `replacing` is false, only creating
/// it (a file, or a link, already there is "already exists", exit 64).
///
/// The file is made whole or not at all where it can be: the bytes go to a temporary
/// file beside it, synced, then renamed over it (or, creating only, linked to its name),
/// so a full disk, a file size limit or Ctrl-C leaves the previous file as it was and no
/// partial one. A replaced file keeps its mode (set before a byte is written) and a link
/// to it stays a link. The file is written in place, as a shell's `>` would, where
/// replacing it would change more than its bytes or cannot be done: a FIFO, a device or
/// anything under /dev or /proc (`/dev/stdout`), one of this process's standard
/// streams, a dangling link, a file with other hard links, one this user may not write
/// or does not own, and a file whose directory will not take the temporary file or the
/// rename.
///
/// A selectlog log at `path` is replaced only when `replacingLog` says so (`synthesize
/// --script --force`), and then not while a recorder writes it (exit 74); otherwise it
/// is refused (exit 64), whatever the command: a mistyped `-o` must not turn a recording
/// into a script or a page.
func writeFile(_ path: String, _ bytes: [UInt8], replacing: Bool = true, replacingLog: Bool = false) throws {
    try writeFile(path, replacing: replacing, replacingLog: replacingLog) { write in try write(bytes) }
}

/// `writeFile(_:_:replacing:)` for bytes made as they are written, so that no more than
/// a piece of them is held: `body` hands them to `write` a piece at a time. It is called
/// a second time, to start again, when the whole file could not be renamed into place
/// and is written in place after all.
func writeFile(_ path: String, replacing: Bool = true, replacingLog: Bool = false,
               _ body: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws {
    // Held until the new file is in place: a recorder cannot start on the log meanwhile.
    let heldLog = try replacing ? holdLogToReplace(path, allowed: replacingLog) : nil
    defer { if let heldLog { close(heldLog) } }
    if replacing || path == "-", let fd = standardStream(named: path) {
        // `-o /dev/stdout`: through the descriptor itself. Opened again by its name, a
        // file behind it got a second offset, and the command's next line on standard
        // output overwrote the start of what was written.
        if fd == 1 { StandardStreams.flushPrinted() }
        try body { try writeAll(fd, $0, path: path) }
        return
    }
    if let target = wholeTarget(path, replacing: replacing), try writeWhole(target, shown: path, body, replacing: replacing) { return }
    let fd = try (replacing ? InputFile.openFIFOForWriting(path) : nil)
        ?? open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (replacing ? O_TRUNC : O_EXCL), 0o644)
    guard fd >= 0 else {
        if !replacing, errno == EEXIST { throw alreadyExists(path) }
        complain("\(path): cannot create: \(systemReason())")
        throw Exit.io
    }
    defer { close(fd) }
    do {
        try body { try writeAll(fd, $0, path: path) }
    } catch {
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            // Not whole or nothing here (see above): say what is left.
            complain("\(path): left incomplete: it is written in place (it has other links, or could not be replaced whole), as a shell's > would write it")
        }
        throw error
    }
}

/// Checks, before a command does its work, that `path` can take its text output, so that
/// a mistyped `-o` fails at once rather than after a long shrink: exits 74 naming why when
/// it is a directory or cannot be created (a missing directory, a file where a directory
/// should be, a directory this user may not write), and 64 when it is a selectlog log that
/// the output would replace (`replacingLog` false; see `writeFile`). Standard output,
/// devices and anything under /dev or /proc pass; `writeFile` says what goes wrong there.
///
/// `replacingScript` false (`view`, `testgen`, whose output is no script): a JSON Lines
/// script at `path` is refused too (exit 64), as a log is.
///
/// `ownOutput` (`shrink` without `--force`): an existing regular file at `path` is
/// replaced only when it begins with these bytes, as every output of the command does, or
/// is empty; any other (a bundled example, a script of the user's) is refused (exit 64),
/// naming `--force`: a mistyped `-o` must not lose a file the command did not write.
/// `ownOutputShown` says how those begin in the message, when the bytes themselves
/// (several lines of HTML) would not read well there.
///
/// An empty `input` path, a usage error, is said first (exit 64), as it would be without
/// this check.
func checkOutput(_ path: String, input: String?, replacingLog: Bool = false, replacingScript: Bool = true,
                 ownOutput: String? = nil, ownOutputShown: String? = nil) throws {
    if let input, input.isEmpty { _ = try InputFile(input) }
    guard path != "-", !namesAStream(path), standardStream(named: path) == nil else { return }
    var info = stat()
    if stat(path, &info) == 0 {
        if info.st_mode & S_IFMT == S_IFDIR {
            complain("\(path): is a directory; name a file")
            throw Exit.io
        }
        if !replacingLog, let fd = openIfLog(path) {
            close(fd)
            throw refuseReplacingLog(path)
        }
        if !replacingScript, info.st_mode & S_IFMT == S_IFREG, Input.looksLikeScript(path) {
            complain("\(path): looks like a JSON Lines script (its first line that is not blank or a # comment begins with {, or it holds only comments), which this output would replace; choose another output (or move it away first)")
            throw Exit.usage
        }
        if let ownOutput, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
           (try? readPrefix(path, count: ownOutput.utf8.count)) != Array(ownOutput.utf8) {
            let shown = ownOutputShown ?? "begin with \"\(ownOutput)\""
            complain("\(path): exists and is not an output of this command (those \(shown)); choose another output, or add --force to replace it")
            throw Exit.usage
        }
        return
    }
    let failure = errno
    // A dangling link: `writeFile` writes through it, as it always has.
    if failure == ENOENT, lstat(path, &info) == 0 { return }
    guard failure == ENOENT else {
        complain("\(path): cannot create: \(String(cString: strerror(failure)))")
        throw Exit.io
    }
    let directory = parentDirectory(of: path)
    guard stat(directory, &info) == 0 else {
        complain("\(path): cannot create: \(systemReason())")
        throw Exit.io
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
        complain("\(path): cannot create: \(directory) is not a directory")
        throw Exit.io
    }
    guard access(directory, W_OK | X_OK) == 0 else {
        complain("\(path): cannot create: \(systemReason())")
        throw Exit.io
    }
}

/// The refusal (exit 64) to replace the log at `path` with a command's text output.
private func refuseReplacingLog(_ path: String) -> ExitCode {
    complain("\(path): is a selectlog log, which this output would replace; choose another output (or move the log away first)")
    return Exit.usage
}

/// A descriptor of the regular file at `path` when it begins with a log's magic, or with
/// a log's file header whose magic alone is damaged (a log `verify --repair` mends); nil
/// for anything else (nothing there, a short or other file, a FIFO, which is never opened).
private func openIfLog(_ path: String) -> Int32? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    // For writing where allowed: on NFS an exclusive lock needs it.
    var fd = open(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    if fd < 0 { fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
    guard fd >= 0 else { return nil }
    var head = [UInt8](repeating: 0, count: LogFormat.fileHeaderSize)
    let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    let isLog = n >= LogFormat.magic.count && (head.starts(with: LogFormat.magic)
        || head.prefix(n).withUnsafeBytes(FileHeader.onlyMagicDamaged))
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, isLog else {
        close(fd)
        return nil
    }
    return fd
}

/// For `writeFile`: nil when no log is at `path`; a log there is refused (exit 64) unless
/// `allowed`, and then locked as its one writer (exit 74 while a recorder has it) and its
/// descriptor returned, to be closed once the new file is in place.
private func holdLogToReplace(_ path: String, allowed: Bool) throws -> Int32? {
    // Standard output (`-`, `/dev/stdout`) is written through, whatever is behind it.
    guard path != "-", standardStream(named: path) == nil, let fd = openIfLog(path) else { return nil }
    guard allowed else {
        close(fd)
        throw refuseReplacingLog(path)
    }
    try lockForReplacing(fd, path: path, shown: path)
    return fd
}

/// Locks the file open on `fd` as its one writer before it is replaced; while another
/// writer (a recorder) has it, closes `fd` and exits 74 saying so, naming `shown`.
func lockForReplacing(_ fd: Int32, path: String, shown: String) throws {
    do throws(LogError) {
        try FileIO.lockForWriting(fd, path: path)
    } catch {
        close(fd)
        complain("\(shown): \(error.message)")
        throw Exit.io
    }
    // A recorder that replaced the log between this open and the lock held the old file
    // until then: the lock must be on the file `path` names now, or this command would
    // rename its output over that recorder's live log.
    guard FileIO.names(path, fd) else {
        close(fd)
        complain("\(shown): another writer replaced it while this command opened it; nothing was changed: run the command again")
        throw Exit.io
    }
}

/// How a report names where output went: `standard output` for `-`, as a reader would
/// say it (`wrote -` reads like a file named `-`); any other path as given, its controls
/// escaped (a newline in a name would start a line of its own).
func outputName(_ path: String) -> String { path == "-" ? "standard output" : path.escapingControls }

/// Whether `path` names this command's standard output (`-o /dev/stdout`), where a
/// command's own lines would mix with what it wrote.
func namesStandardOutput(_ path: String) -> Bool { standardStream(named: path) == 1 }

/// The standard output or error (1 or 2) that `path` names (`-` or `/dev/stdout`, or
/// the file, pipe or terminal behind it under any name); nil for anything else.
private func standardStream(named path: String) -> Int32? {
    if path == "-" { return 1 }
    return FileIdentity(path: path)?.descriptor(among: [1, 2])
}

/// Refuses (exit 64) `-o -` for a log, which would otherwise be a file named `-`: a
/// log is a file (its recorder syncs it, and readers map it). A script, a test or a
/// page goes to standard output with `-o -`.
func refuseStandardOutputForLog(_ output: String?) throws {
    guard output == "-" else { return }
    complain("-o -: a log is written to a file, not to standard output; name one (a script, a test or a page can go to standard output with -o -)")
    throw Exit.usage
}

/// Where `writeFile` makes `path` whole: `path` itself when nothing is there, or (when
/// `replacing`) the regular file it names through its links, when only its bytes would
/// change; nil when it is written in place.
private func wholeTarget(_ path: String, replacing: Bool) -> (path: String, replaces: Bool)? {
    guard !namesAStream(path) else { return nil }
    var info = stat()
    if stat(path, &info) != 0 {
        // Nothing there: made whole. A dangling link is written through (or, creating
        // only, is "already exists").
        return errno == ENOENT && lstat(path, &info) != 0 && errno == ENOENT ? (path, false) : nil
    }
    guard replacing, replacesOnlyBytes(info, at: path) else { return nil }
    guard FileIdentity(info).descriptor(among: [0, 1, 2]) == nil else { return nil }
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    return (String(cString: real), true)
}

/// Whether `writeFile(path, replacing:)` makes the file whole or not at all, rather than
/// writing it in place (a FIFO, a device, a file with other links: `wholeTarget`).
func writesWhole(_ path: String, replacing: Bool) -> Bool {
    wholeTarget(path, replacing: replacing) != nil
}

/// Whether a regular file is at `path` (through a link).
func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
}

/// Whether a new file renamed over the one `info` describes (at `path`) would change
/// only its bytes: a regular file with no other hard link, that this user may write and
/// owns (or is root). Otherwise `writeFile`, `record` and `synthesize` write it in place.
func replacesOnlyBytes(_ info: stat, at path: String) -> Bool {
    info.st_mode & S_IFMT == S_IFREG && info.st_nlink == 1 && access(path, W_OK) == 0
        && (geteuid() == 0 || info.st_uid == geteuid())
}

/// Whether `path` names a stream or a device of the system rather than a file of its own:
/// a name in `/dev` itself or `/dev/fd` (`/dev/stdin`, `/dev/fd/0`, `/dev/null`), or in
/// `/proc` (`/proc/self/fd/0`), however spelled (`//dev/stdin`, `../../dev/stdin`): the
/// directory is resolved, and the name judged by where it is. A file in a directory of
/// its own under `/dev` (`/dev/shm`, a tmpfs) is a file: it is rewritten, repaired and
/// replaced whole like any other. Such a name read as a file is one redirected in
/// (`/dev/stdin < LOG`), whose neighbours (a repair's cut bytes, a rewrite's temporary
/// copy) would go into `/dev`.
func namesAStream(_ path: String) -> Bool {
    guard let real = realpath(parentDirectory(of: path), nil) else { return false }
    defer { free(real) }
    let directory = String(cString: real)
    return directory == "/dev" || directory == "/dev/fd" || directory == "/proc" || directory.hasPrefix("/proc/")
}

/// The directory `path` names an entry of: what precedes its last slash (`/` for a path
/// at the root), or `.` for a bare name.
func parentDirectory(of path: String) -> String {
    let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
    return slash.map { $0 == path.utf8.startIndex ? "/" : String(path[..<$0]) } ?? "."
}

/// Writes the bytes `body` makes to a temporary file beside `target.path` and renames it over (or,
/// `replacing` false, links it to) that name: true when done; false, having left
/// nothing, when the temporary file, the rename or the link cannot be made there (the
/// caller writes in place). Complains naming `shown` and exits 74 when the write or the
/// sync fails, and 64 when, creating only, the name was taken meanwhile; `target` is
/// left as it was.
private func writeWhole(_ target: (path: String, replaces: Bool), shown: String,
                        _ body: (_ write: ([UInt8]) throws -> Void) throws -> Void, replacing: Bool) throws -> Bool {
    let partial = FileIO.sibling(of: target.path, suffix: Rewrite.temporarySuffix("partial"))
    TemporaryFiles.add(partial)
    // A replacement is private until it has the replaced file's mode, before any byte.
    let fd = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, target.replaces ? 0o600 : 0o644)
    guard fd >= 0 else {
        TemporaryFiles.forget(partial)
        return false
    }
    if target.replaces { carryOwnerAndMode(of: target.path, to: fd) }
    do {
        try body { try writeAll(fd, $0, path: shown) }
    } catch {
        close(fd)
        TemporaryFiles.delete(partial)
        throw error
    }
    guard FileIO.syncToStorage(fd) == 0 else {
        let reason = systemReason()
        close(fd)
        TemporaryFiles.delete(partial)
        complain("\(shown): cannot write: \(FileIO.syncCall) failed: \(reason)")
        throw Exit.io
    }
    close(fd)
    if replacing {
        guard rename(partial, target.path) == 0 else {
            // Not allowed here (a sticky directory, a bind-mounted file): in place instead.
            TemporaryFiles.delete(partial)
            return false
        }
        TemporaryFiles.forget(partial)
    } else {
        guard link(partial, target.path) == 0 else {
            let taken = errno == EEXIST
            TemporaryFiles.delete(partial)
            if taken { throw alreadyExists(shown) }
            // A file system without hard links: created in place instead (O_EXCL).
            return false
        }
        TemporaryFiles.delete(partial)
    }
    try? FileIO.syncDirectory(of: target.path)
    return true
}

/// Gives the file open on `fd` the owner (where this user may) and then the mode of the
/// file at `path`, through the descriptor (a name could be swapped for a link meanwhile):
/// a replacement keeps the replaced file's. The owner first, as a change of owner clears
/// the set-user-ID bits. A group this user cannot give the file (not one of its groups)
/// takes its permission bits with it: they would otherwise go to this user's own group,
/// which the replaced file did not let in.
func carryOwnerAndMode(of path: String, to fd: Int32) {
    var info = stat()
    guard stat(path, &info) == 0 else { return }
    FileIO.carry(mode: info.st_mode & 0o7777, owner: info.st_uid, group: info.st_gid, to: fd)
}

/// What `-o` may name.
enum OutputPath {
    /// `-o`'s value as given, refused when empty: an empty path names no file, and the
    /// write would fail later with a message naming nothing.
    static func nonEmpty(_ path: String) throws -> String {
        guard !path.isEmpty else { throw ValidationError("the output path is empty; name a file (or - for standard output where the command allows it)") }
        return path
    }
}
