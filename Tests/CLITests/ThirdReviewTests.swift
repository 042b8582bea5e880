import Foundation
import SelectLogStore
import Testing

/// Findings of the second review (2026-12-06) fixed later that day: a log whose magic
/// alone is damaged, and the reports' numbers past an hour and past 10^7 ms.
@Suite("The second review's findings, fixed later")
struct ThirdReviewTests {
    static let example = CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path

    /// A log of the bundled example in `dir`, and its bytes.
    private func log(in dir: URL, named name: String = "a.slog") throws -> (path: String, bytes: Data) {
        let path = dir.appendingPathComponent(name).path
        let made = try CLI.run(["record", Self.example, "-o", path])
        #expect(made.status == 0, "\(made.stderr)")
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func write(_ bytes: Data, to path: String) throws { try bytes.write(to: URL(fileURLWithPath: path)) }

    @Test("a log whose magic alone is damaged is named as one, and verify --repair writes the magic again: the log is whole again")
    func damagedMagicRepaired() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, original) = try log(in: dir)
        var damaged = original
        damaged[0] = UInt8(ascii: "X")
        try write(damaged, to: path)

        // A reading command says what it is and what repairs it, not "is it a log?".
        let replay = try CLI.run(["replay", path])
        #expect(replay.status == 65)
        #expect(replay.stderr.contains("magic") && replay.stderr.contains("verify --repair"), "\(replay.stderr)")
        // verify calls it damage at offset 0 and names the repair that helps.
        let verify = try CLI.run(["verify", path])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("damaged at byte offset 0") && verify.stdout.contains("magic"), "\(verify.stdout)")
        #expect(verify.stderr.contains("`selectlog verify --repair \(path)` writes its magic again"), "\(verify.stderr)")
        let check = try CLI.run(["check", path])
        #expect(check.status == 65)
        #expect(check.stderr.contains("verify --repair \(path)` to write its magic again"), "\(check.stderr)")

        let repair = try CLI.run(["verify", "--repair", path])
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        #expect(repair.stdout.contains("wrote its magic \"SELECTLG\" again over bytes 0-7, which read 58 45 4C 45 43 54 4C 47"), "\(repair.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(try CLI.run(["verify", path]).status == 0)
    }

    @Test("a damaged magic and damage further on: the repair writes the magic, then cuts back to the intact prefix")
    func damagedMagicAndRecord() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, original) = try log(in: dir)
        var damaged = original
        damaged[3] ^= 0x20
        damaged[damaged.count - 10] ^= 0x5A
        try write(damaged, to: path)
        let repair = try CLI.run(["verify", "--repair", path])
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        #expect(repair.stdout.contains("wrote its magic") && repair.stdout.contains("checked again, damaged at byte offset")
                && repair.stdout.contains("repaired: kept"), "\(repair.stdout)")
        let now = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(now.count < original.count && now == original.prefix(now.count))
        #expect(try CLI.run(["verify", path]).status == 0)
    }

    @Test("damage to the file header a repair cannot mend gets no hint to run the repair; bytes merely close to the magic are no log")
    func noUselessRepairHint() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, original) = try log(in: dir)
        var damaged = original
        damaged[0] = UInt8(ascii: "X")
        damaged[20] ^= 0x01  // the salt too: the header no longer checks out with the magic put back
        try write(damaged, to: path)
        let verify = try CLI.run(["verify", path])
        #expect(verify.status == 1)
        #expect(!verify.stderr.contains("--repair"), "\(verify.stderr)")
        let replay = try CLI.run(["replay", path])
        #expect(replay.status == 65)
        #expect(replay.stderr.contains("close to a log's magic") && !replay.stderr.contains("--repair"), "\(replay.stderr)")

        var header = original
        header[30] ^= 0x01  // inside the header (the fingerprint), the magic intact
        try write(header, to: path)
        let headerOnly = try CLI.run(["verify", path])
        #expect(headerOnly.status == 1)
        #expect(!headerOnly.stderr.contains("--repair"), "\(headerOnly.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == header)
    }

    @Test("a session longer than an hour is shown as h:mm:ss.mmm")
    func hours() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 5}], "t": 1000}
            {"type": "tap", "x": 10, "y": 10, "t": 14691580}

            """, to: "long.jsonl", in: dir)
        let log = dir.appendingPathComponent("long.slog").path
        #expect(try CLI.run(["record", script, "-o", log]).status == 0)
        for input in [script, log] {
            let r = try CLI.run(["inspect", input])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("(4:04:50.580)"), "\(r.stdout)")
        }
    }

    @Test("inspect --events keeps its time column aligned past 10^7 ms")
    func wideTimes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 5}], "t": 12345678.25}
            {"type": "tap", "x": 10, "y": 10, "t": 12345679}
            {"type": "tap", "x": 10, "y": 10, "t": 12345680.5}

            """, to: "wide.jsonl", in: dir)
        let r = try CLI.run(["inspect", script, "--events", "0..3"])
        #expect(r.status == 0, "\(r.stderr)")
        let columns = r.stdout.split(separator: "\n").map(String.init).compactMap { line in
            line.range(of: " ms  ").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        }
        #expect(columns.count == 3 && Set(columns).count == 1, "\(r.stdout)")
    }

    @Test("shrink -o - says it wrote standard output, not a file named -")
    func shrinkToStandardOutput() throws {
        let r = try CLI.run(["shrink", Self.example, "--expect", "selected contains [0, 6] and optionOpen == [0, 3]", "-o", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("wrote standard output") && !r.stderr.contains("wrote -"), "\(r.stderr)")
        #expect(r.stdout.hasPrefix("# shrunk by selectlog"))
    }

    @Test("--checkpoint-interval 0 writes a log without checkpoints, as Recorder.Options allows; every view replays from the start")
    func noCheckpoints() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("none.slog").path
        let made = try CLI.run(["synthesize", "--events", "20000", "-o", log, "--checkpoint-interval", "0"])
        #expect(made.status == 0, "\(made.stderr)")
        let summary = try CLI.run(["inspect", log])
        #expect(summary.stdout.contains("0 checkpoints (none asked for)"), "\(summary.stdout)")
        let at = try CLI.run(["replay", log, "--at", "15000", "--json"])
        let start = try CLI.run(["replay", log, "--at", "15000", "--json", "--from-start"])
        #expect(at.status == 0 && at.stdout == start.stdout && !at.stdout.isEmpty, "\(at.stderr)")
        #expect(try CLI.run(["verify", "--deep", log]).status == 0)
        let negative = try CLI.run(["record", Self.example, "-o", dir.appendingPathComponent("x.slog").path, "--checkpoint-interval", "-1"])
        #expect(negative.status == 64 && negative.stderr.contains("from 0 (no checkpoints)"), "\(negative.stderr)")
    }

    @Test("a compressed log or script is named as compressed, with the command that decompresses it",
          arguments: [("gzip", ".gz", "gunzip -k"), ("zstd", ".zst", "zstd -d")])
    func compressedInput(_ format: String, _ suffix: String, _ command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, _) = try log(in: dir)
        let script = try CLI.write(try String(contentsOfFile: Self.example, encoding: .utf8), to: "s.jsonl", in: dir)
        for file in [log, script] {
            let packed = file + suffix
            if format == "gzip" {
                // gzip is on every machine (Debian's is essential); the hint reads the magic alone.
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["gzip", "-k", "-f", file]
                #expect(try CLI.collect(process).status == 0)
            } else {
                try (Data([0x28, 0xB5, 0x2F, 0xFD]) + Data(contentsOf: URL(fileURLWithPath: file))).write(to: URL(fileURLWithPath: packed))
            }
            for arguments in [["replay", packed], ["verify", packed], ["check", packed], ["inspect", packed]] {
                let r = try CLI.run(arguments)
                #expect(r.status != 0, "\(arguments)")
                #expect(r.stderr.contains("\(packed) is \(format)-compressed: decompress it first: `\(command) \(packed)`"), "\(arguments): \(r.stderr)")
            }
            let piped = try CLI.runOnOpenInput(["replay", "-"], input: try Data(contentsOf: URL(fileURLWithPath: packed)))
            #expect(piped.result.stderr.contains("the input is \(format)-compressed: pipe it through `\(format) -dc` first"), "\(piped.result.stderr)")
        }
    }

    @Test("a file header alone (a recorder that never closed) is intact, with the note that the log was not closed; a closed empty log has no note")
    func headerAlone() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, bytes) = try log(in: dir)
        try write(bytes.prefix(40), to: path)
        let r = try CLI.run(["verify", path])
        #expect(r.status == 0 && r.stdout.contains("intact: 0 events in 0 records"), "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("no seek index at its end: the log was not closed"), "\(r.stderr)")
        let empty = dir.appendingPathComponent("empty.slog").path
        #expect(try CLI.run(["record", try CLI.write("", to: "empty.jsonl", in: dir), "-o", empty]).status == 0)
        let closed = try CLI.run(["verify", empty])
        #expect(closed.status == 0 && !closed.stderr.contains("no seek index"), "\(closed.stderr)")
    }

    @Test("a damaged seek index is named as the index, which readers pass over, not as any record's payload")
    func damagedIndexNamed() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, original) = try log(in: dir)
        var damaged = original
        damaged[damaged.count - 3] ^= 0x55  // inside the index, the last record
        try write(damaged, to: path)
        let r = try CLI.run(["verify", path])
        #expect(r.status == 1)
        #expect(r.stdout.contains(": seek index payload checksum mismatch (the index alone: readers pass it over and read every event from the records); 12 intact events"),
                "\(r.stdout)")
        #expect(try CLI.run(["replay", path]).status == 0)
    }

    @Test("one event is counted as one event, not 1 events, in --why, --diff and --at's refusal")
    func oneEvent() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("""
            {"type": "reload", "sections": [{"rows": 5}], "t": 1000}

            """, to: "one.jsonl", in: dir)
        let why = try CLI.run(["inspect", script, "--why", "0,1"])
        #expect(why.stdout.hasPrefix("row [0, 1] after 1 event is not selected"), "\(why.stdout)")
        let field = try CLI.run(["inspect", script, "--why", "optionOpen"])
        #expect(field.stdout.hasPrefix("optionOpen after 1 event is "), "\(field.stdout)")
        let diff = try CLI.run(["inspect", script, "--diff", "0..1"])
        #expect(diff.stdout.hasPrefix("after 0 events -> after 1 event: "), "\(diff.stdout)")
        let past = try CLI.run(["inspect", script, "--why", "0,1", "--at", "2"])
        #expect(past.status == 64 && past.stderr.contains("has only 1 event"), "\(past.stderr)")
    }

    @Test("a log whose magic was zeroed, or now begins as a script would, is a damaged log to every command, which verify does not call a script")
    func magicLikeAScript() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, original) = try log(in: dir)
        for first in [[UInt8](repeating: 0, count: 8), Array("{".utf8), Array("# ".utf8)] {
            var damaged = original
            damaged.replaceSubrange(0..<first.count, with: first)
            try write(damaged, to: path)
            for command in ["inspect", "replay", "export"] {
                let r = try CLI.run([command, path])
                #expect(r.status == 65, "\(command): \(r.stderr)")
                #expect(r.stderr.contains("a selectlog log whose magic") && r.stderr.contains("verify --repair \(path)"), "\(command): \(r.stderr)")
            }
            let verify = try CLI.run(["verify", path])
            #expect(verify.status == 1 && !verify.stderr.contains("JSON Lines script"), "\(verify.stderr)")
            // A page or a test written over it is refused, as over any log.
            let page = try CLI.run(["view", Self.example, "-o", path])
            #expect(page.status == 64, "\(page.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
        }
    }

    @Test("piped verify --json of a log whose header was refused gives bytes null: only its first bytes were copied")
    func pipedRefusedHeaderBytes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, original) = try log(in: dir)
        var damaged = original
        damaged[0] = UInt8(ascii: "X")
        let r = try CLI.runOnOpenInput(["verify", "--json", "-"], input: damaged)
        #expect(r.result.stdout.contains("\"bytes\": null") && r.result.stdout.contains("its magic"), "\(r.result.stdout)")
    }

    @Test("a compressed file without its format's suffix gets a command that works on it")
    func compressedWithoutSuffix() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, original) = try log(in: dir)
        try write(Data([0x1F, 0x8B, 0x08, 0x00]) + original, to: path)
        let r = try CLI.run(["verify", path])
        #expect(r.stderr.contains("is gzip-compressed: decompress it first: `gzip -dc \(path) > FILE`"), "\(r.stderr)")
    }

    @Test("record --force over a file whose group the user cannot give: the group's bits are not handed to the user's own group")
    func groupNotCarried() throws {
        // Needs another user to run as: root, with util-linux's setpriv (Linux CI has both).
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _) = try log(in: dir)
        let script = try CLI.write(try String(contentsOfFile: Self.example, encoding: .utf8), to: "s.jsonl", in: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: dir.path)
        // Owned by nobody (65534), in group 100, which nobody is not in once its groups are cleared.
        try FileManager.default.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 100, .posixPermissions: 0o640], ofItemAtPath: path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.executable.path, "record", script, "-o", path, "--force"]
        let r = try CLI.collect(process)
        #expect(r.status == 0, "\(r.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let group = (attributes[.groupOwnerAccountID] as? NSNumber)?.intValue, mode = attributes[.posixPermissions] as? Int
        // Either the group came along with its bits, or neither did.
        #expect(group == 100 ? mode == 0o640 : mode == 0o600, "group \(group ?? -1), mode \(String(mode ?? 0, radix: 8))")
    }
}
