// A stand-in for UIKit, for type-checking SelectLogUIKit where UIKit does not exist
// (check.sh). It declares only the members SelectLogUIKit uses, with the signatures and
// the isolation (`@MainActor`, UIKit's NS_SWIFT_UI_ACTOR) of Apple's SDK as its
// documentation gives them. It checks our side of the calls: the core's API as the module
// uses it, types, optionals and Swift 6 isolation. It cannot check that UIKit is what it
// says; a member added here must be copied from Apple's documentation, not made to fit.
//
// check.sh builds it with library evolution, as Apple's SDK modules are: its enums are then
// not frozen, and a `switch` over one without a default is warned about, as there.
//
// Two things of the Objective-C runtime are missing on Linux: `@objc` and `#selector`.
// check.sh removes the first and writes the second as `Selector("name(_:)")`, after
// checking that each selector names an `@objc` method of the file.
@_exported import Foundation

/// `ObjectiveC.Selector`, for the `Selector("…")` check.sh writes for `#selector(…)`.
public struct Selector: Sendable {
    public init(_ name: String) {}
}

/// UIKit's (`UIGeometry.h`).
public struct UIEdgeInsets: Sendable {
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat

    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

/// UIKit's additions to `IndexPath` (`UITableView.h`, `UICollectionView.h`). Settable in UIKit.
extension IndexPath {
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    public var section: Int { get { self[0] } set { self[0] = newValue } }
    public var row: Int { get { self[1] } set { self[1] = newValue } }
    public var item: Int { get { self[1] } set { self[1] = newValue } }
}

@MainActor open class UIResponder: NSObject {}

@MainActor open class UIView: UIResponder {
    open var bounds: CGRect = .zero
    open func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) {}
}

@MainActor open class UIScrollView: UIView {
    open var contentOffset: CGPoint = .zero
    /// Read-only in UIKit (iOS 11).
    open var adjustedContentInset: UIEdgeInsets { UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0) }
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) {}
}

@MainActor open class UITableView: UIScrollView {
    public enum ScrollPosition: Int, Sendable {
        case none, top, middle, bottom
    }

    open var allowsMultipleSelection = false
    open var allowsMultipleSelectionDuringEditing = false
    open var isEditing = false
    open func setEditing(_ editing: Bool, animated: Bool) {}
    open func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: UITableView.ScrollPosition) {}
    open func deselectRow(at indexPath: IndexPath, animated: Bool) {}
}

@MainActor open class UICollectionView: UIScrollView {
    public struct ScrollPosition: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
    }

    /// iOS, tvOS and Mac Catalyst 14.
    @available(iOS 14.0, tvOS 14.0, macCatalyst 14.0, *)
    open var isEditing = false
    open func selectItem(at indexPath: IndexPath?, animated: Bool, scrollPosition: UICollectionView.ScrollPosition) {}
    open func deselectItem(at indexPath: IndexPath, animated: Bool) {}
}

@MainActor open class UIGestureRecognizer: NSObject {
    public enum State: Int, Sendable {
        case possible, began, changed, ended, cancelled, failed
        public static var recognized: State { .ended }
    }

    public init(target: Any?, action: Selector?) {}
    /// No target and no action; `init(target:action:)`'s documentation calls nil invalid.
    public override convenience init() { self.init(target: nil, action: nil) }
    open func addTarget(_ target: Any, action: Selector) {}
    /// Read-only with `import UIKit`; settable only with `import UIKit.UIGestureRecognizerSubclass`
    /// (the documentation's `{ get set }` is that module's).
    open var state: UIGestureRecognizer.State { .possible }
    open var numberOfTouches: Int { 0 }
    open func location(in view: UIView?) -> CGPoint { .zero }
}

@MainActor open class UITapGestureRecognizer: UIGestureRecognizer {}

@MainActor open class UIPanGestureRecognizer: UIGestureRecognizer {
    /// Unavailable on tvOS.
    @available(tvOS, unavailable)
    open var maximumNumberOfTouches: Int = .max
}

/// QuartzCore's, which UIKit re-exports; not main-actor isolated in the SDK, and not
/// Sendable (`CADisplayLink.h` is sendability-audited). It retains its target until `invalidate()`.
open class CADisplayLink: NSObject {
    public init(target: Any, selector sel: Selector) {}
    open func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {}
    open func invalidate() {}
}

// For the guide's snippets (snippets.py): a view controller and a diffable data source.

@MainActor open class UIViewController: UIResponder {
    open var isEditing = false
    open func setEditing(_ editing: Bool, animated: Bool) {}
}

@MainActor open class UITableViewController: UIViewController {
    /// Implicitly unwrapped in UIKit.
    open var tableView: UITableView!
}

/// iOS 13; its identifiers `Sendable` since iOS 15's SDK.
public struct NSDiffableDataSourceSnapshot<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable> {
    public init() {}
    public var sectionIdentifiers: [SectionIdentifierType] { [] }
    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] { [] }
    /// iOS 15.
    public var reloadedItemIdentifiers: [ItemIdentifierType] { [] }
}

@MainActor open class UITableViewDiffableDataSource<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: NSObject {
    open func snapshot() -> NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType> { NSDiffableDataSourceSnapshot() }
    open func apply(_ snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>, animatingDifferences: Bool = true,
                    completion: (() -> Void)? = nil) {}
}
