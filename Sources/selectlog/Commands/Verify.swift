#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SelectLogStore

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a log: every header, checksum, batch and checkpoint.",
        discussion: """
            Exits 0 when the log is intact. Otherwise prints the first bad byte offset and the count
            of intact events, and exits 1. With --repair, cuts the log back to its intact prefix,
            saves the cut bytes beside it as LOG.cut-OFFSET (never deleting them), and exits 0.
            """)

    @Argument(help: "A selectlog log.")
    var log: String

    @Flag(help: "Cut the log back to its intact prefix; the cut bytes are kept beside it.")
    var repair = false

    func run() throws {
        let report: VerifyReport
        do {
            report = try LogReader.verify(path: log)
        } catch {
            complain("\(error)")
            throw Exit.io
        }
        guard let problem = report.problem else {
            print("\(log): intact: \(report.intactEvents) events in \(report.records) records, \(report.fileSize) bytes")
            return
        }
        let kind = problem.isTornTail ? "torn tail" : "damaged"
        print("\(log): \(kind) at byte offset \(problem.offset): \(problem.reason); \(report.intactEvents) intact events")
        guard repair else { throw Exit.damaged }
        guard report.intactBytes >= LogFormat.fileHeaderSize else {
            complain("\(log): cannot repair: the file header itself is damaged")
            throw Exit.damaged
        }
        let cut = try readFile(log)
        let cutPath = "\(log).cut-\(report.intactBytes)"
        let saved = Array(cut[report.intactBytes...])
        let out = open(cutPath, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard out >= 0 else {
            complain("\(cutPath): cannot create: \(String(cString: strerror(errno)))")
            throw Exit.io
        }
        let written = saved.withUnsafeBytes { write(out, $0.baseAddress, $0.count) }
        let synced = fsync(out) == 0
        close(out)
        guard written == saved.count, synced else {
            complain("\(cutPath): could not save the cut bytes; the log was not changed")
            throw Exit.io
        }
        guard truncate(log, off_t(report.intactBytes)) == 0 else {
            complain("\(log): cannot truncate: \(String(cString: strerror(errno)))")
            throw Exit.io
        }
        print("\(log): repaired: kept \(report.intactBytes) bytes (\(report.intactEvents) events); saved \(saved.count) cut bytes in \(cutPath)")
    }
}
