/// Which engine folds events into state: the standard reducers, or a variant whose
/// behaviour differs on purpose.
///
/// Everything that replays a log (the reader, `check`, the behaviour fingerprint)
/// applies events through an `EngineBehaviour`, so a test can stand in a second
/// engine (for example one whose taps never deselect) and watch the log notice the
/// change of behaviour, exactly as a build with a changed reducer would. Apps and the
/// command line only ever use `.standard`.
package struct EngineBehaviour: Sendable {
    /// A name for messages ("standard", or the variant's name).
    package let name: String
    private let variant: (@Sendable (inout TableState, TimedEvent) throws(InvalidEvent) -> TableChanges)?

    /// The engine of this build: `TableState.apply`.
    package static let standard = EngineBehaviour(name: "standard", variant: nil)

    private init(name: String, variant: (@Sendable (inout TableState, TimedEvent) throws(InvalidEvent) -> TableChanges)?) {
        self.name = name
        self.variant = variant
    }

    /// A variant engine: `apply` replaces `TableState.apply` for every event.
    package init(name: String, apply: @escaping @Sendable (inout TableState, TimedEvent) throws(InvalidEvent) -> TableChanges) {
        self.init(name: name, variant: apply)
    }

    /// Whether this is the standard engine.
    ///
    /// Not `variant == nil`: comparing an optional typed-throws closure goes through a
    /// generic function, which needs the runtime support for typed-throws function types
    /// that Apple platforms have only since macOS 15 and iOS 18 (below the package's floor).
    package var isStandard: Bool {
        if case .none = variant { return true }
        return false
    }

    /// Applies `event` to `state` with this engine and says what changed; a rejection
    /// leaves `state` unchanged.
    @inline(__always) @discardableResult
    package func apply(_ event: TimedEvent, to state: inout TableState) throws(InvalidEvent) -> TableChanges {
        if let variant { return try variant(&state, event) }
        return try state.apply(event)
    }

    /// This engine's behaviour fingerprint (computed once per process for the standard engine).
    package var fingerprint: UInt64 {
        isStandard ? BehaviourFingerprint.current : BehaviourFingerprint.compute(with: self)
    }
}
