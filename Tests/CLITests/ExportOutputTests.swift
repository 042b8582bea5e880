import Foundation
import Testing

/// `selectlog export -o FILE`: the script standard output gets, written to a file as the
/// other commands write theirs: an existing file replaced only with `--force`, never a
/// log or the input, and nothing written when the log cannot be read to the end.
@Suite("selectlog export -o")
struct ExportOutputTests {
    static let script = """
        {"type": "reload", "sections": [{"rows": 40}]}
        {"type": "tap", "x": 10, "y": 10}
        {"type": "panBegan", "x": 10, "y": 60, "t": 100}
        {"type": "panMoved", "x": 10, "y": 160, "t": 116}
        {"type": "panEnded", "x": 10, "y": 160, "t": 132}
        {"type": "tap", "x": 10, "y": 310}

        """

    /// A directory holding a log recorded from `script`, one event a batch.
    static func recorded() throws -> (dir: URL, log: String) {
        let dir = try CLI.temporaryDirectory()
        let source = try CLI.write(script, to: "s.jsonl", in: dir)
        let log = dir.appendingPathComponent("s.slog").path
        let r = try CLI.run(["record", source, "-o", log, "--batch-events", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        return (dir, log)
    }

    @Test("-o writes what standard output gets, the whole log or a slice", arguments: [[], ["--from", "4", "--to", "6"]])
    func sameAsStandardOutput(slice: [String]) throws {
        let (dir, log) = try Self.recorded()
        defer { try? FileManager.default.removeItem(at: dir) }
        let printed = try CLI.run(["export", log] + slice)
        #expect(printed.status == 0, "\(printed.stderr)")
        let out = dir.appendingPathComponent("out.jsonl").path
        let written = try CLI.run(["export", log, "-o", out] + slice)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.isEmpty)
        // The slice's note (it starts at the pan's first event, 3) is said either way.
        #expect(written.stderr == printed.stderr)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == printed.stdout)
        #expect(!printed.stdout.isEmpty)
        // `-o -` is standard output.
        let dash = try CLI.run(["export", log, "-o", "-"] + slice)
        #expect(dash.status == 0 && dash.stdout == printed.stdout)
    }

    @Test("an existing file is replaced only with --force; a log or the input never")
    func existingFiles() throws {
        let (dir, log) = try Self.recorded()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mine = try CLI.write("{\"type\": \"tap\", \"x\": 1, \"y\": 1}\n", to: "mine.jsonl", in: dir)
        let refused = try CLI.run(["export", log, "-o", mine])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("already exists; pass --force to replace it"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "{\"type\": \"tap\", \"x\": 1, \"y\": 1}\n")

        let forced = try CLI.run(["export", log, "-o", mine, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == CLI.run(["export", log]).stdout)

        // Another log at -o: a recording is never replaced by a script, --force or not.
        let other = dir.appendingPathComponent("other.slog").path
        #expect(try CLI.run(["record", mine, "-o", other]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        for force in [[], ["--force"]] {
            let r = try CLI.run(["export", log, "-o", other] + force)
            #expect(r.status == 64)
            #expect(r.stderr.contains("is a selectlog log"), "\(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        }

        // The input itself, a script or a log, under another name too.
        let link = dir.appendingPathComponent("again.jsonl").path
        try FileManager.default.linkItem(atPath: mine, toPath: link)
        let script = try String(contentsOfFile: mine, encoding: .utf8)
        for (input, output) in [(mine, mine), (mine, link), (log, log)] {
            let r = try CLI.run(["export", input, "-o", output, "--force"])
            #expect(r.status == 64)
            #expect(r.stderr.contains("is the input"), "\(r.stderr)")
        }
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == script)
    }

    @Test("a device or a FIFO at -o takes the script without --force, as every -o does")
    func devices() throws {
        let (dir, log) = try Self.recorded()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["export", log, "-o", "/dev/null"])
        #expect(r.status == 0 && r.stdout.isEmpty && r.stderr.isEmpty, "\(r.stderr)")
    }

    @Test("--force without -o is a usage error")
    func forceAlone() throws {
        let (dir, log) = try Self.recorded()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["export", log, "--force"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--force replaces the file at -o"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    /// Standard output keeps the events before the damage; -o writes the file whole or
    /// not at all, and says so.
    @Test("a log damaged part way: nothing is written to -o, and stderr says so")
    func damagedLog() throws {
        let (dir, log) = try Self.recorded()
        defer { try? FileManager.default.removeItem(at: dir) }
        let intact = try Data(contentsOf: URL(fileURLWithPath: log))
        let damaged = dir.appendingPathComponent("damaged.slog")
        let out = dir.appendingPathComponent("out.jsonl").path
        var found = false
        // A byte at a time, until one is damaged after some events were read.
        for offset in 64..<intact.count where !found {
            var bytes = intact
            bytes[offset] ^= 0x5A
            try bytes.write(to: damaged)
            let printed = try CLI.run(["export", damaged.path])
            guard printed.status == 65, !printed.stdout.isEmpty else { continue }
            found = true
            let r = try CLI.run(["export", damaged.path, "-o", out])
            #expect(r.status == 65, "byte \(offset): \(r.stderr)")
            #expect(r.stderr.contains("\(out): not written"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "no partial script at -o")
            // A file with another link is written in place, as a shell's > would: it holds
            // what standard output got, and stderr says it is left incomplete, nothing else
            // (a review found the last chunk lost and "not written" said of it).
            let linked = try CLI.write("old\n", to: "linked.jsonl", in: dir)
            try FileManager.default.linkItem(atPath: linked, toPath: dir.appendingPathComponent("other-link.jsonl").path)
            let inPlace = try CLI.run(["export", damaged.path, "-o", linked, "--force"])
            #expect(inPlace.status == 65)
            #expect(try String(contentsOfFile: linked, encoding: .utf8) == printed.stdout)
            #expect(inPlace.stderr.contains("left incomplete") && !inPlace.stderr.contains("not written"), "\(inPlace.stderr)")
        }
        #expect(found, "some damage is met after the first event")
    }
}
