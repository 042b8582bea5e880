import SelectLog

/// The shared prediction of time and finger position; the encoder and decoder
/// must run it identically.
struct Predictor {
    private var time: Int64
    private var interval: Int64 = 0
    private var x: Int64 = 0, y: Int64 = 0
    private var vx: Int64 = 0, vy: Int64 = 0
    private var scroll = Channel()
    private var swipe = Channel()
    /// Version 2: adaptive finger prediction and predicted relative scrolls.
    private let adaptive: Bool
    private var fingerX = AdaptiveChannel(), fingerY = AdaptiveChannel()
    private var scrollBy = AdaptiveChannel()

    /// One value predicted from its last value and last step.
    struct Channel {
        var value: Int64 = 0
        var step: Int64 = 0

        mutating func residual(_ v: Int64) -> Int64 {
            let r = v &- (value &+ step)
            step = v &- value
            value = v
            return r
        }

        mutating func value(fromResidual r: Int64) -> Int64 {
            let v = value &+ step &+ r
            step = v &- value
            value = v
            return v
        }
    }

    mutating func scrollResidual(_ v: Int64) -> Int64 { scroll.residual(v) }
    mutating func scroll(fromResidual r: Int64) -> Int64 { scroll.value(fromResidual: r) }
    mutating func swipeResidual(_ v: Int64) -> Int64 { swipe.residual(v) }
    mutating func swipe(fromResidual r: Int64) -> Int64 { swipe.value(fromResidual: r) }

    /// A predictor at the start of a batch; `version` is the log's format version.
    init(time: Micros, version: UInt16 = LogFormat.version) {
        self.time = time.raw
        adaptive = version >= 2
    }

    /// Encoder side: the residual of `t` against the predicted next time.
    mutating func timeResidual(_ t: Micros) -> Int64 {
        let dt = t.raw &- time
        defer { interval = dt; time = t.raw }
        return dt &- interval
    }

    /// Decoder side.
    mutating func time(fromResidual r: Int64) -> Micros {
        interval = interval &+ r
        time = time &+ interval
        return Micros(raw: time)
    }

    /// Encoder side: the residuals of a finger position against its prediction.
    mutating func pointResidual(_ p: ViewportPoint) -> (Int64, Int64) {
        if adaptive { return (fingerX.residual(p.x.raw), fingerY.residual(p.y.raw)) }
        let rx = p.x.raw &- (x &+ vx), ry = p.y.raw &- (y &+ vy)
        vx = p.x.raw &- x
        vy = p.y.raw &- y
        x = p.x.raw
        y = p.y.raw
        return (rx, ry)
    }

    /// Decoder side.
    mutating func point(fromResidual rx: Int64, _ ry: Int64) -> (Int64, Int64) {
        if adaptive { return (fingerX.value(fromResidual: rx), fingerY.value(fromResidual: ry)) }
        let nx = x &+ vx &+ rx, ny = y &+ vy &+ ry
        vx = nx &- x
        vy = ny &- y
        x = nx
        y = ny
        return (nx, ny)
    }

    /// Encoder side (version 2): a relative scroll `by`, predicted from the previous ones.
    mutating func scrollByResidual(_ dy: Int64) -> Int64 { scrollBy.residual(dy) }

    /// Decoder side (version 2).
    mutating func scrollBy(fromResidual r: Int64) -> Int64 { scrollBy.value(fromResidual: r) }

    /// One coordinate of a finger, predicted by whichever of two predictors has erred
    /// less lately: "where it was" (right for random walks, whose steps are
    /// independent) or "where it was plus its last step" (right for steady motion).
    /// Both sides update the error sums from the decoded value, so they agree.
    ///
    /// Values on a coarser grid than 1/64 pt (a 2x screen's half points) are stored
    /// divided by the grid: `grid` is the largest power of two (at most 64) that every
    /// value of the batch so far is a multiple of, so the prediction is on it too. The
    /// stored number is `2 * (residual / 2^grid)` for a value on the grid and
    /// `2 * residual + 1` for one off it; with `grid` 0, the residual itself.
    struct AdaptiveChannel {
        var value: Int64 = 0
        var step: Int64 = 0
        var grid = 6
        /// Decaying sums of the two predictors' absolute errors.
        var stillError: Int64 = 0
        var movingError: Int64 = 0

        var prediction: Int64 { movingError <= stillError ? value &+ step : value }

        mutating func update(_ v: Int64) {
            if v != 0 { grid = Swift.min(grid, v.trailingZeroBitCount) }
            let still = (v &- value).magnitude, moving = (v &- value &- step).magnitude
            stillError = stillError - stillError >> 2 + Int64(clamping: Swift.min(still, 1 << 40))
            movingError = movingError - movingError >> 2 + Int64(clamping: Swift.min(moving, 1 << 40))
            step = v &- value
            value = v
        }

        mutating func residual(_ v: Int64) -> Int64 {
            let r = v &- prediction
            let stored: Int64
            if grid == 0 {
                stored = r
            } else if r & ((1 << grid) - 1) == 0 {
                stored = (r >> grid) &<< 1
            } else {
                stored = r &<< 1 | 1
            }
            update(v)
            return stored
        }

        mutating func value(fromResidual stored: Int64) -> Int64 {
            let r: Int64
            if grid == 0 {
                r = stored
            } else if stored & 1 == 0 {
                r = (stored >> 1) &<< grid
            } else {
                r = stored >> 1
            }
            let v = prediction &+ r
            update(v)
            return v
        }
    }
}
