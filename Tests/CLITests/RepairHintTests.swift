import Foundation
import SelectLogStore
import Testing

/// A cleanly closed log's records are checked on first use, not at open (LOG-FORMAT.md,
/// "Reading, verifying, recovering"), so its damage surfaces at a later read. Every
/// command says how to repair it, once, wherever the damage was found.
@Suite("The verify --repair hint for damage found at open or at a later read")
struct RepairHintTests {
    static let hint = "run `selectlog verify --repair "

    /// A 3,000-event log of 100-event batches, cleanly closed (its index stored), with one
    /// bit flipped inside the payload of a batch in the middle; and that batch.
    private func damagedLog(in dir: URL) throws -> (path: String, victim: RecordInfo) {
        let path = dir.appendingPathComponent("damaged.slog").path
        let made = try CLI.run(["synthesize", "--events", "3000", "-o", path, "--batch-events", "100", "--durability", "none"])
        #expect(made.status == 0, "\(made.stderr)")
        let records = try LogReader(path: path).records
        #expect(records.last?.header.kind == .index)
        let batches = records.filter { $0.header.kind == .batch }
        let victim = try #require(batches.dropFirst(batches.count / 2).first { $0.header.storedLength > 16 })
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[victim.payloadStart + victim.header.storedLength / 2] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, victim)
    }

    /// How many times `needle` occurs in `text`.
    private func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test("damage in a cleanly closed log, found by the first read that reaches it: the error names the byte offset, then the hint, once", arguments: [
        (["replay", "LOG"], Int32(65)),
        (["replay", "LOG", "--from-start"], Int32(65)),
        (["export", "LOG"], Int32(65)),
        (["inspect", "LOG", "--at", "3000"], Int32(65)),
        (["inspect", "LOG", "--history", "0,1"], Int32(65)),
        (["view", "LOG", "-o", "OUT"], Int32(65)),
        // 65 as for replay: check's exit 1 says only that this build diverges.
        (["check", "LOG"], Int32(65)),
        (["upgrade", "LOG", "-o", "OUT"], Int32(1)),
    ])
    func damageFoundAtFirstRead(arguments: [String], status: Int32) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, victim) = try damagedLog(in: dir)
        // Opening checks the index, not the payloads: the damage is found later.
        #expect(try LogReader(path: log).eventCount == 3000)
        let out = dir.appendingPathComponent("out").path
        let r = try CLI.run(arguments.map { $0 == "LOG" ? log : $0 == "OUT" ? out : $0 })
        #expect(r.status == status, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("\(log): byte offset \(victim.offset): "), "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("(\(victim.header.firstEvent) intact events before it)"), "\(arguments): \(r.stderr)")
        #expect(occurrences(of: Self.hint, in: r.stderr) == 1, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("\(Self.hint)\(log)` to cut the log back to its intact prefix"), "\(arguments): \(r.stderr)")
        // The hint is right: verify finds the damage at the same offset.
        let verified = try CLI.run(["verify", log])
        #expect(verified.status == 1)
        #expect(verified.stdout.contains("damaged at byte offset \(victim.offset)"), "\(verified.stdout)")
    }

    @Test("a read before the damage succeeds and says nothing of it")
    func readBeforeTheDamage() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, victim) = try damagedLog(in: dir)
        let r = try CLI.run(["replay", log, "--at", String(victim.header.firstEvent), "--from-start"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("verify --repair"), "\(r.stderr)")
    }

    @Test("damage found at open (a log without its index is walked whole) gives the hint once, not once at open and again at the read")
    func damageFoundAtOpen() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, victim) = try damagedLog(in: dir)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        let index = try #require(try LogReader(path: log).records.last { $0.header.kind == .index })
        try Data(bytes[..<index.offset]).write(to: URL(fileURLWithPath: log))
        for arguments in [["replay", log], ["export", log], ["inspect", log, "--at", "1"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 65, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("byte offset \(victim.offset)"), "\(arguments): \(r.stderr)")
            #expect(occurrences(of: Self.hint, in: r.stderr) == 1, "\(arguments): \(r.stderr)")
        }
    }

    @Test("inspect --json ends with an error object when a view meets damage after the log was opened: alone, or after the JSON Lines of the events read before it")
    func damageAsJSON() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, victim) = try damagedLog(in: dir)
        for view in [["--events", "0..3000"], ["--at", "3000"], ["--history", "0,1"], ["--diff", "0..3000"]] {
            let r = try CLI.run(["inspect", log, "--json"] + view)
            #expect(r.status == 65, "\(view): \(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            // Every line is an object; the last is the error, naming the damaged record.
            #expect(!lines.isEmpty && lines.allSatisfy { $0 != nil }, "\(view): \(r.stdout.suffix(300))")
            let error = try #require(lines.last??["error"] as? [String: Any], "\(view): \(r.stdout.suffix(300))")
            #expect(lines.last??["file"] as? String == log)
            #expect(error["kind"] as? String == "damaged", "\(view): \(error)")
            #expect(error["offset"] as? Int == victim.offset, "\(view): \(error)")
            #expect((error["message"] as? String)?.isEmpty == false)
            if view[0] == "--events" {
                // The events before the damaged batch, numbered from 1, then the error.
                #expect(lines.count == victim.header.firstEvent + 1, "\(r.stdout.suffix(300))")
                #expect(lines.dropLast().last??["index"] as? Int == victim.header.firstEvent)
            } else {
                #expect(lines.count == 1, "\(view): \(r.stdout.suffix(300))")
            }
        }
        // The text listing, too, shows every event before the damage (it lost the ones
        // still buffered when the read failed).
        let text = try CLI.run(["inspect", log, "--events", "0..3000"])
        #expect(text.status == 65)
        #expect(text.stdout.split(separator: "\n").count == victim.header.firstEvent, "\(text.stdout.suffix(300))")
    }

    @Test("a piped damaged log: the hint says to save it to a file first (verify --repair refuses a pipe)")
    func pipedDamage() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, victim) = try damagedLog(in: dir)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$1\" replay - < \"$0\"", log, CLI.executable.path]
        let r = try CLI.collect(process)
        #expect(r.status == 65, "\(r.stderr)")
        // The log is named as the user named it, not as the temporary copy it was read from.
        #expect(r.stderr.hasPrefix("selectlog: -: byte offset \(victim.offset): "), "\(r.stderr)")
        #expect(r.stderr.contains("save the log to a file and run `selectlog verify --repair FILE`"), "\(r.stderr)")
        #expect(occurrences(of: "verify --repair", in: r.stderr) == 1, "\(r.stderr)")
    }

    @Test("an error that verify --repair cannot fix gets no hint: damage in the file header")
    func noHintForHeaderDamage() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (log, _) = try damagedLog(in: dir)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        bytes[20] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: log))
        let r = try CLI.run(["replay", log])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("byte offset 0"), "\(r.stderr)")
        #expect(!r.stderr.contains("verify --repair"), "\(r.stderr)")
    }
}
