/// The viewer's HTML page: markup, inline style and inline script around the data the
/// engine computed. Nothing is loaded from anywhere: no network, fonts or files.
enum ViewerPage {
    /// The page for `data`, titled after `title`, handed to `write` a piece at a time: the
    /// markup before the data, the data's JSON as `ViewerData.writeJSON` hands it over
    /// (each piece made safe inside the script element), the rest. A page's data can be
    /// 32 MB: held once (by `data`), never copied whole. Returns the page's length in bytes.
    static func write(title: String, data: ViewerData, to write: ([UInt8]) throws -> Void) throws -> Int {
        var bytes = 0
        func put(_ piece: [UInt8]) throws {
            bytes += piece.count
            try write(piece)
        }
        try put(Array(head(title: title).utf8))
        try data.writeJSON { piece in try put(embedded(piece)) }
        try put(Array(tail.utf8))
        return bytes
    }

    /// How every page begins, up to its title's text: a file at `view -o` that begins so
    /// is an earlier page, which `view` replaces without `--force`.
    static let opening = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>selectlog view \u{2014} "

    /// The markup before the data. The title (the file's name) with its controls and bidi
    /// marks shown as `\u{202E}` (`escapingControls`), as the page shows them in section
    /// titles (`esc()`): a name could otherwise reorder or break the browser's title.
    private static func head(title: String) -> String {
        opening + """
        \(escape(title.escapingControls))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        \(body)
        <script type="application/json" id="data">
        """
    }

    /// The markup after the data.
    private static let tail = """
        </script>
        <script>
        \(script)
        \(drawing)
        </script>
        </body>
        </html>

        """

    /// `text` safe inside HTML text and attributes.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// JSON safe inside a `<script>` element: `<` occurs only inside JSON strings, where
    /// `\u003c` means the same and cannot close the element.
    static func embedded(_ json: [UInt8]) -> [UInt8] {
        guard json.contains(UInt8(ascii: "<")) else { return json }
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        for byte in json {
            if byte == UInt8(ascii: "<") { out += escapedLessThan } else { out.append(byte) }
        }
        return out
    }

    private static let escapedLessThan = Array(#"\u003c"#.utf8)

    /// The bytes `text` takes in the page once `embedded`: its UTF-8, five more for each
    /// `<`. The page's budget counts these (`ViewerData`): options or titles full of `<`
    /// take six times their length there.
    static func embeddedCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var lessThan = 0
            for byte in bytes where byte == UInt8(ascii: "<") { lessThan += 1 }
            return bytes.count + lessThan * (escapedLessThan.count - 1)
        }
    }

    static let body = #"""
    <header>
      <h1>selectlog view</h1>
      <span id="file"></span>
      <span id="window"></span>
      <span class="spacer"></span>
      <span>event <b id="current" data-event=""></b></span>
      <span>t <b id="time"></b> ms</span>
      <span>hash <code id="hash"></code></span>
    </header>
    <p id="notes" hidden></p>
    <section id="timeline-box">
      <canvas id="timeline" height="56"></canvas>
      <div id="cursor"></div>
      <div id="legend"><span class="lg pan-strip">strip pan</span><span class="lg pan-multiSelect">multi-select pan</span><span class="lg pan-scroll">drag scroll</span><span class="lg pan-interrupted">interrupted</span><span class="lg swipe">swipe</span><span class="lg step">undo step</span><span class="lg undo">undo/redo</span></div>
    </section>
    <section id="controls">
      <button id="prev-gesture" title="Previous gesture boundary (Shift+←, [)">« gesture</button>
      <button id="prev" title="Previous event (←)">‹ event</button>
      <input id="slider" type="range" step="1" aria-label="event">
      <button id="next" title="Next event (→)">event ›</button>
      <button id="next-gesture" title="Next gesture boundary (Shift+→, ])">gesture »</button>
      <button id="mark-a" title="Mark this event as A (a)">mark A</button>
      <button id="mark-b" title="Mark this event as B (b)">mark B</button>
    </section>
    <main>
      <section id="table-box">
        <h2>table <span id="badges"></span></h2>
        <div id="stage"><div id="table"></div><div id="minimap"><div id="mini-view"></div><div id="mini-target"></div></div></div>
        <p id="table-note"></p>
      </section>
      <section id="events-box">
        <h2>events <small>(click to jump)</small></h2>
        <div id="events"></div>
      </section>
      <section id="side">
        <h2>state JSON <small>(EVENTS.md §6)</small></h2>
        <pre id="json"></pre>
        <h2>diff <small id="marks">mark two events</small></h2>
        <div id="diff"></div>
      </section>
    </main>
    <pre id="errors" data-count="0" hidden></pre>
    <pre id="probe" hidden></pre>
    <pre id="bench" hidden></pre>
    <pre id="interact" hidden></pre>
    """#

    static let style = #"""
    :root { --bg: #f6f7f9; --panel: #fff; --ink: #1d2330; --muted: #6b7385; --line: #d9dde5; --sel: #2f6fe4; --sel-bg: #dbe7fd;
      --strip: rgba(255, 170, 0, 0.18); --zone: rgba(220, 60, 60, 0.10); --opt: #e5484d; --editor: #fff7e0; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
    header { display: flex; gap: 16px; align-items: baseline; padding: 8px 16px; background: var(--ink); color: #fff; }
    header h1 { font-size: 15px; margin: 0; }
    header code { font-size: 13px; color: #9fe3b0; }
    header #file, header #window { color: #b8c0d0; }
    .spacer { flex: 1; }
    #notes { margin: 8px 16px 0; padding: 4px 8px; white-space: pre-line; background: #fff3cd; border: 1px solid #f0c36d; border-radius: 4px; }
    h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 6px; }
    h2 small { text-transform: none; letter-spacing: 0; }
    #timeline-box { position: relative; margin: 8px 16px 0; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 4px 0 2px; }
    #timeline { display: block; width: 100%; height: 56px; cursor: pointer; }
    #cursor { position: absolute; top: 2px; height: 60px; width: 2px; background: var(--ink); pointer-events: none; }
    #legend { display: flex; gap: 12px; padding: 2px 8px; color: var(--muted); font-size: 11px; }
    .lg::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; border-radius: 2px; background: var(--c); }
    .pan-strip { --c: #f0a020; } .pan-multiSelect { --c: #8a5cf5; } .pan-scroll { --c: #7d8aa5; } .pan-interrupted { --c: #c0392b; }
    .swipe { --c: #e5484d; } .step { --c: #2f6fe4; } .undo { --c: #17a673; }
    #controls { display: flex; gap: 6px; align-items: center; margin: 6px 16px; }
    #controls input { flex: 1; }
    button { font: inherit; padding: 3px 10px; border: 1px solid var(--line); background: var(--panel); border-radius: 5px; cursor: pointer; }
    button:hover { border-color: var(--sel); }
    main { display: grid; grid-template-columns: auto minmax(320px, 1fr) minmax(320px, 1fr); gap: 12px; margin: 0 16px 16px; align-items: start; }
    main > section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px; min-width: 0; }
    #table-box { width: min-content; }
    #stage { display: flex; gap: 8px; }
    #table { position: relative; overflow: hidden; height: 640px; contain: strict; background: #eef0f4; border: 1px solid var(--line); }
    #table div { position: absolute; left: 0; right: 0; overflow: hidden; white-space: nowrap; font-size: 11px; }
    #table .row { background: #fff; border-bottom: 1px solid #e6e8ee; padding-left: 6px; display: flex; align-items: center; }
    #table .row.sel { background: var(--sel-bg); color: #123a8a; font-weight: 600; }
    #table .row.anchor { box-shadow: inset 0 0 0 2px var(--sel); }
    #table .row .check { display: inline-block; width: 10px; height: 10px; border-radius: 50%; border: 1px solid #99a; margin-right: 6px; }
    #table .row.sel .check { background: var(--sel); border-color: var(--sel); }
    #table .hdr { background: #e2e5ec; color: var(--muted); font-weight: 600; padding-left: 6px; display: flex; align-items: center; }
    #table .ftr { background: #e9ebf0; color: var(--muted); padding-left: 6px; font-style: italic; }
    #table .editor { background: var(--editor); border-bottom: 1px solid #eadba8; padding-left: 16px; display: flex; align-items: center; gap: 4px; }
    #table .editor span { border: 1px solid #d9c27a; border-radius: 9px; padding: 0 6px; background: #fff; }
    #table .editor span.chosen { background: #f0a020; border-color: #f0a020; color: #fff; }
    #table .opt { left: auto !important; background: var(--opt); color: #fff; text-align: center; font-weight: 600; }
    #table .mask { background: rgba(40, 46, 60, 0.28); z-index: 2; }
    #table .viewport { border: 2px solid var(--ink); z-index: 3; background: transparent; }
    #table .strip { right: auto !important; background: var(--strip); border: 1px dashed #f0a020; z-index: 3; }
    #table .zone { background: var(--zone); z-index: 3; }
    #table .finger { left: auto !important; right: auto !important; width: 22px; height: 22px; border-radius: 50%; background: rgba(47, 111, 228, .55); border: 2px solid #123a8a; z-index: 4; overflow: visible; }
    #table .auto { left: auto !important; right: 4px !important; z-index: 4; font-size: 22px !important; color: #c0392b; font-weight: 700; overflow: visible; }
    #minimap { position: relative; width: 14px; height: 640px; background: #e2e5ec; border-radius: 3px; }
    #mini-view { position: absolute; left: 0; right: 0; background: rgba(29, 35, 48, .55); border-radius: 3px; min-height: 2px; }
    #mini-target { position: absolute; left: -3px; right: -3px; height: 2px; background: #c0392b; display: none; }
    #badges span { display: inline-block; margin-left: 4px; padding: 0 6px; border-radius: 8px; background: #eef0f4; color: var(--ink); text-transform: none; letter-spacing: 0; }
    #table-note { color: var(--muted); margin: 6px 0 0; font-size: 11px; }
    #events { height: 700px; overflow: hidden; contain: strict; font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
    .ev { padding: 2px 4px; border-radius: 4px; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .ev > span { display: inline-block; vertical-align: top; overflow: hidden; text-overflow: ellipsis; }
    .ev .n { width: 56px; } .ev .t { width: 84px; padding-left: 8px; } .ev .what { max-width: calc(100% - 280px); }
    .ev .h { width: 128px; padding-left: 8px; color: #8a93a6; } .ev.cur .h { color: #9fe3b0; }
    .ev:hover { background: #eef3ff; }
    .ev.cur { background: var(--ink); color: #fff; }
    .ev .n { text-align: right; color: var(--muted); } .ev.cur .n { color: #cfd6e4; }
    .ev .what b { font-weight: 600; } .ev .ch { display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; white-space: normal; margin-left: 148px; color: #17803d; } .ev.cur .ch { color: #9fe3b0; }
    .ev.mark { box-shadow: inset 3px 0 0 #f0a020; }
    pre { margin: 0; white-space: pre-wrap; word-break: break-all; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
    #json { height: 330px; overflow: auto; contain: strict; background: #f3f5f8; padding: 6px; border-radius: 4px; }
    #diff { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
    #diff .same { color: var(--muted); }
    #errors { margin: 0 16px 16px; color: #b00020; }
    """#
}
