import Foundation
import SelectLog
@testable import SelectLogStore
import Testing

/// Findings of the 2026-12-05 audit of the store's API by an app developer.
@Suite("The store's API as an app uses it (the 2026-12-05 audit)")
struct APIAuditTests {
    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("a log that is not there is told apart without reading the message: errnoCode ENOENT, and the snippet that makes one then works")
    func missingLog() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("absent.slog").path
        #expect { try Recorder(appendingTo: path) } throws: { e in
            (e as? LogError).map { $0.code == .io && $0.errnoCode == ENOENT } ?? false
        }
        #expect { try LogReader(path: path) } throws: { e in
            (e as? LogError).map { $0.code == .io && $0.errnoCode == ENOENT } ?? false
        }
        // LogError.errnoCode's snippet, as written there. (Its first form assigned a `var`
        // declared before the `do` in both branches: Swift 6.3.1 crashed on it, signal 11
        // in MandatoryAllocBoxToStack, as it does on a standalone reproducer.)
        func recorder(continuing path: String) throws(LogError) -> Recorder {
            do { return try Recorder(appendingTo: path) }
            catch where error.errnoCode == ENOENT { return try Recorder(creating: path) }
        }
        let recorder = try recorder(continuing: path)
        try recorder.append(TimedEvent(.reload(sections: [SectionSpec(rows: 3)])))
        try recorder.close()
        #expect(try LogReader(path: path).eventCount == 1)
        // An error that is not a system call's has none, and errors compare as values.
        let damaged = LogError(.damaged, "x", path: path, offset: 40)
        #expect(damaged.errnoCode == nil)
        #expect(damaged == LogError(.damaged, "x", path: path, offset: 40))
        #expect(damaged != LogError(.damaged, "x", path: path, offset: 41))
    }

    /// The system reads a path only up to a NUL: a recorder was refused with "a file already
    /// exists here" for the file named by the part before it (the 2026-12-07 trap audit).
    @Test("a path holding a NUL byte is refused by name (.io, EINVAL) before any file is opened, made or cut")
    func nulInPath() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = dir.appendingPathComponent("x").path
        try Data("not a log".utf8).write(to: URL(fileURLWithPath: before))
        let path = before + "\u{0}y.slog"
        let calls: [(String, () throws -> Void)] = [
            ("create", { _ = try Recorder(creating: path) }),
            ("replace", { _ = try Recorder(creating: path, replacingExisting: true) }),
            ("append", { _ = try Recorder(appendingTo: path) }),
            ("read", { _ = try LogReader(path: path) }),
            ("verify", { _ = try LogReader.verify(path: path) }),
            ("repair", { _ = try LogRepair.repair(path) }),
            ("cut", { _ = try LogRepair.cut(path, at: 40) }),
            ("compact from", { _ = try Recorder.compact(path, into: before) }),
            ("compact into", { _ = try Recorder.compact(before, into: path) }),
        ]
        for (name, call) in calls {
            #expect(throws: LogError.self, "\(name)") { try call() }
            do { try call() } catch let e as LogError {
                #expect(e.code == .io && e.errnoCode == EINVAL, "\(name): \(e)")
                #expect(e.message.contains("holds a NUL byte (after \"\(before)\")"), "\(name): \(e)")
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: before)) == Data("not a log".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["x"])
    }

    @Test("batchEvents past the format's limit is taken as the limit: every event reads back")
    func batchEventsPastTheLimit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("b.slog").path
        var options = Recorder.Options()
        options.batchEvents = 2_000_000
        options.flushIntervalMilliseconds = 600_000
        options.checkpointInterval = 0
        options.durability = .none
        let recorder = try Recorder(creating: path, options: options)
        try recorder.append(TimedEvent(.reload(sections: [SectionSpec(rows: 100)])))
        // Untimed ticks: the cheapest events, so that no byte limit ends the batch first.
        let ticks = LogFormat.Limits.batchEvents + 10
        for _ in 0..<ticks { try recorder.append(TimedEvent(.tick)) }
        try recorder.close()
        let report = try LogReader.verify(path: path)
        #expect(report.isIntact, "\(String(describing: report.problem))")
        #expect(report.intactEvents == ticks + 1)
        #expect(try LogReader(path: path).state(at: ticks + 1).events == ticks + 1)
    }

    @Test("a closed LogReader lets its log be replaced or cut, refuses reads with .closed, and one closed mid-read holds the log until the read ends")
    func closedReader() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("c.slog").path
        let events = Array(SyntheticSession(seed: 12, count: 3_000))
        // Checkpoints every 256 events, all of them past the end of the log that replaces it.
        var options = Recorder.Options()
        options.checkpointInterval = 256
        _ = try writeLog(events, to: path, options: options)
        let reader = try LogReader(path: path)
        #expect(throws: LogError.self) { try Recorder(creating: path, replacingExisting: true) }
        let cursorBeforeClosing: LogCursor? = try LogCursor(reader, at: 2_500)
        // Closed from inside a read: the read goes on, and the log stays held until it ends.
        var seen = 0
        try reader.forEachEvent { i, _ in
            if i == 10 {
                reader.close()
                let refused = #expect(throws: LogError.self) { try LogRepair.cut(path, at: 100) }
                #expect(refused?.code == .inUse, "\(String(describing: refused))")
            }
            seen += 1
            return true
        }
        #expect(seen == events.count)
        reader.close()  // again: nothing more
        for read in ["state", "events", "check", "summary", "gesture"] {
            let refused = #expect(throws: LogError.self, "\(read)") {
                switch read {
                case "state": _ = try reader.state(at: 10)
                case "events": _ = try reader.events(from: 0, to: 5)
                case "check": _ = try reader.check()
                case "summary": _ = try reader.summary()
                default: _ = try reader.gesture(containing: 5)
                }
            }
            #expect(refused?.code == .closed, "\(read): \(String(describing: refused))")
        }
        // The log can be replaced now, though the reader is still referenced.
        let recorder = try Recorder(creating: path, replacingExisting: true)
        try recorder.append(TimedEvent(.reload(sections: [SectionSpec(rows: 3)])))
        try recorder.close()
        #expect(try LogReader(path: path).eventCount == 1)
        #expect(reader.eventCount == events.count, "what the reader knew at open stays")
        // A cursor of the closed reader reads nothing of the replaced file (its checkpoints
        // were past the new end: a read raised SIGBUS), in every direction.
        let cursor = try #require(cursorBeforeClosing)
        for step in ["previous", "next", "back", "forward", "move"] {
            let refused = #expect(throws: LogError.self, "\(step)") {
                switch step {
                case "previous": _ = try cursor.stepToPreviousUndoStep()
                case "next": _ = try cursor.stepToNextUndoStep()
                case "back": _ = try cursor.stepBack()
                case "forward": _ = try cursor.stepForward()
                default: try cursor.move(to: 5)
                }
            }
            #expect(refused?.code == .closed, "\(step): \(String(describing: refused))")
        }
    }

    /// CI, 2026-12-06: a test's new log was refused as held by a reader when another test's
    /// reader of a deleted log had unmapped it, its inode already the new file's, and not
    /// yet left the registry.
    @Test("a mapping leaves the registry of what this process reads before it lets go of the file, so a new file on its inode is never refused as in use")
    func registryEntryGoesFirst() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("m.bin").path
        try Data(repeating: 7, count: 10_000).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let registeredAtUnmapping = LockedBox<Bool?>(nil)
        MappedFile.beforeUnmapping.withLockedValue { hook in
            hook = { mapped in
                if mapped == path { registeredAtUnmapping.withLockedValue { $0 = MappedFile.readsPast(0, of: fd) } }
            }
        }
        defer { MappedFile.beforeUnmapping.withLockedValue { $0 = nil } }
        let file = try MappedFile(path: path)
        withExtendedLifetime(file) { #expect(MappedFile.readsPast(0, of: fd)) }
        _ = consume file
        #expect(registeredAtUnmapping.withLockedValue { $0 } == false)
        #expect(!MappedFile.readsPast(0, of: fd))
    }

    @Test("a log a LogReader in this process maps is not emptied or cut under what it reads (.inUse, nothing changed); its index and a torn tail are cut")
    func readerOpenInThisProcess() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.slog").path
        let events = Array(SyntheticSession(seed: 11, count: 3_000))
        _ = try writeLog(events, to: path)
        let before = try bytes(path)
        var reader: LogReader? = try LogReader(path: path)
        for attempt in ["replace", "cut"] {
            let refused = #expect(throws: LogError.self, "\(attempt)") {
                switch attempt {
                case "replace": _ = try Recorder(creating: path, replacingExisting: true)
                default: _ = try LogRepair.cut(path, at: before.count / 2)
                }
            }
            #expect(refused?.code == .inUse, "\(attempt): \(String(describing: refused))")
            #expect(refused?.message.contains("a LogReader in this process has this log open") == true, "\(attempt)")
            #expect(try bytes(path) == before, "\(attempt)")
        }
        #expect(try reader?.state(at: events.count).hashHex == (try writeLog(events, to: dir.appendingPathComponent("same.slog").path)).hashHex)
        // A torn tail (a crash, so no stored index) is cut with a reader open: no reader
        // reads past its records.
        let live = dir.appendingPathComponent("live.slog").path, torn = dir.appendingPathComponent("torn.slog").path
        let writing = try Recorder(creating: live)
        for e in events.prefix(500) { try writing.append(e) }
        try writing.flush()
        try (try bytes(live) + Data([0x01, 0x02])).write(to: URL(fileURLWithPath: torn))
        try writing.close()
        let tornReader = try LogReader(path: torn)
        #expect(tornReader.tail != nil && tornReader.eventCount == 500)
        let resumed = try Recorder(appendingTo: torn)
        try resumed.close()
        #expect(try tornReader.events() == Array(events.prefix(500)))
        #expect(try LogReader.verify(path: torn).isIntact)
        // Continued with a reader open: the stored index is cut (the reader read it when it
        // opened, and reads nothing past the last record), and the reader reads on.
        let more = Array(SyntheticSession(seed: 11, count: 3_500).suffix(500))
        let recorder = try Recorder(appendingTo: path)
        #expect(recorder.eventCount == events.count)
        #expect(try bytes(path).count < before.count)
        for e in more { try recorder.append(e) }
        try recorder.close()
        #expect(try reader?.events() == events)
        #expect(try reader?.state(at: events.count).hashHex == (try LogReader(path: path).state(at: events.count).hashHex))
        #expect(try LogReader.verify(path: path).isIntact)
        #expect(try LogReader(path: path).events() == events + more)
        // A walk of the whole file (verify's) in this process does read the index: the
        // recorder is refused then, and the file left as it was.
        let closedSize = try bytes(path).count
        do {
            let whole = try MappedFile(path: path)
            let refused = #expect(throws: LogError.self) { _ = try Recorder(appendingTo: path) }
            #expect(refused?.code == .inUse && refused?.message.contains("cutting its stored index or torn tail") == true,
                    "\(String(describing: refused))")
            #expect(try bytes(path).count == closedSize && whole.bytes.count == closedSize)
        }
        // Once the reader is gone, the log can be replaced.
        reader = nil
        try Recorder(creating: path, replacingExisting: true).close()
        #expect(try LogReader(path: path).eventCount == 0)
    }

    @Test("a log made without zstd stays without it when reopened with the default options")
    func uncompressedStaysUncompressed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("u.slog").path
        let events = Array(SyntheticSession(seed: 12, count: 6_000))
        var options = Recorder.Options()
        options.storesUncompressed = true
        options.checkpointInterval = 64
        _ = try writeLog(Array(events.prefix(3_000)), to: path, options: options)
        let recorder = try Recorder(appendingTo: path)
        for e in events.dropFirst(3_000) { try recorder.append(e) }
        try recorder.close()
        let data = try bytes(path)
        let zstdMagic = Data([0x28, 0xB5, 0x2F, 0xFD])
        #expect(data.range(of: zstdMagic) == nil)
        #expect(try LogReader(path: path).events() == events)
    }

    @Test("LogRepair.cut inside the file header is refused, the file as it was")
    func cutInsideTheHeader() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("h.slog").path
        _ = try writeLog(Array(SyntheticSession(seed: 13, count: 100)), to: path)
        let before = try bytes(path)
        for offset in [0, 1, LogFormat.fileHeaderSizeV1 - 1, LogFormat.fileHeaderSizeV1, LogFormat.fileHeaderSize - 1] {
            let refused = #expect(throws: LogError.self) { _ = try LogRepair.cut(path, at: offset) }
            #expect(refused?.code == .outOfRange && refused?.message.contains("inside the file header") == true, "\(offset)")
        }
        #expect(try bytes(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["h.slog"])
    }

    @Test("a recorder makes its log with the permissions asked for (less the umask), 0o644 by default; appending leaves them")
    func filePermissions() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func mode(_ path: String) throws -> Int { try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) }
        // Read, not set and set back: tests making files on other threads meanwhile would
        // get the wrong mode. (Linux says it in /proc; elsewhere the usual 022 is assumed.)
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let mask = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
            .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
        for (name, asked) in [("default.slog", nil), ("private.slog", 0o600 as UInt16), ("shared.slog", 0o664)] {
            let path = dir.appendingPathComponent(name).path
            var options = Recorder.Options()
            if let asked { options.filePermissions = asked }
            let recorder = try Recorder(creating: path, options: options)
            // Already so while the recorder writes, not only once it closes.
            #expect(try mode(path) == Int(asked ?? 0o644) & ~mask)
            try recorder.append(TimedEvent(.reload(sections: [SectionSpec(rows: 3)])))
            try recorder.close()
            var again = Recorder.Options()
            again.filePermissions = 0o600
            try Recorder(appendingTo: path, options: again).close()
            #expect(try mode(path) == Int(asked ?? 0o644) & ~mask)
        }
    }

    /// `replay(into:to:)` can check only a state's event count. A state from elsewhere
    /// with the right count must not trap: the first event the engine rejects against it
    /// is an error at that event, and the state keeps the events before it, in turn and
    /// pipelined alike.
    @Test("replay(into:to:) of a state from another log: no trap, the rejected event named, the events before it applied",
          arguments: [2, 70_000])
    func replayIntoAnotherState(ticks: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.slog").path
        var options = Recorder.Options()
        options.durability = .none
        let recorder = try Recorder(creating: path, options: options)
        try recorder.append(TimedEvent(.reload(sections: [SectionSpec(rows: 50)])))
        for _ in 0..<ticks { try recorder.append(TimedEvent(.tick)) }
        try recorder.append(TimedEvent(.select(rows: [RowPath(0, 40)])))
        try recorder.close()
        let reader = try LogReader(path: path)
        // Another table of one event: 3 rows, so row 40 is not there.
        var state = TableState()
        try state.apply(TimedEvent(.reload(sections: [SectionSpec(rows: 3)])))
        #expect { try reader.replay(into: &state, to: reader.eventCount) } throws: { error in
            guard let e = error as? LogError else { return false }
            return e.code == .damaged && e.eventIndex == ticks + 1
        }
        #expect(state.events == ticks + 1)
        #expect(state.invariantViolations().isEmpty)
        #expect(state.selection.isEmpty)
    }

    /// `Recorder(creating: "")` said ": link failed: No such file or directory": neither the
    /// path nor the mistake (found by a review as an app developer).
    @Test("an empty path is named as the mistake by every way to open a log")
    func emptyPath() {
        let opens: [(String, () throws(LogError) -> Void)] = [
            ("creating", { () throws(LogError) in _ = try Recorder(creating: "") }),
            ("replacing", { () throws(LogError) in _ = try Recorder(creating: "", replacingExisting: true) }),
            ("appending", { () throws(LogError) in _ = try Recorder(appendingTo: "") }),
            ("reading", { () throws(LogError) in _ = try LogReader(path: "") }),
            ("verifying", { () throws(LogError) in _ = try LogReader.verify(path: "") }),
        ]
        for (name, open) in opens {
            let error = #expect(throws: LogError.self, "\(name)") { try open() }
            #expect(error?.code == .io && error?.errnoCode == ENOENT, "\(name): \(String(describing: error))")
            #expect(error?.description == "the log's path is empty: name a file", "\(name): \(String(describing: error))")
        }
    }
}

