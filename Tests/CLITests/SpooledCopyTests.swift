import Foundation
import SelectLog
import Testing

/// A log read from a pipe is copied to a temporary file for the reader (`SpooledCopy`):
/// nothing of it may outlive the command (`HostileEnvironmentTests.interruptedSpool`
/// kills one while it copies), and its name is never what a message shows.
@Suite("piped logs' temporary copies")
struct SpooledCopyTests {
    /// A synthesized log's bytes, and the path it was written to.
    func log(events: Int, in dir: URL) throws -> (path: String, bytes: [UInt8]) {
        let path = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", String(events), "--seed", "3", "-o", path]).status == 0)
        return (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test("a piped log is read as the file is by every command that takes one, and leaves TMPDIR empty")
    func pipedLogsAnswerAsFiles() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, bytes) = try log(events: 3_000, in: dir)
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: false)
        for command in [["replay", "--json"], ["replay", "--at", "1000", "--json"], ["verify", "--json"], ["check", "--json"],
                        ["inspect", "--why", "0,2", "--json"], ["export", "--from", "10", "--to", "20"]] {
            let fromFile = try CLI.run([command[0], path] + command.dropFirst())
            let fromPipe = try CLI.run([command[0], "-"] + command.dropFirst(), stdin: bytes, environment: ["TMPDIR": tmp.path])
            #expect(fromFile.status == 0 && fromPipe.status == 0, "\(command): \(fromFile.stderr) \(fromPipe.stderr)")
            // The output names the input as given: the log's path, or -.
            let named = fromFile.stdout.replacingOccurrences(of: JSONText.quote(path), with: "\"-\"").replacingOccurrences(of: path, with: "-")
            #expect(fromPipe.stdout == named, "\(command)")
        }
        for command in ["compact", "upgrade"] {
            let out = dir.appendingPathComponent("\(command).slog").path
            let r = try CLI.run([command, "-", "-o", out], stdin: bytes, environment: ["TMPDIR": tmp.path])
            #expect(r.status == 0, "\(command): \(r.stderr)")
            #expect(try CLI.run(["replay", out, "--json"]).stdout == CLI.run(["replay", path, "--json"]).stdout, "\(command)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
    }

    @Test("a damaged piped log's messages name the input, never its copy")
    func damagedPipedLog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var (_, bytes) = try log(events: 3_000, in: dir)
        bytes[bytes.count / 2] ^= 0x5A
        let tmp = dir.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: false)
        for command in [["verify"], ["verify", "--json"], ["check"], ["check", "--json"], ["replay", "--from-start"],
                        ["inspect", "--events", "0..2999"], ["export"], ["compact", "-o", dir.appendingPathComponent("c.slog").path]] {
            let r = try CLI.run([command[0], "-"] + command.dropFirst(), stdin: bytes, environment: ["TMPDIR": tmp.path])
            #expect(r.status != 0, "\(command)")
            #expect((r.stderr + r.stdout).contains("-: ") || r.stdout.contains("\"-\""), "\(command): \(r.stderr)")
            for hidden in ["/proc/self/fd", "selectlog-input-", tmp.path] {
                #expect(!r.stderr.contains(hidden) && !r.stdout.contains(hidden), "\(command): \(hidden) in \(r.stderr) \(r.stdout.prefix(400))")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == [])
    }
}
