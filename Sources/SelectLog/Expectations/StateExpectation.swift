/// A statement about a table's state, such as `selected contains [3, 60]` or
/// `count(selected) > 3 and not editing`, written in a small language over the state
/// JSON of spec 6 and evaluated on a `TableState` directly.
///
/// The grammar:
/// ```
/// expr  := or ;  or := and ("or" and)* ;  and := unary ("and" unary)*
/// unary := "not" unary | cmp ;  cmp := term (op term)?
/// op    := "==" | "!=" | "<" | "<=" | ">" | ">=" | "contains"
/// term  := path | literal | "count(" expr ")" | "(" expr ")"
/// path  := name ("." name)*
/// literal := number | "string" | true | false | null | "[" [literal ("," literal)*] "]"
/// ```
/// Paths name the fields of spec 6 (`selected`, `pan.kind`, `editor.chosen`, …); a path
/// through null is null. `a contains b` is list membership; `count(x)` is a list's
/// length (null when `x` is null); `==` is structural; `<`, `<=`, `>`, `>=` order numbers (and strings). A
/// comparison whose operands' shapes make it the same in every state (`events == "12"`,
/// `selected contains 6`, `editing < 3`), and a `count(` of what is never a list
/// (`count(events)`, null in every state), do not parse: a mistake in a check is not
/// taken for a state that fails it. Number literals are rounded
/// onto the grid of the value they meet (1/64 pt for lengths, 1 µs for `t`). An
/// expectation holds when its value is neither `false` nor `null`.
///
/// ```swift
/// let bug = try StateExpectation("selected contains [3, 60] and not editing")
/// if bug.holds(in: state) { print(bug.reads(in: state)) }
/// ```
public struct StateExpectation: Sendable, CustomStringConvertible {
    /// The text it was parsed from.
    public let text: String
    let root: ExpectationNode
    /// What was parsed, before any `negated`: negating twice gives it back, so that no
    /// number of negations nests deeper than one `not` over it.
    private let parsed: (text: String, root: ExpectationNode)

    /// Parses `text`; a mistake throws an `ExpectationError` naming the column and
    /// what was expected there.
    public init(_ text: String) throws(ExpectationError) {
        self.text = text
        root = try ExpectationParser.parse(text)
        parsed = (text, root)
    }

    /// The expectation that holds when every one of `parts` does (`true` for none): their
    /// texts joined with `and`, a part whose top level is an `or` in parentheses (`and`
    /// binds tighter), so that a command given several (`--expect A --expect B`) checks
    /// them all. It is parsed from that text, so its `text` reads back as the same
    /// expectation, nesting no deeper than its deepest part; it throws only when that part
    /// is an `or` already nested 100 levels deep, which the parentheses take past the limit.
    public init(all parts: [StateExpectation]) throws(ExpectationError) {
        guard parts.count != 1 else {
            self = parts[0]
            return
        }
        let texts = parts.map { part -> String in
            if case .or = part.root { return "(\(part.text))" }
            return part.text
        }
        try self.init(parts.isEmpty ? "true" : texts.joined(separator: " and "))
    }

    /// `init(_:)` without refusing comparisons that are the same in every state, for
    /// tests of how the evaluator answers them.
    init(uncheckedShapes text: String) throws(ExpectationError) {
        self.text = text
        root = try ExpectationParser.parse(text, checkingShapes: false)
        parsed = (text, root)
    }

    private init(text: String, root: ExpectationNode, parsed: (text: String, root: ExpectationNode)) {
        self.text = text
        self.root = root
        self.parsed = parsed
    }

    /// The text it was parsed from.
    public var description: String { text }

    /// The expectation that holds exactly when this one does not: `not (TEXT)`, or, for
    /// an expectation that is itself a `negated`, the one it negated (so its `value(in:)`
    /// is that expectation's own, say a count, where `not (not X)` would be a boolean).
    public var negated: StateExpectation {
        if text == parsed.text {
            return StateExpectation(text: "not (\(text))", root: .not(root), parsed: parsed)
        }
        return StateExpectation(text: parsed.text, root: parsed.root, parsed: parsed)
    }

    /// Whether the expectation holds in `state`.
    public func holds(in state: TableState) -> Bool { StateExpectation.truth(root, state) }

    /// `holds(in:)` with `state`'s `hashValue64` from `hash` (a `StateHasher`'s, which
    /// hashes the states of a walk for less than each state's own hash costs), called only
    /// when the evaluation reaches the hash (`editing and hash == "…"` skips it while not
    /// editing), perhaps more than once.
    package func holds(in state: TableState, hash: () -> UInt64) -> Bool {
        withoutActuallyEscaping(hash) { StateExpectation.truth(root, state, $0) }
    }

    /// The expectation's value in `state` (usually a boolean). The value of `selected`
    /// itself is the list of every selected row (about 135 bytes a row while it is held);
    /// `count(selected)` and `selected contains …` are worked out without listing them.
    public func value(in state: TableState) -> ExpectationValue { StateExpectation.evaluate(root, state).value(in: state) }

    /// The fields the expectation reads, as paths (`selected`, `pan.kind`), each once,
    /// in the order they are written.
    public var fields: [String] {
        var out: [String] = []
        func walk(_ n: ExpectationNode) {
            switch n {
            case .or(let operands), .and(let operands):
                for operand in operands { walk(operand) }
            case .compare(let a, _, let b):
                walk(a)
                walk(b)
            case .not(let a), .count(let a): walk(a)
            case .field(let f, let key):
                let path = f.rawValue + (key.map { "." + $0 } ?? "")
                if !out.contains(path) { out.append(path) }
            case .selectedContains, .selectedCount, .selectedEquals:
                if !out.contains("selected") { out.append("selected") }
            case .literal: break
            }
        }
        walk(root)
        return out
    }

    /// Each field the expectation reads, with its value in `state`: what a failed check
    /// prints. `selected` is listed whole, however many rows it holds;
    /// `reads(in:listingAtMost:)` lists the first rows only.
    public func reads(in state: TableState) -> [(path: String, value: ExpectationValue)] {
        fields.map { ($0, StateExpectation.read($0, in: state)) }
    }

    /// The value of field `path` (`selected`, `pan.kind`) in `state`.
    private static func read(_ path: String, in state: TableState) -> ExpectationValue {
        let parts = path.split(separator: ".").map(String.init)
        let field = StateField(rawValue: parts[0]) ?? .events
        return field.value(in: state, key: parts.count > 1 ? parts[1] : nil)
    }

    /// `reads(in:)`, with `selected` listing its first `limit` rows at most; `more` is how
    /// many rows it left out (0 for every other field). For messages about states whose
    /// selection can hold millions of rows: a failed check of a generated test prints it.
    public func reads(in state: TableState, listingAtMost limit: Int) -> [(path: String, value: ExpectationValue, more: Int)] {
        fields.map { path in
            guard path == "selected" else { return (path, StateExpectation.read(path, in: state), 0) }
            var rows: [ExpectationValue] = []
            state.selection.forEachPath { p in
                guard rows.count < limit else { return false }
                rows.append(.row(p))
                return true
            }
            return (path, .list(rows), state.selection.count - rows.count)
        }
    }

    /// `reads(in:)` as a JSON object (`{"selected": [[0, 5], …], "editing": false}`),
    /// handed to `emit` in pieces of about 64 KiB: the selection's rows are written one
    /// by one and never held at once, so a selection of millions of rows costs output,
    /// not memory.
    package func writeReads(in state: TableState, _ emit: (String) -> Void) {
        var out = "{"
        for (i, path) in fields.enumerated() {
            out += (i == 0 ? "" : ", ") + JSONText.quote(path) + ": "
            guard path == "selected" else {
                out += StateExpectation.read(path, in: state).description
                continue
            }
            state.selection.writeJSONList(into: &out, emit)     // rows as `ExpectationValue.row` prints them
        }
        emit(out + "}")
    }

    /// Whether `node` holds, without building values for the logical operators and the
    /// selection's fast paths (what `inspect --first` runs after every event); `hash`, when
    /// given, gives the state's `hashValue64`.
    static func truth(_ node: ExpectationNode, _ state: TableState, _ hash: (() -> UInt64)? = nil) -> Bool {
        switch node {
        case .or(let operands): return operands.contains { truth($0, state, hash) }
        case .and(let operands): return operands.allSatisfy { truth($0, state, hash) }
        case .not(let a): return !truth(a, state, hash)
        case .selectedContains(let row): return state.selection.contains(row)
        case .selectedEquals(let v, let negated): return selectionEquals(v, state) != negated
        case .field(.editing, nil): return state.editing
        case .field(.dragging, nil): return state.dragging
        case .field(.decelerating, nil): return state.decelerating
        default: return evaluate(node, state, hash).isTruthy
        }
    }

    /// A value met while evaluating: `selected` stays the state's selection, never
    /// listed, unless a value is asked of it (`value(in:)`, the public result). Every
    /// operator below answers for it as for its listing (a list of `[section, row]`),
    /// at the cost of the selection's ranges, not its rows.
    enum Operand {
        case value(ExpectationValue)
        /// `selected`: the state's selection.
        case selection

        /// Everything but `false` and `null` holds; a list, `selected` included, does.
        var isTruthy: Bool {
            guard case .value(let v) = self else { return true }
            return v.isTruthy
        }

        func value(in state: TableState) -> ExpectationValue {
            switch self {
            case .value(let v): v
            case .selection: StateField.selected.value(in: state)
            }
        }
    }

    /// `node`'s value in `state`; `hash`, when given, gives the state's `hashValue64`.
    static func evaluate(_ node: ExpectationNode, _ state: TableState, _ hash: (() -> UInt64)? = nil) -> Operand {
        switch node {
        case .or(let operands): return .value(.bool(operands.contains { evaluate($0, state, hash).isTruthy }))
        case .and(let operands): return .value(.bool(operands.allSatisfy { evaluate($0, state, hash).isTruthy }))
        case .not(let a): return .value(.bool(!evaluate(a, state, hash).isTruthy))
        case .field(.selected, nil): return .selection
        case .field(.hash, nil) where hash != nil: return .value(.string(TableState.hex(hash?() ?? 0)))
        case .field(let f, let key): return .value(f.value(in: state, key: key))
        case .literal(let v): return .value(v)
        case .selectedContains(let row): return .value(.bool(state.selection.contains(row)))
        case .selectedCount: return .value(.number(.count(state.selection.count)))
        case .selectedEquals(let v, let negated): return .value(.bool(selectionEquals(v, state) != negated))
        case .count(let a):
            if case .field(let f, let key) = a, let n = f.count(in: state, key: key) { return .value(.number(.count(n))) }
            switch evaluate(a, state, hash) {
            case .selection: return .value(.number(.count(state.selection.count)))
            case .value(.list(let items)): return .value(.number(.count(items.count)))
            case .value: return .value(.null)
            }
        case .compare(let a, let op, let b):
            return .value(.bool(compare(evaluate(a, state, hash), op, evaluate(b, state, hash), state)))
        }
    }

    /// Whether `selected`, listed, would equal `v` (`ExpectationValue.isEqual`), without
    /// listing it: a list of as many items as rows are selected, each equal to its row.
    static func selectionEquals(_ v: ExpectationValue, _ state: TableState) -> Bool {
        guard case .list(let items) = v, items.count == state.selection.count else { return false }
        var i = 0
        return state.selection.forEachPath { p in
            defer { i += 1 }
            return items[i].isEqual(to: .row(p))
        }
    }

    static func compare(_ a: Operand, _ op: ExpectationOperator, _ b: Operand, _ state: TableState) -> Bool {
        switch (a, b) {
        case (.selection, .selection):
            // The same list: equal; it has no item equal to itself (its items are rows,
            // it is a list of rows); and lists are not ordered.
            return op == .equal
        case (.selection, .value(let v)), (.value(let v), .selection):
            let selectionFirst: Bool = if case .selection = a { true } else { false }
            switch op {
            case .equal: return selectionEquals(v, state)
            case .notEqual: return !selectionEquals(v, state)
            case .contains:
                if selectionFirst { return selectionContains(v, state) }
                // A list holding the selection's listing as an item.
                guard case .list(let items) = v else { return false }
                return items.contains { selectionEquals($0, state) }
            default: return false      // a list is neither a number nor a string
            }
        case (.value(let x), .value(let y)):
            return compare(x, op, y)
        }
    }

    /// Whether the selection, listed, has an item equal to `v`: a row `[s, r]` whose
    /// numbers meet whole numbers (a literal rounded onto the rows' grid of 1, a state
    /// value exactly), looked up rather than listed.
    static func selectionContains(_ v: ExpectationValue, _ state: TableState) -> Bool {
        guard case .list(let items) = v, items.count == 2,
              case .number(let s) = items[0], case .number(let r) = items[1],
              let section = wholeNumber(s), let row = wholeNumber(r),
              let path = Int(exactly: section).flatMap({ s in Int(exactly: row).map { RowPath(s, $0) } }) else { return false }
        return state.selection.contains(path)
    }

    /// The count `n` such that `.count(n)` compares equal to `x`, if there is one.
    static func wholeNumber(_ x: ExpectationNumber) -> Int64? {
        if x.isLiteral { return x.rounded(to: 1) }
        guard x.scale != 0, x.raw % x.scale == 0 else { return nil }
        return x.raw / x.scale
    }

    static func compare(_ a: ExpectationValue, _ op: ExpectationOperator, _ b: ExpectationValue) -> Bool {
        switch op {
        case .equal: return a.isEqual(to: b)
        case .notEqual: return !a.isEqual(to: b)
        case .contains:
            guard case .list(let items) = a else { return false }
            return items.contains { $0.isEqual(to: b) }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let order: Int
            switch (a, b) {
            case let (.number(x), .number(y)): order = x.compare(y)
            case let (.string(x), .string(y)):
                // By Unicode scalar values, as equality is (`ExpectationValue.isEqual(to:)`).
                order = x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars, by: { $0.value < $1.value }) ? -1
                    : (x.unicodeScalars.elementsEqual(y.unicodeScalars) ? 0 : 1)
            default: return false
            }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }
}
