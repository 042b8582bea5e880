/// The numeric limits of an event, stated once: the JSON decoder, the binary log's
/// codec and `TableState.apply` (through `TimedEvent.validate()`) all use these, so a
/// value one way in accepts is a value every other way in accepts, and every value
/// the engine accepts can be written to the log and read back.
///
/// A length (any `Points` field: coordinates, sizes, heights, deltas, velocities,
/// `rowsPerSecond`) has a magnitude of at most 1e9 pt, so that sums over a table of
/// `tableRows` rows cannot overflow the 64-bit grid. A content offset (`scroll`'s `y`
/// and `target`, `panEnded`'s `targetOffset`) can be as large as the tallest content
/// a table can have, about 1.02e17 pt: a UITableView of that many rows reports such
/// offsets, and the engine only ever clamps them to its own content. A time `t` lies in
/// `0...8e12` ms (milliseconds since 1970 fit). An index (a section or row of an index
/// path, a section index, an option) and a count the binary log stores as a varint
/// (`fingers`, `undoLimit`) is at most `Int32.max`, which also keeps it an `Int` on
/// 32-bit platforms.
public enum EventLimits {
    /// The largest magnitude of a length: 1e9 pt.
    public static let length = Points.limit
    /// The largest magnitude of a content offset (`scroll`'s `y` and `target`,
    /// `panEnded`'s `targetOffset`): the tallest content a table can have, 100,000,000
    /// rows and 1,000,000 sections' headers and footers of `length` each, and the
    /// editor row (102,000,001 × 1e9 pt, about 1.02e17 pt).
    public static let offset = Points.contentLimit
    /// The latest time an event may carry: 8e12 ms.
    public static let time = Micros.limit
    /// The largest index or count field: 2,147,483,647.
    public static let index = Int(Int32.max)
    /// The largest `rows` of one section.
    public static let sectionRows = 50_000_000
    /// The most data rows a table may hold (checked by the engine, which knows the table).
    public static let tableRows = 100_000_000
    /// The most sections a table may hold (checked by the engine, which knows the table).
    public static let tableSections = 1_000_000
    /// The most bytes an event's fields may take in the log's plain field encoding
    /// (`Event.fieldBytes`: a varint per number, a string's UTF-8 and its length): 1 MiB.
    /// It bounds the events that carry lists and strings (`reload`, `insertSections`,
    /// `toggleEditor`, the row edits, `select`, `deselect`, a `jumpToSection` by title),
    /// so that every event the engine accepts fits a record of the log however its
    /// coder expands it (at most ten times) and is read back. About 500,000 row
    /// heights of under 32 pt, or 200,000 index paths, fit one event.
    public static let eventBytes = 1 << 20
    /// The longest string (a section `title`, an editor option) in UTF-8 bytes: an
    /// event's whole budget (`eventBytes`), which its other fields then share.
    public static let stringBytes = eventBytes

    /// The sentence for a length past `length`, shared by every decoder.
    static func lengthOutOfRange(_ field: String) -> String {
        "field \"\(field)\" is out of range (at most 1e9 points either way)"
    }

    /// The sentence for a content offset past `offset`, shared by every decoder.
    static func offsetOutOfRange(_ field: String) -> String {
        "field \"\(field)\" is out of range (a content offset is at most 1.02000001e17 points either way)"
    }

    /// The sentence for a time outside `0...time`.
    static func timeOutOfRange(_ value: String) -> String {
        "field \"t\" is out of range (0 to 8e12 ms), not \(value)"
    }

    /// What a value out of range adds when it is the one the `Double` bridges give for
    /// NaN, an infinity or a value past every limit (`Points(rounding:)`,
    /// `Micros(seconds:)`: 1/64 pt or 1 µs past the largest limit), so that an app
    /// chasing a `0 / 0` reads what its value was rather than the stand-in's digits.
    static func bridgedHint(_ raw: Int64, limit: Int64, _ bridge: String) -> String {
        raw.magnitude == UInt64(limit) + 1 ? " (what `\(bridge)` gives for NaN, an infinity or a value past the range)" : ""
    }

    /// The sentence for a whole number outside `lower...upper`.
    static func integerOutOfRange(_ field: String, _ value: some BinaryInteger, _ lower: Int, _ upper: Int) -> String {
        if value < lower {
            return lower == 0 ? "field \"\(field)\" must not be negative, not \(value)"
                : "field \"\(field)\" must be at least \(lower), not \(value)"
        }
        return "field \"\(field)\" must be at most \(upper), not \(value)"
    }
}
