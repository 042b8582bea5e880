#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SelectLogStore

/// Where `upgrade` and `compact` write the log they make, and how it replaces what was
/// there: written beside its destination under a temporary name, synced, given the
/// replaced file's mode, renamed over it, and the directory synced. A failure at any
/// point leaves the destination as it was and removes the temporary file.
///
/// The destination is resolved through symbolic links: a link stays a link, and the
/// file it names is replaced. One that exists must be a regular file: a device, a FIFO
/// or a directory is refused, never replaced by a file (run as root, `-o /dev/null`
/// would otherwise replace the device). In place means `-o` absent, or naming the
/// same path as LOG once links are resolved (a hard link of LOG is another path, and
/// gets the new log).
struct Rewrite {
    /// The path as the user gave it, for messages.
    let shown: String
    /// Where the new log goes: `shown` with its links resolved.
    let path: String
    /// The temporary file beside `path`.
    let partial: String
    /// Whether the new log replaces LOG itself.
    let inPlace: Bool
    /// Whether something is there to be replaced.
    let replaces: Bool

    /// The target of rewriting `log` into `output` (LOG itself when nil); `suffix` names
    /// the temporary file, and `command` (`compact`, `upgrade`) the command a message
    /// suggests for a rewrite in place. Exits 64 when LOG cannot be replaced in place
    /// (standard input, a device, a stream's name in /dev or /proc: `namesAStream`), 74
    /// when the output is not a regular file.
    ///
    /// What is replaced is locked as its one writer for the rest of the command
    /// (`FileIO.lockForWriting`): a log a recorder is appending to is refused (exit 74),
    /// since the recorder would go on writing into the file the rename unlinks.
    static func target(log: String, output: String?, suffix: String, command: String? = nil) throws -> Rewrite {
        try refuseStandardOutputForLog(output)
        let target = try place(log: log, output: output, suffix: suffix, command: command)
        try target.lockReplaced()
        return target
    }

    /// Where `record` and `synthesize` with `--force` write their log when a regular file
    /// is at `output`: beside it, renamed over it only once the log is complete, so that an
    /// invalid line, a failed write or Ctrl-C leaves the file there as it was (and a
    /// recorder writing it is refused, exit 74, as `upgrade` refuses it). Nil, and the log
    /// written at `output` itself as before, when nothing or no regular file (a FIFO, a
    /// device) is there, or where replacing the file would change more than its bytes or
    /// cannot be done, as `writeFile` decides for a text output: a file with other hard
    /// links, one this user may not write or does not own, or one in a directory this user
    /// may not write (or a sticky one). `input` is the script being recorded, if any.
    static func forcedLog(output: String, input: String?, force: Bool) throws -> Rewrite? {
        var info = stat(), directory = stat()
        guard force, stat(output, &info) == 0, replacesOnlyBytes(info, at: output) else { return nil }
        let parent = parentDirectory(of: output)
        guard stat(parent, &directory) == 0, access(parent, W_OK | X_OK) == 0,
              directory.st_mode & S_ISVTX == 0 || geteuid() == 0 || directory.st_uid == geteuid() || info.st_uid == geteuid() else { return nil }
        let target = try target(log: input ?? "-", output: output, suffix: "new")
        target.removeIfInterrupted()
        return target
    }

    /// The recorder `record` and `synthesize` write `output` with: at `replacement`'s
    /// temporary file, given the replaced file's owner and mode as soon as it exists (before
    /// any event is in it: a private log replaced stays private while it is recorded), or at
    /// `output` itself, replacing what is there with `force`.
    static func recorder(for output: String, replacement: Rewrite?, force: Bool,
                         options: Recorder.Options) throws(LogError) -> Recorder {
        let path = replacement?.partial ?? output
        var options = options
        // Owner-only until the replaced file's owner and mode are carried over, below: its
        // header is written (and the file named) before that can be done.
        if replacement != nil { options.filePermissions = 0o600 }
        let recorder = try TemporaryFiles.creatingLog(at: path) { () throws(LogError) in
            try Recorder(creating: path, options: options, replacingExisting: force && replacement == nil)
        }
        if let replacement {
            let fd = open(replacement.partial, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            if fd >= 0 {
                carryOwnerAndMode(of: replacement.path, to: fd)
                close(fd)
            }
        }
        return recorder
    }

    /// Takes the lock of the file to be replaced, and keeps it until the process ends.
    private func lockReplaced() throws {
        // Only a regular file is locked (as `FileIO.lockForWriting` does), and only a
        // regular file is opened for it: opening a FIFO would wait for its other end.
        var info = stat()
        guard replaces, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        // For writing where allowed: on NFS an exclusive lock needs it.
        var fd = open(path, O_RDWR | O_CLOEXEC)
        if fd < 0, errno == EACCES || errno == EROFS { fd = open(path, O_RDONLY | O_CLOEXEC) }
        // Unreadable: the command's own reading of it says so.
        guard fd >= 0 else { return }
        try lockForReplacing(fd, path: path, shown: shown)
    }

    private static func place(log: String, output: String?, suffix: String, command: String?) throws -> Rewrite {
        let logPath = resolved(log)
        let unresolved = logPath == nil && log != "-" && errno == ENAMETOOLONG ? systemReason() : nil
        let inPlace = output.map { logPath != nil && resolved($0) == logPath } ?? true
        if inPlace {
            var info = stat()
            if log != "-", stat(log, &info) != 0 || info.st_mode & S_IFMT == S_IFDIR {
                // Missing, unreadable or a directory: the input's own error, as every command gives it.
                _ = try InputFile(log, expecting: "a log")
            }
            if logPath == nil, let unresolved {
                // A file that exists, whose absolute path is longer than the system's
                // PATH_MAX (reached through relative paths).
                complain("\(log): cannot resolve its absolute path (\(unresolved)), so it cannot be replaced in place; pass -o OUTPUT")
                throw Exit.io
            }
            guard let logPath, !namesAStream(log), isRegularFile(logPath) else {
                if let output, isRegularFile(logPath ?? "") {
                    // `-o` names the very file the input is redirected from (`/dev/stdin < LOG`).
                    let inPlace = command.map { " (`selectlog \($0) \(output.shellWord)`)" } ?? ""
                    complain("\(output): is the input \(log) itself; to rewrite it in place, name it as the input\(inPlace), or choose another output")
                } else {
                    complain("\(log): cannot be replaced in place (standard input, a pipe or a device); pass -o OUTPUT")
                }
                throw Exit.usage
            }
            return Rewrite(shown: log, path: logPath, partial: FileIO.sibling(of: logPath, suffix: temporarySuffix(suffix)), inPlace: true, replaces: true)
        }
        let shown = output ?? log
        var info = stat()
        guard stat(shown, &info) == 0 else {
            let failure = errno
            if failure != ENOENT, failure != ELOOP {
                // A path this user may not search, a file where a directory should be.
                complain("\(shown): cannot create: \(String(cString: strerror(failure)))")
                throw Exit.io
            }
            if lstat(shown, &info) == 0 {
                // A link to nothing, or a loop of links: neither a file to replace nor a
                // name to create, and replacing the link would lose where it pointed.
                complain("\(shown): is a symbolic link to a missing file (or a loop of links); the output must be a regular file, or nothing")
                throw Exit.io
            }
            // Nothing there.
            return Rewrite(shown: shown, path: shown, partial: FileIO.sibling(of: shown, suffix: temporarySuffix(suffix)), inPlace: false, replaces: false)
        }
        if let why = reasonNotRegular(info.st_mode) {
            complain("\(shown): \(why); the output must be a regular file")
            throw Exit.io
        }
        let path = resolved(shown) ?? shown
        return Rewrite(shown: shown, path: path, partial: FileIO.sibling(of: path, suffix: temporarySuffix(suffix)), inPlace: false, replaces: true)
    }

    /// A torn tail of LOG (`tail`, nil when there is none): refused in place, exiting with
    /// `refusal`, since `command` ("upgrade", `doing` "upgrading") would drop its bytes
    /// for good and `verify --repair` keeps them; noted with `-o`, followed by `rest`.
    func checkTornTail(_ tail: LogProblem?, of log: String, command: String, doing: String, refusal: ExitCode,
                       _ rest: String) throws {
        guard let tail else { return }
        guard !inPlace else {
            complain("\(log): torn tail at byte offset \(tail.offset) (\(tail.reason)), which \(doing) in place would drop; run `selectlog verify --repair \(log.shellWord)` first (it keeps the cut bytes in a file), or \(command) with -o OUTPUT")
            throw refusal
        }
        ReadFailure.noteTornTail(tail, of: log, rest)
    }

    /// Removes the temporary file if the command is interrupted (SIGINT, SIGTERM, SIGHUP)
    /// before `commit()` or `discard()`: a long upgrade stopped with Ctrl-C leaves nothing
    /// beside its output. Call before creating it.
    func removeIfInterrupted() {
        TemporaryFiles.add(partial)
    }

    /// Puts the finished temporary file in place; exits 74 on failure, removing it, or
    /// (`keepingOnFailure`: a recording that may not be made again, from a pipe) keeping
    /// it and saying where it is.
    func commit(keepingOnFailure: Bool = false) throws {
        defer { TemporaryFiles.forget(partial) }
        func fail(_ what: String) throws -> Never {
            let reason = systemReason()
            if keepingOnFailure {
                complain("\(shown): cannot replace it: \(what) failed: \(reason); \(shown) is unchanged, and the new log is kept as \(partial)")
            } else {
                discard()
                complain("\(shown): cannot replace it: \(what) failed: \(reason)")
            }
            throw Exit.io
        }
        let fd = open(partial, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { try fail("open") }
        let synced = FileIO.syncToStorage(fd) == 0
        // The replaced file's permissions (and, where allowed, its owner) carry over.
        if synced, replaces { carryOwnerAndMode(of: path, to: fd) }
        close(fd)
        guard synced else { try fail(FileIO.syncCall) }
        guard rename(partial, path) == 0 else { try fail("rename") }
        // The new entry made durable where the file system allows; the log is in place either way.
        try? FileIO.syncDirectory(of: path)
    }

    /// Removes the temporary file; for an `error` saying something was already at its
    /// name (the command did not create it), leaves that alone.
    func discard(after error: LogError? = nil) {
        if error?.code == .alreadyExists, error?.path == partial {
            TemporaryFiles.forget(partial)
        } else {
            TemporaryFiles.delete(partial)
        }
    }

    /// Says on stderr what `error` says of the new copy (`copy`: "compacted",
    /// "upgraded"), not damage in `log`, so with no repair hint: that it could not be made
    /// at all (a directory this user cannot write), or what failed in it. False, and
    /// nothing said, when `error` is not about the copy.
    func complainAboutCopy(_ error: LogError, of log: String, copy: String) -> Bool {
        guard error.path == partial else { return false }
        let unchanged = inPlace ? "; \(log) is unchanged" : ""
        if error.message.hasPrefix("open failed") {
            complain("\(shown): cannot create the \(copy) copy beside it: \(error.message)\(unchanged)")
        } else {
            complain(inPlace ? "\(naming(error)) (in the \(copy) copy, now removed\(unchanged))" : "\(naming(error))")
        }
        return true
    }

    /// `error`, an error about the temporary file, as an error about the output.
    func naming(_ error: LogError) -> LogError {
        var error = error
        if error.path == partial { error.path = shown }
        // A recorder's later error quotes its first one, path and all.
        error.message = error.message.replacing(partial, with: shown)
        return error
    }

    /// The temporary file's suffix: `suffix`, the process and 32 random bits, so that
    /// nobody can plant a link at its name beforehand (it is created with `O_EXCL`
    /// besides, which refuses anything already there).
    static func temporarySuffix(_ suffix: String) -> String {
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        return ".\(suffix)-\(getpid())-\(String(repeating: "0", count: 8 - random.count))\(random)"
    }

    /// `path` with every symbolic link resolved, absolute; nil when it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard path != "-", let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    private static func reasonNotRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "is a directory"
        case S_IFIFO, S_IFSOCK: "is a pipe"
        case S_IFCHR, S_IFBLK: "is a device"
        default: "is not a regular file"
        }
    }
}
