import Foundation
import SelectLog
import SelectLogStore
import Testing

/// The notice that a log's behaviour fingerprint differs from this build's: said where it
/// is true, naming the log as the user named it, and not by the commands that report the
/// fingerprints themselves or use no checkpoint (found by an audit of trust across builds).
@Suite("The behaviour notice")
struct BehaviourNoticeTests {
    static let notice = "replaying from the start instead of using its checkpoints"

    @Test("verify --deep of another build's log says only that its checkpoints were not compared")
    func verifyDeep() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try CLI.logWithOtherFingerprint(in: dir)
        for arguments in [["verify", log, "--deep"], ["verify", log, "--deep", "--json"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(!r.stderr.contains(Self.notice), "\(arguments): \(r.stderr)")
            // A note, once on stderr (and in the JSON's notes).
            let note = "checkpoints and gesture fingerprints not compared with a replay"
            #expect(r.stderr.components(separatedBy: note).count == 2, "\(arguments): \(r.stderr)")
            if arguments.contains("--json") { #expect(r.stdout.contains(note), "\(r.stdout)") }
        }
    }

    @Test("compact of another build's log gives no notice (it checks the log itself); upgrade, which re-records it, does")
    func rewrites() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try CLI.logWithOtherFingerprint(in: dir)
        let compacted = try CLI.run(["compact", log, "-o", dir.appendingPathComponent("c.slog").path])
        #expect(compacted.status == 0 && !compacted.stderr.contains(Self.notice), "\(compacted.stderr)")
        let upgraded = try CLI.run(["upgrade", "-", "-o", dir.appendingPathComponent("u.slog").path],
                                   stdin: try Array(Data(contentsOf: URL(fileURLWithPath: log))))
        #expect(upgraded.status == 0 && upgraded.stderr.hasPrefix("selectlog: -: its behaviour fingerprint "), "\(upgraded.stderr)")
        #expect(upgraded.stderr.components(separatedBy: Self.notice).count == 2, "\(upgraded.stderr)")
        // A replay still gives it, once.
        let replayed = try CLI.run(["replay", log, "--at", "2000"])
        #expect(replayed.stderr.components(separatedBy: Self.notice).count == 2, "\(replayed.stderr)")
    }

    @Test("a log read from standard input is named - in the notice, not by the copy it was read from")
    func pipedName() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try CLI.logWithOtherFingerprint(in: dir)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: log)))
        for arguments in [["replay", "-", "--at", "10"], ["inspect", "-", "--at", "10"]] {
            let r = try CLI.run(arguments, stdin: bytes)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(r.stderr.hasPrefix("selectlog: -: its behaviour fingerprint "), "\(arguments): \(r.stderr)")
        }
    }
}
