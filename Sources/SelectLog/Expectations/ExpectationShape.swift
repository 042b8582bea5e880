/// The shape of an expectation's value as far as its text tells: what the state JSON
/// (spec 6) gives each field, and what a literal is.
///
/// The parser refuses a comparison that no state could make true because of the shapes
/// alone (`events == "12"`, `selected contains 6`, `count(events)`), naming the column:
/// evaluated, it would be false after every event, and a gate (`replay --expect`,
/// `shrink`, `testgen`) would take its own mistake for a bug that does not reproduce.
/// A shape that cannot be told (`null`, a list of mixed items) fits anything, and two
/// values that may both be null (`pan.mode == optionOpen`) may be equal, so that no
/// comparison a state can decide is refused. A `count(` of what is never a list is
/// refused wherever it stands: it is null in every state, and `count(editing) == pan`,
/// though a state decides it, is `pan == null` written by mistake.
indirect enum ExpectationShape: Equatable, Sendable {
    /// `null`, or a value the text does not determine.
    case unknown
    case bool
    case number
    case string
    /// `pan`, `swipe` or `editor`.
    case object
    /// A list of items of one shape; `count` when every such list has that many items
    /// (a row `[section, row]`, a literal list).
    case list(of: ExpectationShape, count: Int?)

    /// A row path, `[section, row]`.
    static let row = ExpectationShape.list(of: .number, count: 2)

    /// The shape of `key` of `field` (the field itself when `key` is nil). Nullable fields
    /// (`optionOpen`, `pan.mode`) have the shape of their value when set; whether a value
    /// may be null is `mayBeNull`.
    static func of(_ field: StateField, key: String?) -> ExpectationShape {
        switch (field, key) {
        case (.events, _), (.t, _), (.contentOffset, _), (.contentHeight, _), (.undo, _), (.redo, _): .number
        case (.editing, _), (.dragging, _), (.decelerating, _): .bool
        case (.hash, _): .string
        case (.sections, _): .list(of: .number, count: nil)
        case (.selected, _): .list(of: .row, count: nil)
        case (.visible, _), (.rowsToLoad, _): .list(of: .row, count: 2)
        case (.optionOpen, _): .row
        case (.pan, nil), (.swipe, nil), (.editor, nil): .object
        case (.pan, "anchor"?), (.swipe, "row"?), (.editor, "row"?): .row
        case (.swipe, "offset"?): .number
        case (.editor, "options"?): .list(of: .string, count: nil)
        case (.editor, "chosen"?): .list(of: .number, count: nil)
        case (.editor, "multiple"?): .bool
        case (.pan, "kind"?), (.pan, "mode"?), (.pan, "autoscroll"?): .string
        default: .unknown
        }
    }

    /// Whether `node`'s value is null in some state: a field that may be absent
    /// (`optionOpen`, `visible` of an empty table, `pan` and every key of it), and the
    /// `count(…)` of one.
    static func mayBeNull(_ node: ExpectationNode) -> Bool {
        switch node {
        case .field(let f, let key):
            key != nil || [.optionOpen, .visible, .rowsToLoad, .pan, .swipe, .editor].contains(f)
        case .count(let inner): mayBeNull(inner) || of(inner) == .unknown
        case .literal(.null): true
        default: false
        }
    }

    /// Whether the shape is a list of any length (`selected`, `editor.options`), which
    /// `count(…)` measures: not a row or a range of two rows.
    var isListOfAnyLength: Bool {
        if case .list(_, nil) = self { true } else { false }
    }

    /// The shape of a literal value.
    static func of(_ value: ExpectationValue) -> ExpectationShape {
        switch value {
        case .null: return .unknown
        case .bool: return .bool
        case .number: return .number
        case .string: return .string
        case .object: return .object
        case .list(let items):
            // The items' common shape; none told (an empty list, mixed items): unknown.
            var item: ExpectationShape? = nil
            for v in items {
                let s = of(v)
                if item == nil { item = s } else if item != s { item = .unknown }
            }
            return .list(of: item ?? .unknown, count: items.count)
        }
    }

    /// The shape of `node`'s value.
    static func of(_ node: ExpectationNode) -> ExpectationShape {
        switch node {
        case .or, .and, .not, .compare, .selectedContains, .selectedEquals: .bool
        case .count, .selectedCount: .number
        case .field(let f, let key): of(f, key: key)
        case .literal(let v): of(v)
        }
    }

    /// Whether a value of this shape can equal one of `other`'s.
    func fits(_ other: ExpectationShape) -> Bool {
        switch (self, other) {
        case (.unknown, _), (_, .unknown): true
        case (.bool, .bool), (.number, .number), (.string, .string), (.object, .object): true
        case let (.list(a, m), .list(b, n)):
            // Two lists that may both be empty are equal then, whatever their items.
            (m == nil || n == nil || m == n) && (a.fits(b) || (m ?? 0) == 0 && (n ?? 0) == 0)
        default: false
        }
    }

    /// Whether `<`, `<=`, `>` and `>=` can order a value of this shape against `other`'s.
    func orders(with other: ExpectationShape) -> Bool {
        switch (self, other) {
        case (.unknown, .unknown), (.unknown, .number), (.unknown, .string), (.number, .unknown), (.string, .unknown),
             (.number, .number), (.string, .string): true
        default: false
        }
    }

    /// The shape, in words: "a number", "a row [section, row]", "a list of strings".
    var words: String {
        switch self {
        case .unknown: "any value"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .object: "an object"
        case .list(let item, let count):
            if self == .row { "a row [section, row]" }
            else if count == 0 { "an empty list" }
            else if count == 1 { "a list of 1 \(item.singular)" }
            else if let count { "a list of \(count) \(item.plural)" }
            else { "a list of \(item.plural)" }
        }
    }

    /// One value of the shape, in words: "number", "row [section, row]".
    private var singular: String {
        switch self {
        case .unknown: "value"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .object: "object"
        case .list: self == .row ? "row [section, row]" : "list"
        }
    }

    /// The shape's values, in words: "numbers", "rows".
    private var plural: String {
        switch self {
        case .unknown: "values"
        case .bool: "booleans"
        case .number: "numbers"
        case .string: "strings"
        case .object: "objects"
        case .list: self == .row ? "rows [section, row]" : "lists"
        }
    }

    /// `node`'s shape in words, with "(or null)" when its value may be null.
    private static func words(_ node: ExpectationNode) -> String {
        let shape = of(node)
        return shape.words + (shape != .unknown && mayBeNull(node) ? " (or null)" : "")
    }

    /// The mistake in `left op right` that makes it the same in every state, in words, or nil when
    /// some state could make it true.
    static func mistake(_ left: ExpectationNode, _ op: ExpectationOperator, _ right: ExpectationNode) -> String? {
        let (a, b) = (of(left), of(right))
        // The words are made only for a mistake: every comparison parsed comes here.
        switch op {
        case .equal, .notEqual:
            // Both null in some state: equal there (`null == null`), whatever their shapes.
            guard !a.fits(b), !(mayBeNull(left) && mayBeNull(right)) else { return nil }
            // `pan == "strip"`: an object compared with one of its fields' values.
            var hint = ""
            for case .field(let f, nil) in [left, right] {
                if let keys = f.keys { hint = " (\(f.rawValue)'s fields: \(keys.map { f.rawValue + "." + $0 }.joined(separator: ", ")))" }
            }
            return "\(left.shown) is \(words(left)) and \(right.shown) is \(words(right)), which are never equal: \(op.rawValue) would be \(op == .equal ? "false" : "true") in every state\(hint)"
        case .contains:
            switch a {
            case .unknown: return nil
            case .list(let item, _):
                guard !item.fits(b) else { return nil }
                return "\(left.shown) holds \(item.plural); \(right.shown) is \(words(right)), which it never contains"
            default:
                return "contains looks in a list, and \(left.shown) is \(words(left))"
            }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard !a.orders(with: b) else { return nil }
            return "\(op.rawValue) orders two numbers or two strings; \(left.shown) is \(words(left)) and \(right.shown) \(words(right))"
        }
    }
}

extension ExpectationNode {
    /// The node as a message names it: a field's path, a literal's JSON, `count(…)`.
    var shown: String {
        switch self {
        case .field(let f, let key): f.rawValue + (key.map { "." + $0 } ?? "")
        case .literal(let v): v.description.count <= 40 ? v.description : "the literal"
        case .count, .selectedCount: "count(…)"
        case .selectedContains, .selectedEquals, .compare: "the comparison"
        case .or, .and, .not: "the condition"
        }
    }
}
