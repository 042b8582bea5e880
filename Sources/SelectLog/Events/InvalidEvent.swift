/// Why an event was rejected: which rule it broke (`kind`), which event type, which
/// field, and a sentence a user can act on.
///
/// A rejected event changes nothing: the state, and any log it would have been
/// appended to, stay exactly as they were (spec 5).
///
/// Code that handles rejections switches on `kind`; `reason` is for people, and its
/// wording may change. Through a `Recorder`, the rejection is `LogError.invalidEvent`:
///
/// ```swift
/// func record(_ event: Event) {
///     do throws(LogError) {
///         try recorder.append(event)
///     } catch let error where error.code == .invalidEvent {
///         switch error.invalidEvent?.kind {
///         case .outOfRange?: reportMismatch(error)          // the app's rows and the engine's differ: an edit not forwarded
///         case .notAllowedNow?, .outOfOrder?: log(error)    // delivered out of turn: a pan event with no pan, an earlier time
///         default: assertionFailure("\(error)")            // malformed or past a limit: built wrong
///         }
///     } catch {
///         log(error)                                        // the recorder failed or was closed
///     }
/// }
/// ```
public struct InvalidEvent: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of rule an event can break (EVENTS.md marks each rule **invalid**).
    ///
    /// Later versions may add kinds: switch over one with a `default`.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Wrong whatever the table holds: not JSON, not an object, an unknown type or
        /// field, a field of the wrong JSON type or outside its domain (a negative
        /// length, a time past the limit), or fields of the one event that contradict
        /// each other (a duplicate index path, a row both deleted and moved, several
        /// chosen options in a single-choice editor or one past the event's own
        /// `options`, `at` and `sections` of different lengths).
        case malformed
        /// An index names a row, section or editor option that the table does not have
        /// (before or after the update, as the rule reads it), or a title that no section
        /// has: the app's table and the engine's disagree.
        case outOfRange
        /// Its time is earlier than the previous event's.
        case outOfOrder
        /// The table's present state or configuration forbids it: `panBegan` while a pan
        /// is active, a pan event with none active, `undo` or `redo` during a pan, `choose`
        /// with no editor open, several rows or `selectAll` in single-selection mode.
        case notAllowedNow
        /// It would take the table or the log past a size the engine supports: a section
        /// of more than `EventLimits.sectionRows` rows, a table of more than
        /// `EventLimits.tableRows` rows or `EventLimits.tableSections` sections, an event
        /// or string over `EventLimits.eventBytes`, a script line over its limit.
        case overLimit
    }

    /// Which kind of rule the event broke.
    public var kind: Kind
    /// The event's `type`, when it was known.
    public var type: String?
    /// The field at fault as a path into the event's script form (`"undoLimit"`,
    /// `"sections[2].rows"`, `"at[0]"`, `"scrollAndSelect.jitter"`), when one field is.
    public var field: String?
    /// What is wrong, naming the field.
    public var reason: String

    /// A rejection that names no single field (or names it only in `reason`).
    public init(_ kind: Kind, _ type: String?, _ reason: String) {
        self.kind = kind
        self.type = type
        self.reason = reason
    }

    /// A rejection of one field's value.
    public init(_ kind: Kind, _ type: String?, field: String, _ reason: String) {
        self.kind = kind
        self.type = type
        self.field = field
        self.reason = reason
    }

    /// A malformed event that names no single field.
    @available(*, deprecated, message: "name the rule's kind: InvalidEvent(_:_:_:)")
    public init(_ type: String?, _ reason: String) {
        self.init(.malformed, type, reason)
    }

    /// A malformed field.
    @available(*, deprecated, message: "name the rule's kind: InvalidEvent(_:_:field:_:)")
    public init(_ type: String?, field: String, _ reason: String) {
        self.init(.malformed, type, field: field, reason)
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
