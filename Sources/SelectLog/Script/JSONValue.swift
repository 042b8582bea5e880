/// A parsed JSON value. Numbers keep their decimal digits, so that rounding onto
/// the engine's grid is exact (spec 5.10.1), not at the mercy of binary floating point.
///
/// Arrays and numbers are views of the parsed line (`JSONArray`, `JSONNumber`), read
/// when they are looked at, so a long array costs nothing until it is walked.
package enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array(JSONArray)
    case object([(key: String, value: JSONValue)])

    /// Values are equal when they hold equal data (object members in order).
    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// Hashes the data, consistently with `==`.
    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o):
            for (k, v) in o {
                hasher.combine(k)
                hasher.combine(v)
            }
        }
    }

    /// What a message calls this kind of value.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON array as a view of the parsed line: each element is read when it is
/// reached, so walking an array of a million index paths holds one of them at a time.
/// Indices are positions in the line; `array[k]` (an `Int`) walks to the k-th element.
package struct JSONArray: Collection, Hashable, Sendable {
    /// A position of an element in the parsed line.
    package struct Index: Comparable, Hashable, Sendable {
        let offset: Int
        /// Positions order as the text does.
        package static func < (a: Index, b: Index) -> Bool { a.offset < b.offset }
    }

    private let text: CheckedJSON
    private let open: UInt32
    private let close: UInt32

    init(text: CheckedJSON, open: Int, close: Int) {
        self.text = text
        self.open = UInt32(clamping: open)
        self.close = UInt32(clamping: Swift.max(close, open))
    }

    /// The first element's position (`endIndex` when the array is empty).
    package var startIndex: Index {
        let k = text.skipSpace(Int(open) + 1)
        return k < Int(close) ? Index(offset: k) : endIndex
    }

    /// The position of the closing bracket.
    package var endIndex: Index { Index(offset: Int(close)) }

    /// The next element's position: a walk over the element at `i`.
    package func index(after i: Index) -> Index {
        guard i.offset < Int(close) else { return endIndex }
        let k = text.skipSpace(text.skipValue(i.offset))
        guard k < Int(close), text.bytes[k] == UInt8(ascii: ",") else { return endIndex }
        return Index(offset: Swift.min(text.skipSpace(k + 1), Int(close)))
    }

    /// The element at `position`; `null` past the end.
    package subscript(position: Index) -> JSONValue {
        position.offset < Int(close) ? text.value(at: position.offset) : .null
    }

    /// The element `offset` places from the start (a walk: use it for short arrays); `null` past the end.
    package subscript(offset: Int) -> JSONValue {
        guard offset >= 0 else { return .null }
        var i = startIndex
        for _ in 0..<offset where i != endIndex { i = index(after: i) }
        return self[i]
    }

    /// Arrays are equal when their elements are, wherever their text came from.
    package static func == (a: JSONArray, b: JSONArray) -> Bool { a.elementsEqual(b) }

    /// Hashes the elements, consistently with `==`.
    package func hash(into hasher: inout Hasher) {
        for element in self { hasher.combine(element) }
    }
}
