import Foundation
import Testing

/// `verify --json`: the verdict the text gives, as one object, with the same exit codes.
@Suite("verify --json")
struct VerifyJSONTests {
    /// A log of `events` synthetic events in `dir`.
    private func log(_ events: Int, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("s.slog").path
        let r = try CLI.run(["synthesize", "--events", String(events), "-o", path])
        try #require(r.status == 0, "\(r.stderr)")
        return path
    }

    private func object(_ r: CLI.Result) throws -> [String: Any] {
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 1, "one object on one line: \(r.stdout)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
    }

    /// The text verdict's byte offset and intact events (`... at byte offset N: ...; M intact events`).
    private func textVerdict(_ path: String) throws -> (offset: Int, events: Int) {
        let text = try CLI.run(["verify", path]).stdout
        let offset = try #require(text.split(separator: "byte offset ").last?.prefix { $0.isNumber }, "\(text)")
        let events = try #require(text.split(separator: "; ").last?.prefix { $0.isNumber }, "\(text)")
        return (try #require(Int(offset)), try #require(Int(events)))
    }

    @Test("an intact log: its events, records and size, no problem, exit 0; --deep counts the checkpoints and gestures it confirmed")
    func intact() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try log(20_000, in: dir)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let r = try CLI.run(["verify", "--json", path])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try object(r)
        #expect(o["log"] as? String == path)
        #expect(o["intact"] as? Bool == true)
        #expect(o["events"] as? Int == 20_000)
        #expect(o["bytes"] as? Int == size)
        #expect(o["intactBytes"] as? Int == size)
        #expect((o["records"] as? Int ?? 0) > 1)
        #expect(o["problem"] is NSNull)
        #expect(o["checkpointsConfirmed"] is NSNull && o["gesturesConfirmed"] is NSNull, "not replayed without --deep")
        #expect((o["notes"] as? [Any])?.isEmpty == true)
        let deep = try CLI.run(["verify", "--json", "--deep", path])
        #expect(deep.status == 0, "\(deep.stderr)")
        // 20,000 events pass at least one checkpoint interval (8,192 events).
        #expect((try object(deep)["checkpointsConfirmed"] as? Int ?? 0) >= 1, "\(deep.stdout)")
        let check = try object(try CLI.run(["check", "--json", path]))
        let gestures = try #require(check["gesturesCompared"] as? Int)
        let confirmed = try object(deep)["gesturesConfirmed"] as? Int
        #expect(gestures > 1 && confirmed == gestures, "\(deep.stdout)")
    }

    @Test("damage and a torn tail: the text verdict's offset and intact events, the kind, exit 1")
    func damagedAndTorn() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try log(3_000, in: dir)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let torn = dir.appendingPathComponent("torn.slog").path
        // Cut inside a record two thirds in (the last bytes are the seek index, which a
        // cut leaves every event of).
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: torn))
        bytes[bytes.count / 2] ^= 0xFF
        let damaged = dir.appendingPathComponent("damaged.slog").path
        try bytes.write(to: URL(fileURLWithPath: damaged))
        for (file, kind) in [(damaged, "damaged"), (torn, "tornTail")] {
            let r = try CLI.run(["verify", "--json", file])
            #expect(r.status == 1, "\(kind): \(r.stderr)")
            let o = try object(r)
            #expect(o["intact"] as? Bool == false)
            let problem = try #require(o["problem"] as? [String: Any], "\(r.stdout)")
            #expect(problem["kind"] as? String == kind, "\(r.stdout)")
            #expect(!(problem["reason"] as? String ?? "").isEmpty)
            let text = try textVerdict(file)
            #expect(problem["offset"] as? Int == text.offset, "\(r.stdout)")
            #expect(o["intactBytes"] as? Int == text.offset)
            #expect(o["events"] as? Int == text.events, "\(r.stdout)")
            #expect((o["events"] as? Int ?? 3_000) < 3_000)
            #expect(problem["indexOnly"] as? Bool == false, "\(r.stdout)")
        }
    }

    /// Every reader but `verify` passes a damaged seek index over and reads every event
    /// from the records, so a CI job may treat it apart from damage that loses events.
    @Test("damage to the seek index alone: problem damaged with indexOnly true, every event intact, exit 1; replay reads them all")
    func indexOnly() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try log(3_000, in: dir)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        var bytes = whole
        bytes[bytes.count - 20] ^= 0x55  // inside the index, the last record
        try bytes.write(to: URL(fileURLWithPath: path))
        let r = try CLI.run(["verify", "--json", path])
        #expect(r.status == 1, "\(r.stderr)")
        let o = try object(r)
        let problem = try #require(o["problem"] as? [String: Any], "\(r.stdout)")
        #expect(problem["kind"] as? String == "damaged" && problem["indexOnly"] as? Bool == true, "\(r.stdout)")
        #expect(o["events"] as? Int == 3_000, "\(r.stdout)")
        let replayed = try CLI.run(["replay", "--json", path])
        #expect(replayed.status == 0 && replayed.stdout.hasPrefix("{\"events\": 3000,"), "\(replayed.stdout.prefix(80)) \(replayed.stderr)")
        // Torn within the index (its header whole), cut or padded with zeros: a torn tail, the index's alone.
        for torn in [whole.dropLast(10), whole.dropLast(10) + Data(count: 10)] {
            try Data(torn).write(to: URL(fileURLWithPath: path))
            let t = try object(try CLI.run(["verify", "--json", path]))
            let tornProblem = try #require(t["problem"] as? [String: Any], "\(t)")
            #expect(tornProblem["kind"] as? String == "tornTail" && tornProblem["indexOnly"] as? Bool == true && t["events"] as? Int == 3_000, "\(t)")
        }
    }

    @Test("a file that is no log: problem notALog, exit 1; no file: an error object, exit 74")
    func notALog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("{\"type\":\"tap\",\"x\":1,\"y\":1}\n", to: "s.jsonl", in: dir)
        let r = try CLI.run(["verify", "--json", script])
        #expect(r.status == 1, "\(r.stderr)")
        let problem = try #require(try object(r)["problem"] as? [String: Any], "\(r.stdout)")
        #expect(problem["kind"] as? String == "notALog")
        #expect(problem["offset"] as? Int == 0)
        let missing = try CLI.run(["verify", "--json", dir.appendingPathComponent("none.slog").path])
        #expect(missing.status == 74, "\(missing.stderr)")
        let o = try object(missing)
        #expect(o["intact"] is NSNull)
        let error = try #require(o["error"] as? [String: Any], "\(missing.stdout)")
        #expect(error["kind"] as? String == "io")
        #expect(error["message"] as? String == "cannot open: No such file or directory")
    }

    @Test("--json with --repair is a usage error, with an error object on standard output, and nothing is cut")
    func notWithRepair() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try log(3_000, in: dir)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let torn = dir.appendingPathComponent("torn.slog").path
        try bytes.prefix(bytes.count - 20).write(to: URL(fileURLWithPath: torn))
        let r = try CLI.run(["verify", "--json", "--repair", torn])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--json reports a check and --repair a cut"), "\(r.stderr)")
        // A CI job reading the JSON gets an object, as for every other mistake.
        let o = try object(r)
        #expect(o["log"] as? String == torn)
        #expect(o["intact"] is NSNull)
        let error = try #require(o["error"] as? [String: Any], "\(r.stdout)")
        #expect(error["kind"] as? String == "usage")
        #expect(error["cause"] as? String == "usage")
        #expect((error["message"] as? String)?.hasPrefix("--json reports a check and --repair a cut") == true, "\(r.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: torn)) == bytes.prefix(bytes.count - 20))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["s.slog", "torn.slog"])
    }

    @Test("a script piped to a command that takes only logs: the hint pipes it to `record -`, not a file named -")
    func pipedScriptHint() throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["verify", "-"]
        let stdin = Pipe()
        process.standardInput = stdin
        CLI.feed(stdin.fileHandleForWriting, Data("{\"type\":\"tap\",\"x\":1,\"y\":1}\n".utf8), closing: true, waiting: false)
        let r = try CLI.collect(process)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("the input looks like a JSON Lines script, not a log: piped to `selectlog record - -o LOG`, it makes a log of it"), "\(r.stderr)")
        #expect(!r.stderr.contains("./-"), "\(r.stderr)")
    }

    @Test("--deep on a damaged log confirmed nothing: null, not 0; a piped script's size is not known: null, not the 64 bytes read")
    func nullsWhereNothingIsKnown() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try log(20_000, in: dir)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        let deep = try CLI.run(["verify", "--json", "--deep", path])
        #expect(deep.status == 1, "\(deep.stderr)")
        #expect(try object(deep)["checkpointsConfirmed"] is NSNull, "\(deep.stdout)")
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["verify", "--json", "-"]
        let stdin = Pipe()
        process.standardInput = stdin
        let script = Data(("{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n" + String(repeating: "{\"type\": \"tick\"}\n", count: 50)).utf8)
        CLI.feed(stdin.fileHandleForWriting, script, closing: true, waiting: false)
        let piped = try CLI.collect(process)
        #expect(piped.status == 1, "\(piped.stderr)")
        let o = try object(piped)
        #expect(o["bytes"] is NSNull, "\(piped.stdout)")
        #expect((o["problem"] as? [String: Any])?["kind"] as? String == "notALog")
    }
}
