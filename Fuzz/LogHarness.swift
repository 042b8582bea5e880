// libFuzzer harness: the log reader on forged files (mutations with their
// checksums recomputed, so they reach the decoders behind the checksums).
// Built by Fuzz/build.sh; run by `make fuzz`.
#if canImport(Glibc)
import Glibc
#endif
@testable import SelectLog
@testable import SelectLogStore

let logPath: String = {
    let dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    return "\(dir)/selectlog-fuzz-\(getpid()).slog"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size <= 1 << 20 else { return 0 }
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Half the inputs keep their checksums as mutated, half are forged.
    if size > 32, bytes[size - 1] & 1 == 0 { forgeChecksums(&bytes) }
    let fd = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return 0 }
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    checkLog()
    return 0
}

func finding(_ message: String) -> Never {
    print("FINDING: \(message)")
    fatalError(message)
}

func checkLog() {
    _ = try? LogReader.verify(path: logPath)
    guard let reader = try? LogReader(path: logPath) else { return }
    var count = 0
    var state = TableState()
    do {
        try reader.forEachEvent { index, event in
            if index != count { finding("event index \(index), expected \(count)") }
            count += 1
            do { _ = try state.apply(event) } catch { return false }
            let problems = state.invariantViolations()
            if !problems.isEmpty { finding("invariants broken at event \(index): \(problems)") }
            return true
        }
    } catch {
        return
    }
    if count > reader.eventCount { finding("\(count) events read, \(reader.eventCount) counted") }
    // Time travel lands on states the engine could reach: sound ones.
    for n in Set([0, reader.eventCount / 2, reader.eventCount]) {
        if let s = try? reader.state(at: n), !s.invariantViolations().isEmpty { finding("state(at: \(n)) is unsound") }
    }
}
