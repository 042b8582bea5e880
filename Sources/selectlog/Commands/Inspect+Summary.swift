import ArgumentParser
import SelectLog
import SelectLogStore

extension Inspect {
    // MARK: Summary

    /// The summary; for a script (recorded into a temporary log to be read) the lines
    /// about the log file are left out, and its JSON gives them as null.
    func summarize(_ reader: LogReader, isScript: Bool) throws {
        let progress = Progress("inspect", total: reader.eventCount)
        let summary = try reader.summary { progress.update($0) }
        progress.finish()
        let batches = summary.batches, checkpoints = summary.checkpoints
        let raw = summary.rawBytes, stored = summary.storedBytes
        let pans = summary.pans, taps = summary.taps, swipes = summary.swipes
        let histogram = summary.types
        let firstT = summary.firstT
        let lastT = summary.lastT ?? .zero
        let n = max(reader.eventCount, 1)
        let types = histogram.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let first = firstT ?? .zero
        if json {
            var o = ObjectWriter()
            o.string("log", log)
            o.string("source", isScript ? "script" : "log")
            func fileField(_ key: String, _ value: @autoclosure () -> String) { o.raw(key, isScript ? "null" : value()) }
            fileField("bytes", String(reader.fileSize))
            fileField("version", String(reader.header.version))
            o.raw("events", String(reader.eventCount))
            // Null when no event carries a `t` (an empty log, say), as for the ratios below
            // when there is nothing to divide.
            o.raw("firstT", firstT?.description ?? "null")
            o.raw("lastT", summary.lastT?.description ?? "null")
            fileField("batches", String(batches))
            fileField("checkpoints", String(checkpoints))
            fileField("checkpointInterval", String(reader.header.checkpointInterval))
            fileField("storedIndex", String(reader.usedStoredIndex))
            fileField("bytesPerEvent", reader.eventCount == 0 ? "null" : decimal(Double(reader.fileSize) / Double(n)))
            fileField("compressionRatio", stored == 0 ? "null" : decimal(Double(raw) / Double(stored)))
            o.raw("gestures", "{\"pans\": \(pans), \"taps\": \(taps), \"swipes\": \(swipes)}")
            o.raw("types", "{" + types.map { "\(JSONText.quote($0.key)): \($0.value)" }.joined(separator: ", ") + "}")
            o.raw("tornTail", TornTailJSON.object(reader.tail))
            print(o.text)
            return
        }
        if isScript {
            print("script      \(log.escapingControls)")
        } else {
            print("log         \(log.escapingControls): \(reader.fileSize) bytes, format \(reader.header.version)")
        }
        if reader.eventCount == 0 {
            print("events      0")
        } else {
            if firstT == nil {
                // No event has a time (a script without "t"): none to show, as the JSON's nulls say.
                print("events      \(reader.eventCount), no times")
            } else {
                print("events      \(reader.eventCount), t \(first) ms to \(lastT) ms (\(ReportText.duration(lastT.raw &- first.raw)))")
            }
        }
        if !isScript {
            print("records     \(counted(batches, "batch", "batches")), \(counted(checkpoints, "checkpoint", "checkpoints")) (\(reader.header.checkpointInterval == 0 ? "none asked for" : "at multiples of \(counted(Int(reader.header.checkpointInterval), "event", "events"))")), index \(reader.usedStoredIndex ? "stored" : "rebuilt by scanning")")
            if reader.eventCount == 0 {
                print("size        no events")
            } else {
                // Coded batches (format 3 on) are rarely worth zstd's while: say so, not "1.00x".
                let batches = raw == stored ? "batches \(decimal(Double(stored) / Double(n))) bytes/event (zstd compressed none of them further)"
                    : "batches \(decimal(Double(raw) / Double(n))) -> \(decimal(Double(stored) / Double(n))) bytes/event compressed (\(decimal(Double(raw) / Double(max(stored, 1))))x)"
                print("size        \(decimal(Double(reader.fileSize) / Double(n))) bytes/event; \(batches)")
            }
        }
        print("gestures    \(counted(pans, "pan", "pans")), \(counted(taps, "tap", "taps")), \(counted(swipes, "swipe", "swipes"))")
        if let tail = reader.tail { print("torn tail   at byte offset \(tail.offset): \(tail.reason)") }
        print("types")
        let widest = types.map(\.value).max() ?? 1
        for (name, count) in types {
            let bar = String(repeating: "#", count: max(1, count * 30 / widest))
            let label = name.padding(toLength: 18, withPad: " ", startingAt: 0)
            let number = String(count)
            print("  \(label)\(String(repeating: " ", count: max(1, 9 - number.count)))\(number) \(percent(count, n)) \(bar)")
        }
    }
}

/// `1 batch`, `2 batches`.
func counted(_ n: Int, _ one: String, _ many: String) -> String { ReportText.counted(n, one, many) }
