extension ViewerPage {
    /// The page's data access, navigation and test hooks. It reads frames the engine
    /// computed; it never applies an event.
    static let script = #"""
    "use strict";
    const errorBox = document.getElementById("errors");
    const problems = [];
    function report(message) {
      problems.push(String(message));
      errorBox.dataset.count = String(problems.length);
      errorBox.textContent = problems.join("\n");
      errorBox.hidden = false;
    }
    window.addEventListener("error", (e) => report("error: " + e.message + " (" + e.filename + ":" + e.lineno + ")"));
    window.addEventListener("unhandledrejection", (e) => report("unhandled rejection: " + e.reason));
    for (const level of ["error", "warn"]) {
      const original = console[level];
      console[level] = function (...args) { report("console." + level + ": " + args.join(" ")); original.apply(console, args); };
    }

    const D = JSON.parse(document.getElementById("data").textContent);
    const FROM = D.from, TO = D.to;
    // Each event: [type, t, fields or 0, hash, undoStep, delta or 0, the engine's changes for a row edit].
    const EV = D.events;
    const keys = D.keys;
    const boundaries = [...new Set(D.gestures.flatMap((g) => [g[1], g[2]]))].sort((a, b) => a - b);
    const state = { current: FROM, a: null, b: null };

    function event(n) { return EV[n - FROM - 1]; }
    function hashAt(n) { return n === FROM ? D.firstHash : event(n)[3]; }
    function timeAt(n) { return n === FROM ? D.firstT : event(n)[1]; }
    function typeOf(n) { return D.types[event(n)[0]]; }
    function clamp(n) { return Math.min(TO, Math.max(FROM, Math.round(Number(n)) || 0)); }

    /// The frame at state n: the key frame at or before it, then the fields later events changed.
    function frameAt(n) {
      const k = Math.floor((n - FROM) / D.keyInterval);
      const frame = Object.assign({}, keys[k]);
      for (let i = FROM + k * D.keyInterval + 1; i <= n; i++) {
        const delta = EV[i - FROM - 1][5];
        if (delta) Object.assign(frame, delta);
      }
      return frame;
    }

    function selectedCount(sel) { let c = 0; for (const r of sel) c += r[2] - r[1] + 1; return c; }
    function selectedText(sel) {
      const parts = [];
      for (const [s, a, b] of sel) for (let r = a; r <= b; r++) parts.push("[" + s + ", " + r + "]");
      return "[" + parts.join(", ") + "]";
    }
    const JSON_ROW_LIMIT = 20000;
    /// The state JSON of EVENTS.md section 6, as `replay --json` prints it.
    function stateJSON(n, f) {
      return "{" + D.jsonOrder.map((k) => {
        let v;
        if (k === "events") v = String(n);
        else if (k === "t") v = String(timeAt(n));
        else if (k === "hash") v = "\"" + hashAt(n) + "\"";
        else if (k === "selected") v = selectedCount(f.sel) > JSON_ROW_LIMIT ? "\"(" + selectedCount(f.sel) + " rows, see the table)\"" : selectedText(f.sel);
        else v = f[k];
        return "\"" + k + "\": " + v;
      }).join(", ") + "}";
    }

    /// Whether row (s, r) is in the sorted range list `sel` ([[s, first, last], ...]).
    function contains(sel, s, r) {
      let lo = 0, hi = sel.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1, x = sel[mid];
        if (x[0] < s || (x[0] === s && x[2] < r)) lo = mid + 1;
        else if (x[0] > s || x[1] > r) hi = mid - 1;
        else return true;
      }
      return false;
    }
    /// Rows of `x` not in `y`, both sorted range lists.
    function subtract(x, y) {
      const out = [];
      let j = 0;
      for (const [s, a0, b] of x) {
        let a = a0;
        while (j < y.length && (y[j][0] < s || (y[j][0] === s && y[j][2] < a))) j++;
        let k = j;
        while (a <= b && k < y.length && y[k][0] === s && y[k][1] <= b) {
          if (y[k][1] > a) out.push([s, a, y[k][1] - 1]);
          a = Math.max(a, y[k][2] + 1);
          k++;
        }
        if (a <= b) out.push([s, a, b]);
      }
      return out;
    }
    const SPEC = new Set(D.names.slice(0, D.specCount));
    /// What a delta changed, in words: the fields it replaced, the selection as rows added and removed.
    function describe(previous, delta) {
      const out = [];
      const order = (k) => k === "sel" ? -1 : D.names.indexOf(k);
      for (const k of Object.keys(delta).sort((x, y) => order(x) - order(y))) {
        if (k === "pan") {
          out.push("pan " + panText(previous.pan) + " → " + panText(delta.pan));
        } else if (k === "sel") {
          const added = subtract(delta.sel, previous.sel), removed = subtract(previous.sel, delta.sel);
          out.push("selected" + (added.length ? " +" + rangesText(added) : "") + (removed.length ? " -" + rangesText(removed) : ""));
        } else if (k === "sw" && !SPEC.has("swipe")) {
          out.push("swipe " + (delta.sw ? "[" + delta.sw[0] + ", " + delta.sw[1] + "] " + delta.sw[2] : "none"));
        } else if (SPEC.has(k)) {
          out.push(k + " " + previous[k] + " → " + delta[k]);
        }
      }
      return out.join("; ");
    }
    /// A pan as kind/mode/anchor/autoscroll, or null.
    function panText(text) {
      const p = JSON.parse(text);
      return p ? [p.kind, p.mode || "-", p.anchor ? "[" + p.anchor.join(", ") + "]" : "-", p.autoscroll || "-"].join("/") : "null";
    }
    function rangesText(list) {
      return list.map(([s, a, b]) => a === b ? s + ":" + a : s + ":" + a + "-" + b).join(",");
    }

    const slider = document.getElementById("slider");
    slider.min = String(FROM);
    slider.max = String(TO);

    function go(n, keepFragment) {
      n = clamp(n);
      state.current = n;
      const f = frameAt(n);
      drawTable(n, f);
      drawInfo(n, f);
      drawEvents(n);
      slider.value = String(n);
      placeCursor(n);
      if (!keepFragment) {
        let fragment = "#event=" + n;
        if (state.a !== null) fragment += "&a=" + state.a;
        if (state.b !== null) fragment += "&b=" + state.b;
        history.replaceState(null, "", fragment);
      }
    }

    function nextBoundary(n, direction) {
      if (direction > 0) { for (const b of boundaries) if (b > n) return b; return TO; }
      for (let i = boundaries.length - 1; i >= 0; i--) if (boundaries[i] < n) return boundaries[i];
      return FROM;
    }

    slider.addEventListener("input", () => go(Number(slider.value)));
    document.getElementById("prev").addEventListener("click", () => go(state.current - 1));
    document.getElementById("next").addEventListener("click", () => go(state.current + 1));
    document.getElementById("prev-gesture").addEventListener("click", () => go(nextBoundary(state.current, -1)));
    document.getElementById("next-gesture").addEventListener("click", () => go(nextBoundary(state.current, 1)));
    document.getElementById("mark-a").addEventListener("click", () => { state.a = state.current; drawTimeline(); go(state.current); });
    document.getElementById("mark-b").addEventListener("click", () => { state.b = state.current; drawTimeline(); go(state.current); });
    document.addEventListener("keydown", (e) => {
      const onSlider = e.target === slider;
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        const direction = e.key === "ArrowRight" ? 1 : -1;
        if (e.shiftKey) { e.preventDefault(); go(nextBoundary(state.current, direction)); }
        else if (!onSlider) { e.preventDefault(); go(state.current + direction); }
      } else if (e.key === "]" || e.key === "[") {
        go(nextBoundary(state.current, e.key === "]" ? 1 : -1));
      } else if (e.key === "a" || e.key === "b") {
        state[e.key] = state.current; drawTimeline(); go(state.current);
      }
    });
    document.getElementById("events").addEventListener("click", (e) => {
      const row = e.target.closest("[data-n]");
      if (row) go(Number(row.dataset.n));
    });

    function parseFragment() {
      const out = {};
      for (const part of location.hash.replace(/^#/, "").split("&")) {
        const [k, v] = part.split("=");
        // A malformed escape (`#event=%`) is ignored, not a page left blank by the throw.
        if (k) { try { out[k] = decodeURIComponent(v || ""); } catch (e) { } }
      }
      return out;
    }

    /// Test hook `#probe=3,7,12`: shows each event in turn and records what the page drew.
    function probe(list) {
      const results = [];
      for (const n of list) {
        go(n, true);
        results.push({
          requested: n,
          event: Number(document.getElementById("current").dataset.event),
          hash: document.getElementById("hash").textContent,
          json: document.getElementById("json").textContent,
          rows: [...document.querySelectorAll("#table [data-row]")].map((e) =>
            [e.dataset.row, e.dataset.selected === "true", e.dataset.inViewport === "true"]),
        });
      }
      const out = document.getElementById("probe");
      out.textContent = JSON.stringify(results);
    }

    /// Test hook `#interact`: drives the controls as a user would (keys, buttons, the
    /// slider, a click in the event list, the marks) and records the event shown after each.
    function interact() {
      const seen = [];
      const key = (name, shiftKey) => document.dispatchEvent(new KeyboardEvent("keydown", { key: name, shiftKey: !!shiftKey, bubbles: true }));
      const note = (what) => seen.push([what, Number(document.getElementById("current").dataset.event)]);
      go(FROM); note("start");
      key("ArrowRight"); note("ArrowRight");
      key("ArrowRight", true); note("Shift+ArrowRight");
      key("ArrowLeft"); note("ArrowLeft");
      document.getElementById("next-gesture").click(); note("next gesture");
      document.getElementById("prev").click(); note("previous event");
      key("]"); note("]");
      key("["); note("[");
      slider.value = String(TO);
      slider.dispatchEvent(new Event("input", { bubbles: true })); note("slider");
      const row = document.querySelector(`#events [data-n="${Math.max(FROM, TO - 1)}"]`);
      if (row) row.click();
      note("click in the event list");
      key("a"); go(FROM); key("b");
      seen.push(["diff", document.getElementById("diff").textContent]);
      seen.push(["fragment", location.hash]);
      document.getElementById("interact").textContent = JSON.stringify(seen);
    }

    /// Test hook `#bench=N`: moves between N pseudo-random pairs of events, timed with
    /// performance.now() including style and layout. All pairs are timed in five passes
    /// and each pair's fastest time is kept: a shared machine's scheduler only adds time,
    /// and its bursts do not last from one pass to the next. The slowest try is reported too.
    function bench(requested) {
      // A test hook any link can reach: 500 moves at most (`make viewer-check` makes
      // 300), not minutes of them; the page returns to the event it was at.
      const count = Math.min(Math.max(0, Math.floor(requested) || 0), 500);
      const at = state.current;
      let seed = 12345;
      const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
      const pairs = [];
      for (let i = 0; i < count; i++) pairs.push([FROM + Math.floor(random() * (TO - FROM + 1)), FROM + Math.floor(random() * (TO - FROM + 1))]);
      const best = pairs.map(() => Infinity), tries = [];
      for (let pass = 0; pass < 5; pass++) {
        pairs.forEach(([a, b], i) => {
          go(a, true);
          document.body.getBoundingClientRect();
          const start = performance.now();
          go(b, true);
          document.body.getBoundingClientRect();
          const took = performance.now() - start;
          tries.push(took);
          best[i] = Math.min(best[i], took);
        });
      }
      const sorted = (list) => list.slice().sort((x, y) => x - y);
      const pick = (list, q) => list[Math.min(list.length - 1, Math.floor(q * list.length))];
      const moves = sorted(best), all = sorted(tries);
      const round = (x) => Math.round(x * 10) / 10;
      document.getElementById("bench").textContent = JSON.stringify({
        moves: count, events: TO - FROM, median: round(pick(moves, 0.5)), p95: round(pick(moves, 0.95)),
        max: round(moves[moves.length - 1]), slowestTry: round(all[all.length - 1]), medianTry: round(pick(all, 0.5)),
      });
      go(at, true);
    }
    """#
}
