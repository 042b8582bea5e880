/// The comparison operators of the expectation language.
public enum ExpectationOperator: String, Sendable, CaseIterable {
    /// `==`: structural equality.
    case equal = "=="
    /// `!=`: not structurally equal.
    case notEqual = "!="
    /// `<` on numbers or strings.
    case less = "<"
    /// `<=` on numbers or strings.
    case lessOrEqual = "<="
    /// `>` on numbers or strings.
    case greater = ">"
    /// `>=` on numbers or strings.
    case greaterOrEqual = ">="
    /// `contains`: list membership.
    case contains
}

/// A parsed expectation.
indirect enum ExpectationNode: Sendable {
    /// Two or more operands, left to right: a chain of `or`s is one node, so that its
    /// length does not add to the tree's depth (evaluation recurses over it).
    case or([ExpectationNode])
    /// Two or more operands, as `or`'s.
    case and([ExpectationNode])
    case not(ExpectationNode)
    case compare(ExpectationNode, ExpectationOperator, ExpectationNode)
    case field(StateField, key: String?)
    case literal(ExpectationValue)
    case count(ExpectationNode)
    /// `selected contains [s, r]`, answered by the selection itself.
    case selectedContains(RowPath)
    /// `count(selected)`, answered by the selection itself.
    case selectedCount
    /// `selected == v` (or `!=`, `negated`, either way round), answered without listing
    /// the selection: the list `v` is compared with the selected rows one by one, after
    /// its length with their count.
    case selectedEquals(ExpectationValue, negated: Bool)
}

/// Recursive descent over the grammar of `StateExpectation`.
struct ExpectationParser {
    private var tokens: [ExpectationToken]
    private var position = 0
    /// Parentheses, `count(`, `not` and list brackets open around the token being read.
    private var depth = 0
    /// The most of those an expectation may nest: parsing, evaluating and freeing it
    /// recurse once a level, on whatever thread and stack the caller has.
    static let maxNesting = 100
    static let keywords: Set<String> = ["and", "or", "not", "contains", "true", "false", "null", "count"]

    /// The expectation `text`; with `checkingShapes` false, a comparison of shapes that
    /// make it the same in every state is parsed too (for tests of the evaluator).
    static func parse(_ text: String, checkingShapes: Bool = true) throws(ExpectationError) -> ExpectationNode {
        var parser = ExpectationParser(tokens: try ExpectationLexer.tokens(text))
        let node = try parser.or()
        let next = parser.peek
        guard next.kind == .end else {
            throw ExpectationError(column: next.column, message: "expected \"and\", \"or\", an operator or the end, found \(next.quoted)")
        }
        if checkingShapes, let mistake = parser.shapeMistake { throw mistake }
        return node
    }

    /// The first comparison (or `count(`) whose operands' shapes make it the same in
    /// every state (`ExpectationShape`): said once the text has parsed, so that a
    /// mistake of syntax after it (a missing `)`) is said first.
    private var shapeMistake: ExpectationError?

    private mutating func noteShapeMistake(_ error: ExpectationError) {
        if shapeMistake == nil { shapeMistake = error }
    }

    private init(tokens: [ExpectationToken]) { self.tokens = tokens }

    private var peek: ExpectationToken { tokens[position] }
    private mutating func advance() -> ExpectationToken {
        let t = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return t
    }
    private func isName(_ word: String) -> Bool { peek.kind == .name(word) }
    private func isSymbol(_ s: String) -> Bool { peek.kind == .symbol(s) }
    private mutating func expect(_ symbol: String, _ what: String) throws(ExpectationError) {
        guard isSymbol(symbol) else {
            throw ExpectationError(column: peek.column, message: "expected \(what), found \(peek.quoted)")
        }
        _ = advance()
    }

    /// `body` one level deeper than the token at `column`, which opens the level.
    private mutating func nested<T>(at column: Int, _ body: (inout ExpectationParser) throws(ExpectationError) -> T) throws(ExpectationError) -> T {
        guard depth < Self.maxNesting else {
            throw ExpectationError(column: column, message: "nested more than \(Self.maxNesting) levels deep (parentheses, count(, not and lists)")
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func or() throws(ExpectationError) -> ExpectationNode {
        let first = try and()
        guard isName("or") else { return first }
        var operands = [first]
        while isName("or") {
            _ = advance()
            operands.append(try and())
        }
        return .or(operands)
    }

    private mutating func and() throws(ExpectationError) -> ExpectationNode {
        let first = try unary()
        guard isName("and") else { return first }
        var operands = [first]
        while isName("and") {
            _ = advance()
            operands.append(try unary())
        }
        return .and(operands)
    }

    private mutating func unary() throws(ExpectationError) -> ExpectationNode {
        if isName("not") {
            let not = advance()
            return try nested(at: not.column) { (p: inout ExpectationParser) throws(ExpectationError) in .not(try p.unary()) }
        }
        return try comparison()
    }

    private mutating func comparison() throws(ExpectationError) -> ExpectationNode {
        let left = try term()
        let op: ExpectationOperator?
        switch peek.kind {
        case .symbol(let s): op = ExpectationOperator(rawValue: s)
        case .name("contains"): op = .contains
        default: op = nil
        }
        guard let op else { return left }
        let opToken = advance()
        let right = try term()
        if let mistake = ExpectationShape.mistake(left, op, right) {
            noteShapeMistake(ExpectationError(column: opToken.column, message: mistake))
        }
        // Fast paths that read the selection without listing it.
        if op == .contains, case .field(.selected, nil) = left, case .literal(let v) = right, let row = ExpectationParser.rowPath(v) {
            return .selectedContains(row)
        }
        if op == .equal || op == .notEqual {
            if case .field(.selected, nil) = left, case .literal(let v) = right { return .selectedEquals(v, negated: op == .notEqual) }
            if case .literal(let v) = left, case .field(.selected, nil) = right { return .selectedEquals(v, negated: op == .notEqual) }
        }
        return .compare(left, op, right)
    }

    private mutating func term() throws(ExpectationError) -> ExpectationNode {
        let token = peek
        switch token.kind {
        case .symbol("("):
            _ = advance()
            let inner = try nested(at: token.column) { (p: inout ExpectationParser) throws(ExpectationError) in try p.or() }
            try expect(")", "\")\" to close the \"(\" at column \(token.column)")
            return inner
        case .name("count"):
            _ = advance()
            try expect("(", "\"(\" after count")
            let inner = try nested(at: token.column) { (p: inout ExpectationParser) throws(ExpectationError) in try p.or() }
            try expect(")", "\")\" to close count( at column \(token.column)")
            switch ExpectationShape.of(inner) {
            case .list, .unknown: break
            case let shape:
                noteShapeMistake(ExpectationError(column: token.column, message: "count( takes a list, and \(inner.shown) is \(shape.words)"))
            }
            if case .field(.selected, nil) = inner { return .selectedCount }
            return .count(inner)
        case .name(let name) where !ExpectationParser.keywords.contains(name) || ["true", "false", "null"].contains(name):
            if ["true", "false", "null"].contains(name) { return .literal(try literal()) }
            return try path()
        case .number, .string, .symbol("["):
            return .literal(try literal())
        default:
            throw ExpectationError(column: token.column, message: "expected a field, a literal, \"count(\" or \"(\", found \(token.quoted)")
        }
    }

    private mutating func path() throws(ExpectationError) -> ExpectationNode {
        let first = advance()
        guard case .name(let name) = first.kind else {
            throw ExpectationError(column: first.column, message: "expected a field, found \(first.quoted)")
        }
        guard let field = StateField(rawValue: name) else {
            let names = StateField.allCases.map(\.rawValue)
            // After a comparison, a bare word is most often a string without its quotes
            // (`pan.kind == strip`).
            let compared = position >= 2 && [.symbol("=="), .symbol("!="), .name("contains")].contains(tokens[position - 2].kind)
            let quotes = "a string takes double quotes: \"\(name)\""
            let hint = switch (ExpectationParser.closest(to: name, in: names), compared) {
            case (let field?, true): " (\(quotes); or did you mean the field \"\(field)\"?)"
            case (let field?, false): " (did you mean \"\(field)\"?)"
            case (nil, true): " (\(quotes))"
            case (nil, false): ""
            }
            throw ExpectationError(column: first.column, message: "unknown field \"\(name)\"\(hint): expected one of \(names.joined(separator: ", "))")
        }
        guard isSymbol(".") else { return .field(field, key: nil) }
        let dot = advance()
        guard let keys = field.keys else {
            throw ExpectationError(column: dot.column, message: "\(name) has no fields\(ExpectationShape.of(field, key: nil).isListOfAnyLength ? lengthHint(name) : ""): expected an operator, \"and\", \"or\" or the end")
        }
        let keyToken = advance()
        guard case .name(let key) = keyToken.kind, keys.contains(key) else {
            let hint: String
            if case .name(let k) = keyToken.kind, let c = ExpectationParser.closest(to: k, in: keys) { hint = " (did you mean \"\(c)\"?)" } else { hint = "" }
            throw ExpectationError(column: keyToken.column, message: "expected a field of \(name) (\(keys.joined(separator: ", "))), found \(keyToken.quoted)\(hint)")
        }
        if isSymbol(".") {
            let dot = advance()
            throw ExpectationError(column: dot.column,
                                   message: "\(name).\(key) has no fields\(ExpectationShape.of(field, key: key).isListOfAnyLength ? lengthHint("\(name).\(key)") : ""): expected an operator, \"and\", \"or\" or the end")
        }
        return .field(field, key: key)
    }

    /// The words other languages use for a list's length (`selected.count`, `rows.length`).
    static let lengthWords: Set<String> = ["count", "length", "size", "len"]

    /// After `path` (a list of any length) and a dot: when the next token is one of
    /// `lengthWords`, how this language says it (`count(path)`); else nothing.
    private func lengthHint(_ path: String) -> String {
        guard case .name(let word) = peek.kind, Self.lengthWords.contains(word) else { return "" }
        return " (a list's length is count(\(path)), not \(path).\(word))"
    }

    private mutating func literal() throws(ExpectationError) -> ExpectationValue {
        let token = advance()
        switch token.kind {
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .name("true"): return .bool(true)
        case .name("false"): return .bool(false)
        case .name("null"): return .null
        case .symbol("["):
            return try nested(at: token.column) { (p: inout ExpectationParser) throws(ExpectationError) -> ExpectationValue in
                var items: [ExpectationValue] = []
                if p.isSymbol("]") {
                    _ = p.advance()
                    return .list(items)
                }
                while true {
                    items.append(try p.literal())
                    if p.isSymbol("]") {
                        _ = p.advance()
                        return .list(items)
                    }
                    try p.expect(",", "\",\" or \"]\" in the list that opens at column \(token.column)")
                }
            }
        default:
            throw ExpectationError(column: token.column, message: "expected a literal (number, \"string\", true, false, null or [list]), found \(token.quoted)")
        }
    }

    /// `[s, r]` with whole numbers.
    static func rowPath(_ v: ExpectationValue) -> RowPath? {
        guard case .list(let items) = v, items.count == 2,
              case .number(let s) = items[0], case .number(let r) = items[1],
              s.scale == 1, r.scale == 1, let section = Int(exactly: s.raw), let row = Int(exactly: r.raw) else { return nil }
        return RowPath(section, row)
    }

    /// The name close to `word`, if one is: the rule of every "did you mean" (`NameSuggestion`),
    /// under which one letter suggests no other (`x` is no typo of `t`).
    static func closest(to word: String, in names: [String]) -> String? {
        NameSuggestion.closest(to: word, among: names)
    }
}
