/// "Did you mean": the known name closest to a misspelt one (spec 4).
///
/// Closeness is the optimal-string-alignment distance (Damerau–Levenshtein with
/// each substring edited once): insertions, deletions, substitutions and swaps of
/// two adjacent characters cost 1, a change of letter case alone costs nothing. A
/// name is suggested when it is at most 1 edit away for names of up to 4
/// characters, 2 for up to 8, 3 beyond, and fewer edits than the shorter name is
/// long (so `"z"` does not suggest `"x"`).
package enum NameSuggestion {
    /// The closest of `candidates` to `name`, or nil when none is close; ties go to the earlier candidate.
    package static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        // A name this long is no typo of ours; do not spend time on it.
        guard typed.count <= 64 else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let known = Array(candidate.lowercased().unicodeScalars)
            let d = distance(typed, known)
            let allowed = known.count <= 4 ? 1 : (known.count <= 8 ? 2 : 3)
            guard d <= allowed, d < min(typed.count, known.count) || d == 0 else { continue }
            if let b = best, b.distance <= d { continue }
            best = (candidate, d)
        }
        return best?.name
    }

    /// The event type for a name spelt after UIKit's gesture states (`.changed`,
    /// `.failed`), which no spelling distance would find: `panChanged` is `panMoved`.
    static func uikitEventType(_ name: String) -> String? {
        switch name.lowercased() {
        case "panchanged": "panMoved"
        case "swipechanged": "swipeMoved"
        case "panfailed": "panCancelled"
        default: nil
        }
    }

    /// The optimal-string-alignment distance between `a` and `b`.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        // Three rows of the dynamic-programming table: two back, one back, current.
        var older = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d = min(d, older[j - 2] + 1)
                }
                current[j] = d
            }
            (older, previous, current) = (previous, current, older)
        }
        return previous[b.count]
    }
}
