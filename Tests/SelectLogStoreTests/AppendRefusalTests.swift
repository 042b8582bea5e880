import Foundation
import Testing
@testable import SelectLog
@testable import SelectLogStore

/// `Recorder(appendingTo:)` refuses a log whose file header it cannot take as this
/// build's with the same kind and offset as `LogReader(path:)` gives (docs/LOG-FORMAT.md,
/// "File header"): a log from a newer selectlog is `.unsupported`, not damage, so that an
/// app downgraded below its logs is not sent down the repair path of INTEGRATION.md §9.
@Suite("appending to a log whose file header this build cannot take")
struct AppendRefusalTests {
    /// A closed log of a few events, its bytes changed by `change` and the file header's
    /// checksum made right again, as a newer writer (or a sound but foreign one) writes it.
    func forged(_ name: String, _ change: (inout [UInt8]) -> Void) throws -> (URL, String, [UInt8]) {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent(name).path
        try writeLog(Array(SyntheticSession(seed: 3, count: 20)), to: path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        change(&bytes)
        Forge.setFileHeaderChecksum(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (dir, path, bytes)
    }

    func readerError(_ path: String) -> LogError? {
        do { _ = try LogReader(path: path) } catch { return error }
        return nil
    }

    func recorderError(_ path: String) -> LogError? {
        do { try Recorder(appendingTo: path).close() } catch { return error }
        return nil
    }

    @Test("a newer format version, unknown required features and a wrong header length: the recorder says what the reader says",
          arguments: [
            ("newer-version", LogError.Code.unsupported, 8),
            ("unknown-required-feature", LogError.Code.unsupported, 12),
            ("wrong-header-length", LogError.Code.damaged, 10),
          ])
    func sameAsReader(_ name: String, _ code: LogError.Code, _ offset: Int) throws {
        let (dir, path, bytes) = try forged("\(name).slog") { b in
            switch name {
            case "newer-version": b[8] = 99; b[9] = 0
            // Bit 20: a required feature (bits 16-31) this build does not know.
            case "unknown-required-feature": b[14] |= 0x10
            default: b[10] = UInt8(LogFormat.fileHeaderSizeV1)
            }
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        let reader = readerError(path)
        #expect(reader?.code == code && reader?.offset == offset, "the reader: \(String(describing: reader))")
        let recorder = recorderError(path)
        #expect(recorder?.code == code, "the recorder: \(String(describing: recorder))")
        #expect(recorder?.offset == offset, "the recorder: \(String(describing: recorder))")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes, "a refused log was changed")
    }

    /// LOG-FORMAT.md: bits 16-31 of the feature flags are required features. The refusal
    /// names the unknown ones as the header holds them, so that they can be looked up.
    @Test("unknown required feature bits are named as the header holds them (bit 20: 0x00100000), not shifted down")
    func requiredFeaturesNamed() throws {
        let (dir, path, _) = try forged("bit20.slog") { b in b[14] |= 0x10 }
        defer { try? FileManager.default.removeItem(at: dir) }
        for error in [readerError(path), recorderError(path)] {
            #expect(error?.message.contains("0x00100000") == true, "\(String(describing: error))")
            #expect(error?.message.contains("(0x10)") == false, "\(String(describing: error))")
        }
    }

    /// INTEGRATION.md §9's resume repairs on `.damaged` and starts a new session when
    /// nothing is intact: a file that is no log takes that path, as before.
    @Test("a file that is no log is refused as damaged at offset 0, and the documented resume starts a new session")
    func notALogStaysDamaged() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("notes.slog").path
        try Data(repeating: UInt8(ascii: "x"), count: 100).write(to: URL(fileURLWithPath: path))
        let error = recorderError(path)
        #expect(error?.code == .damaged && error?.offset == 0, "\(String(describing: error))")
        #expect(try LogRepair.repair(path).isIntact == false)
    }
}
