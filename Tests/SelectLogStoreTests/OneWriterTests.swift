import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A log has one writer at a time. Two recorders of one log (an app's two scenes, or an
/// app and `selectlog compact`) would each append at their own idea of the end, and the
/// second to open would cut the first's record in flight as a torn tail.
@Suite("One writer of a log at a time")
struct OneWriterTests {
    @Test("a second recorder of a log being written is refused, and the first's events are all kept")
    func secondRecorderRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("w.slog").path
        let events = Array(SyntheticSession(seed: 5, count: 3_000))
        let first = try Recorder(creating: path, options: smallBatches())
        for e in events[..<1_500] { try first.append(e) }
        try first.flush()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        #expect { try Recorder(appendingTo: path) } throws: { ($0 as? LogError)?.code == .inUse }
        #expect { try Recorder(creating: path, replacingExisting: true) } throws: { ($0 as? LogError)?.code == .inUse }
        #expect { try Recorder(creating: path) } throws: { ($0 as? LogError)?.code == .alreadyExists }
        // The refusals changed nothing: not a byte cut, truncated or appended.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        for e in events[1_500...] { try first.append(e) }
        try first.close()
        let log = try LogReader(path: path)
        #expect(log.eventCount == events.count)
        #expect(try log.state(at: events.count) == first.state)
        #expect(try LogReader.verify(path: path).problem == nil)

        // Closed, the log is free: it can be appended to again.
        let second = try Recorder(appendingTo: path)
        try second.append(.tick)
        try second.close()
        #expect(try LogReader(path: path).eventCount == events.count + 1)
    }

    @Test("a close that fails (the index past a full disk, or after a failed write) lets go of the log: it reopens at once, every acknowledged event in it",
          arguments: ["index", "events"])
    func failedCloseLetsGo(failing: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events = Array(SyntheticSession(seed: 11, count: 2_000))
        var options = smallBatches()
        // Batches end at gesture ends and flushes only, never at a pause: the same bytes
        // each time, so the probe's size is the failing log's.
        options.flushIntervalMilliseconds = 3_600_000
        func size(_ path: String) throws -> Int { try Data(contentsOf: URL(fileURLWithPath: path)).count }

        // How long the log is before its index.
        let probe = dir.appendingPathComponent("probe.slog").path
        let measuring = try Recorder(creating: probe, options: options)
        for e in events { try measuring.append(e) }
        try measuring.flush()
        let beforeIndex = try size(probe)
        try measuring.close()
        #expect(try size(probe) > beforeIndex)

        // The disk full at the index, or half-way through the events.
        options.failsWritesPast = failing == "index" ? beforeIndex : beforeIndex / 2
        let path = dir.appendingPathComponent("full.slog").path
        let recorder = try Recorder(creating: path, options: options)
        do throws(LogError) {
            for e in events { try recorder.append(e) }
            try recorder.flush()
        } catch {
            #expect(failing == "events", "the events fit: \(error)")
        }
        let acknowledged = recorder.acknowledged
        #expect { try recorder.close() } throws: { ($0 as? LogError)?.code == .io }
        if failing == "index" { #expect(acknowledged == events.count) }

        // The failed recorder is still alive (an app's property), yet the log is free.
        let reopened = try Recorder(appendingTo: path)
        #expect(reopened.eventCount >= acknowledged)
        #expect(reopened.state == (try LogReader(path: probe).state(at: reopened.eventCount)))
        try reopened.append(.tick)
        try reopened.close()
        #expect(try LogReader.verify(path: path).problem == nil)
        withExtendedLifetime(recorder) {}
    }

    @Test("a recorder dropped without close() closes as it goes: every event appended is in the log, with its index, and the log is free at once")
    func droppedRecorderCloses() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("dropped.slog").path
        let events = Array(SyntheticSession(seed: 12, count: 2_500))
        var options = smallBatches()
        // Nothing is written by the clock: only the drop can have written the tail.
        options.flushIntervalMilliseconds = 3_600_000
        weak var gone: Recorder?
        var expected = TableState()
        do {
            let recorder = try Recorder(creating: path, options: options)
            gone = recorder
            for e in events { try recorder.append(e) }
            // An event past the last gesture end, which no batch has taken yet.
            try recorder.append(TimedEvent(.tick, t: events[events.count - 1].t))
            expected = recorder.state
        }
        // Its writer thread no longer keeps it alive (it did, for the process's life).
        #expect(gone == nil)
        let log = try LogReader(path: path)
        #expect(log.eventCount == events.count + 1)
        #expect(log.usedStoredIndex, "the drop wrote the index, as close() does")
        #expect(try log.state(at: log.eventCount) == expected)
        #expect(try LogReader.verify(path: path).problem == nil)
        // Let go: a new recorder appends at once.
        let next = try Recorder(appendingTo: path)
        try next.append(.tick)
        try next.close()
        #expect(try LogReader(path: path).eventCount == events.count + 2)
    }

    @Test("the refusal says what holds the log and that nothing changed")
    func refusalMessage() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("m.slog").path
        let first = try Recorder(creating: path)
        defer { try? first.close() }
        do {
            _ = try Recorder(appendingTo: path)
            Issue.record("a second recorder opened a log being written")
        } catch {
            #expect(error.code == .inUse)
            #expect(error.path == path)
            #expect(error.message.contains("another writer has this log open"))
            #expect(error.message.contains("nothing was changed"))
        }
    }

    @Test("compacting into a log a recorder is writing is refused, and the log is left to it")
    func compactIntoALogInUse() throws {
        guard Zstd.isAvailable else { return }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("s.slog").path
        let busy = dir.appendingPathComponent("busy.slog").path
        _ = try writeLog(Array(SyntheticSession(seed: 2, count: 500)), to: source)
        let recorder = try Recorder(creating: busy)
        try recorder.append(.reload(sections: [SectionSpec(rows: 10)]))
        try recorder.flush()
        #expect { try Recorder.compact(source, into: busy, replacingExisting: true) } throws: {
            ($0 as? LogError)?.code == .inUse
        }
        try recorder.append(.tap(ViewportPoint(x: 10, y: 10)))
        try recorder.close()
        #expect(try LogReader(path: busy).eventCount == 2)
    }

    @Test("a repair that finds the log grown since it was checked cuts nothing")
    func repairOfAGrownLog() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("g.slog").path
        _ = try writeLog(Array(SyntheticSession(seed: 4, count: 400)), to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Checked when it was 7 bytes shorter, a tail at `bytes.count - 7` looked torn.
        #expect { try LogRepair.cut(path, at: bytes.count - 7, checkedSize: bytes.count - 7 + 3) } throws: {
            ($0 as? LogError)?.code == .inUse
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["g.slog"])
    }

    @Test("a repair of a log a recorder in this process is writing is refused at once, not waited for")
    func repairInProcessRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.slog").path
        let recorder = try Recorder(creating: path)
        try recorder.append(.tick)
        try recorder.flush()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        var waited = false
        #expect { try LogRepair.cut(path, at: size - 1, checkedSize: size) { waited = true } } throws: {
            ($0 as? LogError)?.code == .inUse
        }
        #expect(!waited)
        try recorder.close()
        #expect(try LogReader(path: path).eventCount == 1)
    }

    @Test("a session that ended mid-pan resumes with the pan active; cancelled as INTEGRATION.md says, the next pan begins")
    func resumedMidPan() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("p.slog").path
        let first = try Recorder(creating: path)
        try first.append(.reload(sections: [SectionSpec(rows: 50)]))
        try first.append(.panBegan(ViewportPoint(x: 200, y: 100), fingers: 1))
        try first.append(.panMoved(ViewportPoint(x: 200, y: 60)))
        try first.close()  // as a crash mid-drag leaves it, but for the index

        let resumed = try Recorder(appendingTo: path)
        #expect(resumed.state.pan != nil)
        #expect { try resumed.append(.panBegan(ViewportPoint(x: 200, y: 300), fingers: 1)) } throws: {
            ($0 as? LogError)?.code == .invalidEvent
        }
        // INTEGRATION.md's recipe (TableViewForwarder's init).
        if resumed.state.pan != nil { try resumed.append(.panCancelled) }
        try resumed.append(.panBegan(ViewportPoint(x: 200, y: 300), fingers: 1))
        try resumed.append(.panEnded(at: ViewportPoint(x: 200, y: 280)))
        try resumed.close()
        #expect(try LogReader(path: path).eventCount == 6)
    }

    @Test("the file system of a device is read from mountinfo, so that SMB mounts (mandatory flock on Linux) are written without the lock")
    func mountInfoTypes() {
        let table = """
            22 27 0:21 / /proc rw,relatime - proc proc rw
            98 27 0:55 / /mnt/share rw,relatime shared:50 - cifs //srv/share rw,vers=3.1.1
            99 27 8:1 / / rw,relatime - ext4 /dev/sda1 rw
            """
        #expect(FileIO.fileSystemType(inMountInfo: table, device: "0:55") == "cifs")
        #expect(FileIO.fileSystemType(inMountInfo: table, device: "8:1") == "ext4")
        #expect(FileIO.fileSystemType(inMountInfo: table, device: "0:56") == nil)
        #expect(FileIO.smbTypes.contains("cifs") && !FileIO.smbTypes.contains("ext4") && !FileIO.smbTypes.contains("nfs4"))
    }

    @Test("a special file is not locked: two recorders may write to /dev/null at once")
    func specialFilesAreNotLocked() throws {
        guard FileManager.default.fileExists(atPath: "/dev/null") else { return }
        let one = try Recorder(creating: "/dev/null", replacingExisting: true)
        let two = try Recorder(creating: "/dev/null", replacingExisting: true)
        try one.append(.tick)
        try two.append(.tick)
        try one.close()
        try two.close()
    }

    #if canImport(Glibc)
    @Test("close releases the lock even while a child forked meanwhile still shares the descriptor")
    func closeReleasesTheLockDespiteAFork() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("f.slog").path
        let recorder = try Recorder(creating: path)
        try recorder.append(.tick)
        // A child forked by any thread of the process (a `Process` spawned elsewhere)
        // shares the recorder's open file until it execs or exits: here it only sleeps.
        // It keeps only the log's descriptors, found before the fork: the pipes and locks
        // that tests running beside this one hold (even those opened after the list was
        // made) would stay open in it while it sleeps, and their ends would not see the
        // close they wait for. The child closes every other descriptor below 2^16 in a
        // loop of integer arithmetic, calling nothing but close, usleep and _exit.
        var log = stat()
        try #require(stat(path, &log) == 0)
        let keep = UnsafeMutablePointer<Int32>.allocate(capacity: 16)
        defer { keep.deallocate() }
        var kept = 0
        for fd in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap({ Int32($0) }) where kept < 16 {
            var info = stat()
            if fstat(fd, &info) == 0, info.st_dev == log.st_dev, info.st_ino == log.st_ino {
                keep[kept] = fd
                kept += 1
            }
        }
        try #require(kept > 0, "the recorder's descriptor of the log")
        let child = fork()
        if child == 0 {
            var fd: Int32 = 3
            while fd < 1 << 16 {
                var isLog = false, i = 0
                while i < kept {
                    if keep[i] == fd { isLog = true }
                    i += 1
                }
                if !isLog { close(fd) }
                fd += 1
            }
            usleep(2_000_000)
            _exit(0)
        }
        try #require(child > 0)
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        try recorder.close()
        let again = try Recorder(appendingTo: path)
        try again.append(.tick)
        try again.close()
        #expect(try LogReader(path: path).eventCount == 2)
    }
    #endif
}
