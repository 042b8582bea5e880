import Foundation
import SelectLog
import SelectLogStore
import Testing

/// Every bundled example script (the behaviours and the bug zoo).
private func bundledExamples() throws -> [URL] {
    var out: [URL] = []
    for dir in ["Examples", "Examples/bugs"] {
        let url = CLI.root.appendingPathComponent(dir)
        out += try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "jsonl" }
    }
    return out.sorted { $0.path < $1.path }
}

/// Records `script` without zstd (checkpoints range-coded), exactly as a build without zstd does.
private func recordStored(_ script: URL, to path: String) throws -> TableState {
    let parsed = try Script(bytes: Data(contentsOf: script))
    var options = Recorder.Options()
    options.storesUncompressed = true
    options.batchEvents = 8
    options.durability = .none
    let recorder = try Recorder(creating: path, options: options)
    for event in parsed.events { try recorder.append(event) }
    try recorder.close()
    return recorder.state
}

private func size(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
}

@Suite("selectlog compact, --version")
struct CompactTests {
    @Test("a stored (no-zstd) log of every bundled example replays to the script's state; compact keeps the hash and shrinks it")
    func storedLogsOfEveryExample() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let examples = try bundledExamples()
        #expect(examples.count >= 10)
        var storedTotal = 0, compactTotal = 0
        for script in examples {
            let name = script.deletingPathExtension().lastPathComponent
            let stored = dir.appendingPathComponent("\(name).stored.slog").path
            let compacted = dir.appendingPathComponent("\(name).slog").path
            let state = try recordStored(script, to: stored)
            let fromScript = try CLI.run(["replay", script.path, "--json"])
            #expect(fromScript.status == 0, "\(name): \(fromScript.stderr)")
            #expect(try CLI.run(["verify", stored]).status == 0, "\(name)")
            #expect(try CLI.run(["replay", stored, "--json"]).stdout == fromScript.stdout, "\(name)")

            let r = try CLI.run(["compact", stored, "-o", compacted])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            #expect(r.stdout.contains("hash \(state.hashHex)"), "\(name): \(r.stdout)")
            #expect(try CLI.run(["verify", compacted]).status == 0, "\(name)")
            #expect(try CLI.run(["replay", compacted, "--json"]).stdout == fromScript.stdout, "\(name)")
            #expect(try LogReader(path: compacted).state(at: state.events).hashHex == state.hashHex)
            #expect(try size(compacted) <= size(stored), "\(name)")
            storedTotal += try size(stored)
            compactTotal += try size(compacted)
        }
        #expect(compactTotal < storedTotal)
    }

    @Test("compact of a longer stored session is smaller, with the same hash; without -o it replaces the log")
    func compactInPlace() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("long.slog").path
        var options = Recorder.Options()
        options.storesUncompressed = true
        options.durability = .none
        let recorder = try Recorder(creating: path, options: options)
        for event in SyntheticSession(seed: 3, count: 20_000) { try recorder.append(event) }
        try recorder.close()
        let before = try size(path)
        let hash = recorder.state.hashHex
        let r = try CLI.run(["compact", path])
        #expect(r.status == 0, "\(r.stderr)")
        let after = try size(path)
        // Version 3 batches are range-coded even when stored; zstd still shrinks the checkpoints.
        #expect(after < before, "\(before) -> \(after) bytes")
        #expect(r.stdout.contains("\(before) -> \(after) bytes, hash \(hash)"))
        let log = try LogReader(path: path)
        #expect(log.eventCount == 20_000)
        #expect(try log.state(at: 20_000).hashHex == hash)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["long.slog"])
    }

    @Test("a log with a checkpoint at every multiple of its interval keeps every one through compact and upgrade; one whose checkpoints were put off keeps putting them off",
          arguments: [false, true])
    func exactCheckpointsKept(putsOff: Bool) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("exact.slog").path
        var options = Recorder.Options()
        options.storesUncompressed = true
        options.durability = .none
        options.checkpointInterval = 500
        options.putsOffLargeCheckpoints = putsOff
        let recorder = try Recorder(creating: path, options: options)
        for event in SyntheticSession(seed: 3, count: 10_000) { try recorder.append(event) }
        try recorder.close()
        func checkpoints(_ path: String) throws -> Int { try LogReader(path: path).summary().checkpoints }
        let recorded = try checkpoints(path)
        // The standard session's snapshots outweigh an eighth of 500 events' bytes: put off.
        #expect(putsOff ? recorded < 20 : recorded == 20)
        let compacted = dir.appendingPathComponent("compacted.slog").path
        #expect(try CLI.run(["compact", path, "-o", compacted]).status == 0)
        let upgraded = dir.appendingPathComponent("upgraded.slog").path
        #expect(try CLI.run(["upgrade", path, "-o", upgraded]).status == 0)
        for rewritten in [compacted, upgraded] {
            #expect(try checkpoints(rewritten) == recorded, "\(rewritten)")
            #expect(try LogReader(path: rewritten).state(at: 10_000).hashHex == recorder.state.hashHex)
        }
    }

    @Test("compact -o naming the log itself compacts in place instead of overwriting what it reads")
    func compactOntoItself() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("self.slog").path
        var options = Recorder.Options()
        options.storesUncompressed = true
        let recorder = try Recorder(creating: path, options: options)
        for event in SyntheticSession(seed: 4, count: 3000) { try recorder.append(event) }
        try recorder.close()
        let r = try CLI.run(["compact", path, "-o", dir.appendingPathComponent("./self.slog").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try LogReader(path: path).state(at: 3000).hashHex == recorder.state.hashHex)
        #expect(throws: LogError.self) { try Recorder.compact(path, into: path, replacingExisting: true) }
        #expect(try LogReader(path: path).eventCount == 3000)
    }

    @Test("compact of something that is not a log exits 65 and leaves no file behind")
    func compactNotALog() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try CLI.write(#"{"type": "tick"}"#, to: "s.jsonl", in: dir)
        let r = try CLI.run(["compact", script])
        #expect(r.status == 65)
        #expect(r.stderr.contains("s.jsonl"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["s.jsonl"])
        #expect(try CLI.run(["compact", dir.appendingPathComponent("missing.slog").path]).status == 74)
    }

    @Test("--version prints the version")
    func version() throws {
        let r = try CLI.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: ".").count == 3, "\(r.stdout)")
        #expect(r.stdout.hasPrefix("0."))
    }

    @Test("completion scripts are generated for bash, zsh and fish")
    func completions() throws {
        for shell in ["bash", "zsh", "fish"] {
            let r = try CLI.run(["--generate-completion-script", shell])
            #expect(r.status == 0, "\(shell)")
            #expect(r.stdout.contains("compact"), "\(shell)")
        }
    }

    @Test("compact -o another existing log replaces it only with --force, as upgrade, record and synthesize do")
    func compactOverAnotherLogNeedsForce() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("a.slog").path
        let other = dir.appendingPathComponent("b.slog").path
        #expect(try CLI.run(["synthesize", "--events", "500", "-o", source]).status == 0)
        #expect(try CLI.run(["synthesize", "--events", "300", "--seed", "9", "-o", other]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        let refused = try CLI.run(["compact", source, "-o", other])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(other): already exists; pass --force to replace it"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        let forced = try CLI.run(["compact", source, "-o", other, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try LogReader(path: other).eventCount == 500)
        // In place (no -o, or -o naming LOG itself) needs no --force.
        #expect(try CLI.run(["compact", source]).status == 0)
        #expect(try CLI.run(["compact", source, "-o", source]).status == 0)
    }

    @Test("compact, upgrade and record --force refuse a log a recorder is writing (exit 74), and leave it to the recorder")
    func rewritesRefuseALogInUse() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("live.slog").path
        let events = Array(SyntheticSession(seed: 7, count: 2_000))
        let recorder = try Recorder(creating: path)
        for e in events[..<1_000] { try recorder.append(e) }
        try recorder.flush()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let script = dir.appendingPathComponent("s.jsonl").path
        try Data("{\"type\": \"tick\"}\n".utf8).write(to: URL(fileURLWithPath: script))
        for arguments in [["compact", path], ["upgrade", path], ["record", script, "-o", path, "--force"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 74, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("\(path): another writer has this log open"), "\(arguments): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(arguments)")
        }
        for e in events[1_000...] { try recorder.append(e) }
        try recorder.close()
        // Closed, the log is free to compact, and nothing the recorder wrote was lost.
        let r = try CLI.run(["compact", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try LogReader(path: path).state(at: events.count) == recorder.state)
    }
}
