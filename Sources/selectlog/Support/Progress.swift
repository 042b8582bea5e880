#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress on stderr for long scans: shown only on a terminal, and only once a scan
/// has run for more than a second.
final class Progress {
    private let label: String
    private let total: Int
    private let started = ContinuousClock.now
    private var lastShown = ContinuousClock.now
    private var shown = false
    private let enabled = isatty(2) != 0

    init(_ label: String, total: Int) {
        self.label = label
        self.total = max(total, 1)
    }

    /// Shows `done` of the total; with a `note`, `done` is what is left and the note says where the work is.
    func update(_ done: Int, note: String? = nil) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - started > .seconds(1), now - lastShown > .milliseconds(200) else { return }
        lastShown = now
        shown = true
        if let note {
            FileHandleWriter.writeStderr("\r\u{1B}[K\(label): \(done) of \(total) events left (\(note))")
            return
        }
        let percent = min(100, done * 100 / total)
        FileHandleWriter.writeStderr("\r\(label): \(percent)% (\(done) of \(total) events)")
    }

    func finish() {
        if shown { FileHandleWriter.writeStderr("\r\u{1B}[K") }
    }
}
