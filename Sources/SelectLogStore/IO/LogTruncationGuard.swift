#if canImport(Glibc)
import Glibc
import Synchronization
#endif

/// Reading a log that another process cuts shorter while this one reads it.
///
/// Readers map a log into memory. When another process truncates the file (a
/// `selectlog verify --repair`, a recorder reopening the log and dropping its torn
/// tail, a `truncate`), the mapped pages past the new end are gone, and the next read
/// of one raises SIGBUS, which ends the process. `install()` sets a SIGBUS handler
/// that, for a fault inside a log's mapping, maps zeros over the rest of that mapping
/// and lets the read go on: it finds records that fail their checks and throws a
/// `LogError` (`.damaged`) at the first of them, as for any damage, saying what
/// happened (below).
///
/// A fault anywhere else goes on to the handler installed before (the Swift runtime's
/// backtracer, a crash reporter) or to the default action, as without the guard. The
/// handler is process-wide, so the library does not install it unasked: the
/// `selectlog` command does at start, and an app that reads logs another process may
/// truncate can call `install()` once. It is implemented for Linux; elsewhere
/// `install()` does nothing and `isAvailable` is false.
///
/// A reader that finds its log cut says so in its error (`the file was truncated by
/// another process while it was read (it is now N bytes); read it again`), at open and
/// when its records are checked: a cut inside the mapping's last page faults nowhere
/// (the bytes past the new end read as zeros), so it compares the file's size too.
///
/// ```swift
/// LogTruncationGuard.install()
/// let state = try LogReader(path: path).state(at: 1_000)
/// ```
public enum LogTruncationGuard {
    /// Whether `install()` guards reads on this platform.
    public static var isAvailable: Bool {
        #if canImport(Glibc)
        true
        #else
        false
        #endif
    }

    /// Installs the SIGBUS handler, once per process; later calls do nothing. Only logs
    /// opened after it are guarded, and at most 1,024 mappings at once (a log opened
    /// while that many are open is read unguarded).
    public static func install() {
        #if canImport(Glibc)
        Self.installOnce()
        #endif
    }

    /// How many times a read of a mapped log found its pages gone (the file truncated
    /// under it) since the process started: 0 unless the guard is installed. One fault
    /// answers for the rest of its mapping. The count is the whole process's: compare it
    /// before and after a read to tell whether that read met a cut.
    public static var faults: Int {
        #if canImport(Glibc)
        truncationFaults.load(ordering: .relaxed)
        #else
        0
        #endif
    }

    /// Faults since the last `answerFaultsSoFar()`: reads that met a cut which no later
    /// read has answered for.
    package static var unansweredFaults: Int {
        #if canImport(Glibc)
        truncationFaults.load(ordering: .relaxed) - answeredFaults.load(ordering: .relaxed)
        #else
        0
        #endif
    }

    /// Says that the faults so far are answered for: the log is about to be read again,
    /// whole, where nothing can cut it (`verify --repair`, holding it as its writer), so
    /// what an earlier read met no longer stands behind an answer.
    package static func answerFaultsSoFar() {
        #if canImport(Glibc)
        answeredFaults.store(truncationFaults.load(ordering: .relaxed), ordering: .relaxed)
        #endif
    }

    /// What a read says when its log was cut shorter under it, with the file's size now
    /// when it is known. The `selectlog` command says the same when such a read fails
    /// with another error.
    package static func message(size: Int?) -> String {
        let now = size.map { " (it is now \($0) \($0 == 1 ? "byte" : "bytes"))" } ?? ""
        return "\(cutReason)\(now); read it again"
    }

    /// How `message(size:)` starts.
    package static let cutReason = "the file was truncated by another process while it was read"


    #if canImport(Glibc)
    /// How many mappings the guard can watch at once; a mapping opened while all are
    /// watched is read unguarded.
    static let capacity = 1_024

    private static func installOnce() {
        installation.withLock { installed in
            guard !installed else { return }
            // Every global the handler reads is initialized here, before it can run.
            _ = truncationFaults.load(ordering: .relaxed)
            _ = watched.regions
            pageMask.store(UInt(sysconf(Int32(_SC_PAGESIZE))) &- 1, ordering: .relaxed)
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, info, context in
                LogTruncationGuard.handle(signal, info, context)
            }
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            sigemptyset(&action.sa_mask)
            guard sigaction(SIGBUS, &action, watched.previous) == 0 else { return }
            installed = true
        }
    }

    /// Watches the mapping `base..<base + count`; returns its slot for `unwatch`, or nil
    /// when the guard is not installed or every slot is taken.
    static func watch(_ base: UnsafeRawPointer, count: Int) -> Int? {
        guard installation.withLock({ $0 }) else { return nil }
        let start = UInt(bitPattern: base)
        let regions = watched.regions
        for slot in 0..<capacity {
            if regions[2 &* slot].compareExchange(expected: 0, desired: start, ordering: .acquiringAndReleasing).exchanged {
                watched.cut[slot].store(false, ordering: .relaxed)
                regions[2 &* slot &+ 1].store(start &+ UInt(count), ordering: .releasing)
                return slot
            }
        }
        return nil
    }

    /// Stops watching the mapping in `slot`, before it is unmapped (so that a mapping
    /// that reuses its addresses is not taken for it).
    static func unwatch(_ slot: Int) {
        let regions = watched.regions
        regions[2 &* slot &+ 1].store(0, ordering: .releasing)
        watched.cut[slot].store(false, ordering: .relaxed)
        regions[2 &* slot].store(0, ordering: .releasing)
    }

    /// Whether a read of the mapping in `slot` found its pages gone. Zeros stand in for
    /// them, which a walk of the records can take for a torn tail that a writer left
    /// (zero bytes to the end), so a reader checks this before it trusts what it read.
    static func wasCut(_ slot: Int) -> Bool {
        watched.cut[slot].load(ordering: .acquiring)
    }

    /// Whether a watched mapping holds `address` (for tests).
    static func watches(_ address: UnsafeRawPointer) -> Bool {
        let at = UInt(bitPattern: address), regions = watched.regions
        return (0..<capacity).contains { slot in
            let start = regions[2 &* slot].load(ordering: .acquiring)
            return start != 0 && at >= start && at < regions[2 &* slot &+ 1].load(ordering: .acquiring)
        }
    }

    /// The handler. It reads atomics (and the globals that hold them, initialized before
    /// it was installed: `swift_once` takes its lock-free path) and makes one system call
    /// (`mmap`, a plain system call on Linux); it neither allocates nor locks, so it is
    /// safe to run in a signal handler. Only a fault at an address with no page behind
    /// it (`BUS_ADRERR`, what reading past the end of a mapped file raises) is taken; a
    /// SIGBUS sent by `kill` or a hardware memory error goes on as before.
    private static func handle(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?,
                               _ context: UnsafeMutableRawPointer?) {
        if let info, info.pointee.si_code == BUS_ADRERR, let address = info.pointee._sifields._sigfault.si_addr {
            let at = UInt(bitPattern: address)
            let regions = watched.regions
            for slot in 0..<capacity {
                let start = regions[2 &* slot].load(ordering: .acquiring)
                guard start != 0, at >= start else { continue }
                let end = regions[2 &* slot &+ 1].load(ordering: .acquiring)
                // The start read again: a slot given up and taken by another mapping
                // between the two loads would pair one mapping's start with the other's
                // end, and the zeros would go over memory neither holds.
                guard at < end, regions[2 &* slot].load(ordering: .acquiring) == start else { continue }
                // Zeros from the faulting page to the mapping's end: what follows the
                // cut is gone too, and one fault answers for all of it.
                let page = at & ~pageMask.load(ordering: .relaxed)
                let zeros = mmap(UnsafeMutableRawPointer(bitPattern: page), Int(end &- page), PROT_READ,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
                if zeros != MAP_FAILED {
                    watched.cut[slot].store(true, ordering: .releasing)
                    truncationFaults.wrappingAdd(1, ordering: .relaxed)
                    return
                }
                break
            }
        }
        forward(signal, info, context)
    }

    /// A SIGBUS that is not a watched log's, to whoever handled it before: its handler,
    /// or the default action (a crash with a core dump). (The previous handler's own
    /// mask and `SA_RESETHAND` are not applied.)
    private static func forward(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?,
                                _ context: UnsafeMutableRawPointer?) {
        let previous = watched.previous.pointee
        // SIG_DFL is 0 and SIG_IGN 1, in either member of the union.
        if previous.sa_flags & SA_SIGINFO != 0 {
            if let handler = previous.__sigaction_handler.sa_sigaction, unsafeBitCast(handler, to: Int.self) > 1 {
                handler(signal, info, context)
                return
            }
        } else if let handler = previous.__sigaction_handler.sa_handler, unsafeBitCast(handler, to: Int.self) > 1 {
            handler(signal)
            return
        }
        // SIG_DFL, or SIG_IGN, which a fault cannot be: the default action, by raising
        // the signal again (pending until this returns), so that a signal sent by `kill`,
        // which no instruction raises again, is not lost.
        var fallback = sigaction()
        sigemptyset(&fallback.sa_mask)
        _ = sigaction(SIGBUS, &fallback, nil)
        _ = raise(signal)
    }
    #endif
}

#if canImport(Glibc)
/// Whether the handler is installed.
private let installation = Mutex(false)
/// `LogTruncationGuard.faults`.
private let truncationFaults = Atomic<Int>(0)
/// `LogTruncationGuard.faults` as of the last `answerFaultsSoFar()`.
private let answeredFaults = Atomic<Int>(0)
/// The page size less one.
private let pageMask = Atomic<UInt>(0)

/// The watched mappings (start and end address, 0 for a free slot, and whether one was
/// cut under a read) and the SIGBUS action before the guard's, at addresses that never change.
private struct Watched: @unchecked Sendable {
    // @unchecked: allocated once and never freed; `regions` is read and written only
    // through its atomics, `previous` written once under `installation`, before the
    // handler that reads it is installed.
    let regions: UnsafeMutablePointer<Atomic<UInt>>
    /// Whether a fault in the slot's mapping was answered with zeros.
    let cut: UnsafeMutablePointer<Atomic<Bool>>
    let previous: UnsafeMutablePointer<sigaction>

    init() {
        regions = .allocate(capacity: 2 * LogTruncationGuard.capacity)
        for i in 0..<(2 * LogTruncationGuard.capacity) { (regions + i).initialize(to: Atomic(0)) }
        cut = .allocate(capacity: LogTruncationGuard.capacity)
        for i in 0..<LogTruncationGuard.capacity { (cut + i).initialize(to: Atomic(false)) }
        previous = .allocate(capacity: 1)
        previous.initialize(to: sigaction())
    }
}

private let watched = Watched()
#endif
