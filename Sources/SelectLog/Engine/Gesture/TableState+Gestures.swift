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
        case .interrupted: throw InvalidEvent(.notAllowedNow, "panBegan", "a pan is already active (an interrupted one, whose finger is still down)")
        case .dragScroll, .waitingForStartRow, .running, .autoScrolling: throw InvalidEvent(.notAllowedNow, "panBegan", "a pan is already active")
        }
        scroll.stopDecelerating()
        let c = configuration
        if fingers == 2, c.multiSelectInteraction, c.allowsMultipleSelectionDuringEditing, row(at: p) != nil {
            if !editing {
                // Turning editing on clears the selection (spec 5.1).
                changed.record(added: RowSet(), removed: selection)
                setEditing(true)
            }
            beginSelecting(.multiSelect, at: p, reversal: .restore, &changed)
        } else if fingers == 1, c.strip.enabled, isInStrip(p.x), isMultiple {
            beginSelecting(.strip, at: p, reversal: c.strip.reversal, &changed)
        } else {
            gesture.enter(.dragScroll(DragScroll(began: p, offsetAtBegan: contentOffset)), kind: .scroll)
        }
    }

    private mutating func beginSelecting(_ kind: Pan.Kind, at p: ViewportPoint, reversal: Reversal, _ changed: inout SelectionDelta) {
        let begun = SelectionPan(kind: kind, reversal: reversal, yAtBegan: p.y, offsetAtBegan: contentOffset,
                                 finger: p, direction: nil, changedRows: RowSet(), rows: nil)
        gesture.enter(.waitingForStartRow(begun), kind: kind)
        var pan = gesture.panCore
        applyMoveRule(&pan, reversal: false, &changed)
        gesture.settle(pan, autoscroll: nil)
    }

    mutating func panMoved(to p: ViewportPoint, now: Micros, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        switch gesture.phase {
        case .idle:
            throw InvalidEvent(.notAllowedNow, "panMoved", "no pan is active")
        case .dragScroll:
            if let drag = gesture.dragScroll { contentOffset = clampedOffset(drag.offsetAtBegan - (p.y - drag.began.y)) }
        case .waitingForStartRow, .running, .autoScrolling:
            countMove(to: p, now: now, &changed)
        case .interrupted:
            break  // its samples are ignored
        }
    }

    /// A finger move of the selection pan (its scalars are copied out and back). Inlined
    /// into `panMoved` and `panEnded`: one call less on every pan sample.
    @inline(__always)
    private mutating func countMove(to p: ViewportPoint, now: Micros, _ changed: inout SelectionDelta) {
        // A move within the jitter threshold counts for nothing (about two samples in five):
        // the pan settles as it is, without copying it out and back.
        let dy = p.y - gesture.finger.y
        if (dy < .zero ? -dy : dy) < configuration.strip.jitter {
            gesture.settleUnmoved()
            return
        }
        var auto = gesture.autoscroll
        var pan = gesture.panCore
        countMove(&pan, &auto, to: p, now: now, &changed)
        gesture.settle(pan, autoscroll: auto)
    }

    mutating func panEnded(at p: ViewportPoint?, targetOffset: Points?, now: Micros, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        switch gesture.phase {
        case .idle:
            throw InvalidEvent(.notAllowedNow, "panEnded", "no pan is active")
        case .dragScroll:
            if let p, let drag = gesture.dragScroll { contentOffset = clampedOffset(drag.offsetAtBegan - (p.y - drag.began.y)) }
        case .waitingForStartRow, .running, .autoScrolling:
            if let p { countMove(to: p, now: now, &changed) }
        case .interrupted:
            break  // ends it and changes nothing else
        }
        finishPan(.ended(targetOffset: targetOffset), &changed)
    }

    mutating func panCancelled(_ changed: inout SelectionDelta) throws(InvalidEvent) {
        if gesture.phase == .idle { throw InvalidEvent(.notAllowedNow, "panCancelled", "no pan is active") }
        finishPan(.cancelled, &changed)
    }

    /// A row edit, `reload`, a `configure` that leaves a single mode, or a `setEditing`
    /// that changes editing, during a selection pan (spec 5.3, interrupted pans). Those
    /// events' changes are found by comparing the selection before and after them.
    mutating func interruptSelectionPan(cancel: Bool) {
        var unrecorded = SelectionDelta(recording: false)
        finishPan(.interrupted(cancel: cancel), &unrecorded)
    }

    /// Where every pan ends; a cancelled selection pan records the rows it puts back.
    /// It switches on the phase and reads the pan's changed rows and finger where they
    /// are: `gesture.state` built the whole selection pan (its changed rows a copy with
    /// the pending run flipped in) only for this to read two of its fields and drop it.
    private mutating func finishPan(_ ending: PanEnding, _ changed: inout SelectionDelta) {
        switch gesture.phase {
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
        case .waitingForStartRow, .running, .autoScrolling:
            let cancel: Bool
            switch ending {
            case .ended: cancel = false
            case .cancelled: cancel = true
            case .interrupted(let c): cancel = c
            }
            // The rows the pan changed and are selected now were not before it, and the
            // others were: found run by run in the selection, without walking it.
            let changedRows = gesture.changedRows
            let added = selection.rows(of: changedRows, members: true)
            let removed = selection.rows(of: changedRows, members: false)
            if cancel {
                history.selection.subtract(added)
                history.selection.formUnion(removed)
                changed.record(added: removed, removed: added)
            } else if !added.isEmpty || !removed.isEmpty {
                pushStep(.selection(added: added, removed: removed))
            }
            if case .interrupted = ending {
                gesture.enter(.interrupted(finger: gesture.finger), kind: .interrupted)
            } else {
                gesture.enter(.idle, kind: nil)
            }
        }
    }

    /// `tick`: moves a running auto-scroll by the exact distance for the time since it
    /// last moved, then applies the move rule for the row now under the still finger.
    mutating func tick(_ now: Micros, _ changed: inout SelectionDelta) {
        guard var auto = gesture.autoscroll else { return }
        let distance = autoscrollDistance(elapsed: Micros(raw: now.raw - auto.since.raw))
        auto.since = now
        let moved = auto.direction == .up ? contentOffset - distance : contentOffset + distance
        contentOffset = clampedOffset(moved)
        var pan = gesture.panCore
        applyMoveRule(&pan, reversal: false, &changed)
        gesture.settle(pan, autoscroll: auto)
    }

    /// After the offset moved under a still finger (`scroll`, `jumpToSection`): a
    /// selection pan applies the move rule for the row now under the finger.
    mutating func followFingerAfterScroll(_ changed: inout SelectionDelta) {
        guard gesture.isSelecting else { return }
        let auto = gesture.autoscroll
        var pan = gesture.panCore
        applyMoveRule(&pan, reversal: false, &changed)
        gesture.settle(pan, autoscroll: auto)
    }

    /// After the layout or the viewport changed under a still finger (`viewport`,
    /// `toggleEditor`, `configure`): a selection pan that began over no data row finds
    /// its start row if one is under the finger now (spec 5.3: "at the first event after
    /// which a data row R is under the finger"). A pan that has its start row waits for
    /// the next move, tick or scroll, which apply the move rule.
    mutating func findStartRowUnderStillFinger(_ changed: inout SelectionDelta) {
        guard gesture.isSelecting, gesture.panCore.rows == nil else { return }
        followFingerAfterScroll(&changed)
    }

    /// Stops auto-scroll once it can no longer run (`autoscrollCanRun`; spec 5.3, 5.10.4):
    /// the offset sits at its bound in the scroll direction, or the still finger is out of
    /// that direction's zone (after a `configure` or a `viewport`). Run after every event.
    mutating func stopAutoscrollWhenItCannotRun() {
        guard let auto = gesture.autoscroll, !autoscrollCanRun(auto.direction, fingerAt: gesture.finger.y) else { return }
        gesture.stopAutoscroll()
    }
}
