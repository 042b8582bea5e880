// `stdout`, a C global, is used here only, on the main thread.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// The process as every command expects it, set up before anything is opened, and the
/// check that its output reached standard output.
enum StandardStreams {
    /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed: a file a
    /// command opens takes the lowest free number, and a log given number 1 would get
    /// the command's output written into it (`selectlog synthesize … >&-`), one given
    /// number 2 its error messages. Ignores SIGXFSZ, so that a file size limit
    /// (`ulimit -f`) is a write error the command reports (EFBIG), not a signal that ends
    /// it without a word and leaves its temporary files. Installs `TemporaryFiles`'
    /// handlers.
    static func prepare() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != fd {
                _ = dup2(opened, fd)
                close(opened)
            }
        }
        signal(SIGXFSZ, SIG_IGN)
        TemporaryFiles.installHandlers()
    }

    /// Keeps the width ArgumentParser wraps help to within what its wrapping takes. It
    /// wraps an option's help at the width less a 26-column label: at 26 columns or fewer
    /// a debug build traps (an `assertionFailure`) and a release build drops the help
    /// text, and `COLUMNS=-9223372036854775808` overflows the subtraction (a trap in
    /// every build). It reads `COLUMNS`, else the terminal's width: one outside
    /// 40...1000 is set in `COLUMNS` to the nearer end, which ArgumentParser then reads.
    static func boundHelpWidth() {
        var width = getenv("COLUMNS").flatMap { Int(String(cString: $0)) }
        if width == nil {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { width = Int(size.ws_col) }
        }
        guard let width, !(40...1000).contains(width) else { return }
        setenv("COLUMNS", String(min(max(width, 40), 1000)), 1)
    }

    /// Fails the command (exit 74) when its output did not all reach standard output
    /// (`> /dev/full`, a full disk, a file size limit, a pipe closed early with SIGPIPE
    /// ignored), which would otherwise end in 0 with the output cut short.
    static func finish() {
        flushPrinted()
    }

    /// Writes what `print` has buffered; a failed write, now or earlier, ends the command.
    static func flushPrinted() {
        while fflush(stdout) != 0 {
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { failedWrite() }
            // A non-blocking standard output (shared with another program): wait, then
            // write the rest (stdio keeps what it could not write).
            clearerr(stdout)
            waitUntilWritable()
        }
        if ferror(stdout) != 0 { failedWrite(reason: "a write failed") }
    }

    /// Waits until standard output can take more bytes.
    static func waitUntilWritable() {
        var entry = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
        _ = poll(&entry, 1, -1)
    }

    /// Says that standard output cannot be written (`reason`, by default the system's
    /// for the call that just failed), removes the temporary files and ends the process
    /// (74): the rest of a listing would go nowhere.
    static func failedWrite(reason: String = systemReason()) -> Never {
        complain("cannot write standard output: \(reason)")
        TemporaryFiles.removeAll()
        exit(Exit.io.rawValue)
    }
}
