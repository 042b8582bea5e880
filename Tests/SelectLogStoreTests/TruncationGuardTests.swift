#if canImport(Glibc)
import Foundation
import Glibc
import SelectLog
@testable import SelectLogStore
import Testing

/// A log cut shorter by another process while it is read: with `LogTruncationGuard`
/// installed, the read finds damage and throws, where it raised SIGBUS and ended the
/// process (these tests crash the test run without the guard).
@Suite("A log truncated while it is read", .serialized)
struct TruncationGuardTests {
    @Test("a reader whose log is truncated under it throws .damaged and counts the fault")
    func readerThrows() throws {
        LogTruncationGuard.install()
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("cut.slog").path
        // Small batches and many checkpoints: a log of several pages from few events.
        let events = Array(SyntheticSession(seed: 5, count: 8_000))
        _ = try writeLog(events, to: path, options: smallBatches(checkpointInterval: 200))
        // A cleanly closed log opens from its stored index: no record is read yet.
        let reader = try LogReader(path: path)
        #expect(reader.usedStoredIndex)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        #expect(reader.fileSize > 4 * page)
        let before = LogTruncationGuard.faults
        #expect(truncate(path, off_t(page)) == 0)
        let error = #expect(throws: LogError.self) { _ = try reader.state(at: events.count) }
        #expect(error?.code == .damaged)
        #expect(error?.message == LogTruncationGuard.message(size: page), "\(String(describing: error))")
        #expect(LogTruncationGuard.faults > before)
    }

    @Test("a log cut between its mapping and the walk at open is an error saying so, not a shorter log",
          arguments: [true, false])
    func cutAtOpen(wholePages: Bool) throws {
        LogTruncationGuard.install()
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("open.slog").path
        let events = Array(SyntheticSession(seed: 6, count: 8_000))
        _ = try writeLog(events, to: path, options: smallBatches(checkpointInterval: 200))
        // Bytes after the index: the reader walks the records at open, and takes a tail
        // of zeros, or a record cut short, for a torn tail that a writer left.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\u{0}not a record".utf8))
        try handle.close()
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        // Every page but the first (a fault), or the last 100 bytes (no fault: the bytes
        // past the new end of the last page read as zeros).
        let cut = wholePages ? page : size - 100
        #expect(size > 4 * page)
        MappedFile.afterMapping.withLockedValue { hook in
            hook = { mapped in if mapped == path { _ = truncate(mapped, off_t(cut)) } }
        }
        defer { MappedFile.afterMapping.withLockedValue { $0 = nil } }
        let error = #expect(throws: LogError.self) { _ = try LogReader(path: path) }
        #expect(error?.code == .damaged)
        #expect(error?.message == LogTruncationGuard.message(size: cut), "\(String(describing: error))")
    }

    @Test("a page cut from a mapping reads as zeros, and the rest of the mapping with it")
    func zerosAfterTheCut() throws {
        LogTruncationGuard.install()
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("pages.bin").path
        let pages = 16, page = Int(sysconf(Int32(_SC_PAGESIZE)))
        try Data(repeating: 0xA5, count: pages * page).write(to: URL(fileURLWithPath: path))
        let file = try MappedFile(path: path)
        let bytes = file.bytes
        #expect(bytes[page] == 0xA5)
        #expect(truncate(path, page) == 0)
        let before = LogTruncationGuard.faults
        // The first page is still the file's; the others are gone, every one of them zeros.
        #expect(bytes[page - 1] == 0xA5)
        #expect(bytes[page + 7] == 0)
        #expect((1..<pages).allSatisfy { bytes[$0 * page + 11] == 0 })
        #expect(bytes[pages * page - 1] == 0)
        // One fault mapped zeros over everything after the cut: not one fault a page (15).
        // The count is the whole process's, so a fault of another test running beside
        // this one may be counted too; a few are allowed for that.
        let faults = LogTruncationGuard.faults - before
        #expect((1...3).contains(faults), "\(faults) faults")
    }

    @Test("a mapping is watched while it is open, and its slot is free again once it is closed")
    func watchedWhileOpen() throws {
        LogTruncationGuard.install()
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("watched.bin").path
        try Data(repeating: 1, count: 10_000).write(to: URL(fileURLWithPath: path))
        // More mappings, one after another, than the guard has slots: each is watched,
        // so each closed one gave its slot back.
        for _ in 0..<(LogTruncationGuard.capacity + 100) {
            let file = try MappedFile(path: path)
            let base = try #require(file.bytes.baseAddress)
            #expect(LogTruncationGuard.watches(base))
            #expect(LogTruncationGuard.watches(base + 9_999))
        }
        // An address range no mapping holds: watched between `watch` and `unwatch` only.
        let range = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        defer { range.deallocate() }
        #expect(!LogTruncationGuard.watches(range))
        let slot = try #require(LogTruncationGuard.watch(range, count: 64))
        #expect(LogTruncationGuard.watches(range + 63))
        #expect(!LogTruncationGuard.watches(range + 64))
        LogTruncationGuard.unwatch(slot)
        #expect(!LogTruncationGuard.watches(range))
    }
}
#endif
