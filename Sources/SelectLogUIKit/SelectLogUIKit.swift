// The integration guide's UIKit forwarding code (docs/INTEGRATION.md). It is compiled
// only where UIKit exists; on Linux and macOS this module is empty. Everything that
// can be tested elsewhere lives in SelectLog (the bridges, BatchUpdate from identifiers).
// watchOS has UIKit but no table or collection views, so it is left out too.
#if canImport(UIKit) && !os(watchOS)
import SelectLog
import SelectLogStore
import UIKit

extension IndexPath {
    /// The UIKit index path of an engine row.
    public init(_ path: RowPath) {
        self.init(row: path.row, section: path.section)
    }
}

extension RowPath {
    /// The engine row of a UIKit index path.
    public init(_ indexPath: IndexPath) {
        self.init(indexPath.section, indexPath.row)
    }
}

/// The engine's geometry of a scroll view: UIKit's offsets include the
/// `adjustedContentInset` (resting at -91 under a large navigation bar); the engine's
/// content offset starts at 0 at the top of the content, and its viewport is the area
/// between the insets.
@MainActor
public struct ScrollViewGeometry {
    /// The scroll view measured.
    public let scrollView: UIScrollView

    /// Measures `scrollView`.
    public init(_ scrollView: UIScrollView) { self.scrollView = scrollView }

    /// The engine's content offset: UIKit's `contentOffset.y` plus the top inset.
    public var contentOffset: Points {
        Points(rounding: Double(scrollView.contentOffset.y + scrollView.adjustedContentInset.top))
    }

    /// The engine's viewport: the bounds less the insets, and empty, never negative,
    /// while the insets exceed the bounds (a small sheet detent with the keyboard up).
    public var viewport: ViewportSize {
        let inset = scrollView.adjustedContentInset
        return ViewportSize(width: Double(max(0, scrollView.bounds.width - inset.left - inset.right)),
                            height: Double(max(0, scrollView.bounds.height - inset.top - inset.bottom)))
    }

    /// A gesture's location in the engine's viewport coordinates.
    public func point(of gesture: UIGestureRecognizer) -> ViewportPoint {
        let p = gesture.location(in: scrollView)
        let inset = scrollView.adjustedContentInset
        return ViewportPoint(x: Double(p.x - scrollView.contentOffset.x - inset.left),
                             y: Double(p.y - scrollView.contentOffset.y - inset.top))
    }
}

/// Forwards a table view's gestures and display-link ticks to a `Recorder`, and mirrors
/// what each event changed back into the table view. The engine owns the selection:
/// the table view's own selection is never read, only set from `TableChanges`.
///
/// Turn off the table view's own selection handling (`allowsSelection = false` is not
/// needed; do not call `selectRow` elsewhere) and add the recognizers this forwarder
/// makes. It sets the table view's `allowsMultipleSelection` and
/// `allowsMultipleSelectionDuringEditing` to true, so that UIKit keeps every row the
/// mirror selects: in editing mode that shows selection circles instead of the delete
/// and insert controls. An app that wants those controls sets the flag back after
/// making the forwarder and mirrors one selected row at a time. Row edits go through `apply(_:)` with `BatchUpdate`s, then the same
/// `performBatchUpdates` on the table view.
@MainActor
public final class TableViewForwarder: NSObject {
    /// The recorder that validates, applies and logs every event.
    public let recorder: Recorder
    /// The table view that mirrors the engine.
    public weak var tableView: UITableView?
    /// The tap recognizer the forwarder added to the table view, which sends `tap`s.
    public let tapRecognizer: UITapGestureRecognizer
    /// The pan recognizer the forwarder added to the table view (up to two touches),
    /// which sends the pan events. As made it begins anywhere, in any direction, and
    /// competes with the table's own pan. For a strip pan, give it a delegate whose
    /// `gestureRecognizerShouldBegin` begins inside the strip (or with two touches, when
    /// `multiSelectInteraction` is on) and make the table's `panGestureRecognizer`
    /// `require(toFail:)` it, both; disable and re-enable it to cancel a pan
    /// (docs/INTEGRATION.md, step 3).
    public let panRecognizer: UIPanGestureRecognizer
    private var displayLink: CADisplayLink?

    /// Forwards `tableView`'s taps and pans to `recorder`. A pan left active by a
    /// session that ended mid-gesture (a log resumed after a crash) is cancelled first:
    /// its touches are gone, and the next `panBegan` would be refused. `onRefused` is
    /// set before that, so that a refusal of the cancellation (a recorder that has
    /// failed) reaches it too.
    public init(tableView: UITableView, recorder: Recorder, onRefused: ((Event, LogError) -> Void)? = nil) {
        self.recorder = recorder
        self.tableView = tableView
        self.onRefused = onRefused
        // Targets are added once `self` exists (`init(target:action:)` calls a nil target
        // invalid).
        tapRecognizer = UITapGestureRecognizer()
        panRecognizer = UIPanGestureRecognizer()
        super.init()
        if recorder.state.pan != nil {
            // `forward(_:)` without the mirror: the table view shows none of the engine's
            // state yet, so there is nothing for the cancellation's changes to correct.
            do throws(LogError) {
                _ = try recorder.append(.panCancelled)
            } catch {
                onRefused?(.panCancelled, error)
            }
        }
        // The mirror selects and deselects exactly the rows an event changed. In UIKit's
        // single-selection modes `selectRow` would also deselect every other row, so a
        // selection of several rows (a pan, `selectAll`) would show as its last row.
        tableView.allowsMultipleSelection = true
        tableView.allowsMultipleSelectionDuringEditing = true
        tapRecognizer.addTarget(self, action: #selector(tapped(_:)))
        tableView.addGestureRecognizer(tapRecognizer)
        panRecognizer.addTarget(self, action: #selector(panned(_:)))
        #if !os(tvOS)
        panRecognizer.maximumNumberOfTouches = 2
        #endif
        tableView.addGestureRecognizer(panRecognizer)
    }

    /// Called with each event the forwarder's own recognizers and display link sent that
    /// the recorder refused, and why: an event the engine finds invalid (a `panEnded` the
    /// app already sent, an `undo` during a pan), or a recorder that has failed or been
    /// closed (`LogError`). Nothing was applied or recorded for it. By default such an
    /// event is dropped without a word; set this to log it or to stop the session, so
    /// that a hole in a recording does not go unnoticed. Events sent with `apply(_:)`
    /// throw instead.
    public var onRefused: ((Event, LogError) -> Void)?

    /// Records `event` (stamped by the recorder's clock) and mirrors its changes.
    @discardableResult
    public func apply(_ event: Event) throws(LogError) -> TableChanges {
        let changes = try recorder.append(event)
        mirror(changes)
        return changes
    }

    /// `apply(_:)` for the recognizers and the display link, which have no caller to
    /// throw to: a refusal goes to `onRefused`.
    private func forward(_ event: Event) {
        do throws(LogError) {
            try apply(event)
        } catch {
            onRefused?(event, error)
        }
    }

    /// Sets the table view's editing mode, selection and offset from what an event
    /// changed. A view controller's own `isEditing` (its Edit button) is the app's to set:
    /// when `changes.editing` is not nil, set it too.
    public func mirror(_ changes: TableChanges) {
        guard let tableView else { return }
        // A two-finger multi-select pan turns editing on by itself (EVENTS.md 5.3): before
        // the rows, so that UIKit's setEditing does not clear the ones mirrored below.
        if let editing = changes.editing, tableView.isEditing != editing { tableView.setEditing(editing, animated: true) }
        for row in changes.deselected { tableView.deselectRow(at: IndexPath(row), animated: false) }
        for row in changes.selected { tableView.selectRow(at: IndexPath(row), animated: false, scrollPosition: .none) }
        if let offset = changes.contentOffset?.to { tableView.mirrorOffset(offset) }
    }

    @objc private func tapped(_ gesture: UITapGestureRecognizer) {
        guard let tableView, gesture.state == .ended else { return }
        forward(.tap(ScrollViewGeometry(tableView).point(of: gesture)))
    }

    @objc private func panned(_ gesture: UIPanGestureRecognizer) {
        guard let tableView else { return }
        let point = ScrollViewGeometry(tableView).point(of: gesture)
        switch gesture.state {
        case .began:
            forward(.panBegan(point, fingers: gesture.numberOfTouches))
            startTicks()
        case .changed:
            // A selection pan's finger past the viewport's edge is reported at the edge:
            // outside it would hit no row (EVENTS.md 2), and auto-scroll would select nothing.
            forward(.panMoved(recorder.state.selectionPanPoint(point)))
        case .ended:
            forward(.panEnded(at: recorder.state.selectionPanPoint(point)))
            stopTicks()
        case .cancelled, .failed:
            forward(.panCancelled)
            stopTicks()
        default:
            break
        }
    }

    /// Ticks from a display link while a pan is active (auto-scroll needs them).
    private func startTicks() {
        guard displayLink == nil else { return }
        let link = CADisplayLink(target: self, selector: #selector(tick(_:)))
        link.add(to: .main, forMode: .common)
        displayLink = link
    }

    private func stopTicks() {
        displayLink?.invalidate()
        displayLink = nil
    }

    @objc private func tick(_ link: CADisplayLink) {
        // The link retains the forwarder until it is invalidated: once the table view is
        // gone while a pan was going on (it never reported an end), it stops, and lets
        // the forwarder go.
        guard tableView != nil else {
            stopTicks()
            return
        }
        forward(.tick)
    }
}

/// The collection-view counterpart of `TableViewForwarder`'s mirroring: selection and
/// offset set from what an event changed.
@MainActor
public enum CollectionViewMirror {
    /// Sets `collectionView`'s editing mode, selection and offset from `changes`.
    public static func mirror(_ changes: TableChanges, into collectionView: UICollectionView) {
        // Before the items: a two-finger multi-select pan turns editing on by itself.
        if let editing = changes.editing, collectionView.isEditing != editing { collectionView.isEditing = editing }
        for row in changes.deselected { collectionView.deselectItem(at: IndexPath(item: row.row, section: row.section), animated: false) }
        for row in changes.selected {
            collectionView.selectItem(at: IndexPath(item: row.row, section: row.section), animated: false, scrollPosition: [])
        }
        if let offset = changes.contentOffset?.to { collectionView.mirrorOffset(offset) }
    }
}

extension UIScrollView {
    /// Scrolls to the engine's content offset `offset`, unless the view is there already
    /// to the engine's 1/64 pt grid: a `scroll` event a host sends from
    /// `scrollViewDidScroll` mirrors UIKit's own offset back (a 3x screen scrolls by thirds
    /// of a point, which the grid rounds), and a `setContentOffset` on every frame would
    /// stop UIKit's deceleration.
    func mirrorOffset(_ offset: Points) {
        let top = adjustedContentInset.top
        guard abs(Double(contentOffset.y + top) - offset.doubleValue) > 1.0 / 128 else { return }
        setContentOffset(CGPoint(x: contentOffset.x, y: CGFloat(offset.doubleValue) - top), animated: false)
    }
}
#endif
