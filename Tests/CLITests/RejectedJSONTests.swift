import Foundation
import SelectLog
@testable import SelectLogStore
@testable import selectlog
import Testing

/// The `rejected` object of a JSON error: which line (of a script) or event (of a log)
/// was refused, its type, the field at fault and the kind of rule broken, so that a CI
/// job can route a failure without reading the message.
@Suite("JSON errors: the rejected event's line, type, field and rule")
struct RejectedJSONTests {
    /// One script per kind of rule (EVENTS.md 5), its last line the refused one.
    static let cases: [(lines: [String], type: String, field: String?, rule: String)] = [
        (["{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}", "{\"type\": \"tap\", \"x\": 1}"], "tap", "y", "malformed"),
        (["{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}", "{\"type\": \"select\", \"rows\": [[0, 7]]}"], "select", "rows[0]", "outOfRange"),
        (["{\"type\": \"tap\", \"t\": 5, \"x\": 1, \"y\": 1}", "{\"type\": \"tap\", \"t\": 4, \"x\": 1, \"y\": 1}"], "tap", "t", "outOfOrder"),
        (["{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}", "{\"type\": \"panMoved\", \"x\": 1, \"y\": 1}"], "panMoved", nil, "notAllowedNow"),
        (["{\"type\": \"reload\", \"sections\": [{\"rows\": 50000001}]}"], "reload", "sections[0].rows", "overLimit"),
    ]

    @Test("replay --json and inspect --json give the refused line's type, field and rule", arguments: Self.cases.indices)
    func scriptLine(_ index: Int) throws {
        let c = Self.cases[index]
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A comment first, so that the line is not the event's number.
        let script = try CLI.write((["# refused at the end"] + c.lines).joined(separator: "\n") + "\n", to: "s.jsonl", in: dir)
        for command in ["replay", "inspect"] {
            let r = try CLI.run([command, "--json", script])
            #expect(r.status == 65, "\(command): \(r.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
            let error = try #require(object["error"] as? [String: Any], "\(r.stdout)")
            let rejected = try #require(error["rejected"] as? [String: Any], "\(command): \(r.stdout)")
            #expect(rejected["line"] as? Int == c.lines.count + 1, "\(command): \(r.stdout)")
            #expect(rejected["type"] as? String == c.type, "\(command): \(r.stdout)")
            if let field = c.field {
                #expect(rejected["field"] as? String == field, "\(command): \(r.stdout)")
            } else {
                #expect(rejected["field"] is NSNull, "\(command): \(r.stdout)")
            }
            #expect(rejected["rule"] as? String == c.rule, "\(command): \(r.stdout)")
            // The reason is the message's sentence after the type.
            let reason = try #require(rejected["reason"] as? String)
            #expect(!reason.isEmpty && (error["message"] as? String)?.hasSuffix("\(c.type): \(reason)") == true, "\(r.stdout)")
        }
    }

    @Test("a bad line after the events a view needs is only noted: no error object, and the view's answer")
    func noteOnly() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write(Self.cases[1].lines.joined(separator: "\n") + "\n", to: "s.jsonl", in: dir)
        let r = try CLI.run(["replay", "--json", "--at", "1", script])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        #expect(object["error"] == nil && object["events"] as? Int == 1, "\(r.stdout)")
        #expect(r.stderr.contains("note: \(script): line 2: select:"), "\(r.stderr)")
    }

    @Test("a log's refused event: the line is null (the error's event names it), the rest as a script's")
    func logEvent() throws {
        let refusal = InvalidEvent(.outOfRange, "select", field: "rows[0]", "rows[0] [0, 50] is out of range (section 0 has 3 rows)")
        let error = LogError(.damaged, LogReader.rejectedByEngine + "\(refusal)", path: "rej.slog", eventIndex: 1, invalidEvent: refusal)
        let text = CheckOutput.object(error)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        #expect(object["event"] as? Int == 2, "\(text)")
        let rejected = try #require(object["rejected"] as? [String: Any], "\(text)")
        #expect(rejected["line"] is NSNull && rejected["type"] as? String == "select" && rejected["field"] as? String == "rows[0]", "\(text)")
        #expect(rejected["rule"] as? String == "outOfRange" && rejected["reason"] as? String == refusal.reason, "\(text)")
        // Damage that is no refusal has none.
        let damaged = CheckOutput.object(LogError(.damaged, "checksum mismatch", offset: 40))
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(damaged.utf8)) as? [String: Any], "\(damaged)")
        #expect(plain["rejected"] is NSNull, "\(damaged)")
    }

    @Test("replay --json of another engine's log with an event this build refuses: its event, a null line, the rule")
    func otherEngineLog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("lenient.slog").path
        // An engine that takes a selection of a row the table does not have as a selection of nothing.
        let lenient = EngineBehaviour(name: "selections out of range ignored") { (state: inout TableState, e: TimedEvent) throws(InvalidEvent) in
            guard case .select(let rows) = e.event, rows.contains(where: { !state.layout.contains($0) }) else { return try state.apply(e) }
            return try state.apply(TimedEvent(.select(rows: []), t: e.t))
        }
        let w = try LogRewriter(path: log, engine: lenient, checkpointInterval: 0, batchEvents: 100)
        for e in [TimedEvent(.reload(sections: [SectionSpec(rows: 3)])), TimedEvent(.select(rows: [RowPath(0, 1)])),
                  TimedEvent(.select(rows: [RowPath(0, 50)]))] {
            try w.append(e)
        }
        try w.close()
        let r = try CLI.run(["replay", "--json", log])
        #expect(r.status == 65, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        let error = try #require(object["error"] as? [String: Any], "\(r.stdout)")
        #expect(error["event"] as? Int == 3, "\(r.stdout)")
        let rejected = try #require(error["rejected"] as? [String: Any], "\(r.stdout)")
        #expect(rejected["line"] is NSNull && rejected["type"] as? String == "select" && rejected["field"] as? String == "rows[0]", "\(r.stdout)")
        #expect(rejected["rule"] as? String == "outOfRange", "\(r.stdout)")
    }

    /// `replay --json`'s kind is the exit code's (`invalidInput` for all of these); its
    /// `cause` is the word `check --json` uses, so that a CI job can tell a newer
    /// selectlog's log from damage, and either from a file that is no log.
    @Test("replay --json, inspect --json and check --json give one cause for one failure; damaged magic is at offset 0")
    func causeIsCheckKind() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("l.slog").path
        #expect(try CLI.run(["synthesize", "--events", "3000", "--batch-events", "100", "-o", log]).status == 0)
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
        func variant(_ name: String, _ change: (inout [UInt8]) -> Void) throws -> String {
            var bytes = good
            change(&bytes)
            let path = dir.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let magic = try variant("magic.slog") { $0[3] = UInt8(ascii: "X") }
        let newer = try variant("newer.slog") { bytes in
            bytes[8] = UInt8(LogFormat.newestVersion + 1)
            let sum = CRC32C.checksum(Array(bytes[0..<36]), salt: 0)
            for k in 0..<4 { bytes[36 + k] = UInt8(truncatingIfNeeded: sum >> (8 * k)) }
        }
        let damaged = try variant("damaged.slog") { $0[$0.count / 2] ^= 0x5A }
        let noise = try variant("noise.bin") { $0 = Array(repeating: 0xC3, count: 200) }
        for (path, cause, offset) in [(magic, "damaged", 0 as Int?), (newer, "unsupported", 8), (damaged, "damaged", nil), (noise, "notALog", nil)] {
            let checked = try CLI.run(["check", "--json", path])
            let checkError = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any], "\(checked.stdout)")["error"] as? [String: Any]
            #expect(checkError?["kind"] as? String == cause && checkError?["cause"] as? String == cause, "check \(path): \(checked.stdout)")
            for command in ["replay", "inspect"] {
                let r = try CLI.run([command, "--json", "--from-start", path].filter { command == "replay" || $0 != "--from-start" })
                #expect(r.status == 65, "\(command) \(path): \(r.stderr)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
                let error = try #require(object["error"] as? [String: Any], "\(r.stdout)")
                #expect(error["cause"] as? String == cause, "\(command) \(path): \(r.stdout)")
                // Damage a view meets after the log opened is of check's kind (README), else the exit code's.
                let kinds = command == "inspect" ? ["invalidInput", cause] : ["invalidInput"]
                #expect(kinds.contains(error["kind"] as? String ?? ""), "\(command) \(path): \(r.stdout)")
                #expect(error["rejected"] is NSNull, "\(command) \(path): \(r.stdout)")
                if let offset {
                    #expect(error["offset"] as? Int == offset, "\(command) \(path): \(r.stdout)")
                    #expect(checkError?["offset"] as? Int == offset, "check \(path): \(checked.stdout)")
                } else if cause == "damaged" {
                    // The damage's offset, as check gives it.
                    #expect(error["offset"] as? Int != nil && error["offset"] as? Int == checkError?["offset"] as? Int, "\(command) \(path): \(r.stdout)")
                }
            }
        }
    }

    @Test("a type or field a script chose is clipped as the message clips it, and stays one JSON string")
    func hostileNames() throws {
        let long = String(repeating: "x", count: 500) + "\"\n"
        let refusal = InvalidEvent(.malformed, long, field: long, "unknown type")
        let text = CheckOutput.rejectedJSON(refusal, line: 7)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        let type = try #require(object["type"] as? String)
        #expect(type.count < 200 && type.hasPrefix("xxxx"), "\(type)")
        #expect(object["line"] as? Int == 7)
    }
}

/// `inspect --events` of a script whose bad line falls inside the range printed only the
/// error, where a log's damage comes after the events before it (found by a review as a
/// new user).
@Suite("inspect --events over a script's bad line")
struct EventsBeforeBadLineTests {
    static let lines = ["{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}",
                        "{\"type\": \"tap\", \"x\": 10, \"y\": 10, \"t\": 0}",
                        "{\"type\": \"tap\", \"x\": 10, \"y\": 54, \"t\": 1}",
                        "{\"type\": \"select\", \"rows\": [[0, 7]]}",
                        "{\"type\": \"tap\", \"x\": 10, \"y\": 98, \"t\": 2}"]

    @Test("the events before the bad line, then the error (exit 65), in text and JSON", arguments: ["1..5", "2..", ".."])
    func reachesTheBadLine(range: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write(Self.lines.joined(separator: "\n") + "\n", to: "s.jsonl", in: dir)
        let from = Int(range.prefix { $0.isNumber }) ?? 0
        let j = try CLI.run(["inspect", script, "--events", range, "--json"])
        #expect(j.status == 65, "\(j.stderr)")
        let objects = j.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        // Events from+1 through 3 (the three before line 4), then the error object.
        #expect(objects.count == 3 - from + 1, "\(j.stdout)")
        #expect(objects.dropLast().map { $0?["index"] as? Int } == Array((from + 1)...3).map { Optional($0) }, "\(j.stdout)")
        let error = try #require(objects.last??["error"] as? [String: Any], "\(j.stdout)")
        #expect((error["rejected"] as? [String: Any])?["line"] as? Int == 4, "\(j.stdout)")
        let t = try CLI.run(["inspect", script, "--events", range])
        #expect(t.status == 65, "\(t.stderr)")
        #expect(t.stdout.split(separator: "\n").count == 3 - from, "\(t.stdout)")
        #expect(t.stderr.contains("\(script): line 4: select:"), "\(t.stderr)")
    }

    @Test("a range that ends before the bad line lists its events and notes the line (exit 0)")
    func endsBeforeTheBadLine() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write(Self.lines.joined(separator: "\n") + "\n", to: "s.jsonl", in: dir)
        let r = try CLI.run(["inspect", script, "--events", "1..3", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 2 && !r.stdout.contains("\"error\""), "\(r.stdout)")
        #expect(r.stderr.contains("note: \(script): line 4: select:"), "\(r.stderr)")
    }
}
