@testable import SelectLog

/// Random events for property tests: valid and invalid, over small tables, with every event type.
enum RandomEvents {
    static func path<R: RandomNumberGenerator>(_ rng: inout R, rows: Int, sections: Int) -> RowPath {
        RowPath(Int.random(in: 0..<max(sections, 1), using: &rng), Int.random(in: 0..<max(rows, 1), using: &rng))
    }

    static func points<R: RandomNumberGenerator>(_ rng: inout R, _ range: ClosedRange<Int>) -> Points {
        // Mostly whole points, sometimes a grid fraction.
        let whole = Int64.random(in: Int64(range.lowerBound)...Int64(range.upperBound), using: &rng) * 64
        return Points(raw: Bool.random(using: &rng) ? whole : whole + Int64.random(in: 0..<64, using: &rng))
    }

    static func section<R: RandomNumberGenerator>(_ rng: inout R, rows: Int) -> SectionSpec {
        SectionSpec(rows: Int.random(in: 0...rows, using: &rng),
                    rowHeight: Bool.random(using: &rng) ? points(&rng, 0...80) : nil,
                    rowHeights: Int.random(in: 0..<4, using: &rng) == 0 ? (0..<3).map { _ in points(&rng, 0...90) } : nil,
                    header: Bool.random(using: &rng) ? points(&rng, 0...40) : nil,
                    footer: Bool.random(using: &rng) ? points(&rng, 0...30) : nil,
                    title: Bool.random(using: &rng) ? ["A", "B", "C"].randomElement(using: &rng) : nil)
    }

    static func event<R: RandomNumberGenerator>(using rng: inout R, rows: Int, sections: Int) -> Event {
        let finger = ViewportPoint(x: points(&rng, -10...400), y: points(&rng, -10...620))
        switch Int.random(in: 0..<36, using: &rng) {
        case 0:
            var c = ConfigurationPatch()
            c.allowsSelection = Bool.random(using: &rng) ? Bool.random(using: &rng) : nil
            c.allowsMultipleSelection = Bool.random(using: &rng) ? Bool.random(using: &rng) : nil
            c.allowsSelectionDuringEditing = Bool.random(using: &rng) ? Bool.random(using: &rng) : nil
            c.allowsMultipleSelectionDuringEditing = Bool.random(using: &rng) ? Bool.random(using: &rng) : nil
            c.multiSelectInteraction = Bool.random(using: &rng) ? Bool.random(using: &rng) : nil
            c.optionWidth = Bool.random(using: &rng) ? points(&rng, 0...100) : nil
            c.editorHeight = Int.random(in: 0..<4, using: &rng) == 0 ? points(&rng, 0...60) : nil
            c.undoLimit = Int.random(in: 0..<5, using: &rng) == 0 ? Int.random(in: 0...6, using: &rng) : nil
            if Bool.random(using: &rng) {
                var s = StripPatch()
                s.enabled = Bool.random(using: &rng)
                s.edge = Bool.random(using: &rng) ? .leading : .trailing
                s.reversal = Bool.random(using: &rng) ? .flip : .restore
                s.jitter = Bool.random(using: &rng) ? points(&rng, 0...8) : nil
                s.rowsPerSecond = Bool.random(using: &rng) ? points(&rng, 0...40) : nil
                s.stripWidth = Bool.random(using: &rng) ? points(&rng, 0...100) : nil
                // Anchors that move a zone onto or off a still finger (auto-scroll stops then).
                s.topAnchor = Int.random(in: 0..<4, using: &rng) == 0 ? points(&rng, 0...120) : nil
                s.bottomAnchor = Int.random(in: 0..<4, using: &rng) == 0 ? Points(raw: -points(&rng, 0...120).raw) : nil
                c.scrollAndSelect = s
            }
            return .configure(c)
        case 1: return .viewport(width: points(&rng, 0...400), height: points(&rng, 0...700))
        case 2: return .reload(sections: (0..<Int.random(in: 0...sections, using: &rng)).map { _ in section(&rng, rows: rows) })
        case 3: return .setEditing(Bool.random(using: &rng))
        case 4, 5, 6: return .tap(finger)
        case 7: return .panBegan(finger, fingers: Int.random(in: 1...3, using: &rng))
        case 8, 9, 10: return .panMoved(finger)
        case 11: return .panEnded(Bool.random(using: &rng) ? finger : nil, targetOffset: Bool.random(using: &rng) ? points(&rng, -50...3000) : nil)
        case 12: return .panCancelled
        case 13:
            let motion: ScrollMotion? = [ScrollMotion.to(points(&rng, -100...3000)), .by(points(&rng, -300...300)), nil].randomElement(using: &rng) ?? nil
            return .scroll(motion, phase: [ScrollPhase.decelerate, .idle, nil].randomElement(using: &rng) ?? nil,
                           target: Bool.random(using: &rng) ? points(&rng, -50...3000) : nil)
        case 14: return .jumpToSection(Bool.random(using: &rng) ? .index(Int.random(in: 0...sections, using: &rng)) : .title(["A", "B", "Z"].randomElement(using: &rng) ?? "A"))
        case 15: return .swipeBegan(row: path(&rng, rows: rows, sections: sections))
        case 16: return .swipeMoved(offset: points(&rng, -20...120))
        case 17: return .swipeEnded(velocity: Bool.random(using: &rng) ? points(&rng, -400...400) : nil)
        case 18: return .setOptionVisible(row: path(&rng, rows: rows, sections: sections), visible: Bool.random(using: &rng))
        case 19:
            let n = Int.random(in: 0...3, using: &rng)
            let multiple = Bool.random(using: &rng)
            let chosen = n == 0 ? [] : (multiple ? [Int.random(in: 0..<n, using: &rng)] : (Bool.random(using: &rng) ? [0] : []))
            return .toggleEditor(row: path(&rng, rows: rows, sections: sections), options: (0..<n).map { "o\($0)" }, multiple: multiple, chosen: chosen)
        case 20, 21: return .choose(option: Int.random(in: 0...3, using: &rng))
        case 22, 23: return .tick
        case 24: return .insertRows(at: (0..<Int.random(in: 1...3, using: &rng)).map { _ in path(&rng, rows: rows, sections: sections) },
                                    heights: Bool.random(using: &rng) ? [points(&rng, 0...80)] : nil)
        case 25: return .deleteRows(at: (0..<Int.random(in: 1...3, using: &rng)).map { _ in path(&rng, rows: rows, sections: sections) })
        case 26: return .moveRow(from: path(&rng, rows: rows, sections: sections), to: path(&rng, rows: rows, sections: sections))
        case 27: return .reloadRows(at: [path(&rng, rows: rows, sections: sections)], heights: Bool.random(using: &rng) ? [points(&rng, 0...80)] : nil)
        case 28:
            return .batch(BatchUpdate(
                deletes: (0..<Int.random(in: 0...2, using: &rng)).map { _ in path(&rng, rows: rows, sections: sections) },
                inserts: (0..<Int.random(in: 0...2, using: &rng)).map { _ in path(&rng, rows: rows, sections: sections) },
                moves: (0..<Int.random(in: 0...1, using: &rng)).map { _ in .init(from: path(&rng, rows: rows, sections: sections), to: path(&rng, rows: rows, sections: sections)) },
                reloads: (0..<Int.random(in: 0...1, using: &rng)).map { _ in path(&rng, rows: rows, sections: sections) }))
        case 29: return .insertSections(at: [Int.random(in: 0...sections, using: &rng)], sections: [section(&rng, rows: rows)])
        case 30: return .deleteSections(at: [Int.random(in: 0..<max(sections, 1), using: &rng)])
        case 31: return .select(rows: (0..<Int.random(in: 0...2, using: &rng)).map { _ in path(&rng, rows: rows, sections: sections) })
        case 32: return .deselect(rows: [path(&rng, rows: rows, sections: sections)])
        case 33: return Bool.random(using: &rng) ? .selectAll : .deselectAll
        case 34: return .undo
        default: return .redo
        }
    }

    /// A random time step: mostly forward, sometimes none, rarely backward (invalid).
    static func time<R: RandomNumberGenerator>(after t: Micros, using rng: inout R) -> Micros? {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return nil
        case 1: return Micros(raw: max(0, t.raw - 1000))
        default: return Micros(raw: t.raw + Int64.random(in: 0...50_000, using: &rng))
        }
    }
}
