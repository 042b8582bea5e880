#!/usr/bin/env python3
"""Independent session generator for selectlog (EVENTS.md v2).

Written from the contract only: it models what a host app forwarding a real
UITableView would deliver -- minimum-jerk finger paths with physiological
tremor, pixel-quantised touch locations (1/3 pt on 3x phones, 1/2 pt on 2x
iPads), display-link ticks while a pan is active, frame hitches, UIScrollView
deceleration (rate 0.998/ms) and rubber-band bounces reported through
scrollViewDidScroll, swipe actions, two-finger multi-select, strip pans with
auto-scroll, editor rows, batch updates, section index jumps and idle gaps.

Styles:
  feed      reader scrolling a news feed (3x phone, 120 Hz ProMotion)
  mail      mail triage: swipes, two-finger multi-select, archive batches (3x, 60 Hz)
  settings  iPad settings form with editor rows, sections appearing (2x, 120 Hz)
  photos    photo picker with a trailing selection strip + auto-scroll (3x, 120 Hz)

usage: gen.py STYLE --events N --seed S -o OUT.jsonl
"""
import argparse
import bisect
import itertools
import math
import random
import sys


def fmt(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return str(int(v))
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(fmt(k) + ": " + fmt(x) for k, x in v.items()) + "}"
    if v is None:
        return "null"
    raise TypeError(v)


# ----------------------------------------------------------------------------
# Layout model (the host's data source); exact for row counts, approximate for
# geometry (only used to aim fingers, never needed for validity).

class Section:
    __slots__ = ("h", "header", "footer", "title", "_pre")

    def __init__(self, heights, header=0.0, footer=0.0, title=None):
        self.h = list(heights)
        self.header = header
        self.footer = footer
        self.title = title
        self._pre = None

    def pre(self):
        if self._pre is None:
            self._pre = [0.0] + list(itertools.accumulate(self.h))
        return self._pre

    def height(self):
        return self.header + self.pre()[-1] + self.footer

    def spec(self, default_h):
        d = {"rows": len(self.h), "rowHeight": default_h}
        odd = [x for x in self.h if x != default_h]
        if odd:
            # positional list up to the last non-default row
            last = max(i for i, x in enumerate(self.h) if x != default_h)
            d["rowHeights"] = self.h[: last + 1]
        if self.header:
            d["header"] = self.header
        if self.footer:
            d["footer"] = self.footer
        if self.title is not None:
            d["title"] = self.title
        return d


class Layout:
    def __init__(self):
        self.secs = []
        self._tops = None
        self.editor = None  # (s, r) of the data row with the editor below
        self.editor_h = 44.0

    def dirty(self, s=None):
        self._tops = None
        if s is not None:
            self.secs[s]._pre = None
        else:
            for x in self.secs:
                x._pre = None

    def tops(self):
        if self._tops is None:
            acc, tops = 0.0, []
            for i, s in enumerate(self.secs):
                tops.append(acc)
                acc += s.height()
                if self.editor and self.editor[0] == i:
                    acc += self.editor_h
            tops.append(acc)
            self._tops = tops
        return self._tops

    def content_height(self):
        return self.tops()[-1]

    def counts(self):
        return [len(s.h) for s in self.secs]

    def nrows(self):
        return sum(len(s.h) for s in self.secs)

    def row_top(self, s, r):
        sec = self.secs[s]
        y = self.tops()[s] + sec.header + sec.pre()[r]
        if self.editor and self.editor[0] == s and self.editor[1] < r:
            y += self.editor_h
        return y

    def row_at(self, cy):
        """data row at content y (approximate with the editor), or None"""
        tops = self.tops()
        s = bisect.bisect_right(tops, cy) - 1
        if s < 0 or s >= len(self.secs):
            return None
        sec = self.secs[s]
        y = cy - tops[s] - sec.header
        if y < 0:
            return None
        if self.editor and self.editor[0] == s:
            er = self.editor[1]
            etop = sec.pre()[er + 1]
            if y >= etop:
                if y < etop + self.editor_h:
                    return None
                y -= self.editor_h
        pre = sec.pre()
        if y >= pre[-1]:
            return None
        r = bisect.bisect_right(pre, y) - 1
        return (s, r)

    def random_row(self, rng, s=None):
        if s is None:
            counts = self.counts()
            tot = sum(counts)
            k = rng.randrange(tot)
            for s, c in enumerate(counts):
                if k < c:
                    return (s, k)
                k -= c
        return (s, rng.randrange(len(self.secs[s].h)))


def map_path_batch(counts, path, deletes, inserts, moves):
    """where `path` (pre-update) ends after a UIKit batch; None if deleted"""
    s, r = path
    if path in deletes:
        return None
    for f, t in moves:
        if f == path:
            return t
    moved_from = {f for f, _ in moves}
    gone = [x[1] for x in deletes if x[0] == s] + [f[1] for f in moved_from if f[0] == s]
    k = r - sum(1 for x in gone if x < r)  # rank among survivors
    fixed = sorted([x[1] for x in inserts if x[0] == s] + [t[1] for _, t in moves if t[0] == s])
    # k-th free post position
    pos = k
    for f in fixed:
        if f <= pos:
            pos += 1
        else:
            break
    return (s, pos)


# ----------------------------------------------------------------------------

class Session:
    scale = 3.0          # pixels per point
    hz = 120.0           # display / touch rate
    width, height = 390.0, 719.0

    def __init__(self, seed, out, limit):
        self.rng = random.Random(seed)
        self.out = out
        self.limit = limit
        self.n = 0
        self.t = 0.0
        self.last_t = -1.0
        self.L = Layout()
        self.off = 0.0
        self.pan = False
        self.mult_flags = dict(allowsSelection=True, allowsMultipleSelection=False,
                               allowsSelectionDuringEditing=False,
                               allowsMultipleSelectionDuringEditing=False)
        self.editing = False
        self.option_width = 0.0
        self.default_h = 44.0
        self.decel = False

    # --- output -------------------------------------------------------------
    def emit(self, typ, **f):
        t = round(self.t, 3)
        if t < self.last_t:
            t = self.last_t
        self.last_t = t
        parts = ['"type": "%s"' % typ, '"t": %s' % fmt(t)]
        for k, v in f.items():
            if v is None:
                continue
            parts.append('"%s": %s' % (k, fmt(v)))
        self.out.write("{" + ", ".join(parts) + "}\n")
        self.n += 1

    def comment(self, s):
        self.out.write("# " + s + "\n")

    def done(self):
        return self.n >= self.limit

    # --- helpers ------------------------------------------------------------
    def q(self, v):
        """a touch location or offset as UIKit reports it: on the pixel grid"""
        return round(v * self.scale) / self.scale

    inset_top = 0.0

    def host_offset(self, v):
        """engineOffset = contentOffset.y + adjustedContentInset.top, in Double:
        pixel-aligned UIKit offsets carry the inset's binary rounding"""
        if not self.inset_top:
            return self.q(v)
        return (self.q(v) - self.inset_top) + self.inset_top

    def max_off(self):
        return max(0.0, self.L.content_height() - self.height)

    def clamp(self, o):
        return min(max(o, 0.0), self.max_off())

    def wait(self, ms):
        self.t += ms

    def idle(self):
        r = self.rng.random()
        if r < 0.70:
            self.wait(self.rng.lognormvariate(math.log(900), 0.8))
        elif r < 0.97:
            self.wait(self.rng.lognormvariate(math.log(8000), 0.9))
        else:  # app backgrounded, phone in pocket
            self.wait(self.rng.uniform(60_000, 3 * 3600_000))

    def frame_times(self, dur):
        """event times for a gesture lasting `dur` ms: vsync + delivery jitter,
        with the occasional hitch (dropped frames)"""
        P = 1000.0 / self.hz
        t0 = self.t
        k = 0
        res = []
        while True:
            k += 1
            if self.rng.random() < 0.02:
                k += self.rng.randint(1, 4)  # hitch
            ft = k * P
            if ft > dur:
                break
            res.append(t0 + ft + abs(self.rng.gauss(0.35, 0.25)))
        return res

    def tremor(self):
        f = self.rng.uniform(8.0, 12.0)
        a = self.rng.uniform(0.2, 1.2)
        ph = self.rng.uniform(0, 2 * math.pi)
        f2 = self.rng.uniform(3.0, 6.0)
        ph2 = self.rng.uniform(0, 2 * math.pi)
        rng = self.rng

        def tr(tms):
            s = tms / 1000.0
            return (a * math.sin(2 * math.pi * f * s + ph) + 0.3 * math.sin(2 * math.pi * f2 * s + ph2)
                    + rng.gauss(0, 0.15))
        return tr

    @staticmethod
    def mj(tau):
        return tau * tau * tau * (10 - 15 * tau + 6 * tau * tau)

    def finger_path(self, p0, p1, dur, cut=1.0):
        """minimum-jerk path from p0 to p1 taking `dur` ms; cut < 1 ends the
        sample early while the finger is still fast (a flick). yields (t, x, y)"""
        trx, try_ = self.tremor(), self.tremor()
        arc = self.rng.gauss(0, 6)
        t0 = self.t
        total = dur / cut
        for ft in self.frame_times(dur):
            tau = min(1.0, (ft - t0) / total)
            s = self.mj(tau)
            x = p0[0] + (p1[0] - p0[0]) * s + arc * math.sin(math.pi * s) + trx(ft)
            y = p0[1] + (p1[1] - p0[1]) * s + try_(ft)
            yield ft, self.q(x), self.q(y)

    def in_view(self, x, y):
        return min(max(x, 0.0), self.width - 1 / self.scale), min(max(y, 0.0), self.height - 1 / self.scale)

    # --- gestures -------------------------------------------------------------
    def pan_with_ticks(self, samples, fingers=1, began=None, on_move=None):
        """emits panBegan, panMoved at each sample with a display-link tick in
        every frame; returns the last (t, x, y)"""
        x0, y0 = began
        self.emit("panBegan", x=x0, y=y0, fingers=fingers if fingers != 1 else None)
        self.pan = True
        self.decel = False
        last = (self.t, x0, y0)
        for ft, x, y in samples:
            self.t = max(self.t, ft)
            x, y = self.in_view(x, y)
            if (x, y) != last[1:]:
                self.emit("panMoved", x=x, y=y)
                if on_move:
                    on_move(x, y)
            self.t += self.rng.uniform(0.02, 0.3)
            self.emit("tick")
            last = (self.t, x, y)
        return last

    def browse(self, reach, up, flicks, fast, slow, pause):
        """A drag of the finger by up to `reach` pt (upward with odds `up`), a flick
        with odds `flicks` (lasting `fast` ms, else `slow`), then a pause of about
        `pause` ms."""
        rng = self.rng
        dy = -rng.uniform(*reach) if rng.random() < up else rng.uniform(*reach)
        flick = rng.random() < flicks
        self.drag_scroll(dy, rng.uniform(*fast) if flick else rng.uniform(*slow), flick=flick)
        self.wait(rng.lognormvariate(math.log(pause), 0.8 if pause >= 1000 else 0.7))

    def drag_scroll(self, dy_finger, dur, flick=False, report_scroll=False):
        """a one-finger drag that scrolls; flick => released while moving, then
        UIScrollView deceleration reported as scroll events"""
        rng = self.rng
        x0 = self.q(rng.uniform(0.15, 0.92) * self.width)
        if dy_finger < 0:
            y0 = self.q(rng.uniform(0.55, 0.92) * self.height)
        else:
            y0 = self.q(rng.uniform(0.08, 0.45) * self.height)
        y1 = y0 + dy_finger
        x1 = x0 + rng.gauss(0, 12)
        off0 = self.off
        cut = rng.uniform(0.45, 0.7) if flick else 1.0
        samples = list(self.finger_path((x0, y0), (x1, y1), dur, cut))
        hist = []

        def on_move(x, y):
            raw = off0 - (y - y0)
            self.off = self.clamp(raw)
            hist.append((self.t, y))
            if report_scroll:
                # scrollViewDidScroll during the drag, rubber band included
                mo = self.max_off()
                if raw < 0:
                    rep = raw / 2.2
                elif raw > mo:
                    rep = mo + (raw - mo) / 2.2
                else:
                    rep = raw
                self.emit("scroll", y=self.host_offset(rep))

        t_end, xe, ye = self.pan_with_ticks(samples, began=(x0, y0), on_move=on_move)
        # release velocity (pt/ms of the finger), as the recognizer estimates it
        v = 0.0
        if len(hist) >= 3:
            (ta, ya), (tb, yb) = hist[-3], hist[-1]
            if tb > ta:
                v = (yb - ya) / (tb - ta)
        self.t += rng.uniform(2, 9)
        if not flick or abs(v) < 0.25:
            self.emit("panEnded", x=xe, y=ye, targetOffset=self.q(self.off))
            self.pan = False
            return
        D = -v * 0.998 / 0.002
        target = self.q(self.clamp(self.off + D))
        self.emit("panEnded", x=xe, y=ye, targetOffset=target)
        self.pan = False
        self.decelerate(self.off, self.off + D, v_off=-v, report_target=None)

    def decelerate(self, start, proj, v_off, report_target=None):
        """UIScrollView deceleration from `start` toward the projection `proj`
        (unclamped), bounce at the edges; one scroll event per frame"""
        rng = self.rng
        mo = self.max_off()
        D = proj - start
        P = 1000.0 / self.hz
        te = 0.0
        if report_target is not None:
            self.emit("scroll", phase="decelerate", target=self.q(report_target))
        self.decel = True
        bounced = False
        while True:
            te += P
            if rng.random() < 0.01:
                te += P * rng.randint(1, 3)
            rem = D * (0.998 ** te)
            y = start + D - rem
            self.t += P + rng.gauss(0, 0.2)
            if (y < 0 or y > mo) and not bounced:
                # hit the edge: overshoot and spring back
                edge = 0.0 if y < 0 else mo
                vel = abs(D) * 0.002 * (0.998 ** te)
                over = min(120.0, vel * 60.0)
                sgn = -1 if y < 0 else 1
                nfr = int(rng.uniform(28, 45) * self.hz / 60)
                for i in range(1, nfr + 1):
                    u = i / nfr
                    yy = edge + sgn * over * math.sin(math.pi * min(1.0, u * 1.6)) * math.exp(-3 * u)
                    self.emit("scroll", y=self.q(yy))
                    self.t += P + rng.gauss(0, 0.2)
                self.emit("scroll", y=self.q(edge))
                self.off = edge
                bounced = True
                break
            self.emit("scroll", y=self.host_offset(y))
            self.off = self.clamp(y)
            if abs(rem) < 0.5 / self.scale:
                break
            if rng.random() < 0.004:   # finger catches the scrolling table
                self.decel = True
                return "caught"
            if self.done():
                break
        self.t += rng.uniform(1, 20)
        self.emit("scroll", phase="idle")
        self.decel = False
        return "stopped"

    def scroll_to(self, target):
        """programmatic animated scroll (status-bar tap, scrollToRow)"""
        target = self.clamp(target)
        start = self.off
        dur = self.rng.uniform(280, 450)
        self.emit("scroll", phase="decelerate", target=self.q(target))
        # animation curve: ease out
        P = 1000.0 / self.hz
        n = max(2, int(dur / P))
        for i in range(1, n + 1):
            u = i / n
            e = 1 - (1 - u) ** 3
            self.t += P + self.rng.gauss(0, 0.2)
            self.emit("scroll", y=self.q(start + (target - start) * e))
        self.off = target
        self.t += self.rng.uniform(1, 10)
        self.emit("scroll", phase="idle")

    def tap_at(self, x, y):
        self.t += self.rng.uniform(60, 140)  # touch down .. up
        self.emit("tap", x=self.q(x), y=self.q(y))

    def tap_row(self, row, xfrac=None):
        """tap somewhere on a data row (visible); returns False if not visible"""
        top = self.L.row_top(*row) - self.off
        h = self.L.secs[row[0]].h[row[1]]
        if top + h <= 0 or top >= self.height:
            return False
        lo, hi = max(top + 2, 0.5), min(top + h - 2, self.height - 1)
        if hi <= lo:
            return False
        x = (xfrac if xfrac is not None else self.rng.uniform(0.05, 0.95)) * self.width
        self.tap_at(x, self.rng.uniform(lo, hi))
        return True

    def visible_rows(self):
        a = self.L.row_at(self.off + 1)
        b = self.L.row_at(self.off + self.height - 1)
        rows = []
        cy = self.off + 1
        seen = set()
        # sample a few y positions
        for k in range(12):
            r = self.L.row_at(self.off + (k + 0.5) * self.height / 12)
            if r and r not in seen:
                seen.add(r)
                rows.append(r)
        return rows

    # --- edits (keep the layout model in step) ---------------------------------
    def apply_batch(self, deletes=(), inserts=(), moves=(), reloads=(), insert_heights=None,
                    reload_heights=None, emit_as="batch"):
        counts = self.L.counts()
        deletes = [tuple(x) for x in deletes]
        inserts = [tuple(x) for x in inserts]
        moves = [(tuple(a), tuple(b)) for a, b in moves]
        reloads = [tuple(x) for x in reloads]
        # rebuild affected sections
        affected = sorted({p[0] for p in deletes} | {p[0] for p in inserts} | {a[0] for a, _ in moves}
                          | {b[0] for _, b in moves} | {p[0] for p in reloads})
        old = {s: list(self.L.secs[s].h) for s in affected}
        rh = dict(zip(reloads, reload_heights)) if reload_heights else {}
        for p, hh in rh.items():
            old[p[0]][p[1]] = hh
        new = {}
        for s in affected:
            gone = {p[1] for p in deletes if p[0] == s} | {a[1] for a, _ in moves if a[0] == s}
            surv = [h for i, h in enumerate(old[s]) if i not in gone]
            fixed = {}
            for i, p in enumerate(inserts):
                if p[0] == s:
                    fixed[p[1]] = insert_heights[i] if insert_heights else self.default_h
            for a, b in moves:
                if b[0] == s:
                    fixed[b[1]] = old[a[0]][a[1]]
            n = len(surv) + len(fixed)
            res, it = [], iter(surv)
            for i in range(n):
                res.append(fixed[i] if i in fixed else next(it))
            new[s] = res
        if self.L.editor:
            self.L.editor = map_path_batch(counts, self.L.editor, set(deletes), inserts, moves)
        for s in affected:
            self.L.secs[s].h = new[s]
        self.L.dirty()
        for s in affected:
            self.L.secs[s]._pre = None
        if emit_as == "batch":
            self.emit("batch", deletes=deletes or None, inserts=inserts or None,
                      insertHeights=insert_heights if inserts and insert_heights else None,
                      moves=[[list(a), list(b)] for a, b in moves] or None,
                      reloads=reloads or None,
                      reloadHeights=reload_heights if reloads and reload_heights else None)
        elif emit_as == "insertRows":
            self.emit("insertRows", at=inserts, heights=insert_heights)
        elif emit_as == "deleteRows":
            self.emit("deleteRows", at=deletes)
        elif emit_as == "moveRow":
            a, b = moves[0]
            self.emit("moveRow", **{"from": list(a), "to": list(b)})
        elif emit_as == "reloadRows":
            self.emit("reloadRows", at=reloads, heights=reload_heights)
        self.off = self.clamp(self.off)

    def insert_rows(self, s, positions, heights):
        self.apply_batch(inserts=[(s, p) for p in positions], insert_heights=heights, emit_as="insertRows")

    def delete_rows(self, paths):
        self.apply_batch(deletes=paths, emit_as="deleteRows")

    def move_row(self, a, b):
        self.apply_batch(moves=[(a, b)], emit_as="moveRow")

    def reload_rows(self, paths, heights=None):
        self.apply_batch(reloads=paths, reload_heights=heights, emit_as="reloadRows")

    def insert_sections(self, idxs, secs):
        # idxs post-update, ascending
        for i, sec in sorted(zip(idxs, secs)):
            self.L.secs.insert(i, sec)
            if self.L.editor and self.L.editor[0] >= i:
                self.L.editor = (self.L.editor[0] + 1, self.L.editor[1])
        self.L.dirty()
        self.emit("insertSections", at=list(idxs), sections=[x.spec(self.default_h) for x in secs])

    def delete_sections(self, idxs):
        for i in sorted(idxs, reverse=True):
            del self.L.secs[i]
            if self.L.editor:
                if self.L.editor[0] == i:
                    self.L.editor = None
                elif self.L.editor[0] > i:
                    self.L.editor = (self.L.editor[0] - 1, self.L.editor[1])
        self.L.dirty()
        self.emit("deleteSections", at=list(idxs))
        self.off = self.clamp(self.off)

    def reload(self, secs):
        self.L.secs = secs
        self.L.editor = None
        self.L.dirty()
        self.emit("reload", sections=[x.spec(self.default_h) for x in secs])
        self.off = self.clamp(self.off)
        self.decel = False

    def random_batch(self, s, nd=0, ni=0, nm=0, nr=0, hfun=None):
        """a valid random batch inside section s"""
        rng = self.rng
        n = len(self.L.secs[s].h)
        pool = list(range(n))
        rng.shuffle(pool)
        nd = min(nd, max(0, n - 1))
        d = sorted(pool[:nd])
        rest = pool[nd:]
        nm = min(nm, len(rest))
        mf = rest[:nm]
        rest = rest[nm:]
        nr = min(nr, len(rest))
        rl = sorted(rest[:nr])
        post_n = n - nd - nm + ni + nm
        fixed = rng.sample(range(post_n), ni + nm) if post_n >= ni + nm else []
        if len(fixed) < ni + nm:
            return None
        ins = sorted(fixed[:ni])
        mt = fixed[ni:]
        moves = [((s, a), (s, b)) for a, b in zip(mf, mt)]
        ih = [hfun() for _ in ins] if hfun else None
        rh = [hfun() for _ in rl] if hfun and rl else None
        return dict(deletes=[(s, x) for x in d], inserts=[(s, x) for x in ins], moves=moves,
                    reloads=[(s, x) for x in rl], insert_heights=ih, reload_heights=rh)

    def multiple_mode(self):
        f = self.mult_flags
        return f["allowsMultipleSelectionDuringEditing"] if self.editing else f["allowsMultipleSelection"]

    def configure(self, **kw):
        for k in self.mult_flags:
            if k in kw:
                self.mult_flags[k] = kw[k]
        if "optionWidth" in kw:
            self.option_width = kw["optionWidth"]
        if "editorHeight" in kw:
            self.L.editor_h = kw["editorHeight"]
            self.L.dirty()
        self.emit("configure", **kw)

    def set_editing(self, e):
        self.editing = e
        self.emit("setEditing", editing=e)

    def run(self):
        self.setup()
        while not self.done():
            self.step()
        self.finish()

    def finish(self):
        if self.pan:
            self.t += 5
            self.emit("panCancelled")
            self.pan = False


# ----------------------------------------------------------------------------

FEED_TITLES = ["Today", "Yesterday"] + ["Nov %d" % d for d in range(25, 0, -1)] + \
    ["Oct %d" % d for d in range(31, 0, -1)] + ["Sep %d" % d for d in range(30, 0, -1)]


class Feed(Session):
    """A reader scrolling a feed: variable-height posts, flicks, bounces,
    pull-to-refresh, pagination, image loads re-measuring rows, taps that open
    a post (and deselect on return), section index jumps, rotation."""
    scale = 3.0
    hz = 120.0
    width, height = 393.0, 852.0 - 59.0 - 34.0 - 49.0   # nav + home indicator + tab bar
    inset_top = 97.66666666666667   # status bar + large title, as UIKit computes it

    def post_h(self):
        r = self.rng.random()
        if r < 0.45:
            return self.q(self.rng.uniform(84, 180))
        if r < 0.85:
            return self.q(self.rng.uniform(300, 520))
        return 120.0

    def day(self, i):
        n = self.rng.randint(15, 60)
        return Section([self.post_h() for _ in range(n)], header=self.q(28 + 1 / 3), title=FEED_TITLES[i % len(FEED_TITLES)])

    def setup(self):
        self.comment("feed reader, 3x phone, ProMotion 120 Hz, host forwards scrollViewDidScroll")
        self.default_h = 120.0
        self.configure(allowsSelection=True)
        self.emit("viewport", width=self.width, height=self.height)
        self.days = 8
        self.reload([self.day(i) for i in range(self.days)])

    def step(self):
        rng = self.rng
        r = rng.random()
        if r < 0.38:
            # reading pace: slow drags upward
            self.drag_scroll(-rng.uniform(80, 420), rng.uniform(250, 800), flick=False, report_scroll=True)
            self.idle_short()
        elif r < 0.70:
            dy = -rng.uniform(120, 330) if rng.random() < 0.85 else rng.uniform(120, 330)
            self.drag_scroll(dy, rng.uniform(90, 210), flick=True, report_scroll=True)
            if self.decel:   # caught by a new touch: the next drag comes at once
                self.t += rng.uniform(5, 40)
                self.drag_scroll(-rng.uniform(30, 200), rng.uniform(150, 400), flick=rng.random() < 0.5,
                                 report_scroll=True)
            self.idle_short()
        elif r < 0.78:
            self.images_loaded()
        elif r < 0.84:
            self.open_post()
        elif r < 0.87:
            self.pull_to_refresh()
        elif r < 0.91:
            self.paginate()
        elif r < 0.93:
            t = rng.choice([s.title for s in self.L.secs])
            self.t += rng.uniform(100, 300)
            self.emit("jumpToSection", title=t)
            s = [x.title for x in self.L.secs].index(t)
            self.off = self.clamp(self.L.tops()[s])
        elif r < 0.94:
            self.t += rng.uniform(50, 200)
            self.scroll_to(0.0)   # status bar tap
        elif r < 0.955:
            # hide a post (context menu)
            vis = self.visible_rows()
            if vis and self.L.nrows() > 5:
                self.t += rng.uniform(800, 2500)
                self.delete_rows([rng.choice(vis)])
        elif r < 0.96:
            # a post bumped to the top of its day
            s = rng.randrange(len(self.L.secs))
            if len(self.L.secs[s].h) > 2:
                self.move_row((s, rng.randrange(1, len(self.L.secs[s].h))), (s, 0))
        elif r < 0.962:
            self.rotate()
        else:
            self.idle()

    def idle_short(self):
        self.wait(self.rng.lognormvariate(math.log(700), 0.9))
        if self.rng.random() < 0.03:
            self.idle()

    def images_loaded(self):
        vis = self.visible_rows()
        if not vis:
            return
        k = min(len(vis), self.rng.randint(1, 3))
        rows = sorted(self.rng.sample(vis, k))
        self.t += self.rng.uniform(30, 400)
        self.reload_rows(rows, [self.q(self.rng.uniform(280, 560)) for _ in rows])

    def open_post(self):
        vis = self.visible_rows()
        if not vis:
            return
        row = self.rng.choice(vis)
        if not self.tap_row(row):
            return
        self.wait(self.rng.lognormvariate(math.log(25_000), 1.0))   # reading the post
        # back: clearsSelectionOnViewWillAppear deselects
        self.t += self.rng.uniform(250, 400)
        self.emit("deselect", rows=[list(row)])

    def pull_to_refresh(self):
        if self.off > 1:
            self.t += 100
            self.scroll_to(0.0)
        self.drag_scroll(self.rng.uniform(160, 260), self.rng.uniform(400, 700), report_scroll=True)
        # refresh control spins, new posts arrive at the top of "Today"
        self.t += self.rng.uniform(400, 1800)
        k = self.rng.randint(1, 12)
        self.insert_rows(0, list(range(k)), [self.post_h() for _ in range(k)])
        P = 1000 / self.hz
        for i in range(int(self.rng.uniform(18, 30))):
            self.t += P
            self.emit("scroll", y=self.q(-60 * (1 - (i + 1) / 30)))
        self.emit("scroll", y=0, phase="idle")
        self.off = 0.0

    def paginate(self):
        # near the end: load the next day
        if self.off < self.max_off() - 3 * self.height:
            return
        self.t += self.rng.uniform(200, 900)
        sec = self.day(self.days)
        self.days += 1
        self.insert_sections([len(self.L.secs)], [sec])
        if len(self.L.secs) > 60:     # memory pressure: drop the oldest loaded day
            self.t += 5
            self.delete_sections([len(self.L.secs) - 1])

    def rotate(self):
        self.width, self.height = self.height + 34 + 49, self.width - 21
        self.t += self.rng.uniform(300, 500)
        self.emit("viewport", width=self.width, height=self.height)
        self.off = self.clamp(self.off)


class Mail(Session):
    """Mail triage: swipe to archive/flag, two-finger multi-select pans with
    auto-scroll, archive of the selection as a batch, new mail arriving (also
    mid-gesture), threads bumped to the top, read-state reloads, undo."""
    scale = 3.0
    hz = 60.0
    width, height = 390.0, 844.0 - 47.0 - 96.0 - 34.0 - 44.0

    def setup(self):
        self.comment("mail triage, 3x phone, 60 Hz")
        self.default_h = 88.0
        self.configure(allowsSelection=True, allowsMultipleSelectionDuringEditing=True,
                       multiSelectInteraction=True, optionWidth=148.0, undoLimit=200,
                       scrollAndSelect={"rowsPerSecond": 15, "jitter": 3})
        self.emit("viewport", width=self.width, height=self.height)
        self.mailbox()

    def mail_h(self):
        return 88.0 if self.rng.random() < 0.8 else self.q(self.rng.choice([110.0, 106.33333333333333, 71.66666666666667]))

    def mailbox(self):
        n = self.rng.randint(400, 4000)
        self.reload([Section([self.mail_h() for _ in range(n)], title="Inbox")])

    def step(self):
        rng = self.rng
        r = rng.random()
        n = self.L.nrows()
        if r < 0.30:
            self.browse((100, 350), up=0.8, flicks=0.55, fast=(100, 220), slow=(250, 600), pause=1200)
        elif r < 0.52:
            self.swipe()
        elif r < 0.64:
            self.two_finger_select()
        elif r < 0.70:
            self.open_message()
        elif r < 0.76:
            if n < 6000:
                k = 1 if rng.random() < 0.8 else rng.randint(2, 6)
                self.t += rng.uniform(0, 3000)
                self.insert_rows(0, list(range(k)), [self.mail_h() for _ in range(k)])
        elif r < 0.79:
            if n > 3:
                self.t += rng.uniform(0, 3000)
                b = self.random_batch(0, nm=1, nr=rng.randint(0, 2), hfun=self.mail_h)
                # thread bumped to top with a new message: move to the top
                if b:
                    b["moves"] = [((0, b["moves"][0][0][1]), (0, 0))]
                    b["reloads"] = [p for p in b["reloads"] if p != b["moves"][0][0]]
                    b["reload_heights"] = [self.mail_h() for _ in b["reloads"]] if b["reloads"] else None
                    self.apply_batch(b["deletes"], b["inserts"], b["moves"], b["reloads"],
                                     b["insert_heights"], b["reload_heights"])
        elif r < 0.83:
            vis = self.visible_rows()
            if vis:
                self.t += rng.uniform(100, 1500)
                self.reload_rows([rng.choice(vis)])
        elif r < 0.86:
            if not self.pan:
                self.t += rng.uniform(300, 900)
                self.emit(rng.choice(["undo", "undo", "redo"]))
        elif r < 0.87:
            self.t += rng.uniform(300, 900)
            self.mailbox()   # switch folder
        elif r < 0.88:
            self.select_all_and_archive()
        else:
            self.idle()

    def swipe(self):
        rng = self.rng
        if self.editing:
            self.t += rng.uniform(200, 500)
            self.set_editing(False)
        vis = self.visible_rows()
        if not vis:
            return
        row = rng.choice(vis)
        self.t += rng.uniform(150, 700)
        self.emit("swipeBegan", row=list(row))
        full = rng.random() < 0.25
        goal = rng.uniform(160, 330) if full else rng.uniform(40, 190)
        dur = rng.uniform(120, 380)
        tr = self.tremor()
        t0 = self.t
        last = None
        times = self.frame_times(dur)
        for ft in times:
            tau = (ft - t0) / dur
            o = self.q(max(0.0, goal * self.mj(min(1.0, tau / (0.7 if full else 1.0))) + tr(ft)))
            self.t = ft
            if o != last:
                self.emit("swipeMoved", offset=o)
                last = o
        if rng.random() < 0.3:   # changes its mind
            for ft in self.frame_times(rng.uniform(60, 200)):
                self.t = ft
                o = self.q(max(0.0, (last or 0) * 0.8 + rng.gauss(0, 2)))
                self.emit("swipeMoved", offset=o)
                last = o
        self.t += rng.uniform(2, 12)
        vel = rng.gauss(0, 700) if rng.random() < 0.6 else None
        self.emit("swipeEnded", velocity=self.q(vel) if vel is not None else None)
        opened = (vel > 0 if abs(vel) >= 200 else (last or 0) >= self.option_width / 2) if vel is not None else (last or 0) >= self.option_width / 2
        if full and opened:
            # full swipe archives
            self.t += rng.uniform(200, 400)
            if row[1] < len(self.L.secs[0].h):
                self.delete_rows([row])
        elif opened:
            self.wait(rng.uniform(300, 2500))
            c = rng.random()
            if c < 0.5:
                # tap an action button (outside the row content): archive / flag
                self.tap_at(self.width - rng.uniform(10, 140), rng.uniform(0, self.height))
                if rng.random() < 0.6 and row[1] < len(self.L.secs[0].h):
                    self.t += rng.uniform(150, 300)
                    self.delete_rows([row])
                else:
                    self.t += 250
                    self.emit("setOptionVisible", row=list(row), visible=False)
            elif c < 0.8:
                self.tap_row(row, xfrac=rng.uniform(0.05, 0.5))   # tap the row: closes it
            else:
                pass  # leave it open and scroll on

    def two_finger_select(self):
        rng = self.rng
        vis = self.visible_rows()
        if not vis:
            return
        row = rng.choice(vis[: max(1, len(vis) // 2)])
        top = self.L.row_top(*row) - self.off
        y0 = self.q(min(max(top + rng.uniform(5, 60), 1), self.height - 2))
        x0 = self.q(rng.uniform(0.3, 0.7) * self.width)
        self.t += rng.uniform(100, 600)
        down = rng.random() < 0.8
        y1 = self.height - rng.uniform(5, 30) if (down and rng.random() < 0.5) else \
            (y0 + rng.uniform(60, 400) * (1 if down else -1))
        y1 = min(max(y1, 2), self.height - 2)
        samples = list(self.finger_path((x0, y0), (x0 + rng.gauss(0, 8), y1), rng.uniform(350, 1400)))
        # two touches: the recognizer reports their centroid (1/6 pt steps)
        samples = [(ft, x + rng.choice((0.0, 1 / 6, -1 / 6)), y + rng.choice((0.0, 1 / 6, -1 / 6)))
                   for ft, x, y in samples]
        last = self.pan_with_ticks(samples, fingers=2, began=(x0, y0))
        self.editing = True
        # hold in the bottom zone: auto-scroll runs on ticks, tremor under jitter
        if y1 > self.height - 40 and rng.random() < 0.8:
            hold = rng.uniform(300, 4000)
            P = 1000 / self.hz
            te = 0
            tr = self.tremor()
            while te < hold:
                te += P
                self.t += P + rng.gauss(0, 0.2)
                if rng.random() < 0.25:
                    yy = self.q(min(self.height - 1, y1 + tr(self.t)))
                    self.emit("panMoved", x=last[1], y=yy)
                self.emit("tick")
                self.off = self.clamp(self.off + 15 * 88 * P / 1000)
            # inbox sync lands mid-gesture (the pan gets interrupted)
            if rng.random() < 0.15:
                self.insert_rows(0, [0], [self.mail_h()])
                for _ in range(rng.randint(2, 20)):
                    self.t += P
                    self.emit("panMoved", x=last[1], y=self.q(y1 - rng.uniform(0, 200)))
                    self.emit("tick")
        self.t += rng.uniform(5, 20)
        if rng.random() < 0.05:
            self.emit("panCancelled")   # a phone call
        else:
            self.emit("panEnded", x=last[1], y=last[2])
        self.pan = False
        # a few taps to fix up, then an action
        for _ in range(rng.randint(0, 4)):
            vis = self.visible_rows()
            if vis:
                self.wait(rng.uniform(150, 900))
                self.tap_row(rng.choice(vis))
        self.wait(rng.uniform(300, 2000))
        a = rng.random()
        if a < 0.55:
            # archive "the selected rows": rows around the pan
            r0 = self.L.row_at(self.off + y0)
            n = len(self.L.secs[0].h)
            if r0 and n > 30:
                k = rng.randint(1, 25)
                start = max(0, min(r0[1], n - k - 1))
                self.apply_batch(deletes=[(0, i) for i in range(start, start + k)])
        elif a < 0.75 and not self.pan:
            self.emit("undo")
        self.t += rng.uniform(300, 1000)
        self.set_editing(False)

    def open_message(self):
        if self.editing:
            self.t += 300
            self.set_editing(False)
        vis = self.visible_rows()
        if not vis:
            return
        row = self.rng.choice(vis)
        if self.tap_row(row):
            self.wait(self.rng.lognormvariate(math.log(9000), 1.0))
            self.t += 300
            # marked read: the row reloads (deselecting it)
            self.reload_rows([row])

    def select_all_and_archive(self):
        self.t += self.rng.uniform(300, 900)
        self.set_editing(True)
        self.t += self.rng.uniform(300, 900)
        self.emit("selectAll")
        if self.rng.random() < 0.5:
            self.t += self.rng.uniform(500, 2000)
            self.emit("deselectAll")
        else:
            self.t += self.rng.uniform(500, 2000)
            rows = sorted(self.rng.sample(range(len(self.L.secs[0].h)), min(5, len(self.L.secs[0].h))))
            self.emit("deselect", rows=[[0, r] for r in rows])
        self.t += 400
        self.set_editing(False)


SETTINGS_GROUPS = ["General", "Display & Brightness", "Accessibility", "Privacy", "Wi-Fi",
                   "Bluetooth", "Notifications", "Sounds", "Focus", "Screen Time", "Battery",
                   "Passwords", "Mail", "Contacts", "Calendar", "Photos", "Camera", "Safari",
                   "Developer", "Favorites"]


class Settings(Session):
    """An iPad settings form: grouped sections with headers and footers, value
    rows opening an inline picker (editor row), choices and undo, sections that
    appear when a switch turns on, keyboard resizing the viewport, a favourites
    section reordered in editing mode, configuration changes."""
    scale = 2.0
    hz = 120.0
    width, height = 704.0, 1180.0 - 24.0 - 50.0 - 20.0

    OPTIONS = [
        (["Never", "30 Seconds", "1 Minute", "2 Minutes", "5 Minutes"], False),
        (["Light", "Dark", "Automatic"], False),
        (["Banner", "Alert", "None"], False),
        (["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], True),
        (["Mail", "Messages", "Calendar", "Reminders", "Photos", "Music", "Maps", "Notes"], True),
        (["Small", "Default", "Large", "Extra Large", "XXL", "XXXL", "Accessibility M",
          "Accessibility L", "Accessibility XL", "Accessibility XXL", "Accessibility XXXL"], False),
    ]

    def group(self, name):
        n = self.rng.randint(2, 12)
        hs = [44.0 if self.rng.random() < 0.75 else self.q(self.rng.choice([60.0, 64.5, 88.0, 52.5])) for _ in range(n)]
        footer = self.rng.choice([0.0, 0.0, 17.5, 38.5, 55.5, 72.5])
        return Section(hs, header=self.rng.choice([38.0, 55.5, 17.5]), footer=footer, title=name)

    def setup(self):
        self.comment("iPad settings form, 2x, 120 Hz")
        self.default_h = 44.0
        self.configure(allowsSelection=True, editorHeight=216.0, undoLimit=50)
        self.emit("viewport", width=self.width, height=self.height)
        self.hidden = []
        secs = [self.group(g) for g in SETTINGS_GROUPS]
        self.reload(secs)
        self.editor_meta = None
        self.locked = False

    def step(self):
        rng = self.rng
        r = rng.random()
        if r < 0.20:
            self.browse((60, 400), up=0.65, flicks=0.4, fast=(100, 200), slow=(250, 700), pause=800)
        elif r < 0.45:
            self.pick_value()
        elif r < 0.55:
            if self.L.editor and self.editor_meta:
                self.choose_some()
        elif r < 0.60:
            if not self.pan:
                self.t += rng.uniform(300, 1200)
                self.emit(rng.choice(["undo", "undo", "redo"]))
        elif r < 0.65:
            vis = self.visible_rows()
            if vis:
                self.t += rng.uniform(50, 500)
                self.tap_row(rng.choice(vis))
        elif r < 0.68:
            self.toggle_section()
        elif r < 0.71:
            self.t += rng.uniform(200, 600)
            self.emit("jumpToSection", section=rng.randrange(len(self.L.secs)))
        elif r < 0.74:
            self.keyboard()
        elif r < 0.76:
            self.reorder_favorites()
        elif r < 0.78:
            self.lock_toggle()
        elif r < 0.80:
            vis = self.visible_rows()
            if vis:
                self.t += rng.uniform(100, 900)
                rows = sorted(set(rng.sample(vis, min(len(vis), rng.randint(1, 3)))))
                self.reload_rows(rows, [self.q(rng.choice([44.0, 60.0, 78.5])) for _ in rows])
        elif r < 0.81:
            # dynamic type change: picker and rows grow
            self.t += rng.uniform(300, 900)
            self.configure(editorHeight=self.q(rng.choice([216.0, 260.5, 300.0, 180.0])))
        elif r < 0.815:
            self.split_view()
        elif r < 0.82:
            # taps on headers/footers/empty space: nothing
            self.tap_at(rng.uniform(0, self.width), rng.uniform(0, self.height))
        else:
            self.idle()

    def pick_value(self):
        rng = self.rng
        vis = self.visible_rows()
        if not vis:
            return
        row = rng.choice(vis)
        if not self.tap_row(row):
            return
        opts, mult = rng.choice(self.OPTIONS)
        self.t += rng.uniform(5, 30)
        if self.L.editor == row:
            self.emit("toggleEditor", row=list(row), options=opts, multiple=mult,
                      chosen=[rng.randrange(len(opts))])
            self.L.editor = None
            self.editor_meta = None
        else:
            chosen = sorted(rng.sample(range(len(opts)), rng.randint(0, 3))) if mult else [rng.randrange(len(opts))]
            self.emit("toggleEditor", row=list(row), options=opts, multiple=mult, chosen=chosen)
            self.L.editor = row
            self.editor_meta = (len(opts), mult)
        self.L.dirty()
        if self.L.editor:
            self.choose_some()

    def choose_some(self):
        rng = self.rng
        n, mult = self.editor_meta
        for _ in range(rng.randint(1, 5)):
            # picker wheel: spinning emits nothing until it settles
            self.wait(rng.lognormvariate(math.log(900), 0.6))
            self.emit("choose", option=rng.randrange(n))

    def toggle_section(self):
        # a switch reveals/hides a dependent section below its group
        rng = self.rng
        self.t += rng.uniform(200, 1000)
        if self.hidden and (rng.random() < 0.5 or len(self.L.secs) < 5):
            i, sec = self.hidden.pop()
            i = min(i, len(self.L.secs))
            self.insert_sections([i], [sec])
        elif len(self.L.secs) > 3:
            i = rng.randrange(1, len(self.L.secs))
            sec = self.L.secs[i]
            self.hidden.append((i, sec))
            self.delete_sections([i])
        if self.L.editor is None:
            self.editor_meta = None

    def keyboard(self):
        # a text field gets focus: the keyboard shrinks the viewport, then goes
        rng = self.rng
        kb = rng.choice([398.0, 442.0, 55.0])  # full keyboard / with bar / hardware bar
        h0 = self.height
        self.t += rng.uniform(100, 400)
        self.height = h0 - kb
        self.emit("viewport", width=self.width, height=self.height)
        self.off = self.clamp(self.off)
        self.wait(rng.lognormvariate(math.log(4000), 0.8))
        self.height = h0
        self.emit("viewport", width=self.width, height=self.height)
        self.off = self.clamp(self.off)

    def split_view(self):
        self.t += self.rng.uniform(300, 800)
        self.width = self.rng.choice([704.0, 438.0, 320.0, 1032.0])
        self.emit("viewport", width=self.width, height=self.height)

    def lock_toggle(self):
        # a profile-managed lock makes the form read-only for a while
        self.t += self.rng.uniform(300, 800)
        self.locked = not self.locked
        self.configure(allowsSelection=not self.locked)

    def reorder_favorites(self):
        rng = self.rng
        titles = [s.title for s in self.L.secs]
        if "Favorites" not in titles:
            return
        s = titles.index("Favorites")
        self.t += rng.uniform(200, 600)
        self.emit("jumpToSection", title="Favorites")
        self.off = self.clamp(self.L.tops()[s])
        self.t += 300
        self.set_editing(True)
        for _ in range(rng.randint(1, 4)):
            n = len(self.L.secs[s].h)
            self.wait(rng.uniform(600, 2500))
            c = rng.random()
            if c < 0.6 and n > 1:
                a, b = rng.sample(range(n), 2)
                self.move_row((s, a), (s, b))
            elif c < 0.8 and n > 1:
                self.delete_rows([(s, rng.randrange(n))])
            else:
                self.insert_rows(s, [n], [44.0])
        self.t += 300
        self.set_editing(False)
        if self.L.editor is None:
            self.editor_meta = None


class Photos(Session):
    """A photo picker: rows of thumbnails grouped by month, a selection strip on
    the trailing edge (flip reversal), auto-scroll in both zones held for long
    stretches, taps toggling, month index jumps, new photos synced in."""
    scale = 3.0
    hz = 120.0
    width, height = 430.0, 932.0 - 59.0 - 34.0 - 44.0

    def month(self, i):
        n = self.rng.randint(3, 120)
        return Section([107.5] * n, header=44.0, title="%s %d" % (
            ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][i % 12],
            2026 - i // 12))

    def setup(self):
        self.comment("photo picker, trailing strip, 3x phone, 120 Hz")
        self.default_h = 107.5
        self.configure(allowsMultipleSelection=True,
                       scrollAndSelect={"enabled": True, "edge": "trailing", "stripWidth": 52,
                                        "topAnchor": 60, "bottomAnchor": -60, "rowsPerSecond": 40,
                                        "reversal": "flip", "jitter": 4})
        self.emit("viewport", width=self.width, height=self.height)
        self.reload([self.month(i) for i in range(120)])

    def step(self):
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            self.browse((100, 400), up=0.6, flicks=0.6, fast=(80, 200), slow=(250, 700), pause=600)
        elif r < 0.60:
            self.strip_pan()
        elif r < 0.72:
            for _ in range(rng.randint(1, 8)):
                self.tap_at(rng.uniform(0, self.width - 52), rng.uniform(0, self.height))
                self.wait(rng.lognormvariate(math.log(350), 0.5))
        elif r < 0.77:
            self.t += rng.uniform(300, 900)
            self.emit("jumpToSection", title=rng.choice([s.title for s in self.L.secs]))
        elif r < 0.80:
            # iCloud sync: new photos fill rows at the top of the newest month
            k = rng.randint(1, 3)
            self.t += rng.uniform(0, 2000)
            self.insert_rows(0, list(range(k)), None)
        elif r < 0.81:
            if not self.pan:
                self.t += 500
                self.emit(rng.choice(["undo", "redo"]))
        elif r < 0.815:
            self.t += 500
            self.emit("deselectAll")
        elif r < 0.82:
            # a burst deleted on another device
            s = rng.randrange(len(self.L.secs))
            n = len(self.L.secs[s].h)
            if n > 3:
                b = self.random_batch(s, nd=rng.randint(1, 3), nr=rng.randint(0, 2))
                self.apply_batch(b["deletes"], b["inserts"], b["moves"], b["reloads"])
        else:
            self.idle()

    def strip_pan(self):
        rng = self.rng
        x0 = self.q(self.width - rng.uniform(4, 48))
        y0 = self.q(rng.uniform(0.1, 0.9) * self.height)
        self.t += rng.uniform(100, 500)
        segs = []
        y = y0
        for _ in range(rng.randint(1, 4)):
            zone = rng.random()
            if zone < 0.35:
                ny = self.height - rng.uniform(3, 55)
            elif zone < 0.55:
                ny = rng.uniform(3, 55)
            else:
                ny = rng.uniform(60, self.height - 60)
            segs.append((y, ny, rng.uniform(200, 900)))
            y = ny
        # first segment through pan_with_ticks, the rest appended
        first = True
        last = None
        for (ya, yb, dur) in segs:
            xa = x0 if last is None else last[1]
            samples = list(self.finger_path((xa, ya), (self.q(self.width - rng.uniform(4, 48)), yb), dur))
            if first:
                last = self.pan_with_ticks(samples, began=(x0, self.q(ya)))
                first = False
            else:
                for ft, x, yy in samples:
                    self.t = max(self.t, ft)
                    x, yy = self.in_view(x, yy)
                    self.emit("panMoved", x=x, y=yy)
                    self.t += rng.uniform(0.02, 0.3)
                    self.emit("tick")
                    last = (self.t, x, yy)
            # hold in a zone: ticks drive auto-scroll, tremor mostly under jitter
            if yb > self.height - 60 or yb < 60:
                hold = rng.uniform(200, 6000)
                P = 1000 / self.hz
                te = 0
                tr = self.tremor()
                while te < hold and not self.done():
                    te += P
                    self.t += P + rng.gauss(0, 0.15)
                    if rng.random() < 0.2:
                        self.emit("panMoved", x=last[1], y=self.q(min(self.height - 0.5, max(0.5, yb + 2 * tr(self.t)))))
                    self.emit("tick")
                    if rng.random() < 0.001:
                        self.insert_rows(0, [0], None)   # sync lands mid-pan: pan interrupted
        self.t += rng.uniform(3, 15)
        self.emit("panEnded", x=last[1], y=last[2])
        self.pan = False


STYLES = {"feed": Feed, "mail": Mail, "settings": Settings, "photos": Photos}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("style", choices=sorted(STYLES))
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    out = sys.stdout if a.output == "-" else open(a.output, "w", buffering=1 << 20)
    s = STYLES[a.style](a.seed, out, a.events)
    s.run()
    out.flush()
    print("%s: %d events, t = %.0f ms (%.1f h)" % (a.style, s.n, s.t, s.t / 3.6e6), file=sys.stderr)


if __name__ == "__main__":
    main()
