/// Where each segment of a pipelined replay starts: segment 0 at `start`; segment k
/// (k > 0) at the start of the window that holds event `start + k * size`, but neither
/// after that event nor before segment k - 1's start. Unaligned, at that event.
///
/// So a segment that starts at a window decodes no event before its own, and the starts
/// never go back, whatever the file says: a start that cannot be read (damage before
/// it) stays at its event, and the segment before meets the damage, in order. A window
/// that began before segment k - 1's start (the writer's windows hold 8,192 events or a
/// little more, shorter than a segment; a crafted one can be any length) makes segment
/// k - 1 empty, and segment k decodes it once: one thread, not each segment's thread,
/// decodes it, and no thread decodes a part of it only to skip it.
///
/// A segment's end is the next one's start, and the two are asked by different decoding
/// threads. The starts are worked out in order, each once, and kept until asked twice,
/// so both threads cut at the same event, and few are kept however long the replay.
final class SegmentBounds: Sendable {
    private let reader: LogReader
    private let start: Int, end: Int, size: Int
    private let aligned: Bool
    /// The last segment whose start is worked out, that start, the batch that holds its
    /// plain first event (where the next walk starts), and the starts not yet asked twice
    /// (with the asks they still wait for).
    private struct Found {
        var segment = 0
        var start: Int
        var walk: LogReader.BatchInWindow?
        var kept: [Int: (start: Int, asks: Int)] = [:]
    }
    private let found: LockedBox<Found>

    init(reader: LogReader, start: Int, end: Int, size: Int, aligned: Bool) {
        self.reader = reader
        self.start = start
        self.end = end
        self.size = size
        self.aligned = aligned
        found = LockedBox(Found(start: start))
    }

    /// The first event of segment `k`.
    func start(of k: Int) -> Int {
        let plain = Swift.min(end, start + k * size)
        guard aligned, k > 0, plain < end else { return plain }
        return found.withLockedValue { f in
            if let kept = f.kept[k] {
                f.kept[k] = kept.asks > 1 ? (kept.start, kept.asks - 1) : nil
                return kept.start
            }
            guard k > f.segment else {
                // Asked a third time (a replay asks each start twice): worked out again.
                var again = Found(start: start)
                while again.segment < k { next(&again) }
                return again.start
            }
            while f.segment < k {
                next(&f)
                f.kept[f.segment] = (f.start, f.segment < k ? 2 : 1)
            }
            return f.start
        }
    }

    /// Works out the start of the segment after `f.segment` (whose plain first event is in
    /// the log), walking on from the batch that held the last one's.
    private func next(_ f: inout Found) {
        f.segment += 1
        let plain = start + f.segment * size
        let walk = try? reader.window(containing: plain, after: f.walk)
        if let walk { f.walk = walk }
        f.start = Swift.min(plain, Swift.max(f.start, walk?.start.header.firstEvent ?? plain))
    }
}
