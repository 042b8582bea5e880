import Foundation
import SelectLog
@testable import SelectLogStore
@testable import selectlog
import Testing

/// What `check` and the read errors say about an event this build rejects, or a
/// checkpoint that disagrees with its events, in a log that records this build's own
/// behaviour fingerprint; and `check --json` when the log cannot even be opened.
@Suite("check's verdicts and the hints around them")
struct CheckVerdictTests {
    @Test("check --json prints an error object when the log cannot be opened", arguments: [
        ("missing.slog", "cannot open: No such file or directory"),
        (".", "is a directory"),
        ("/dev/null", "is a device, not a log file"),
    ])
    func unopenedLogIsJSON(name: String, message: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = name.hasPrefix("/") ? name : dir.appendingPathComponent(name).path
        let r = try CLI.run(["check", "--json", path])
        #expect(r.status == 74, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        #expect(object["same"] is NSNull)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["kind"] as? String == "io")
        #expect(error["message"] as? String == message, "\(r.stdout)")
    }

    /// A report of a divergence at one event, recorded under `recorded`.
    private func report(recorded: UInt64?, kind: String = "select") -> CheckReport {
        var r = CheckReport(recordedBehaviour: recorded, behaviour: 0xE258_0404_FE27_EE52)
        r.events = 2
        r.divergence = .init(events: 1...1, kind: kind, reason: "this build rejects the event: select: rows[0] [0, 50] is out of range")
        return r
    }

    @Test("a divergence under the same fingerprint says both causes and the command that tells damage; one under another does not")
    func agreeingFingerprints() {
        let same = CheckOutput.text(report(recorded: 0xE258_0404_FE27_EE52), log: "rej.slog")
        #expect(same.hasPrefix("rej.slog: diverged at the select of event 2: this build rejects the event"), "\(same)")
        #expect(same.contains("the fingerprints agree: either this build changed behaviour the fingerprint does not cover, or rej.slog was changed after it was written"), "\(same)")
        #expect(same.contains("`selectlog verify --deep rej.slog` replays it: it calls the log damaged at the first event this build rejects, or the first checkpoint or gesture fingerprint that disagrees with the replay, and `verify --deep --repair` cuts it there"), "\(same)")
        let other = CheckOutput.text(report(recorded: 0x1234), log: "rej.slog")
        #expect(!other.contains("fingerprints agree"), "\(other)")
        var span = report(recorded: 0x1234, kind: "pan")
        span.divergence?.events = 3...9
        #expect(CheckOutput.text(span, log: "p.slog").hasPrefix("p.slog: diverged at the pan of events 4-10: "))
    }

    @Test("an event the engine that wrote the log rejects: the hint names the repair that replays, the one that finds it")
    func rejectedEventHint() throws {
        let rejected = LogError(.damaged, LogReader.rejectedByEngine + "select: rows[0] [0, 50] is out of range", path: "rej.slog", eventIndex: 1)
        let hint = try #require(ReadFailure.repairHint(for: rejected, log: "rej.slog", piped: false))
        #expect(hint.contains("`selectlog verify --deep --repair rej.slog` cuts the log back to before event 2's record"), "\(hint)")
        var fromPipe = rejected
        fromPipe.path = "-"  // as `ReadFailure.report` names a piped log's copy
        let piped = try #require(ReadFailure.repairHint(for: fromPipe, log: "-", piped: true))
        #expect(piped.contains("`selectlog verify --deep --repair FILE` (the log saved to a file)"), "\(piped)")
        // Under another behaviour the engines differ: nothing to repair, and the error itself names `check`.
        let other = LogError(.damaged, "logged event is rejected by this build's engine, which behaves differently from the one that wrote the log "
                             + "(`selectlog check` shows where they part ways): select", path: "rej.slog", eventIndex: 1)
        #expect(ReadFailure.repairHint(for: other, log: "rej.slog", piped: false) == nil)
    }

    @Test("another build's log with nothing to compare: check says so and names upgrade, not 'same behaviour'")
    func nothingToCompare() {
        var r = CheckReport(recordedBehaviour: 0x1234, behaviour: 0xE258_0404_FE27_EE52)
        r.events = 2
        let text = CheckOutput.text(r, log: "taps.slog")
        #expect(text.hasPrefix("taps.slog: nothing to compare: 2 events replayed; 0 gestures and 0 checkpoints as recorded"), "\(text)")
        #expect(text.contains("`selectlog upgrade taps.slog` re-records it with this build on purpose") && !text.contains("same behaviour"), "\(text)")
        #expect(CheckOutput.json(r, log: "taps.slog").contains(#""same": true"#) && CheckOutput.json(r, log: "taps.slog").contains(#""comparedNothing": true"#))
        // One gesture compared, or this build's own log: same behaviour, as before.
        r.gesturesCompared = 1
        #expect(CheckOutput.text(r, log: "taps.slog").hasPrefix("taps.slog: same behaviour: "))
        #expect(CheckOutput.json(r, log: "taps.slog").contains(#""comparedNothing": false"#))
        r.gesturesCompared = 0
        r.recordedBehaviour = r.behaviour
        #expect(CheckOutput.text(r, log: "taps.slog").hasPrefix("taps.slog: same behaviour: "))
    }

    @Test("a log whose file header is damaged (the magic intact) is damaged to check --json, as to verify; other bytes are not a log")
    func damagedFileHeader() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 20}]}\n{\"type\": \"tap\", \"x\": 10, \"y\": 10}\n", to: "s.jsonl", in: dir)
        let log = dir.appendingPathComponent("h.slog").path
        #expect(try CLI.run(["record", script, "-o", log]).status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        bytes[12] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: log))
        let r = try CLI.run(["check", "--json", log])
        #expect(r.status == 65 && r.stdout.contains(#""kind": "damaged""#) && r.stdout.contains("file header checksum mismatch"), "\(r.stdout)")
        #expect(try CLI.run(["verify", log]).stdout.contains("damaged at byte offset 0: file header checksum mismatch"))
        let other = try CLI.write("NOT A LOG AT ALL, NOT A SCRIPT EITHER\n", to: "x.slog", in: dir)
        #expect(try CLI.run(["check", "--json", other]).stdout.contains(#""kind": "notALog""#))
    }

    @Test("a command the messages suggest can be pasted into a shell: the path quoted when it must be, ./ before a leading dash")
    func shellWords() throws {
        #expect("logs/session-1.slog".shellWord == "logs/session-1.slog")
        #expect("/tmp/é ü.slog".shellWord == "'/tmp/é ü.slog'")
        #expect("it's.slog".shellWord == #"'it'\''s.slog'"#)
        #expect("-x flip.slog".shellWord == "'./-x flip.slog'")
        #expect("-x.slog".shellWord == "./-x.slog")
        // Through the CLI: a damaged log whose name has a space.
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 20}]}\n{\"type\": \"tap\", \"x\": 10, \"y\": 10}\n", to: "s.jsonl", in: dir)
        let log = dir.appendingPathComponent("my session.slog").path
        #expect(try CLI.run(["record", script, "-o", log, "--batch-events", "1"]).status == 0)
        let intact = try Data(contentsOf: URL(fileURLWithPath: log))
        // Damage a byte at a time until a replay fails with a repair hint (a record's byte).
        var hinted: String?
        for offset in 64..<intact.count where hinted == nil {
            var bytes = intact
            bytes[offset] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: log))
            let r = try CLI.run(["replay", log])
            if r.status == 65, r.stderr.contains("verify --repair") { hinted = r.stderr }
        }
        let hint = try #require(hinted)
        #expect(hint.contains("`selectlog verify --repair '\(log)'`"), "\(hint)")
    }

    @Test("a log whose seek index fails its checks is read from its records, and check and replay say so (verify says where)")
    func rejectedSeekIndex() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("ix.slog").path
        #expect(try CLI.run(["synthesize", "--events", "3000", "-o", log]).status == 0)
        #expect(try !LogReader(path: log).storedIndexRejected)
        #expect(try CLI.run(["check", log]).stderr.isEmpty)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        bytes[bytes.count - 10] ^= 0xFF   // in the index record's payload, at the end
        try bytes.write(to: URL(fileURLWithPath: log))
        let reader = try LogReader(path: log)
        #expect(reader.storedIndexRejected && !reader.usedStoredIndex && reader.eventCount == 3000 && reader.tail == nil)
        for arguments in [["check", log], ["replay", log]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 0 && r.stderr.contains("note: its seek index fails its checks") && r.stderr.contains("`selectlog verify \(log)`"),
                    "\(arguments[0]): \(r.stderr)")
        }
        #expect(try CLI.run(["verify", log]).status == 1)
        // Cut off, the log has no index: nothing rejected (a log still being recorded reads so).
        #expect(try CLI.run(["verify", "--repair", log]).status == 0)
        #expect(try !LogReader(path: log).storedIndexRejected)
    }

    @Test("replay --json and inspect --json print an error object when FILE cannot be read, as check --json does")
    func failuresAsJSON() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = try CLI.write("{\"type\": \"reload\", \"sections\": [{\"rows\": 3}]}\n{\"type\": \"undo\", \"t\": -1}\n", to: "bad.jsonl", in: dir)
        let missing = dir.appendingPathComponent("missing.slog").path
        let example = CLI.root.appendingPathComponent("Examples/editor-row.jsonl").path
        for (arguments, status, kind) in [(["replay", "--json", bad], 65, "invalidInput"), (["inspect", "--json", bad], 65, "invalidInput"),
                                          (["replay", "--json", missing], 74, "io"), (["inspect", "--json", missing], 74, "io"),
                                          (["replay", "--json", "--expect", "selected ===", bad], 64, "usage"),
                                          // Views that refuse after FILE was read, before they print.
                                          (["inspect", "--json", example, "--at", "99999"], 64, "usage"),
                                          (["inspect", "--json", example, "--events", "0..99999"], 64, "usage"),
                                          (["inspect", "--json", example, "--first", "selected ==="], 64, "usage"),
                                          (["inspect", "--json", bad, "--first", "undo > 0"], 65, "invalidInput")] {
            let r = try CLI.run(arguments)
            #expect(r.status == Int32(status), "\(arguments): \(r.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(arguments): \(r.stdout)")
            let error = try #require(object["error"] as? [String: Any], "\(r.stdout)")
            #expect(error["kind"] as? String == kind, "\(arguments): \(r.stdout)")
            // The same keys as every error object, whatever failed.
            #expect(Set(error.keys) == ["kind", "cause", "offset", "event", "message", "rejected"], "\(arguments): \(r.stdout)")
            // check's word for it: io and usage as they are, the bad line a refused event.
            #expect(error["cause"] as? String == (kind == "invalidInput" ? "invalidEvent" : kind), "\(arguments): \(r.stdout)")
            // An event refused only when the script's line was (`undo` at t -1 ms, line 2).
            if kind == "invalidInput" {
                let rejected = try #require(error["rejected"] as? [String: Any], "\(arguments): \(r.stdout)")
                #expect(rejected["line"] as? Int == 2 && rejected["rule"] as? String == "malformed", "\(arguments): \(r.stdout)")
            } else {
                #expect(error["rejected"] is NSNull, "\(arguments): \(r.stdout)")
            }
            #expect(!r.stderr.isEmpty)
        }
        #expect(try CLI.run(["replay", "--json", missing]).stdout.contains("cannot open: No such file or directory"))
    }

    /// A damaged log's error object gives the damage's byte offset, as `verify --json`
    /// does, rather than leaving a CI job to parse it out of the message.
    @Test("replay --json of a damaged log names the damage's offset and event in its error object")
    func damageOffsetAsJSON() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("d.slog").path
        #expect(try CLI.run(["synthesize", "--events", "3000", "--batch-events", "100", "-o", log]).status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        bytes[bytes.count / 2] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: log))
        let verdict = try CLI.run(["verify", "--json", log])
        let verified = try #require(try JSONSerialization.jsonObject(with: Data(verdict.stdout.utf8)) as? [String: Any], "\(verdict.stdout)")
        let problem = try #require(verified["problem"] as? [String: Any], "\(verdict.stdout)")
        let offset = problem["offset"] as? Int
        let r = try CLI.run(["replay", "--json", "--from-start", log])
        #expect(r.status == 65, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        let error = try #require(object["error"] as? [String: Any], "\(r.stdout)")
        #expect(error["kind"] as? String == "invalidInput")
        #expect(offset != nil && error["offset"] as? Int == offset, "\(r.stdout) against verify's \(offset)")
        // The first event the damaged record holds: after the intact ones.
        let intact = verified["events"] as? Int
        #expect(intact != nil && error["event"] as? Int == intact.map { $0 + 1 }, "\(r.stdout) against verify's \(intact) intact events")
    }
}
