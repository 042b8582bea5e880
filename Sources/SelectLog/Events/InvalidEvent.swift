/// Why an event was rejected: which event type, and a sentence a user can act on.
///
/// A rejected event changes nothing: the state, and any log it would have been
/// appended to, stay exactly as they were (spec 5).
public struct InvalidEvent: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event's `type`, when it was known.
    public var type: String?
    public var reason: String

    public init(_ type: String?, _ reason: String) {
        self.type = type
        self.reason = reason
    }

    public var description: String {
        if let type { return "\(type): \(reason)" }
        return reason
    }
}
