/// How a pan ends: every pan ends in `finishPan`, whichever event ends it.
enum PanEnding {
    /// `panEnded`: a drag scroll may start decelerating; a selection pan's changes
    /// become one undo step.
    case ended(targetOffset: Points?)
    /// `panCancelled`: a selection pan puts the selection back as it was at `panBegan`.
    case cancelled
    /// Another event ends a selection pan while the finger stays down (spec 5.3,
    /// interrupted pans): as `panEnded`, or as `panCancelled` when `cancel`.
    /// A drag scroll and an interrupted pan go on unchanged.
    case interrupted(cancel: Bool)
}

/// The transitions of the pan state machine (spec 5.3). Each `switch` names every state.
extension TableState {
    mutating func panBegan(at p: ViewportPoint, fingers: Int, now: Micros, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        switch gesture.state {
        case .idle: break
        case .interrupted: throw InvalidEvent("panBegan", "a pan is already active (an interrupted one, whose finger is still down)")
        case .dragScroll, .waitingForStartRow, .running, .autoScrolling: throw InvalidEvent("panBegan", "a pan is already active")
        }
        scroll.stopDecelerating()
        let c = configuration
        if fingers == 2, c.multiSelectInteraction, c.allowsMultipleSelectionDuringEditing, row(at: p) != nil {
            if !editing { setEditing(true) }
            beginSelecting(.multiSelect, at: p, reversal: .restore, &changed)
        } else if fingers == 1, c.strip.enabled, isInStrip(p.x), isMultiple {
            beginSelecting(.strip, at: p, reversal: c.strip.reversal, &changed)
        } else {
            gesture.enter(.dragScroll(DragScroll(began: p, offsetAtBegan: contentOffset)), kind: .scroll)
        }
    }

    private mutating func beginSelecting(_ kind: Pan.Kind, at p: ViewportPoint, reversal: Reversal, _ changed: inout SelectionDelta) {
        var pan = SelectionPan(kind: kind, reversal: reversal, yAtBegan: p.y, offsetAtBegan: contentOffset,
                               finger: p, direction: nil, selectionBefore: selection, rows: nil)
        applyMoveRule(&pan, reversal: false, &changed)
        settle(pan, autoscroll: nil)
    }

    mutating func panMoved(to p: ViewportPoint, now: Micros, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        switch gesture.state {
        case .idle:
            throw InvalidEvent("panMoved", "no pan is active")
        case .dragScroll(let drag):
            contentOffset = clampedOffset(drag.offsetAtBegan - (p.y - drag.began.y))
        case .waitingForStartRow(var pan), .running(var pan):
            var auto: AutoScroll?
            countMove(&pan, &auto, to: p, now: now, &changed)
            settle(pan, autoscroll: auto)
        case .autoScrolling(var pan, let running):
            var auto: AutoScroll? = running
            countMove(&pan, &auto, to: p, now: now, &changed)
            settle(pan, autoscroll: auto)
        case .interrupted:
            break  // its samples are ignored
        }
    }

    mutating func panEnded(at p: ViewportPoint?, targetOffset: Points?, now: Micros, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        switch gesture.state {
        case .idle:
            throw InvalidEvent("panEnded", "no pan is active")
        case .dragScroll(let drag):
            if let p { contentOffset = clampedOffset(drag.offsetAtBegan - (p.y - drag.began.y)) }
        case .waitingForStartRow(var pan), .running(var pan):
            if let p {
                var auto: AutoScroll?
                countMove(&pan, &auto, to: p, now: now, &changed)
                settle(pan, autoscroll: auto)
            }
        case .autoScrolling(var pan, let running):
            if let p {
                var auto: AutoScroll? = running
                countMove(&pan, &auto, to: p, now: now, &changed)
                settle(pan, autoscroll: auto)
            }
        case .interrupted:
            break  // ends it and changes nothing else
        }
        finishPan(.ended(targetOffset: targetOffset))
    }

    mutating func panCancelled() throws(InvalidEvent) {
        if case .idle = gesture.state { throw InvalidEvent("panCancelled", "no pan is active") }
        finishPan(.cancelled)
    }

    /// A row edit, `reload`, a `configure` that leaves a single mode, or a `setEditing`
    /// that changes editing, during a selection pan (spec 5.3, interrupted pans).
    mutating func interruptSelectionPan(cancel: Bool) {
        finishPan(.interrupted(cancel: cancel))
    }

    /// Where every pan ends.
    private mutating func finishPan(_ ending: PanEnding) {
        switch gesture.state {
        case .idle:
            return
        case .dragScroll:
            switch ending {
            case .ended(let targetOffset):
                gesture.enter(.idle, kind: nil)
                if let targetOffset {
                    let goal = clampedOffset(targetOffset)
                    if goal != contentOffset {
                        decelerating = true
                        target = goal
                    }
                }
            case .cancelled:
                gesture.enter(.idle, kind: nil)
            case .interrupted:
                return  // a drag scroll is never interrupted
            }
        case .interrupted:
            switch ending {
            case .ended, .cancelled: gesture.enter(.idle, kind: nil)
            case .interrupted: return
            }
        case .waitingForStartRow(let pan), .running(let pan), .autoScrolling(let pan, _):
            let cancel: Bool
            switch ending {
            case .ended: cancel = false
            case .cancelled: cancel = true
            case .interrupted(let c): cancel = c
            }
            if cancel {
                selection = pan.selectionBefore
            } else {
                let added = selection.subtracting(pan.selectionBefore)
                let removed = pan.selectionBefore.subtracting(selection)
                if !added.isEmpty || !removed.isEmpty { pushStep(.selection(added: added, removed: removed)) }
            }
            if case .interrupted = ending {
                gesture.enter(.interrupted(finger: pan.finger), kind: .interrupted)
            } else {
                gesture.enter(.idle, kind: nil)
            }
        }
    }

    /// `tick`: moves a running auto-scroll by the exact distance for the time since it
    /// last moved, then applies the move rule for the row now under the still finger.
    mutating func tick(_ now: Micros, _ changed: inout SelectionDelta) {
        switch gesture.state {
        case .autoScrolling(var pan, var auto):
            let distance = autoscrollDistance(elapsed: Micros(raw: now.raw - auto.since.raw))
            auto.since = now
            let moved = auto.direction == .up ? contentOffset - distance : contentOffset + distance
            contentOffset = clampedOffset(moved)
            applyMoveRule(&pan, reversal: false, &changed)
            settle(pan, autoscroll: auto)
        case .idle, .dragScroll, .waitingForStartRow, .running, .interrupted:
            return
        }
    }

    /// After the offset moved under a still finger (`scroll`, `jumpToSection`): a
    /// selection pan applies the move rule for the row now under the finger.
    mutating func followFingerAfterScroll(_ changed: inout SelectionDelta) {
        switch gesture.state {
        case .waitingForStartRow(var pan), .running(var pan):
            applyMoveRule(&pan, reversal: false, &changed)
            settle(pan, autoscroll: nil)
        case .autoScrolling(var pan, let auto):
            applyMoveRule(&pan, reversal: false, &changed)
            settle(pan, autoscroll: auto)
        case .idle, .dragScroll, .interrupted:
            return
        }
    }

    /// Stops auto-scroll once the offset sits at its bound in the scroll direction
    /// (spec 5.10.4); run after every event.
    mutating func stopAutoscrollAtBound() {
        // The direction first: the pan is copied out only when auto-scroll stops.
        guard let auto = gesture.autoscroll,
              (auto.direction == .up && contentOffset <= .zero) || (auto.direction == .down && contentOffset >= maxOffset),
              case .autoScrolling(let pan, _) = gesture.state else { return }
        settle(pan, autoscroll: nil)
    }

    /// The selection pan's phase: auto-scrolling, else running once it has its start row,
    /// else waiting for it.
    private mutating func settle(_ pan: SelectionPan, autoscroll: AutoScroll?) {
        if let autoscroll {
            var pan = pan
            pan.lastAutoscrollChange = autoscroll.since
            gesture.enter(.autoScrolling(pan, autoscroll), kind: pan.kind)
        } else if pan.rows == nil {
            gesture.enter(.waitingForStartRow(pan), kind: pan.kind)
        } else {
            gesture.enter(.running(pan), kind: pan.kind)
        }
    }
}
