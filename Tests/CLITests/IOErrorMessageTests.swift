import Foundation
import Testing

/// An `io` error object's `message` is the reason alone, whichever check found it: the
/// object's `file` names the input (a CI review, 2026-12-07: some messages began with
/// the input's name and some did not).
@Suite("io error objects give the reason alone")
struct IOErrorMessageTests {
    @Test("a piped log with no TMPDIR to copy it to, and a missing file: the reason, without the name")
    func reasonAlone() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("s.slog").path
        #expect(try CLI.run(["synthesize", "--events", "200", "-o", log]).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: log)))
        for command in [["replay", "-", "--json"], ["check", "-", "--json"], ["inspect", "-", "--json"], ["verify", "-", "--json"]] {
            let r = try CLI.run(command, stdin: bytes, environment: ["TMPDIR": dir.appendingPathComponent("none").path])
            #expect(r.status == 74, "\(command): \(r.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let error = object?["error"] as? [String: Any]
            #expect(error?["kind"] as? String == "io", "\(command): \(r.stdout)")
            let message = error?["message"] as? String ?? ""
            #expect(message.hasPrefix("cannot create a temporary copy in "), "\(command): \(message)")
            // Stderr keeps the name, as every message there does.
            #expect(r.stderr.contains("selectlog: -: cannot create a temporary copy"), "\(command): \(r.stderr)")
        }
        // A script that `inspect` records to a temporary log: the directory is named, not
        // the temporary log's name, so that two runs say the same.
        let script = try CLI.write("{\"type\": \"tick\"}\n", to: "s.jsonl", in: dir)
        let none = dir.appendingPathComponent("none").path
        let runs = try (0..<2).map { _ in try CLI.run(["inspect", script, "--json"], stdin: nil, environment: ["TMPDIR": none]) }
        #expect(runs[0].status == 74 && runs[0].stdout == runs[1].stdout && runs[0].stderr == runs[1].stderr, "\(runs[0].stderr)")
        #expect(runs[0].stdout.contains("\"message\": \"cannot create a temporary log in \(none) (the script is recorded there to be read; set TMPDIR to a writable directory): No such file or directory\""),
                "\(runs[0].stdout)")
        let missing = try CLI.run(["replay", dir.appendingPathComponent("gone.slog").path, "--json"])
        #expect(missing.status == 74)
        #expect(missing.stdout.contains("\"message\": \"cannot open: No such file or directory\""), "\(missing.stdout)")
    }
}
