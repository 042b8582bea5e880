import Foundation
@testable import SelectLog
import SelectLogStore
import Testing

/// Findings of the 2026-12-05 afternoon audit of `inspect`, `view`, `check`, `compact`,
/// `upgrade` and `verify --repair` against damaged, forged and unusual logs.
@Suite("Reading commands against unusual logs (the 2026-12-05 afternoon audit)")
struct ReadAuditTests {
    /// A log of the debugging example whose file header says the format version after
    /// this build's newest, with its checksum fixed: what a newer selectlog writes.
    func newerLog(in dir: URL) throws -> (path: String, bytes: Data) {
        let path = dir.appendingPathComponent("newer.slog").path
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", path]).status == 0)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[8] = UInt8(LogFormat.newestVersion + 1)
        let sum = CRC32C.checksum(Array(bytes[0..<36]), salt: 0)
        for k in 0..<4 { bytes[36 + k] = UInt8(truncatingIfNeeded: sum >> (8 * k)) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, Data(bytes))
    }

    @Test("a newer selectlog's log is not called damaged by verify, exits 65, and --repair cuts nothing")
    func newerLogIsNotDamaged() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, bytes) = try newerLog(in: dir)
        for arguments in [["verify", path], ["verify", "--deep", path], ["verify", "--repair", path]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 65, "\(arguments): \(r.stdout)\(r.stderr)")
            #expect(r.stdout.contains("cannot be checked past byte offset 8: format version \(LogFormat.newestVersion + 1) is not supported: written by a newer selectlog"),
                    "\(arguments): \(r.stdout)")
            #expect(!r.stdout.contains("damaged") && !r.stderr.contains("damaged"), "\(arguments): \(r.stdout)\(r.stderr)")
            #expect(r.stderr.contains("check it with a newer selectlog"), "\(arguments): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(left == ["newer.slog"], "a repair saved or cut something: \(left)")
    }

    @Test("compact refuses a log this build replays differently (exit 65, nothing written, check and upgrade named); upgrade still re-records it")
    func compactKeepsProvenance() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let other = dir.appendingPathComponent("other.slog").path
        try LogCommandTests.writeOtherEngineLog(other)
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        let out = dir.appendingPathComponent("c.slog").path
        for arguments in [["compact", other, "-o", out], ["compact", other]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 65, "\(arguments): \(r.stdout)\(r.stderr)")
            #expect(r.stderr.contains("this build replays it differently from the build that recorded it"), "\(r.stderr)")
            #expect(r.stderr.contains("`selectlog check \(other)`") && r.stderr.contains("`selectlog upgrade \(other)`"), "\(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try CLI.run(["check", other]).status == 1)
        // What compact refuses, upgrade does on purpose; then compact has nothing to refuse.
        #expect(try CLI.run(["upgrade", other]).status == 0)
        #expect(try CLI.run(["compact", other, "-o", out]).status == 0)
        #expect(try CLI.run(["check", out]).status == 0)
    }

    @Test("inspect: a range that starts past the end says how many events the log has; a negative row gets the option's own message; an overflowing end says so")
    func inspectArguments() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["record", "Examples/debugging-session.jsonl", "-o", log]).status == 0)
        let count = try LogReader(path: log).eventCount
        for option in ["--events", "--diff"] {
            let r = try CLI.run(["inspect", log, option, "\(count + 1).."])
            #expect(r.status == 64 && r.stderr.contains("\(option) \(count + 1)..: \(log) has only \(count) events"), "\(r.stderr)")
        }
        let big = try CLI.run(["inspect", log, "--events", "0..99999999999999999999"])
        #expect(big.status == 64 && big.stderr.contains("(a number past 9223372036854775807)"), "\(big.stderr)")
        for (option, value) in [("--why", "-1,0"), ("--history", "-1:0")] {
            let r = try CLI.run(["inspect", log, option, value])
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.contains("\(option) takes a row as S,R") && r.stderr.contains("not \"\(value)\""), "\(r.stderr)")
            #expect(!r.stderr.contains("Missing value"), "\(r.stderr)")
        }
    }

    @Test("a script given to upgrade is invalid input (65, as compact says), and readers name no intact events in a file that is no log or a newer one's")
    func notALogEverywhere() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.slog").path
        for command in ["upgrade", "compact"] {
            let r = try CLI.run([command, "Examples/editor-row.jsonl", "-o", out])
            #expect(r.status == 65, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("not a selectlog log (bad magic)") && !r.stderr.contains("intact events"), "\(command): \(r.stderr)")
        }
        let (newer, _) = try newerLog(in: dir)
        for command in ["replay", "inspect", "export", "check"] {
            let r = try CLI.run([command, newer])
            #expect(r.status == 65, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("written by a newer selectlog") && !r.stderr.contains("intact events"), "\(command): \(r.stderr)")
        }
        let json = try CLI.run(["check", newer, "--json"])
        #expect(json.stdout.contains(#""kind": "unsupported""#), "\(json.stdout)")
        #expect { try LogReader(path: newer) } throws: { ($0 as? LogError)?.code == .unsupported }
    }
}
