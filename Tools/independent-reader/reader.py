#!/usr/bin/env python3
"""A second reader of selectlog's log format, written from docs/LOG-FORMAT.md and
docs/EVENTS.md alone (see README.md).

usage: reader.py LOG [--salvage] [--verbose] [--index]

Prints LOG's events as JSON Lines on stdout, each in the canonical form `selectlog export`
writes (EVENTS.md section 4, "The canonical line"). Exit status: 0 (with a note on stderr
when a torn tail was left out, or when the stored index was passed over), 65 for damage, a
torn file header or a newer format, 64 for a usage error, 74 when LOG cannot be read.
--index also says on stderr, for a log read, whether it has a stored index and that it
agrees with the records (check.sh uses it).

Every rule below names the section of LOG-FORMAT.md (or EVENTS.md) it comes from; a rule
the docs do not give is marked NOT DOCUMENTED.
"""
import os
import struct
import subprocess
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coded import NO_FIELDS, PHASES, TYPES, CodedState, decode_coded  # noqa: E402
from crc import crc32c  # noqa: E402
from rc import Damage, Decoder, s64, tree_models  # noqa: E402

MIB = 1 << 20
MAGIC = b"SELECTLG"
NEWEST_VERSION = 7  # "Version 7 differs from version 6 only in what a checkpoint's payload may hold", which this reader skips
VERBOSE = False


def note(*args):
    if VERBOSE:
        print("reader:", *args, file=sys.stderr)


class Unsupported(Exception):
    """"written by a newer selectlog" (`.unsupported`): not damage."""


class TornTail(Exception):
    pass


class Length(int):
    """A length in 1/64 pt."""


class Time(int):
    """A time in µs."""


# LOG-FORMAT.md, "Event types and bodies": "length := zz in 1/64 pt, |v| ≤ 1e9 pt",
# "offset := zz in 1/64 pt, |v| ≤ EventLimits.offset (a content offset)", and after
# "Batch payload: coded batches": "Every version reads a content offset (scroll's y and
# target, panEnded's targetOffset) up to EventLimits.offset, 102,000,001 × 1e9 pt, and any
# other length up to 1e9 pt".
MAX_LENGTH = 64 * 10 ** 9
MAX_OFFSET = 102_000_001 * 64 * 10 ** 9
MAX_COUNT = 2 ** 31 - 1  # "count := varint ≤ 2^31 − 1"
MAX_ROWS = 50_000_000  # "section := count rows (≤ 50,000,000), ..."


def checked_length(v, limit=MAX_LENGTH):
    if abs(v) > limit:
        raise Damage("length out of range")
    return Length(v)


def checked_count(v):
    if not 0 <= v <= MAX_COUNT:
        raise Damage("count out of range")
    return v


# ------------------------------------------------------------------------ bodies
# LOG-FORMAT.md, "Event types and bodies (every version)": the grammar and each type's
# fields in order. "A value outside its range, or a byte that is none of its choices, is
# damage at its offset; a body with bytes left over is "written by a newer selectlog"."

class Body:
    def __init__(self, data):
        self.data = data
        self.i = 0

    def left(self):
        return len(self.data) - self.i

    def u8(self):
        if self.i >= len(self.data):
            raise Damage("body ends early")
        self.i += 1
        return self.data[self.i - 1]

    def raw(self, n):
        if n > self.left():
            raise Damage("body ends early")
        self.i += n
        return self.data[self.i - n:self.i]

    def varint(self):
        """"unsigned LEB128, at most 10 bytes, below 2^64"."""
        v = 0
        for shift in range(0, 70, 7):
            c = self.u8()
            v |= (c & 0x7F) << shift
            if not c & 0x80:
                if v >> 64:
                    raise Damage("varint past 2^64")
                return v
        raise Damage("varint longer than 10 bytes")

    def zz(self):
        """"varint of zigzag(v) = (v << 1) ^ (v >> 63)"."""
        v = self.varint()
        return s64((v >> 1) ^ -(v & 1))

    def count(self):
        return checked_count(self.varint())

    def n(self):
        """"n := varint ≤ the bytes left in the body (a list's length)"."""
        v = self.varint()
        if v > self.left():
            raise Damage("list length past the body")
        return v

    def boolean(self):
        """"bool := u8: 0 false, 1 true (any other byte is damage)"."""
        v = self.u8()
        if v > 1:
            raise Damage("bool byte %d" % v)
        return v == 1

    def optbool(self):
        """"optbool := u8: 0 false, 1 true, 2 absent"."""
        v = self.u8()
        if v > 2:
            raise Damage("optbool byte %d" % v)
        return None if v == 2 else v == 1

    def choice(self, names):
        """A u8 naming one of names (None for "absent" or "none")."""
        v = self.u8()
        if v >= len(names):
            raise Damage("byte %d is none of its choices" % v)
        return names[v]

    def opt(self, f):
        """"opt(f) := bool; f follows when it is 1"."""
        return f() if self.boolean() else None

    def list(self, f):
        return [f() for _ in range(self.n())]

    def length(self):
        return checked_length(self.zz())

    def offset(self):
        return checked_length(self.zz(), MAX_OFFSET)

    def string(self):
        """"varint byte count (≤ 2^31 − 1 and ≤ the bytes left), then valid UTF-8"."""
        k = self.varint()
        if k > MAX_COUNT or k > self.left():
            raise Damage("string length")
        try:
            return self.raw(k).decode("utf-8")
        except UnicodeDecodeError:
            raise Damage("string is not valid UTF-8")

    def path(self):
        return [self.count(), self.count()]

    def paths(self):
        return self.list(self.path)

    def heights(self):
        return self.opt(lambda: self.list(self.length))

    def section(self):
        rows = self.count()
        if rows > MAX_ROWS:
            raise Damage("section rows")
        return fields(rows=rows, rowHeight=self.opt(self.length), rowHeights=self.heights(),
                      header=self.opt(self.length), footer=self.opt(self.length),
                      title=self.opt(self.string))

    def sections(self):
        return self.list(self.section)

    def strip(self):
        return fields(enabled=self.optbool(), edge=self.choice(["leading", "trailing", None]),
                      stripWidth=self.opt(self.length), topAnchor=self.opt(self.length),
                      bottomAnchor=self.opt(self.length), rowsPerSecond=self.opt(self.length),
                      reversal=self.choice(["flip", "restore", None]), jitter=self.opt(self.length))


def fields(**kv):
    """The fields that have a value, in the order given (EVENTS.md section 4: "a field
    without a value is left out")."""
    return {k: v for k, v in kv.items() if v is not None}


def decode_body(name, data):
    """The body of an event of a type without fields coded one by one: in a coded batch,
    "the bytes decode exactly as a version 2 body"."""
    b = Body(data)
    if name == "configure":
        # the body's order; the event's keys go in EVENTS.md 5.11's order
        a, am, ae, ame, msi = (b.optbool() for _ in range(5))
        ow, eh = b.opt(b.length), b.opt(b.length)
        ul, sas = b.opt(b.count), b.opt(b.strip)
        e = fields(allowsSelection=a, allowsMultipleSelection=am, allowsSelectionDuringEditing=ae,
                   allowsMultipleSelectionDuringEditing=ame, scrollAndSelect=sas,
                   multiSelectInteraction=msi, optionWidth=ow, editorHeight=eh, undoLimit=ul)
    elif name == "viewport":
        e = fields(width=b.opt(b.length), height=b.opt(b.length))
    elif name == "reload":
        e = {"sections": b.sections()}
    elif name == "setEditing":
        e = {"editing": b.boolean()}
    elif name == "jumpToSection":
        e = {"section": b.count()} if b.choice([0, 1]) == 0 else {"title": b.string()}
    elif name == "swipeBegan":
        e = {"row": b.path()}
    elif name == "setOptionVisible":
        e = {"row": b.path(), "visible": b.boolean()}
    elif name == "toggleEditor":
        e = {"row": b.path(), "options": b.list(b.string), "multiple": b.boolean(),
             "chosen": b.list(b.count)}
    elif name == "choose":
        e = {"option": b.count()}
    elif name in ("insertRows", "reloadRows"):
        e = fields(at=b.paths(), heights=b.heights())
    elif name == "deleteRows":
        e = {"at": b.paths()}
    elif name == "moveRow":
        e = {"from": b.path(), "to": b.path()}
    elif name == "batch":
        e = fields(deletes=b.paths(), inserts=b.paths(), insertHeights=b.heights(),
                   moves=b.list(lambda: [b.path(), b.path()]), reloads=b.paths(),
                   reloadHeights=b.heights())
    elif name == "insertSections":
        e = {"at": b.list(b.count), "sections": b.sections()}
    elif name == "deleteSections":
        e = {"at": b.list(b.count)}
    elif name in ("select", "deselect"):
        e = {"rows": b.paths()}
    else:
        raise Damage("%s is not coded as a body" % name)
    if b.left():
        raise Unsupported("%s: body has bytes left over: written by a newer selectlog" % name)
    return e


# The fields coded one by one (versions 1 and 2: predicted; coded batches: channels), as
# lengths or content offsets ("Every version reads a content offset ..." above).
OFFSET_FIELDS = {("scroll", "y"), ("scroll", "target"), ("panEnded", "targetOffset")}
COORDINATES = ("x", "y", "dy", "target", "targetOffset", "offset", "velocity")


def finish_event(ev):
    """Range-check and type the fields coded one by one, and t."""
    for k in COORDINATES:
        if k in ev:
            limit = MAX_OFFSET if (ev["type"], k) in OFFSET_FIELDS else MAX_LENGTH
            ev[k] = checked_length(ev[k], limit)
    if "fingers" in ev:
        checked_count(ev["fingers"])
    if "t" in ev:
        ev["t"] = Time(ev["t"])
    return ev


# ----------------------------------------------------------- versions 1 and 2
# LOG-FORMAT.md, "Batch payload: events (versions 1 and 2)". No version 2 log exists to
# test this against (the CLI writes version 6, and `upgrade` rewrites older logs).

class SecondOrder:
    """"next = last + (last − the one before)"; starts from zero (positions) or from the
    batch's base time (time) at every batch."""

    def __init__(self, start=0):
        self.last = self.before = start

    def decode(self, residual):
        v = s64(2 * self.last - self.before + residual)
        self.before, self.last = self.last, v
        return v


class AdaptivePredictor:
    """Version 2's finger and relative-scroll predictor: v, s, S, M and the grid g."""

    def __init__(self):
        self.v = self.s = self.S = self.M = 0
        self.g = 6

    def decode(self, n):
        p = self.v + self.s if self.M <= self.S else self.v
        # stored number: 2·(r >> g) for a multiple of 2^g, else 2·r + 1; with g = 0, r
        if self.g > 0:
            r = (n // 2) << self.g if n % 2 == 0 else (n - 1) // 2
        else:
            r = n
        x = s64(p + r)
        self.S = self.S - (self.S >> 2) + min(abs(s64(x - self.v)), 1 << 40)
        self.M = self.M - (self.M >> 2) + min(abs(s64(x - self.v - self.s)), 1 << 40)
        self.s = s64(x - self.v)
        self.v = x
        if x:
            self.g = min(self.g, (x & -x).bit_length() - 1)
        return x


def decode_frames(payload, version, base_time):
    """"frame := tag:u8 body-length:varint body"; "body := [t residual: zigzag varint,
    if 0x80] fields…"."""
    b = Body(payload)
    events = []
    time = SecondOrder(base_time)
    scroll_y, swipe = SecondOrder(), SecondOrder()
    if version >= 2:
        fx, fy, fdy = AdaptivePredictor(), AdaptivePredictor(), AdaptivePredictor()
    else:  # "version 1: the second-order one above for fingers, dy stored as is"
        fx, fy, fdy = SecondOrder(), SecondOrder(), None
    while b.left():
        tag = b.u8()
        body = Body(b.raw(b.varint()))
        kind = tag & 0x7F
        if kind >= 64:  # annotations (64: gesture fingerprint): "skipped whole"
            continue
        if not 1 <= kind <= len(TYPES):
            raise Unsupported("event type %d: written by a newer selectlog" % kind)
        name = TYPES[kind - 1]
        ev = {"type": name}
        if tag & 0x80:
            ev["t"] = time.decode(body.zz())
        if name in ("tap", "panMoved", "panBegan"):
            ev["x"], ev["y"] = fx.decode(body.zz()), fy.decode(body.zz())
            if name == "panBegan":
                ev["fingers"] = body.count()
        elif name == "panEnded":
            if body.boolean():
                ev["x"], ev["y"] = fx.decode(body.zz()), fy.decode(body.zz())
            put(ev, "targetOffset", body.opt(body.zz))  # not predicted
        elif name == "scroll":
            motion = body.choice([0, 1, 2])
            if motion == 1:
                ev["y"] = scroll_y.decode(body.zz())
            elif motion == 2:
                ev["dy"] = fdy.decode(body.zz()) if fdy else body.zz()
            put(ev, "phase", body.choice(PHASES))
            put(ev, "target", body.opt(body.zz))  # not predicted
        elif name == "swipeMoved":
            ev["offset"] = swipe.decode(body.zz())
        elif name == "swipeEnded":
            put(ev, "velocity", body.opt(body.zz))
        elif name not in NO_FIELDS:
            ev.update(decode_body(name, body.raw(body.left())))
        if body.left():
            raise Unsupported("%s: frame has bytes left over: written by a newer selectlog" % name)
        events.append(ev)
    return events


def put(d, k, v):
    if v is not None:
        d[k] = v


# --------------------------------------------------------------- record codecs
# LOG-FORMAT.md, "Record header (48 bytes) and payload": "codec: 0 stored (uncompressed),
# 1 zstd, 2 range-coded".

def zstd_decompress(data, raw_len):
    try:
        p = subprocess.run(["zstd", "-d", "-c", "-q"], input=data, capture_output=True)
    except FileNotFoundError:
        # "A build without libzstd that meets a codec-1 record refuses it with "this build
        # reads no zstd batches" (it never guesses)."
        raise Unsupported("this build reads no zstd batches (no zstd command)")
    if p.returncode != 0:
        raise Damage("zstd: " + p.stderr.decode(errors="replace").strip())
    if len(p.stdout) != raw_len:
        raise Damage("zstd gives %d bytes, the header says %d" % (len(p.stdout), raw_len))
    return p.stdout


def range_decompress(data, raw_len):
    """LOG-FORMAT.md, "Range-coded payloads (codec 2, version 5)": order-1 byte trees, all
    fresh at the start of every payload."""
    dec = Decoder(data)
    trees = {}
    out = bytearray()
    prev = 0  # "the first byte uses the tree of 0"
    for _ in range(raw_len):
        if prev not in trees:
            trees[prev] = tree_models(8)
        prev = dec.tree(trees[prev], 8)
        out.append(prev)
    if dec.pos < len(data):
        raise Damage("codec 2: stored bytes left unread")
    return bytes(out)


# ------------------------------------------------------------- canonical line
# EVENTS.md section 4, "The canonical line".

def decimal(v, den):
    """"numbers exact, in decimals, with no exponent and no trailing zeros": a length is
    its multiple of 1/64 pt, t its µs in ms (den is 64 or 1000, so the decimal ends)."""
    whole, frac = divmod(abs(v), den)
    s = str(whole)
    if frac:
        digits = []
        while frac:
            d, frac = divmod(frac * 10, den)
            digits.append(str(d))
        s += "." + "".join(digits)
    return "-" + s if v < 0 else s


_ESCAPES = {0x22: '\\"', 0x5C: "\\\\", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}
_U_ESCAPED = (set(range(0x20)) | set(range(0x7F, 0xA0)) | {0x61C, 0x200E, 0x200F, 0x2028, 0x2029}
              | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)))


def json_string(s):
    """"strings with \\", \\\\, \\n, \\r and \\t escaped, and as \\u00XX (lower-case hex, four
    digits) every other C0 control, DEL and C1 (U+007F–U+009F), and ... U+061C, U+200E,
    U+200F, U+2028, U+2029, U+202A–U+202E and U+2066–U+2069; everything else as UTF-8"."""
    out = ['"']
    for ch in s:
        c = ord(ch)
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif c in _U_ESCAPED:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def json_value(v):
    """"", " between fields and list items, ": " after a key, no space inside brackets or
    braces"."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Length):
        return decimal(v, 64)
    if isinstance(v, Time):
        return decimal(v, 1000)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json_string(v)
    if isinstance(v, list):
        return "[" + ", ".join(json_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(json_string(k) + ": " + json_value(x) for k, x in v.items()) + "}"
    raise TypeError(v)


def canonical_line(ev):
    """Keys "in the order type, t (only when the event carries one), then the event's
    fields in the order of section 5.11"; "panBegan's fingers is left out when it is 1"."""
    if ev["type"] == "panBegan" and ev.get("fingers") == 1:
        ev = {k: v for k, v in ev.items() if k != "fingers"}
    return json_value(ev)


# ------------------------------------------------------------------- the file

class Log:
    def __init__(self, data):
        self.d = data
        self.events = []
        self.torn = None  # (offset, why)
        self.index_at = None  # (offset, end, payload, first event, base time, codec) of the index record
        self.index = None  # the stored index: (offset, None when it agrees, else why it is passed over)
        self.index_remarks = []  # what --index reports of an index used, beyond its agreeing
        self.records = []  # (offset, kind, end, first, count, base, codec, stored, raw, pcrc)

    def crc(self, *parts):
        return crc32c(self.salt + b"".join(parts))

    # ---------------------------------------------------------------- header
    def read_header(self):
        """LOG-FORMAT.md, "File header (40 bytes; 32 in version 1)"."""
        d = self.d
        if len(d) < 12 or d[:8] != MAGIC:
            if len(d) < 12 and (MAGIC.startswith(d) or d.startswith(MAGIC)):
                # "A file shorter than its version's header length is a torn tail ...:
                # the reading commands refuse it (exit 65, "file header is incomplete")"
                raise TornTail("file shorter than a header")
            raise Damage("bad magic")
        ver, hlen = struct.unpack_from("<HB", d, 8)
        # "A version from 8 to 255 is refused as written by a newer selectlog ..., unless the
        # header is laid out as version 2's (byte 10 is 40) and its checksum fails: that is
        # damage, as are version 0 and versions past 255"
        if ver == 0 or ver > 255:
            raise Damage("format version %d at byte 8" % ver)
        if ver > NEWEST_VERSION:
            if hlen == 40 and len(d) >= 40 and crc32c(bytes(8) + d[:36]) != struct.unpack_from("<I", d, 36)[0]:
                raise Damage("file header checksum (version %d)" % ver)
            raise Unsupported("format version %d is not supported: written by a newer selectlog" % ver)
        # "header length = 40 (version 1: 32); must match the version"
        want = 32 if ver == 1 else 40
        if hlen != want:
            raise Damage("header length %d does not match version %d" % (hlen, ver))
        if len(d) < hlen:
            raise TornTail("file shorter than its header")
        # "CRC-32C of 8 zero bytes, then bytes 0-35 (salt 0; version 1: bytes 0-27, at offset 28)"
        covered = hlen - 4
        if crc32c(bytes(8) + d[:covered]) != struct.unpack_from("<I", d, covered)[0]:
            raise Damage("file header checksum")
        self.version, self.hlen = ver, hlen
        flags = struct.unpack_from("<I", d, 12)[0]
        # "bits 16-31 are REQUIRED features (unknown → refuse the file)"; bits 0 and 1 are
        # informational ("No reader uses either bit").
        if flags >> 16:
            raise Unsupported("required feature bits 0x%x: written by a newer selectlog" % (flags >> 16))
        self.salt = d[16:24]
        note("version", ver, "flags", flags, "checkpoint interval", struct.unpack_from("<I", d, 24)[0])

    # ------------------------------------------------------------ torn tail
    def fail(self, off, end, why):
        """The record at off fails; end is its end (its header's end when the header does not
        verify). LOG-FORMAT.md, "Record header (48 bytes) and payload": "a record whose
        header verifies but whose payload runs past the end of the file is a torn tail", and
        the torn-tail rule: a record that fails "is a torn tail when the file's trailing run
        of zero bytes starts before the record's end ..., and the run is at most 1 MiB"."""
        d = self.d
        zeros = len(d)
        while zeros > self.hlen and d[zeros - 1] == 0:
            zeros -= 1
        if end > len(d) or (zeros < end and len(d) - zeros <= MIB):
            self.torn = (off, why)
            raise TornTail(why)
        raise Damage("at offset %d: %s" % (off, why))

    def continued_header_ok(self, h):
        """"header check: the low 16 bits of the salted CRC-32C of bytes 0-3 and 6-15"."""
        return (self.crc(h[0:4], h[6:16]) & 0xFFFF) == struct.unpack_from("<H", h, 4)[0]

    def header_ok(self, h):
        """"header CRC: salted CRC-32C of bytes 0-3 and 8-47"."""
        return self.crc(h[0:4], h[8:48]) == struct.unpack_from("<I", h, 4)[0]

    def claimed_end(self, off):
        """The record's end as the torn-tail rule takes it: the end its header gives when the
        header verifies, else the end of its header (16 bytes for a continued batch's)."""
        h = self.d[off:off + 48]
        if h[:4] == b"SLRb":
            if len(h) >= 16 and self.continued_header_ok(h):
                return off + 16 + int.from_bytes(h[10:13], "little")
            return off + 16
        if len(h) == 48 and h[:3] == b"SLR" and self.header_ok(h):
            return off + 48 + struct.unpack_from("<I", h, 12)[0]
        return off + 48

    # --------------------------------------------------------------- records
    def walk(self):
        d = self.d
        off = self.hlen
        n_events = 0
        prev_kind = None
        state = None  # the coded state a continued batch carries on
        while off < len(d):
            if self.index_at is not None:
                # "I is last"; "data after the index" is damage ("Reading, verifying,
                # recovering"), unless it is a torn tail by the same rule ("Record header":
                # bytes after the index record).
                self.fail(off, self.claimed_end(off), "data after the index")
            rest = len(d) - off
            if rest < 4:
                self.fail(off, off + 48, "torn record header")
            if d[off:off + 3] != b"SLR":
                self.fail(off, off + 48, "bad record magic")
            kind = chr(d[off + 3])
            if kind == "b":
                off, n_events, state = self.continued_batch(off, n_events, prev_kind, state)
                prev_kind = "b"
                continue
            if rest < 48:
                self.fail(off, off + 48, "torn record header")
            h = d[off:off + 48]
            pcrc, stored, raw, count, first, base, codec = struct.unpack_from("<IIIIQQB", h, 8)
            if not self.header_ok(h):
                self.fail(off, off + 48, "record header checksum")
            if kind not in "BCI":
                # LOG-FORMAT.md, "Record header": a kind other than B, C, I and b,
                # under a header that verifies, is damage.
                self.fail(off, off + 48, "unknown record kind %r" % kind)
            self.check_limits(off, kind, stored, raw, count, first, base, codec)
            end = off + 48 + stored
            if end > len(d):
                self.fail(off, end, "payload runs past the end of the file")
            payload = d[off + 48:end]
            if self.crc(payload) != pcrc:
                if kind == "I" and end == len(d) and d[-1] != 0:
                    # "One exception: a stored index whose *payload* checksum fails (unless
                    # its last bytes are zeros: the torn-tail rule comes first), or that fails
                    # the conditions for using one (above), is passed over (the records are
                    # walked, as for a log without one ...)" ("Reading, verifying,
                    # recovering", the damage table). It is the last record, so the walk ends
                    # here. One whose last bytes are zeros goes to `fail`: "A failing last
                    # record whose own last bytes are zeros ... counts as torn".
                    self.index = (off, "its payload checksum fails")
                    break
                self.fail(off, end, "payload checksum")
            if kind == "B":
                # "batch = index of its first event"; "a batch out of sequence" is damage
                if first != n_events:
                    self.fail(off, end, "batch out of sequence (first event %d, expected %d)" % (first, n_events))
                try:
                    data = self.unpack(payload, codec, raw)
                    if self.version >= 3:
                        state = CodedState(base)  # a window's first batch: fresh models
                        evs = decode_coded(data, state, self.version, decode_body)
                    else:
                        evs = decode_frames(data, self.version, base)
                    self.take(evs, count)
                except Damage as e:
                    self.fail(off, end, "decoding: %s" % e)
                n_events += count
            elif kind == "C":
                # "Checkpoint payload": "a reader that wants only the events checks a
                # checkpoint's header (its limits, and first event index = the events before
                # it) and its payload CRC, ... and skips it without decompressing it"
                if first != n_events:
                    self.fail(off, end, "checkpoint at event %d, expected %d" % (first, n_events))
                note("checkpoint at offset %d, after %d events (codec %d, %d bytes): skipped" % (off, first, codec, stored))
                state = None
            else:
                self.index_at = (off, end, payload, first, base, codec)
            self.records.append((off, kind, end, first, count, base, codec, stored, raw, pcrc))
            prev_kind = kind
            off = end
        return n_events

    def continued_batch(self, off, n_events, prev_kind, state):
        """LOG-FORMAT.md, "Continued batch (version 4): a 16-byte header"."""
        d = self.d
        if self.version < 4:  # "and so is kind b in a file of version 1 to 3"
            self.fail(off, off + 16, "continued batch in a version %d file" % self.version)
        if len(d) - off < 16:
            self.fail(off, off + 16, "torn continued-batch header")
        h = d[off:off + 16]
        if not self.continued_header_ok(h):
            self.fail(off, off + 16, "continued-batch header check")
        pcrc = struct.unpack_from("<I", h, 6)[0]
        stored = int.from_bytes(h[10:13], "little")
        count = int.from_bytes(h[13:16], "little")
        if not 1 <= count <= MIB:  # "event count (u24, 1 to 2^20)"
            self.fail(off, off + 16, "continued batch event count %d" % count)
        # "A continued batch must directly follow a batch record (B or b): one first in the
        # file, or after a checkpoint, is damage"
        if prev_kind not in ("B", "b") or state is None:
            self.fail(off, off + 16, "continued batch that does not follow a batch")
        end = off + 16 + stored
        if end > len(d):
            self.fail(off, end, "payload runs past the end of the file")
        payload = d[off + 16:end]
        if self.crc(payload) != pcrc:
            self.fail(off, end, "payload checksum")
        # "its decisions go on under the models, channels, time steps, time and item context
        # that the batch before it left after its end item"; payload "always stored, codec 0"
        try:
            self.take(decode_coded(payload, state, self.version, decode_body), count)
        except Damage as e:
            self.fail(off, end, "decoding: %s" % e)
        self.records.append((off, "b", end, n_events, count, None, 0, stored, stored, pcrc))
        return end, n_events + count, state

    def take(self, evs, count):
        # LOG-FORMAT.md, "Items": the items must hold exactly the events the record
        # header counts ("batch holds N events, its header says M" is damage).
        if len(evs) != count:
            raise Damage("batch decodes to %d events, its header says %d" % (len(evs), count))
        self.events.extend([finish_event(ev) for ev in evs])

    def check_limits(self, off, kind, stored, raw, count, first, base, codec):
        """LOG-FORMAT.md, "Record header (48 bytes) and payload": "A header that verifies must
        also keep the format's limits, or it is corruption" (the table)."""
        bad = None
        if stored > 16 * MIB or raw > 16 * MIB:
            bad = "length over 16 MiB"
        elif codec == 0 and raw != stored:
            bad = "stored record whose raw length is not its stored length"
        elif codec == 1 and raw > 4096 * stored:
            bad = "zstd ratio past 4096"
        elif codec == 2 and raw > 1024 * (stored + 4):
            bad = "codec 2 ratio past 1024"
        elif codec == 2 and (kind == "I" or self.version < 5):
            # "(from version 5; never an index)"; "codec 2 appears only in files of version 5
            # or later"
            bad = "codec 2 in an index or before version 5"
        elif codec > 2:
            bad = "codec %d" % codec  # "any other value is damage"
        elif kind == "B" and not (1 <= count <= MIB and count <= 8192 * (raw + 5)):
            bad = "event count %d" % count
        elif kind != "B" and count != 0:
            bad = "event count on a record that is not a batch"
        elif first > (2 ** 31 - 1) * 64:
            bad = "first event index"
        elif base > 8 * 10 ** 15:
            bad = "base time"  # "base time | 0 to 8 × 10^15 µs"
        if bad:
            self.fail(off, off + 48, bad)

    def unpack(self, payload, codec, raw):
        if codec == 0:
            return payload
        if codec == 1:
            return zstd_decompress(payload, raw)
        return range_decompress(payload, raw)

    # --------------------------------------------------------------- the index
    # LOG-FORMAT.md, "Index payload (last record, written on a clean close, stored raw)":
    #   count:varint  entry*  own-offset:u64  "SLINDEX1"
    #   entry := kind:u8 codec:u8 Δoffset:varint Δfirst-event:varint event-count:varint
    #            stored-length:varint raw-length:varint Δbase-time:zigzag payload-CRC:u32
    #            [version 4 and later: continued:varint continued-bytes:varint continued-events:varint]
    ENTRY_FIELDS = ("kind", "codec", "offset", "first event", "event count", "stored length",
                    "raw length", "base time", "payload CRC", "continued", "continued bytes",
                    "continued events")

    def windows(self):
        """What the index must list, from the records walked: "From version 4 there is an
        entry for every record but continued batches: an entry for a window's first batch
        describes that record, then counts the continued batches after it, their bytes
        (headers included) and their events." Before version 4 there are no continued
        batches, and each batch and checkpoint has its entry ("no entry is an index")."""
        out = []  # the fields of ENTRY_FIELDS, in order
        for off, kind, end, first, count, base, codec, stored, raw, pcrc in self.records:
            if kind in "BC":
                out.append([kind, codec, off, first, count, stored, raw, base, pcrc, 0, 0, 0])
            elif kind == "b":  # the walk lets a continued batch follow only a batch
                out[-1][9] += 1
                out[-1][10] += end - off
                out[-1][11] += count
        return out

    def parse_entry(self, b, prev):
        """One entry, its Δ fields added to the previous entry's ("less the previous entry's
        (less 0 for the first entry; the time difference wraps in 64 bits, zigzag-coded)")."""
        kind, codec = chr(b.u8()), b.u8()
        offset = prev[2] + b.varint()
        first = prev[3] + b.varint()
        count, stored, raw = b.varint(), b.varint(), b.varint()
        base = (prev[7] + b.zz()) & 0xFFFFFFFFFFFFFFFF  # u64, as the record header holds it
        pcrc = struct.unpack("<I", b.raw(4))[0]  # "u32, little-endian"
        entry = [kind, codec, offset, first, count, stored, raw, base, pcrc]
        if self.version >= 4:  # "[version 4 and later: continued ...]"
            entry += [b.varint(), b.varint(), b.varint()]
        else:
            entry += [0, 0, 0]
        return entry

    def index_problem(self, n_events):
        """Why the stored index is passed over, or None when it agrees with the records
        walked. LOG-FORMAT.md, "Index payload": "A reader uses a stored index only if all of
        these hold, and otherwise walks the record headers"; "Reading, verifying,
        recovering": an index "that disagrees with the records, is passed over (the records
        are walked, as for a log without one ...)". This reader walks every record anyway,
        so it checks the index against what the walk found, entry by entry, field by field."""
        off, end, payload, first, base, codec = self.index_at
        # "the record there is a verified index record (codec 0)"; "another codec makes it
        # an index that readers pass over"
        if codec != 0:
            return "its record's codec is %d, not 0" % codec
        # "The last 16 bytes of a cleanly closed file are the index record's own offset and
        # the magic SLINDEX1"; the walk has made sure the index record ends the file.
        if len(payload) < 16:
            return "its payload, %d bytes, is shorter than its trailer" % len(payload)
        own, magic = struct.unpack_from("<Q8s", payload, len(payload) - 16)
        if magic != b"SLINDEX1":
            return "its trailer's magic is %r, not SLINDEX1" % magic
        # "own-offset is the index record's own offset"; "the trailer's offset ... is at least
        # the file header's length and leaves room for a record header and the trailer; the
        # record there is a verified index record that ends at the end of the file"
        if own != off:
            return "its trailer names offset %d, not its own" % own
        if not (self.hlen <= own and own + 48 + 16 <= len(self.d) and end == len(self.d)):
            return "its trailer's offset leaves no room for the index record"
        # "The index record's header holds first event index = the log's event count, event
        # count 0, base time 0 and codec 0. Another event count ... breaks the limits" (the
        # walk has refused it); "another first event index, base time or codec is damage to
        # `verify` at the index's offset (readers do not use the first two, and do not look
        # at them)": so the index is used, and --index reports them (check.sh then expects
        # `verify` to call the log damaged).
        if first != n_events:
            self.index_remarks.append("its header's first event index is %d, not the log's %d events: damage to verify" % (first, n_events))
        if base != 0:
            self.index_remarks.append("its header's base time is %d, not 0: damage to verify" % base)
        mine = self.windows()
        b = Body(payload[:-16])  # the entries cannot run into the trailer
        try:
            count = b.varint()
            if count != len(mine):
                return "it has %d entries, the records make %d (windows and checkpoints)" % (count, len(mine))
            prev = [None, None, 0, 0, None, None, None, 0]
            at, events = self.hlen, 0
            for k in range(count):
                entry = prev = self.parse_entry(b, prev)
                for name, theirs, ours in zip(self.ENTRY_FIELDS, entry, mine[k]):
                    if theirs != ours:
                        return "entry %d (the record at offset %d): %s %r, the record's %r" % (k, mine[k][2], name, theirs, ours)
                kind, _, offset, efirst, ecount, stored = entry[:6]
                continued, cbytes, cevents = entry[9:]
                # The conditions "A reader uses a stored index only if" lists; the records
                # walked keep them, so an entry that equals its record must too. Checked
                # here as well, so that the docs' sentences are tested, not assumed.
                # "the entries list the records contiguously from the end of the file header
                # to the index record (each entry's offset is the previous entry's end,
                # continued batches included)"; "an entry's records end at its offset + its
                # record's length + continued-bytes".
                if offset != at:
                    return "entry %d: offset %d, the previous entry's end %d" % (k, offset, at)
                at = offset + 48 + stored + cbytes
                # "batches hold events 0, 1, 2, … in sequence with at least one event each,
                # continued batches (only after a batch) hold at least one event and 16 bytes
                # each ..., and each checkpoint's event index is the number of events before
                # it"; "The entries' first events are running sums".
                if efirst != events:
                    return "entry %d: first event %d, the entries before it hold %d" % (k, efirst, events)
                if kind == "B" and ecount < 1 or continued and (kind != "B" or cevents < continued or cbytes < 16 * continued):
                    return "entry %d: event or continued counts out of range" % k
                events += ecount + cevents
            if b.left():
                return "%d bytes between its entries and its trailer" % b.left()
            if at != off:
                return "its entries end at %d, not at the index record (%d)" % (at, off)
            if events != n_events:  # "this pins the log's event count to the records"
                return "its entries hold %d events, the records %d" % (events, n_events)
        except Damage as e:  # a varint too long, or entries running into the trailer
            return "its entries cannot be parsed: %s" % e
        return None

    def read(self):
        self.read_header()
        n_events = 0
        try:
            n_events = self.walk()
        except TornTail:
            pass
        if self.torn is None and self.index is None and self.index_at is not None:
            self.index = (self.index_at[0], self.index_problem(n_events))
        return self.events

    def index_report(self):
        """A line on how the stored index was taken. A passed-over index is always noted (the
        damage table: "noted on stderr by the command line"); the others with --index."""
        if self.index is None:
            why = "torn tail" if self.torn else "no index record"
            return False, "reader: stored index: none (%s; records walked)" % why
        off, why = self.index
        if why is None:
            remarks = "".join("; " + r for r in self.index_remarks)
            return False, "reader: stored index at offset %d: agrees with the records (%d entries)%s" % (off, len(self.windows()), remarks)
        return True, "reader: note: stored index at offset %d passed over (%s); every event read from the records" % (off, why)


def main(argv):
    global VERBOSE
    paths = [a for a in argv if not a.startswith("--")]
    options = [a for a in argv if a.startswith("--")]
    if len(paths) != 1 or set(options) - {"--salvage", "--verbose", "--index"}:
        print("usage: reader.py LOG [--salvage] [--verbose] [--index]", file=sys.stderr)
        return 64
    VERBOSE = "--verbose" in options
    try:
        with open(paths[0], "rb") as f:
            log = Log(f.read())
    except OSError as e:
        print("reader: cannot read %s: %s" % (paths[0], e.strerror), file=sys.stderr)
        return 74
    out = sys.stdout.buffer
    try:
        events = log.read()
    except Unsupported as e:
        print("reader: %s" % e, file=sys.stderr)
        return 65
    except TornTail as e:  # a torn file header: nothing to read
        print("reader: torn tail at offset 0 (%s); 0 events" % e, file=sys.stderr)
        return 65
    except Damage as e:
        if "--salvage" in options:  # the events of the records before the damaged one
            out.write("".join(canonical_line(ev) + "\n" for ev in log.events).encode())
        print("reader: damaged log: %s; %d intact events" % (e, len(log.events)), file=sys.stderr)
        return 65
    out.write("".join(canonical_line(ev) + "\n" for ev in events).encode())
    out.flush()
    if log.torn:
        print("reader: torn tail at offset %d (%s); %d events kept" % (log.torn[0], log.torn[1], len(events)),
              file=sys.stderr)
    passed_over, line = log.index_report()
    if passed_over or VERBOSE or "--index" in options:
        print(line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
