#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SelectLogStore

/// The temporary files a command has made and not yet renamed or removed: a rewrite's
/// new log, a log copied from a pipe, a script recorded into a log. They are removed
/// when the process dies of SIGINT, SIGTERM or SIGHUP, and before it ends on a failed
/// write to standard output (`OutputBuffer`), so neither leaves one behind.
///
/// The paths are C strings that the signal handler reads (`unlink` is
/// async-signal-safe). Commands register and remove them on the main thread.
enum TemporaryFiles {
    /// How many temporary files can be watched at once (a command makes at most two).
    static let capacity = 8
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()

    /// The signals that remove the files, those a parent had ignored left out (a
    /// background job keeps ignoring Ctrl-C).
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handlers, once, at the start of the process: each removes the files,
    /// then lets the signal end the process as it would have.
    static func installHandlers() {
        _ = slots
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in signals where !isIgnored(s) {
            signal(s) { received in
                TemporaryFiles.removeAll()
                signal(received, SIG_DFL)
                raise(received)
            }
            sigaddset(&unblock, s)
        }
        // Delivered even when the parent started this process with them blocked (a
        // thread of a Dispatch queue blocks them, and a child inherits its mask).
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Whether the parent left `s` ignored; asked without changing it, so that it is
    /// never unset for an instant.
    private static func isIgnored(_ s: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(s, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
        let handler = current.__sigaction_handler.sa_handler
        #else
        let handler = current.__sigaction_u.__sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Watches `path`, before the file is created (or right after `mkstemp` made it).
    static func add(_ path: String) {
        for i in 0..<capacity where slots[i] == nil {
            slots[i] = strdup(path)
            return
        }
    }

    /// Stops watching `path` (renamed into place, or removed). Its C string is not freed
    /// (a few bytes a file): a handler running on another thread may be reading it.
    static func forget(_ path: String) {
        for i in 0..<capacity {
            if let p = slots[i], strcmp(p, path) == 0 {
                slots[i] = nil
            }
        }
    }

    /// Watches, while `body` creates a log at `path`, the file the store stages its
    /// header in beside it (`Recorder.stagingPath(for:)`): a signal in those
    /// milliseconds removes it too.
    static func creatingLog<T, E: Error>(at path: String, _ body: () throws(E) -> T) throws(E) -> T {
        let staging = Recorder.stagingPath(for: path)
        add(staging)
        defer { forget(staging) }
        return try body()
    }

    /// Removes the file at `path` and stops watching it.
    static func delete(_ path: String) {
        unlink(path)
        forget(path)
    }

    /// Removes every watched file (from a signal handler too: it only calls `unlink`).
    static func removeAll() {
        for i in 0..<capacity {
            if let p = slots[i] { unlink(p) }
        }
    }
}
