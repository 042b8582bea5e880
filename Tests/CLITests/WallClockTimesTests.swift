import Foundation
import SelectLog
import Testing

/// Times an app takes from the wall clock (milliseconds since 1970) are valid: a session
/// stamped so is recorded, replayed and exported whole, not refused at its first line.
@Suite("Wall-clock times")
struct WallClockTimesTests {
    @Test("a script stamped in milliseconds since 1970 records, checks and exports as it was written")
    func epochMilliseconds() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = """
            {"type": "reload", "t": 1765000000000, "sections": [{"rows": 20}]}
            {"type": "tap", "t": 1765000000016.5, "x": 100, "y": 10}
            {"type": "panBegan", "t": 1765000000100, "x": 100, "y": 300}
            {"type": "panMoved", "t": 1765000000108.333, "x": 100, "y": 280}
            {"type": "panEnded", "t": 1765000000116.667}

            """
        let path = try CLI.write(script, to: "wall.jsonl", in: dir)
        let log = dir.appendingPathComponent("wall.slog").path
        let recorded = try CLI.run(["record", path, "-o", log])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let replayed = try CLI.run(["replay", log, "--expect", "t == 1765000000116.667 and events == 5"])
        #expect(replayed.status == 0, "\(replayed.stdout) \(replayed.stderr)")
        #expect(try CLI.run(["check", log]).status == 0)
        let exported = try CLI.run(["export", log])
        #expect(exported.status == 0, "\(exported.stderr)")
        let times = exported.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let t = line.range(of: "\"t\": ") else { return nil }
            return String(line[t.upperBound...].prefix { $0 != "," && $0 != "}" })
        }
        #expect(times == ["1765000000000", "1765000000016.5", "1765000000100", "1765000000108.333", "1765000000116.667"], "\(exported.stdout)")
    }

    @Test("a time past 8e12 ms is refused at its line, saying the range")
    func pastTheLimit() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try CLI.write("{\"type\": \"tick\", \"t\": 8000000000000.001}\n", to: "late.jsonl", in: dir)
        let r = try CLI.run(["replay", path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("line 1: tick: field \"t\" is out of range (0 to 8e12 ms)"), "\(r.stderr)")
    }

    @Test("every time up to the limit, written in milliseconds to the microsecond, reads back exactly as a double")
    func exactAsDoubles() throws {
        let limit = EventLimits.time.raw
        // The coarsest doubles are the largest: the last 100,000 µs below the limit, and a
        // spread of earlier ones.
        let last: [Int64] = Array((limit - 100_000)...limit)
        let spread: [Int64] = Array(stride(from: Int64(0), to: limit, by: Int64.Stride(limit / 1_000 + 7)))
        let times = last + spread
        for raw in times {
            let text = Micros(raw: raw).description
            let back = try #require(Double(text), "\(text)")
            // Printed back as the shortest decimal that reads as that double (as JavaScript
            // and Swift print numbers), it is the text again: no two microseconds share one.
            let shortest = "\(back)"
            #expect(shortest == text || shortest == text + ".0", "\(text) reads as \(shortest)")
        }
    }
}
