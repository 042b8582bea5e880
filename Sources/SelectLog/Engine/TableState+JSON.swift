extension TableState {
    /// The state as the JSON object of spec 6, with keys in the spec's order.
    ///
    /// `selected` lists every selected row, so the text grows with the selection: 100
    /// million selected rows make about 1.5 GB of it, and the string is held whole.
    /// `writeJSON(_:)` hands the same text over in pieces instead.
    public var json: String { json(listingSelection: true) }

    /// The state JSON (`json`), handed to `emit` in pieces of about 64 KiB in order, so
    /// that a state whose selection lists millions of rows can be written to a file or a
    /// socket without the whole text in memory.
    public func writeJSON(_ emit: (String) -> Void) {
        writeJSON(listingSelection: true, emit)
    }

    /// The state JSON; with `listingSelection` false, `selected` is `[]` whatever is
    /// selected: for callers that read the other fields of states whose selection can
    /// hold millions of rows (the viewer, which draws the selection itself).
    package func json(listingSelection: Bool) -> String {
        var text = ""
        writeJSON(listingSelection: listingSelection) { text += $0 }
        return text
    }

    /// The state JSON (`json`), handed to `emit` in pieces of about 64 KiB, so that a
    /// state whose selection lists millions of rows is written without being held
    /// (`replay --json` of 100,000,000 selected rows: 1.5 GB of text).
    package func writeJSON(listingSelection: Bool, _ emit: (String) -> Void) {
        var out = "{"
        // Whether a key was written: `out.count` would count every character so far, at
        // every key (67 s for a state of 100,000,000 selected rows).
        var keyed = false
        func key(_ k: String) {
            out += (keyed ? ", " : "") + "\"\(k)\": "
            keyed = true
        }
        let path = JSONText.path, range = JSONText.range
        key("events"); out += String(events)
        key("t"); out += t.description
        key("sections"); out += "[" + layout.sections.map { String($0.rows.count) }.joined(separator: ", ") + "]"
        key("editing"); out += String(editing)
        key("selected")
        (listingSelection ? selection : RowSet()).writeJSONList(into: &out, emit)
        key("contentOffset"); out += contentOffset.description
        key("contentHeight"); out += layout.contentHeight.description
        key("visible"); out += range(visibleRows)
        key("dragging"); out += String(dragging)
        key("decelerating"); out += String(decelerating)
        key("rowsToLoad"); out += range(rowsToLoad)
        key("pan")
        if let pan {
            let mode = pan.mode.map { "\"\($0.rawValue)\"" } ?? "null"
            let auto = pan.autoscroll.map { "\"\($0.rawValue)\"" } ?? "null"
            out += "{\"kind\": \"\(pan.kind.rawValue)\", \"mode\": \(mode), \"anchor\": \(path(pan.anchor)), \"autoscroll\": \(auto)}"
        } else {
            out += "null"
        }
        key("optionOpen"); out += path(options.open)
        key("swipe")
        if case .active(let row, let offset)? = options.swipe {
            out += "{\"row\": \(path(row)), \"offset\": \(offset.description)}"
        } else {
            out += "null"
        }
        key("editor")
        if let editor, let row = layout.editorRow {
            let opts = editor.options.map(JSONText.quote).joined(separator: ", ")
            let chosen = editor.chosen.map(String.init).joined(separator: ", ")
            out += "{\"row\": \(path(row)), \"options\": [\(opts)], \"multiple\": \(editor.multiple), \"chosen\": [\(chosen)]}"
        } else {
            out += "null"
        }
        key("undo"); out += String(undoCount)
        key("redo"); out += String(redoCount)
        key("hash"); out += "\"\(hashHex)\""
        out += "}"
        emit(out)
    }
}

/// JSON text helpers.
package enum JSONText {
    /// A row as the state JSON writes it: `[section, row]`, or `null`.
    package static func path(_ r: RowPath?) -> String { r.map { "[\($0.section), \($0.row)]" } ?? "null" }

    /// Rows from one to another as the state JSON writes them (`visible`, `rowsToLoad`):
    /// `[[section, row], [section, row]]`, or `null`.
    package static func range(_ r: ClosedRange<RowPath>?) -> String {
        guard let r else { return "null" }
        return "[\(path(r.lowerBound)), \(path(r.upperBound))]"
    }

    /// `s` as a JSON string literal.
    package static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.isUnsafeToShow {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
