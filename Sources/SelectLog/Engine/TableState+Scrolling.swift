extension TableState {
    mutating func scroll(_ motion: ScrollMotion?, phase: ScrollPhase?, target newTarget: Points?, _ changed: inout SelectionDelta) {
        switch motion {
        case .to(let y)?: contentOffset = clampedOffset(y)
        case .by(let dy)?: contentOffset = clampedOffset(contentOffset + dy)
        case nil: break
        }
        switch phase {
        case .decelerate?:
            decelerating = true
            if let newTarget { target = clampedOffset(newTarget) }
        case .idle?:
            decelerating = false
            target = nil
        case nil: break
        }
        if motion != nil { followFingerAfterScroll(&changed) }
    }

    mutating func jump(to reference: SectionReference, _ changed: inout SelectionDelta) throws(InvalidEvent) {
        let section: Int
        switch reference {
        case .index(let i):
            guard i < layout.sectionCount else {
                throw InvalidEvent(.outOfRange, "jumpToSection", field: EventField.section.rawValue, "section \(i) is out of range (the table has \(Self.sections(layout.sectionCount)))")
            }
            section = i
        case .title(let title):
            guard let i = layout.section(titled: title) else {
                throw InvalidEvent(.outOfRange, "jumpToSection", field: EventField.title.rawValue, "no section has the title \(Quoted.value(title))")
            }
            section = i
        }
        contentOffset = clampedOffset(layout.top(ofSection: section))
        followFingerAfterScroll(&changed)
    }
}
