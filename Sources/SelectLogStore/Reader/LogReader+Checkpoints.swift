import SelectLog

extension LogReader {
    /// Checkpoint `c`'s snapshot, resolved: its payload, or (version 7) the whole snapshot
    /// its chain of deltas gives. The chain is walked back from `c` through the checkpoints
    /// before it, each a depth shallower, to a whole snapshot or the one resolved last: at
    /// most 15 records, and one for a walk of the checkpoints in order.
    func snapshot(of c: RecordInfo) throws(LogError) -> [UInt8] {
        let cached = lastResolved.withLockedValue { $0 }
        if let cached, cached.offset == c.offset { return cached.bytes }
        do throws(LogError) {
            let raw = try payload(c)
            guard header.version >= LogFormat.deltaCheckpointsVersion, SnapshotDelta.isDelta(raw) else {
                lastResolved.withLockedValue { $0 = .whole(raw, of: c) }
                return raw
            }
            // Newest first: each entry's base is the next one's record.
            var chain = [(info: c, raw: raw, header: try SnapshotDelta.header(raw, of: c))]
            var base: SnapshotDelta.Resolved?
            while let newest = chain.last {
                guard let (at, events) = try checkpoint(before: newest.info.offset) else { break }
                // The one resolved last, found without reading its record: a page read again
                // here, behind a walk that let it go, would stay in memory (2.3 MB more in a
                // `check` of 100M events).
                if let cached, cached.offset == at {
                    base = cached
                    break
                }
                let before = try record(at: at, events: events)
                let r = try payload(before)
                guard SnapshotDelta.isDelta(r) else {
                    base = .whole(r, of: before)
                    break
                }
                let h = try SnapshotDelta.header(r, of: before)
                // Depths fall by one a step, so the walk ends within 15 records.
                try SnapshotDelta.check(newest.header, of: newest.info, base: before.header.firstEvent, depth: h.depth)
                chain.append((before, r, h))
            }
            for link in chain.reversed() {
                base = try SnapshotDelta.resolve(link.raw, link.header, of: link.info, base: base)
            }
            guard let resolved = base else { return raw }
            lastResolved.withLockedValue { $0 = resolved }
            return resolved.bytes
        } catch {
            var e = error
            e.path = path
            throw e
        }
    }
}
