extension ViewerPage {
    /// The page's drawing: the table at the current event (only the rows near the
    /// viewport), the timeline, the event list, the state JSON and the diff.
    static let drawing = #"""
    const TABLE_HEIGHT = 640;
    const tableEl = document.getElementById("table");
    const miniView = document.getElementById("mini-view");
    const miniTarget = document.getElementById("mini-target");
    const timeline = document.getElementById("timeline");
    const cursor = document.getElementById("cursor");
    const PAD = 8;

    /// Text a log chose, as HTML: markup escaped, and every scalar that could reorder or
    /// break the line around it (controls, line and paragraph separators, bidi marks,
    /// embeddings, overrides and isolates) shown as `\u{202E}`, as the command line does.
    function esc(s) {
      return String(s)
        .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g,
          (c) => "\\u{" + c.charCodeAt(0).toString(16).toUpperCase() + "}")
        .replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" })[c]);
    }
    function px(v) { return v.toFixed(1) + "px"; }

    function drawTable(n, f) {
      const [W, H0] = f.vp;
      // The scale needs a height; what is in the viewport does not (none of an empty one).
      const H = H0 > 0 ? H0 : 1;
      const offset = Number(f.contentOffset), content = Number(f.contentHeight);
      const scale = TABLE_HEIGHT / (1.5 * H);
      const low = offset - H / 4, high = offset + 1.25 * H;
      const y = (v) => px((v - low) * scale);
      const pan = JSON.parse(f.pan), editor = JSON.parse(f.editor), open = JSON.parse(f.optionOpen);
      const editing = f.editing === "true";
      const anchor = pan && pan.anchor;
      const html = [];
      for (const e of f.band) {
        if (e[0] === "h" || e[0] === "f") {
          const [kind, s, top, height, title] = e;
          if (top + height <= low || top >= high) continue;
          const label = kind === "h" ? (title === null ? "section " + s : esc(title) + " · section " + s) : "footer " + s;
          html.push(`<div class="${kind === "h" ? "hdr" : "ftr"}" data-section="${s}" style="top:${y(top)};height:${px(height * scale)}">${label}</div>`);
        } else if (e[0] === "e") {
          const [, top, height] = e;
          if (top + height <= low || top >= high || !editor) continue;
          const chips = editor.options.map((o, i) => `<span class="${editor.chosen.includes(i) ? "chosen" : ""}">${esc(o)}</span>`).join("");
          html.push(`<div class="editor" data-editor="${editor.row.join(",")}" style="top:${y(top)};height:${px(height * scale)}">${editor.multiple ? "⊞" : "◉"} ${chips}</div>`);
        } else {
          const [, s, first, top0, height, count] = e;
          const from = Math.max(0, Math.floor((low - top0) / height));
          const to = Math.min(count, Math.ceil((high - top0) / height));
          for (let i = from; i < to; i++) {
            const r = first + i, top = top0 + i * height;
            const selected = contains(f.sel, s, r);
            const inViewport = H0 > 0 && top < offset + H0 && top + height > offset;
            let cls = "row" + (selected ? " sel" : "") + (anchor && anchor[0] === s && anchor[1] === r ? " anchor" : "");
            let revealed = open && open[0] === s && open[1] === r ? Number(f.ow) : 0;
            if (f.sw && f.sw[0] === s && f.sw[1] === r) revealed = f.sw[2];
            const option = revealed > 0 ? `<div class="opt" style="top:0;bottom:0;width:${px(revealed * scale)}">${f.sw && f.sw[0] === s && f.sw[1] === r ? "swipe " + revealed : "options"}</div>` : "";
            html.push(`<div class="${cls}" data-row="${s},${r}" data-selected="${selected}" data-in-viewport="${inViewport}" style="top:${y(top)};height:${px(height * scale)}">${editing ? "<i class=\"check\"></i>" : ""}[${s}, ${r}]${option}</div>`);
          }
        }
      }
      html.push(`<div class="mask" style="top:0;height:${y(offset)}"></div>`);
      html.push(`<div class="mask" style="top:${y(offset + H0)};bottom:0"></div>`);
      html.push(`<div class="viewport" style="top:${y(offset)};height:${px(H0 * scale)}"></div>`);
      if (f.strip) {
        const [edge, width, topAnchor, bottomAnchor] = f.strip;
        const left = edge === "leading" ? 0 : (W - width) * scale;
        html.push(`<div class="strip" title="scroll-and-select strip" style="top:${y(offset)};height:${px(H * scale)};left:${px(left)};width:${px(width * scale)}"></div>`);
        if (topAnchor > 0) html.push(`<div class="zone" title="auto-scroll up zone" style="top:${y(offset)};height:${px(topAnchor * scale)}"></div>`);
        if (bottomAnchor < 0) html.push(`<div class="zone" title="auto-scroll down zone" style="top:${y(offset + H + bottomAnchor)};height:${px(-bottomAnchor * scale)}"></div>`);
      }
      if (f.finger) {
        const [x, fy, direction] = f.finger;
        html.push(`<div class="finger" title="finger${direction ? " moving " + direction : ""}" style="left:${px(x * scale - 11)};top:${px((offset + fy - low) * scale - 11)}"></div>`);
      }
      if (pan && pan.autoscroll) {
        const at = pan.autoscroll === "up" ? offset : offset + H - 30 / scale;
        html.push(`<div class="auto" title="auto-scroll ${pan.autoscroll}" style="top:${y(at)}">${pan.autoscroll === "up" ? "▲" : "▼"}</div>`);
      }
      tableEl.style.width = px(Math.max(80, W * scale));
      tableEl.innerHTML = html.join("");
      const total = Math.max(content, H);
      miniView.style.top = px(offset / total * TABLE_HEIGHT);
      miniView.style.height = px(Math.min(H, total) / total * TABLE_HEIGHT);
      miniTarget.style.display = f.tg === null ? "none" : "block";
      if (f.tg !== null) miniTarget.style.top = px(Math.min(f.tg, total) / total * TABLE_HEIGHT);
      const badges = [editing ? "editing" : "not editing", f.multi === "true" || f.multi === true ? "multiple" : "single"];
      if (pan) badges.push(pan.kind + " pan" + (pan.mode ? " · " + pan.mode : ""));
      if (pan && pan.autoscroll) badges.push("auto-scroll " + pan.autoscroll);
      if (f.dragging === "true") badges.push("dragging");
      if (f.decelerating === "true") badges.push("decelerating" + (f.tg === null ? "" : " to " + f.tg));
      if (editor) badges.push("editor below [" + editor.row.join(", ") + "]");
      if (open) badges.push("options open [" + open.join(", ") + "]");
      document.getElementById("badges").innerHTML = badges.map((b) => `<span>${esc(b)}</span>`).join("");
      document.getElementById("table-note").textContent =
        `viewport ${W}×${H0} at offset ${offset} of ${content} · visible ${f.visible} · ${selectedCount(f.sel)} selected · rowsToLoad ${f.rowsToLoad}`;
    }

    function drawInfo(n, f) {
      const current = document.getElementById("current");
      current.textContent = String(n);
      current.dataset.event = String(n);
      document.getElementById("time").textContent = String(timeAt(n));
      document.getElementById("hash").textContent = hashAt(n);
      document.getElementById("json").textContent = stateJSON(n, f);
      drawDiff();
    }

    function drawDiff() {
      const marks = document.getElementById("marks"), out = document.getElementById("diff");
      marks.textContent = "A " + (state.a ?? "–") + " · B " + (state.b ?? "–");
      if (state.a === null || state.b === null) { out.innerHTML = "<span class=\"same\">mark A and B (buttons, or keys a and b)</span>"; return; }
      const fa = frameAt(state.a), fb = frameAt(state.b);
      const lines = [`A = after event ${state.a}, hash ${hashAt(state.a)}`, `B = after event ${state.b}, hash ${hashAt(state.b)}`];
      let differences = 0;
      for (const k of D.jsonOrder) {
        if (k === "events" || k === "t" || k === "hash") continue;
        if (k === "selected") {
          const added = subtract(fb.sel, fa.sel), removed = subtract(fa.sel, fb.sel);
          if (added.length || removed.length) {
            differences++;
            lines.push("selected " + (added.length ? "+" + rangesText(added) + " " : "") + (removed.length ? "-" + rangesText(removed) : ""));
          }
        } else if (fa[k] !== fb[k]) {
          differences++;
          lines.push(k === "pan" ? `pan ${panText(fa.pan)} → ${panText(fb.pan)}` : `${k} ${fa[k]} → ${fb[k]}`);
        }
      }
      if (!differences) lines.push(hashAt(state.a) === hashAt(state.b) ? "no differences: same state" : "no differences in the state JSON; the hash differs (configuration, undo history)");
      out.innerHTML = lines.map((l, i) => `<div class="${i < 2 ? "same" : ""}">${esc(l)}</div>`).join("");
    }

    function drawEvents(n) {
      const html = [];
      if (n - 10 <= FROM) html.push(`<div class="ev${n === FROM ? " cur" : ""}" data-n="${FROM}"><span class="n">${FROM}</span><span class="t">${D.firstT} ms</span><span class="h">${D.firstHash}</span><span class="what"><i>${FROM === 0 ? "the empty table" : "state after event " + FROM + " (window start)"}</i></span></div>`);
      const lo = Math.max(FROM + 1, n - 10), hi = Math.min(TO, n + 10);
      const frame = frameAt(lo - 1);
      for (let i = lo; i <= hi; i++) {
        const e = event(i);
        const delta = e[5] || {};
        const changes = e.length > 6 ? e[6] : describe(frame, delta);
        Object.assign(frame, delta);
        const mark = (i === state.a || i === state.b) ? " mark" : "";
        const step = e[4] ? " · undo step" : "";
        const fields = e[2] ? JSON.stringify(e[2]) : "";
        const said = (changes ? "→ " + changes : "") + step;
        html.push(`<div class="ev${i === n ? " cur" : ""}${mark}" data-n="${i}" title="${esc(fields)}${said ? "&#10;" + esc(said) : ""}"><span class="n">${i}</span><span class="t">${e[1]} ms</span><span class="h">${e[3]}</span><span class="what"><b>${esc(typeOf(i))}</b> ${esc(fields)}</span>` +
          (said ? `<span class="ch">${esc(said)}</span>` : "") + "</div>");
      }
      document.getElementById("events").innerHTML = html.join("");
    }

    function xOf(n, width) { return PAD + (TO > FROM ? (n - FROM) / (TO - FROM) : 0) * (width - 2 * PAD); }

    function drawTimeline() {
      const ratio = window.devicePixelRatio || 1;
      const width = timeline.clientWidth || 800;
      timeline.width = Math.round(width * ratio);
      timeline.height = Math.round(56 * ratio);
      const g = timeline.getContext("2d");
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      g.clearRect(0, 0, width, 56);
      g.fillStyle = "#eef0f4";
      g.fillRect(PAD, 4, width - 2 * PAD, 48);
      const colors = { strip: "#f0a020", multiSelect: "#8a5cf5", scroll: "#7d8aa5", interrupted: "#c0392b", swipe: "#e5484d" };
      for (const [kind, began, ended] of D.gestures) {
        g.fillStyle = colors[kind] || "#555";
        const x0 = xOf(began, width), x1 = Math.max(xOf(ended, width), x0 + 1.5);
        if (kind === "swipe") g.fillRect(x0, 24, x1 - x0, 10); else g.fillRect(x0, 6, x1 - x0, 16);
      }
      for (let i = FROM + 1; i <= TO; i++) {
        const e = event(i);
        const type = D.types[e[0]];
        if (type === "undo" || type === "redo") { g.fillStyle = "#17a673"; g.fillRect(xOf(i, width) - 0.5, 38, 1.5, 14); }
        else if (e[4]) { g.fillStyle = "#2f6fe4"; g.fillRect(xOf(i, width) - 0.5, 38, 1.5, 10); }
      }
      g.fillStyle = "#6b7385";
      g.font = "10px system-ui, sans-serif";
      g.fillText(String(FROM), PAD + 2, 50);
      const last = String(TO);
      g.fillText(last, width - PAD - 2 - g.measureText(last).width, 50);
      for (const [name, n] of [["A", state.a], ["B", state.b]]) {
        if (n === null) continue;
        g.fillStyle = "#f0a020";
        g.fillRect(xOf(n, width) - 1, 2, 2, 52);
        g.font = "bold 10px system-ui, sans-serif";
        g.fillText(name, xOf(n, width) + 3, 12);
      }
    }

    function placeCursor(n) { cursor.style.left = px(xOf(n, timeline.clientWidth || 800) - 1); }

    function eventAtPointer(e) {
      const rect = timeline.getBoundingClientRect();
      const fraction = (e.clientX - rect.left - PAD) / Math.max(1, rect.width - 2 * PAD);
      return FROM + fraction * (TO - FROM);
    }
    timeline.addEventListener("pointerdown", (e) => { timeline.setPointerCapture(e.pointerId); go(eventAtPointer(e)); });
    timeline.addEventListener("pointermove", (e) => { if (e.buttons & 1) go(eventAtPointer(e)); });
    window.addEventListener("resize", () => { drawTimeline(); placeCursor(state.current); });
    window.addEventListener("hashchange", () => { const f = parseFragment(); if (f.event !== undefined) go(Number(f.event), true); });

    // The file's name as text a log chose is shown (`esc()`): a name holds any byte but `/`.
    document.getElementById("file").innerHTML = esc(D.file);
    // What `view` noted about the page's budget, as it said it on standard error.
    if (D.notes.length) {
      const notes = document.getElementById("notes");
      notes.textContent = D.notes.map((n) => "note: " + n).join("\n");
      notes.hidden = false;
    }
    // A pipe read no further than the window needs has no count (`total` null), as `view` says.
    document.getElementById("window").textContent = D.total === null
      ? (FROM === TO ? `the state after ${TO} event${TO === 1 ? "" : "s"} (the input read no further)` : `events ${FROM + 1}–${TO} (the input read no further)`)
      : (FROM === TO ? `the state after ${TO} of ${D.total} events` : `events ${FROM + 1}–${TO} of ${D.total}`);
    {
      const fragment = parseFragment();
      if (fragment.a !== undefined) state.a = clamp(fragment.a);
      if (fragment.b !== undefined) state.b = clamp(fragment.b);
      drawTimeline();
      go(fragment.event !== undefined ? Number(fragment.event) : D.start, true);
      // A test hook any link can reach: 500 events at most (the browser tests probe 16 at
      // most), as `bench` makes 500 moves at most; 20,000 held a page for half a minute.
      if (fragment.probe) probe(fragment.probe.split(",", 500).map(Number));
      if (fragment.bench) bench(Number(fragment.bench));
      if (fragment.interact !== undefined) interact();
    }
    """#
}
