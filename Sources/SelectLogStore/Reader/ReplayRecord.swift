import SelectLog

/// A decoded event as a replay reads it (and a pipelined one moves it from a decoding
/// thread to the applying one): the kinds most events are (ticks, pan samples, scrolls,
/// swipe moves) as plain values, which cost nothing to copy or destroy and are applied by
/// a call to their reducer (`TableState.applyValidatedTick` and its siblings); any other
/// event is `.other`, and comes as a `TimedEvent` beside it.
///
/// A record holds only what the coded batch decoder has checked as `TimedEvent.validate()`
/// would (its fields and time within `EventLimits`; the same rule as its `needsCheck`):
/// an event that needs the full check is never a record.
struct ReplayRecord {
    /// `fingerprint` is no event: a gesture fingerprint recorded after the events before
    /// it (`a`: its value), which only a check asks the decoder for.
    enum Kind: UInt8 { case other, tick, panMoved, scroll, swipeMoved, fingerprint }

    var kind = Kind.other
    /// `t` is `Micros(raw: time)` when `hasTime`, else nil.
    var hasTime = false
    /// A scroll's motion (0 none, 1 `to`, 2 `by`), phase (0 none, 1 decelerate, 2 idle)
    /// and whether it has a target.
    var motion: UInt8 = 0
    var phase: UInt8 = 0
    var hasTarget = false
    var time: Int64 = 0
    /// A pan sample's x and y; a scroll's motion value and target; a swipe's offset; a
    /// fingerprint's value and the byte offset of the batch that holds it.
    var a: Int64 = 0
    var b: Int64 = 0

    var t: Micros? { hasTime ? Micros(raw: time) : nil }

    var scrollMotion: ScrollMotion? {
        switch motion {
        case 1: .to(Points(raw: a))
        case 2: .by(Points(raw: a))
        default: nil
        }
    }

    var scrollPhase: ScrollPhase? {
        switch phase {
        case 1: .decelerate
        case 2: .idle
        default: nil
        }
    }

    /// The event a record stands for (nil for `.other`, which stands for none itself, and
    /// for a fingerprint).
    var event: TimedEvent? {
        switch kind {
        case .other, .fingerprint: nil
        case .tick: TimedEvent(.tick, t: t)
        case .panMoved: TimedEvent(.panMoved(ViewportPoint(x: Points(raw: a), y: Points(raw: b))), t: t)
        case .scroll: TimedEvent(.scroll(scrollMotion, phase: scrollPhase, target: hasTarget ? Points(raw: b) : nil), t: t)
        case .swipeMoved: TimedEvent(.swipeMoved(offset: Points(raw: a)), t: t)
        }
    }

    /// Applies the event a record of the standard engine's kinds stands for, as
    /// `TableState.applyValidated` would apply `event`.
    @inline(__always)
    func apply(to state: inout TableState) throws(InvalidEvent) {
        switch kind {
        case .tick: try state.applyValidatedTick(at: t)
        case .panMoved: try state.applyValidatedPanMoved(to: ViewportPoint(x: Points(raw: a), y: Points(raw: b)), at: t)
        case .scroll: try state.applyValidatedScroll(scrollMotion, phase: scrollPhase, target: hasTarget ? Points(raw: b) : nil, at: t)
        case .swipeMoved: try state.applyValidatedSwipeMoved(offset: Points(raw: a), at: t)
        case .other, .fingerprint: break
        }
    }
}
