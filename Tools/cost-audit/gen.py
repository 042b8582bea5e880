#!/usr/bin/env python3
"""Scripts that make selectlog's per-event costs grow with the state.

usage: gen.py CASE N [M] > out.jsonl. N is the size of the state (selected ranges,
sections or editor options), M the number of measured events (default 2,000).
run.sh times each case at two sizes; README.md says what the cases show."""
import json, sys

def out(ev): sys.stdout.write(json.dumps(ev, separators=(",", ":")) + "\n")

RH = 10  # row height

def base(rows, multiple=True, height=600, strip=None, undo=None, sections=None):
    cfg = {"type": "configure", "allowsMultipleSelection": multiple}
    if strip: cfg["scrollAndSelect"] = strip
    if undo is not None: cfg["undoLimit"] = undo
    out(cfg)
    out({"type": "viewport", "width": 390, "height": height})
    out({"type": "reload", "sections": sections or [{"rows": rows, "rowHeight": RH}]})

def alt_select(n, section=0, descending=False):
    rows = [[section, 2 * i] for i in range(n)]
    if descending: rows.reverse()
    out({"type": "select", "rows": rows})

def scroll_to_row(r): out({"type": "scroll", "y": r * RH})

def main():
    case, n = sys.argv[1], int(sys.argv[2])
    m = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    rows = 2 * n + 10
    if case == "build":            # baseline: just build the N-range selection
        base(rows); alt_select(n)
    elif case == "taps":           # N ranges, then M taps toggling rows in the middle
        base(rows); alt_select(n)
        mid = n  # around the middle
        scroll_to_row(mid)
        for i in range(m):
            out({"type": "tap", "x": 5, "y": 5 + RH * (i % 40)})
    elif case == "tapsbuild":      # build N ranges by N taps (no select): quadratic?
        base(rows)
        for i in range(n):
            if i % 30 == 0: scroll_to_row(2 * i)
            out({"type": "tap", "x": 5, "y": 5 + RH * (2 * i - 2 * (i - i % 30))})
    elif case == "select1":        # N ranges, then M selects of one unselected row each
        base(rows); alt_select(n)
        for i in range(m): out({"type": "select", "rows": [[0, 2 * ((n // 2 + i) % n) + 1]]})
    elif case == "deselect1":
        base(rows); alt_select(n)
        for i in range(m): out({"type": "deselect", "rows": [[0, 2 * ((n // 2 + i) % n)]]})
    elif case == "undoredo":       # N ranges, one tap, then M/2 undo/redo pairs
        base(rows); alt_select(n)
        scroll_to_row(n); out({"type": "tap", "x": 5, "y": 15})
        for i in range(m // 2): out({"type": "undo"}); out({"type": "redo"})
    elif case in ("panflip", "panrestore"):   # strip pan sweeping rows over N ranges
        rev = "flip" if case == "panflip" else "restore"
        base(rows, strip={"enabled": True, "reversal": rev})
        alt_select(n)
        scroll_to_row(n)
        out({"type": "panBegan", "x": 5, "y": 105})
        y, d = 105, RH
        for i in range(m):
            y += d
            if y > 480 or y < 100: d = -d; y += 2 * d
            out({"type": "panMoved", "x": 5, "y": y})
        out({"type": "panEnded"})
    elif case == "shortpans":      # M two-event strip pans (begin/end) over N ranges
        base(rows, strip={"enabled": True})
        alt_select(n); scroll_to_row(n)
        for i in range(m):
            out({"type": "panBegan", "x": 5, "y": 105 + RH * (i % 30)}); out({"type": "panEnded"})
    elif case == "deleterows":     # N ranges, one deleteRows of the M selected rows (delete selection)
        base(rows); alt_select(n)
        out({"type": "deleteRows", "at": [[0, 2 * i] for i in range(m)]})
    elif case == "deleteall":      # delete every selected row (realistic "delete selected")
        base(rows); alt_select(n)
        out({"type": "deleteRows", "at": [[0, 2 * i] for i in range(n)]})
    elif case == "selectdesc":     # one select of N rows listed in descending order (M=0: none)
        base(rows)
        if m: alt_select(n, descending=True)
    elif case == "selectasc":
        base(rows); alt_select(n)
    elif case == "insertsections1":  # N sections, then M insertSections of one section
        base(0, sections=[{"rows": 1, "rowHeight": RH}] * n)
        for i in range(m): out({"type": "insertSections", "at": [n // 2], "sections": [{"rows": 1}]})
    elif case == "insertsectionsK":  # one insertSections of N sections into an empty table
        base(0, sections=[])
        if m: out({"type": "insertSections", "at": list(range(n)), "sections": [{"rows": 1}] * n})
    elif case == "deletesectionsK":
        base(0, sections=[{"rows": 1, "rowHeight": RH}] * n)
        if m: out({"type": "deleteSections", "at": list(range(n))})
    elif case == "jumptitle":      # N titled sections, M jumps to the last title
        secs = [{"rows": 1, "rowHeight": RH, "title": "A"} for _ in range(n)]
        secs[-1]["title"] = "Z"
        base(0, sections=secs)
        for i in range(m): out({"type": "jumpToSection", "title": "Z" if i % 2 == 0 else "A"})
    elif case == "jumpindex":
        base(0, sections=[{"rows": 1, "rowHeight": RH}] * n)
        for i in range(m): out({"type": "jumpToSection", "section": (i * 7919) % n})
    elif case == "choose":         # editor with N options all chosen, M chooses (multiple)
        base(100)
        out({"type": "toggleEditor", "row": [0, 0], "options": [""] * n, "multiple": True, "chosen": list(range(n))})
        for i in range(m): out({"type": "choose", "option": (i * 7) % n})
    elif case == "selectall_sections":   # N one-row sections, M selectAll (all already selected after first)
        base(0, sections=[{"rows": 1, "rowHeight": RH}] * n)
        for i in range(m): out({"type": "selectAll"})
    elif case == "selectall_toggle":     # N one-row sections, M selectAll/deselectAll alternations
        base(0, sections=[{"rows": 1, "rowHeight": RH}] * n)
        for i in range(m): out({"type": "selectAll" if i % 2 == 0 else "deselectAll"})
    elif case == "tap_sections":   # N one-row sections all selected, M taps (toggle) in the middle
        base(0, sections=[{"rows": 1, "rowHeight": RH}] * n)
        out({"type": "selectAll"})
        out({"type": "scroll", "y": (n // 2) * RH})
        for i in range(m): out({"type": "tap", "x": 5, "y": 5 + RH * (i % 40)})
    elif case == "ticks":          # auto-scroll ticks down over N ranges (flip)
        base(rows, strip={"enabled": True, "rowsPerSecond": 40})
        alt_select(n); scroll_to_row(0)
        out({"type": "panBegan", "x": 5, "y": 300, "t": 0})
        out({"type": "panMoved", "x": 5, "y": 590, "t": 1})
        for i in range(m): out({"type": "tick", "t": 2 + 16 * i})
        out({"type": "panEnded"})
    elif case == "ticksrestore":
        base(rows, strip={"enabled": True, "rowsPerSecond": 40, "reversal": "restore"})
        alt_select(n); scroll_to_row(0)
        out({"type": "panBegan", "x": 5, "y": 300, "t": 0})
        out({"type": "panMoved", "x": 5, "y": 590, "t": 1})
        for i in range(m): out({"type": "tick", "t": 2 + 16 * i})
        out({"type": "panEnded"})
    elif case == "insertrows":     # N ranges, M single-row inserts near the top (O(ranges) shift each)
        base(rows, undo=0); alt_select(n)
        for i in range(m): out({"type": "insertRows", "at": [[0, 1]]})
    elif case == "deletetop":      # N ranges; one deleteRows of the N/2 unselected rows of the first half
        base(rows); alt_select(n)
        if m: out({"type": "deleteRows", "at": [[0, 2 * i + 1] for i in range(n // 2)]})
    elif case == "inserttop":      # N ranges; one insertRows of M rows at the top
        base(rows); alt_select(n)
        out({"type": "insertRows", "at": [[0, i] for i in range(m)]})
    elif case == "rowheights":     # one section of N rows with heights given one by one, M inserts/deletes at the top, taps
        base(0, sections=[{"rows": n, "rowHeight": RH, "rowHeights": [10 + (i % 7) for i in range(n)]}])
        for i in range(m // 2):
            out({"type": "insertRows", "at": [[0, 3]], "heights": [13]}); out({"type": "deleteRows", "at": [[0, 5]]})
    else:
        raise SystemExit("unknown case " + case)

main()
