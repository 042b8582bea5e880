/// Why an event was rejected: which event type, which field, and a sentence a user can act on.
///
/// A rejected event changes nothing: the state, and any log it would have been
/// appended to, stay exactly as they were (spec 5).
public struct InvalidEvent: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event's `type`, when it was known.
    public var type: String?
    /// The field at fault as a path into the event's script form (`"undoLimit"`,
    /// `"sections[2].rows"`, `"at[0]"`, `"scrollAndSelect.jitter"`), when one field is.
    public var field: String?
    /// What is wrong, naming the field.
    public var reason: String

    /// A rejection that names no single field (or names it only in `reason`).
    public init(_ type: String?, _ reason: String) {
        self.type = type
        self.reason = reason
    }

    /// A rejection of one field's value.
    public init(_ type: String?, field: String, _ reason: String) {
        self.type = type
        self.field = field
        self.reason = reason
    }

    /// `type: reason`, or the reason alone when the type is unknown. A type that is not
    /// a plain name (an unknown type a script chose) is shown as `Quoted.value(_:)` shows it.
    public var description: String {
        guard let type else { return reason }
        func isNameByte(_ b: UInt8) -> Bool {
            (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
        }
        let plain = !type.isEmpty && type.utf8.count <= Quoted.limit && type.utf8.allSatisfy(isNameByte)
        return "\(plain ? type : Quoted.value(type)): \(reason)"
    }
}
