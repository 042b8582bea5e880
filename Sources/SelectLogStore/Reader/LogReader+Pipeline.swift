import Foundation
import SelectLog

extension LogReader {
    /// A replay of at least this many events decodes on a second thread while the
    /// caller's applies: decoding and the reducers cost about the same, so on two cores a
    /// long replay takes the time of the slower of the two instead of their sum.
    static let pipelinedReplayEvents = 65_536

    /// Whether a second thread can run beside the caller's.
    static let hasSecondCore = ProcessInfo.processInfo.activeProcessorCount > 1

    /// Replays events `state.events ..< n` into `state` as `replay(into:to:)` does, in the
    /// same order and with the same outcome (the same error at the same event, and the
    /// events before it applied), but decoded on a second thread, a chunk at a time.
    func pipelinedReplay(into state: inout TableState, to n: Int) throws(LogError) {
        let start = state.events
        let pipe = LockedBox(ReplayPipe())
        let thread = Thread { [self] in
            var chunk = [TimedEvent]()
            chunk.reserveCapacity(ReplayPipe.chunkEvents)
            var failure: LogError?
            do throws(LogError) {
                try forEachEvent(from: start, to: n) { _, e in
                    chunk.append(e)
                    guard chunk.count == ReplayPipe.chunkEvents else { return true }
                    return ReplayPipe.hand(&chunk, to: pipe)
                }
            } catch {
                failure = error
            }
            pipe.withLockedValue { p in
                if !chunk.isEmpty { p.ready.append(chunk) }
                p.failure = failure
                p.decoderDone = true
            }
            pipe.wake()
        }
        thread.name = "selectlog.replay"
        thread.start()
        var index = start
        do throws(LogError) {
            while let chunk = ReplayPipe.next(from: pipe) {
                for e in chunk {
                    try apply(e, index: index, to: &state, validated: true)
                    index += 1
                }
                pipe.withLockedValue { p in p.spare = chunk }
            }
        } catch {
            // The decoder stops at its next hand-over; it is waited for, so no thread outlives the call.
            pipe.withLockedValue { $0.cancelled = true }
            pipe.wake()
            pipe.withLockedValue(waitingFor: { $0.decoderDone }) { _, _ in }
            throw error
        }
        if let failure = pipe.withLockedValue({ $0.failure }) { throw failure }
    }
}

/// What the decoding thread and the applying thread of a pipelined replay share.
struct ReplayPipe: Sendable {
    /// Events per chunk: small enough that a chunk's storage is reused, not mapped afresh.
    static let chunkEvents = 2048
    /// Chunks decoded ahead of the applying thread, at most.
    static let ahead = 4

    /// Decoded chunks, in order.
    var ready: [[TimedEvent]] = []
    /// A chunk the applying thread is done with, for its storage.
    var spare: [TimedEvent]?
    var failure: LogError?
    var decoderDone = false
    /// Set when the applying thread stops early (an event was rejected).
    var cancelled = false

    /// Hands a full chunk over (waiting while `ahead` chunks wait) and gives the decoder
    /// storage for the next; false once the applying thread has stopped.
    static func hand(_ chunk: inout [TimedEvent], to pipe: LockedBox<ReplayPipe>) -> Bool {
        let go = pipe.withLockedValue(waitingFor: { $0.ready.count < ahead || $0.cancelled }) { p, _ -> Bool in
            guard !p.cancelled else { return false }
            p.ready.append(chunk)
            if var reused = p.spare {
                p.spare = nil
                reused.removeAll(keepingCapacity: true)
                chunk = reused
            } else {
                chunk = []
                chunk.reserveCapacity(chunkEvents)
            }
            return true
        }
        pipe.wake()
        return go
    }

    /// The next decoded chunk, waiting for it; nil when the decoder has finished and
    /// every chunk was taken.
    static func next(from pipe: LockedBox<ReplayPipe>) -> [TimedEvent]? {
        let chunk = pipe.withLockedValue(waitingFor: { !$0.ready.isEmpty || $0.decoderDone }) { p, _ -> [TimedEvent]? in
            p.ready.isEmpty ? nil : p.ready.removeFirst()
        }
        pipe.wake()
        return chunk
    }
}
