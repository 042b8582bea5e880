import Foundation
import Testing
@testable import SelectLogStore

/// Runs the built `selectlog` binary.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root, for the examples.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `selectlog` executable beside the test binary.
    static let executable: URL = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("selectlog")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/selectlog")
    }()

    /// Writes a synthetic log long enough that a command reading or rewriting it is still
    /// at work when a test polling for a sign of that work acts, even when the test's
    /// thread is descheduled for hundreds of milliseconds on a loaded machine: half a
    /// million events in a release build (half a second to a second of work), a tenth of
    /// that in a debug build, which is slower and would take minutes to write them all.
    static func synthesizeLongLog(at path: String) throws {
        #if DEBUG
        let events = 50_000
        #else
        let events = 500_000
        #endif
        let synthesized = try run(["synthesize", "--events", "\(events)", "--durability", "none", "-o", path])
        try #require(synthesized.status == 0, "\(synthesized.stderr)")
    }

    /// Polls `sign` every `interval` µs while `process` runs, for at most 30 s (a loaded
    /// machine can take seconds to start it). `seen`: the sign appeared. `stuck`: the
    /// process still runs without it at the deadline, and has been killed; neither: it
    /// ended first.
    static func watch(_ process: Process, every interval: UInt32, for sign: () throws -> Bool) rethrows -> (seen: Bool, stuck: Bool) {
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning && ContinuousClock.now < deadline {
            if try sign() { return (true, false) }
            usleep(interval)
        }
        guard process.isRunning else { return (false, false) }
        kill(process.processIdentifier, SIGKILL)
        return (false, true)
    }

    static func run(_ arguments: [String], in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? root
        return try collect(process)
    }

    /// Runs a prepared `process` to its end with its standard output and error captured.
    static func collect(_ process: Process) throws -> Result {
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("selectlog-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A 3,000-event log at `old.slog` in `dir` whose header names another behaviour
    /// fingerprint (a build whose fingerprint corpus differed) while its states are this
    /// build's: `check` finds the same behaviour.
    static func logWithOtherFingerprint(in dir: URL) throws -> String {
        let log = dir.appendingPathComponent("old.slog").path
        #expect(try run(["synthesize", "--events", "3000", "-o", log, "--checkpoint-interval", "256", "--durability", "none"]).status == 0)
        var header = try LogReader(path: log).header
        header.behaviour = ~(header.behaviour ?? 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try handle.write(contentsOf: header.encoded())
        try handle.close()
        return log
    }

    /// Runs `selectlog` with `input` on standard input (through a pipe; none: the null
    /// device) and extra environment.
    static func run(_ arguments: [String], stdin input: [UInt8]?, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = root
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        try process.run()
        if let input {
            // Not waited for: the child may not read it all (it can stop at an error).
            feed(inPipe.fileHandleForWriting, Data(input), closing: true, waiting: false)
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    static func write(_ text: String, to name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Writes `data` to a child's standard input (closing it after, when `closing`) from
    /// a thread of its own that blocks SIGPIPE: a child that ends before it reads all of
    /// it cannot end the test process, and no signal's disposition changes for the
    /// process (an ignored SIGPIPE would be inherited by every child spawned after). The
    /// signal is directed at that thread, and dropped when it ends. Waits until the
    /// bytes are written, or the pipe closed, unless not `waiting`.
    static func feed(_ handle: FileHandle, _ data: Data, closing: Bool = false, waiting: Bool = true) {
        let written = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var pipe = sigset_t()
            sigemptyset(&pipe)
            sigaddset(&pipe, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipe, nil)
            try? handle.write(contentsOf: data)
            if closing { try? handle.close() }
            written.signal()
        }
        if waiting { written.wait() }
    }

    /// Runs `selectlog` with `arguments` on a standard input that gets `input` and stays
    /// open (as `tail -f` keeps it), for up to `seconds`: whether the command answered (it
    /// ended while its input was still open), and what it printed (a command still running
    /// then is terminated). For short outputs: they are read once it has ended.
    static func runOnOpenInput(_ arguments: [String], input: Data, seconds: Double = 60) throws -> (answered: Bool, result: Result) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = root
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if !input.isEmpty { feed(stdin.fileHandleForWriting, input) }
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let answered = !process.isRunning
        if !answered { process.terminate() }
        try? stdin.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (answered, Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                 stderr: String(decoding: stderr, as: UTF8.self)))
    }
}
