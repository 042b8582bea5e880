#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts the store's threads (a replay's decoders, `verify`'s checkers, a recorder's
/// writer) with `pthread_create`, which says when the system cannot start one.
///
/// `Foundation.Thread.start()` does not say: a thread it could not create (under an
/// address-space limit such as `ulimit -v`, or at a process's thread limit) never ran,
/// and a replay, a `verify` or a recorder waited for it forever. Callers of `start` go on
/// with the threads they got, work on their own thread instead, or fail with the reason.
enum WorkerThread {
    /// What a new thread runs, handed to it through `pthread_create`'s argument.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        let finished: (@Sendable () -> Void)?

        init(name: String, body: @escaping @Sendable () -> Void, finished: (@Sendable () -> Void)?) {
            self.name = name
            self.body = body
            self.finished = finished
        }
    }

    /// Each thread's stack: none of the store's threads recurses deeper than a height
    /// tree (about 60 levels), and 1 MiB reserves a few MB less address space per thread
    /// than Linux's default of 8 MiB (Apple platforms give a secondary thread 512 KiB).
    static let stackSize = 1 << 20

    /// The starts a test lets through before `start` fails as the system would, in the
    /// task that bound it (`allowingStarts`); nil: no limit.
    private final class Budget: Sendable {
        /// The starts left.
        private let lock = LockedBox(0)

        init(_ allowed: Int) { lock.withLockedValue { $0 = allowed } }

        /// Takes one start; false when none is left.
        func take() -> Bool {
            lock.withLockedValue { left in
                guard left > 0 else { return false }
                left -= 1
                return true
            }
        }
    }
    @TaskLocal private static var budget: Budget?

    /// Runs `body` on a new detached thread named `name` (Linux keeps 15 bytes: the
    /// store's are `selectlog.dec.N` for a replay's decoders, `selectlog.chk.N` for
    /// `verify`'s checkers and `selectlog.rec` for a recorder's writer). Returns 0, or the system's error number (`EAGAIN`, `ENOMEM`, …) when the
    /// thread could not be created; `body` then never runs, and is released.
    ///
    /// `finished` runs on the thread after `body` has returned and been released, with
    /// what it captured: a caller that waits for it knows the thread holds none of it (a
    /// reader, whose mapping would otherwise stay registered after the caller let it go).
    static func start(name: String, _ body: @escaping @Sendable () -> Void, finished: (@Sendable () -> Void)? = nil) -> Int32 {
        if let budget, !budget.take() { return EAGAIN }
        let argument = Unmanaged.passRetained(Start(name: name, body: body, finished: finished)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        _ = pthread_attr_setstacksize(&attributes, stackSize)
        #if canImport(Darwin)
        // The caller's quality of service: a recorder's writer keeps up with the thread
        // that appends (an app's main thread), and a replay's decoders with the caller.
        _ = pthread_attr_set_qos_class_np(&attributes, qos_class_self(), 0)
        #endif
        #if canImport(Darwin)
        var thread: pthread_t?
        let result = pthread_create(&thread, &attributes, { WorkerThread.run($0) }, argument)
        #else
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { WorkerThread.run($0) }, argument)
        #endif
        if result != 0 { Unmanaged<Start>.fromOpaque(argument).release() }
        return result
    }

    /// A thread started before its work is known, for a caller that must not change
    /// anything (a log) unless it has its thread: `run(_:)` hands it the work; a
    /// reservation released without work lets the thread end.
    final class Reservation: Sendable {
        enum Work: Sendable {
            case waiting
            case run(@Sendable () -> Void)
            case released
        }

        private let work: LockedBox<Work>

        fileprivate init(_ work: LockedBox<Work>) { self.work = work }

        /// Runs `body` on the reserved thread (once; a second call is ignored).
        func run(_ body: @escaping @Sendable () -> Void) {
            work.withLockedValue { w in
                if case .waiting = w { w = .run(body) }
            }
            work.wake()
        }

        deinit {
            work.withLockedValue { w in
                if case .waiting = w { w = .released }
            }
            work.wake()
        }
    }

    /// Starts a thread named `name` that waits for the work its reservation hands it;
    /// the system's error number when it could not be created.
    static func reserve(name: String) -> Result<Reservation, StartFailure> {
        let work = LockedBox(Reservation.Work.waiting)
        let result = start(name: name) {
            let next = work.withLockedValue(waitingFor: { w in
                if case .waiting = w { return false }
                return true
            }) { w, _ in w }
            if case .run(let body) = next { body() }
        }
        guard result == 0 else { return .failure(StartFailure(code: result)) }
        return .success(Reservation(work))
    }

    /// Why a thread did not start: the system's error number, and its sentence.
    struct StartFailure: Error, CustomStringConvertible {
        var code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    /// Runs `body` where `start`, called from this task, succeeds `allowed` times and then
    /// fails with `EAGAIN` (for tests: other tasks' threads are not touched).
    static func allowingStarts<R>(_ allowed: Int, _ body: () throws -> R) rethrows -> R {
        try $budget.withValue(Budget(allowed)) { try body() }
    }

    #if !canImport(Darwin)
    /// glibc's `pthread_setname_np`, which its Swift module leaves out (it is a GNU
    /// extension), looked up once; nil where the C library has none.
    private static let setName: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setname_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32).self)
    }()
    #endif

    /// The new thread's entry: names the thread, runs its body, lets the body go, then
    /// runs `finished`.
    private static func run(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let argument else { return nil }
        let finished = runBody(Unmanaged<Start>.fromOpaque(argument).takeRetainedValue())
        finished?()
        return nil
    }

    /// Names the thread and runs `start`'s body; returns its `finished`. `start` (and the
    /// body with it) is released on return.
    private static func runBody(_ start: Start) -> (@Sendable () -> Void)? {
        var name = Array(start.name.utf8.prefix(15))
        name.append(0)
        name.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { c in
                guard let name = c.baseAddress else { return }
                #if canImport(Darwin)
                _ = pthread_setname_np(name)
                #else
                _ = setName?(pthread_self(), name)
                #endif
            }
        }
        start.body()
        return start.finished
    }
}
