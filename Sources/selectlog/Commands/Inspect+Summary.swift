import ArgumentParser
import SelectLog
import SelectLogStore

extension Inspect {
    // MARK: Summary

    func summarize(_ reader: LogReader) throws {
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
            o.raw("bytes", String(reader.fileSize))
            o.raw("version", String(reader.header.version))
            o.raw("events", String(reader.eventCount))
            o.raw("firstT", first.description)
            o.raw("lastT", lastT.description)
            o.raw("batches", String(batches))
            o.raw("checkpoints", String(checkpoints))
            o.raw("checkpointInterval", String(reader.header.checkpointInterval))
            o.raw("storedIndex", String(reader.usedStoredIndex))
            o.raw("bytesPerEvent", decimal(Double(reader.fileSize) / Double(n)))
            o.raw("compressionRatio", decimal(Double(raw) / Double(max(stored, 1))))
            o.raw("gestures", "{\"pans\": \(pans), \"taps\": \(taps), \"swipes\": \(swipes)}")
            o.raw("types", "{" + types.map { "\(JSONText.quote($0.key)): \($0.value)" }.joined(separator: ", ") + "}")
            o.raw("tornTail", reader.tail.map { "{\"offset\": \($0.offset), \"reason\": \(JSONText.quote($0.reason))}" } ?? "null")
            print(o.text)
            return
        }
        print("log         \(log): \(reader.fileSize) bytes, format \(reader.header.version)")
        print("events      \(reader.eventCount), t \(first) ms to \(lastT) ms (\(duration(Micros(raw: lastT.raw - first.raw))))")
        print("records     \(batches) batches, \(checkpoints) checkpoints (every \(reader.header.checkpointInterval) events), index \(reader.usedStoredIndex ? "stored" : "rebuilt by scanning")")
        print("size        \(decimal(Double(reader.fileSize) / Double(n))) bytes/event; batches \(decimal(Double(raw) / Double(n))) -> \(decimal(Double(stored) / Double(n))) bytes/event compressed (\(decimal(Double(raw) / Double(max(stored, 1))))x)")
        print("gestures    \(pans) pans, \(taps) taps, \(swipes) swipes")
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
