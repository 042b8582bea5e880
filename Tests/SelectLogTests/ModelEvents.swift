@testable import SelectLog

/// Random event sequences for the model comparison: valid and invalid, biased toward
/// long selection pans with auto-scroll, and kept away from the few combinations the
/// contract leaves open (a viewport change or an editor toggle in the middle of a
/// selection pan, a `reload` or `setEditing` in the middle of a swipe).
struct ModelEvents {
    var rng: SeededRandom
    /// Whether to generate v2-only scenarios: interrupted pans, pans that begin over no
    /// data row, drag scrolls through edits, an unchanged `setEditing` with an open option view.
    var v2: Bool
    /// The most rows a generated section has; hundreds reach the layout's multi-level trees.
    var maxRows = 12

    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    mutating func pt(_ r: ClosedRange<Int>) -> Points {
        let whole = Int64(int(r)) * 64
        return Points(raw: chance(70) ? whole : whole + Int64(int(0...63)))
    }

    /// The set-up events: configuration, viewport, a table of one to three sections.
    mutating func setUp() -> [Event] {
        var c = ConfigurationPatch()
        c.allowsSelection = chance(85)
        c.allowsMultipleSelection = chance(75)
        c.allowsSelectionDuringEditing = chance(50)
        c.allowsMultipleSelectionDuringEditing = chance(60)
        c.multiSelectInteraction = chance(60)
        c.optionWidth = chance(70) ? pt(40...120) : .zero
        c.editorHeight = chance(50) ? pt(0...60) : nil
        c.undoLimit = chance(30) ? int(0...4) : nil
        var s = StripPatch()
        s.enabled = chance(85)
        s.edge = chance(70) ? .leading : .trailing
        s.stripWidth = pt(30...110)
        s.topAnchor = chance(50) ? pt(20...90) : nil
        s.bottomAnchor = chance(50) ? -pt(20...90) : nil
        s.rowsPerSecond = pt(1...40)
        s.reversal = chance(50) ? .flip : .restore
        s.jitter = chance(30) ? .zero : pt(0...8)
        c.scrollAndSelect = s
        let sections = (0..<int(1...3)).map { _ in section() }
        return [.configure(c), .viewport(width: pt(300...400), height: pt(180...520)), .reload(sections: sections)]
    }

    mutating func section() -> SectionSpec {
        SectionSpec(rows: int(0...maxRows),
                    rowHeight: chance(80) ? pt(20...80) : nil,
                    rowHeights: chance(50) ? (0..<int(0...maxRows + 2)).map { _ in chance(8) ? .zero : pt(10...90) } : nil,
                    header: chance(60) ? pt(0...30) : nil,
                    footer: chance(40) ? pt(0...20) : nil,
                    title: chance(60) ? ["A", "B", "C"][int(0...2)] : nil)
    }

    /// A row path, mostly in range, sometimes just past it.
    mutating func path(_ m: ModelTable) -> RowPath {
        let s = m.sections.isEmpty ? 0 : (chance(95) ? int(0...(m.sections.count - 1)) : m.sections.count)
        let n = s < m.sections.count ? m.sections[s].rows.count : 1
        return RowPath(s, chance(94) ? int(0...max(n - 1, 0)) : n + int(0...1))
    }

    /// A finger point for a selection pan: near the last one, in a zone, or anywhere.
    mutating func finger(_ m: ModelTable) -> ViewportPoint {
        let w = Int(m.width / 64), h = Int(m.height / 64), strip = max(Int(m.stripWidth / 64), 1)
        let x: Points
        switch int(0...19) {
        case 0: x = Points(-3)
        case 1: x = Points(w + 2)
        default: x = m.stripTrailing ? pt(max(w - strip, 0)...max(w - 1, 0)) : pt(0...max(min(strip, w) - 1, 0))
        }
        let last = m.pan.map { Int($0.fingerY / 64) } ?? h / 2
        let y: Points
        switch int(0...9) {
        case 0: y = pt(-20...h + 20)
        case 1: y = pt(0...max(Int(m.topAnchor / 64), 1))
        case 2: y = pt(max(h + Int(m.bottomAnchor / 64), 0)...h)
        default: y = pt(max(last - 60, -20)...(last + 60))
        }
        return ViewportPoint(x: x, y: y)
    }

    /// A little past the largest offset, in points.
    func far(_ m: ModelTable) -> Int { Int(m.maxOffset / 64) + 100 }

    mutating func anyPoint(_ m: ModelTable) -> ViewportPoint {
        ViewportPoint(x: pt(-5...Int(m.width / 64) + 5), y: pt(-10...Int(m.height / 64) + 10))
    }

    /// One event for the model's current state, with its `t` (sometimes none, rarely earlier).
    mutating func next(_ m: ModelTable) -> TimedEvent {
        var event = pick(m)
        if !v2, case .panBegan = event {
            // v1 engines start a selection pan's range at the first row reached, not at S.
            var probe = m
            if (try? probe.apply(TimedEvent(event))) != nil, let p = probe.pan, p.isSelectionPan, p.startID == nil { event = .tick }
        }
        let t: Micros?
        switch int(0...19) {
        case 0: t = nil
        case 1: t = Micros(raw: max(0, m.t - 1000))
        default: t = Micros(raw: m.t + Int64(int(0...40)) * 1000 + Int64(int(0...999)))
        }
        return TimedEvent(event, t: t)
    }

    private mutating func pick(_ m: ModelTable) -> Event {
        let swiping = m.swipeID != nil || m.swipeIgnored
        switch m.pan?.kind {
        case .strip?, .multiSelect?:
            switch int(0...99) {
            case 0..<50: return .panMoved(finger(m))
            case 50..<70: return .tick
            case 70..<75: return .panEnded(chance(50) ? finger(m) : nil, targetOffset: chance(30) ? pt(0...far(m)) : nil)
            case 75..<77: return .panCancelled
            case 77..<81: return .scroll(chance(50) ? .by(pt(-40...40)) : .to(pt(0...far(m))), phase: nil, target: nil)
            case 81..<83: return .jumpToSection(.index(int(0...m.sections.count)))
            case 83..<86:
                var s = StripPatch()
                s.jitter = chance(50) ? pt(0...8) : nil
                s.rowsPerSecond = pt(1...40)
                var c = ConfigurationPatch()
                c.scrollAndSelect = s
                if v2 && chance(50) { c.allowsMultipleSelection = chance(50); c.allowsMultipleSelectionDuringEditing = chance(50) }
                return .configure(c)
            case 86..<90 where v2 && !swiping: return edit(m)
            case 90..<92 where v2 && !swiping: return .setEditing(chance(50))
            case 92..<93 where v2 && !swiping: return .reload(sections: [section(), section()])
            case 93..<95: return chance(50) ? .undo : .redo
            case 95..<97: return .panBegan(finger(m), fingers: 1)
            case 97..<99: return .select(rows: [path(m)])
            default: return .tap(anyPoint(m))
            }
        case .scroll?:
            switch int(0...99) {
            case 0..<60: return .panMoved(anyPoint(m))
            case 60..<72: return .panEnded(chance(50) ? anyPoint(m) : nil, targetOffset: chance(60) ? pt(-50...far(m)) : nil)
            case 72..<76: return .panCancelled
            case 76..<80: return .tick
            case 80..<86 where v2 && !swiping: return edit(m)
            case 86..<88 where v2 && !swiping: return .setEditing(chance(50))
            case 88..<89 where v2 && !swiping: return .reload(sections: [section()])
            case 89..<93: return .scroll(.by(pt(-40...40)), phase: chance(30) ? .decelerate : nil, target: chance(50) ? pt(0...far(m)) : nil)
            case 93..<96: return chance(50) ? .undo : .redo
            default: return .tap(anyPoint(m))
            }
        case .interrupted?:
            switch int(0...99) {
            case 0..<55: return .panMoved(finger(m))
            case 55..<70: return .panEnded(chance(50) ? finger(m) : nil, targetOffset: chance(30) ? pt(0...far(m)) : nil)
            case 70..<78: return .panCancelled
            case 78..<85: return .tick
            case 85..<90: return chance(50) ? .undo : .redo
            case 90..<94: return .panBegan(finger(m), fingers: 1)
            default: return .scroll(.by(pt(-40...40)), phase: nil, target: nil)
            }
        case nil:
            return idle(m, swiping: swiping)
        }
    }

    private mutating func idle(_ m: ModelTable, swiping: Bool) -> Event {
        switch int(0...99) {
        case 0..<22: return .panBegan(chance(70) ? finger(m) : anyPoint(m), fingers: chance(80) ? 1 : int(2...3))
        case 22..<32: return .tap(anyPoint(m))
        case 32..<38: return .scroll([ScrollMotion.to(pt(-50...far(m))), .by(pt(-200...200)), nil][int(0...2)],
                                     phase: [ScrollPhase.decelerate, .idle, nil][int(0...2)], target: chance(50) ? pt(-50...far(m)) : nil)
        case 38..<41: return .jumpToSection(chance(70) ? .index(int(0...m.sections.count)) : .title(["A", "B", "Z"][int(0...2)]))
        case 41..<44: return .select(rows: (0..<int(0...2)).map { _ in path(m) })
        case 44..<46: return .deselect(rows: (0..<int(0...2)).map { _ in path(m) })
        case 46..<48: return chance(50) ? .selectAll : .deselectAll
        case 48..<56: return chance(60) ? .undo : .redo
        case 56..<64: return edit(m)
        case 64..<66 where !swiping: return chance(20) ? .deleteSections(at: [int(0...m.sections.count)])
                                                       : .insertSections(at: [int(0...m.sections.count)], sections: [section()])
        case 66..<69: return .swipeBegan(row: path(m))
        case 69..<72: return .swipeMoved(offset: pt(-10...130))
        case 72..<75: return .swipeEnded(velocity: chance(50) ? pt(-400...400) : nil)
        case 75..<77 where !swiping: return .setOptionVisible(row: path(m), visible: chance(60))
        case 77..<80:
            let n = int(0...3)
            let multiple = chance(50)
            let chosen = n == 0 ? [] : (multiple ? (0..<int(0...2)).map { _ in int(0...n - 1) } : (chance(50) ? [int(0...n - 1)] : []))
            return .toggleEditor(row: path(m), options: (0..<n).map { "o\($0)" }, multiple: multiple, chosen: chance(5) ? [n] : chosen)
        case 80..<85: return .choose(option: int(0...3))
        case 85..<88 where !swiping:
            var c = ConfigurationPatch()
            c.allowsSelection = chance(50) ? chance(80) : nil
            c.allowsMultipleSelection = chance(50) ? chance(70) : nil
            c.allowsMultipleSelectionDuringEditing = chance(30) ? chance(60) : nil
            c.undoLimit = chance(20) ? int(0...4) : nil
            c.editorHeight = chance(20) ? pt(0...60) : nil
            c.optionWidth = chance(10) ? pt(0...100) : nil
            if chance(40) {
                var s = StripPatch()
                s.reversal = chance(50) ? .flip : .restore
                s.jitter = chance(50) ? pt(0...8) : nil
                s.topAnchor = chance(30) ? pt(20...90) : nil
                c.scrollAndSelect = s
            }
            return .configure(c)
        case 88..<90 where !swiping && (v2 || m.optionOpenID == nil): return .setEditing(chance(50))
        case 90..<91: return .viewport(width: chance(80) ? nil : pt(300...400), height: pt(150...520))
        case 91..<92 where !swiping: return .reload(sections: (0..<int(1...3)).map { _ in section() })
        case 92..<96: return .tick
        default: return chance(50) ? .panMoved(anyPoint(m)) : (chance(50) ? .panEnded(nil, targetOffset: nil) : .panCancelled)
        }
    }

    /// A row edit, mostly valid.
    mutating func edit(_ m: ModelTable) -> Event {
        switch int(0...5) {
        case 0: return .insertRows(at: (0..<int(1...2)).map { _ in path(m) }, heights: chance(50) ? [pt(0...70)] : nil)
        case 1: return .deleteRows(at: (0..<int(1...2)).map { _ in path(m) })
        case 2: return .moveRow(from: path(m), to: path(m))
        case 3: return .reloadRows(at: [path(m)], heights: chance(50) ? [pt(0...70)] : nil)
        default:
            return .batch(BatchUpdate(deletes: (0..<int(0...2)).map { _ in path(m) }, inserts: (0..<int(0...2)).map { _ in path(m) },
                                      insertHeights: chance(30) ? [pt(10...60)] : nil,
                                      moves: (0..<int(0...1)).map { _ in .init(from: path(m), to: path(m)) },
                                      reloads: (0..<int(0...1)).map { _ in path(m) }, reloadHeights: chance(30) ? [pt(10...60)] : nil))
        }
    }
}
