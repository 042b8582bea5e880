"""The range decoder, its models, integers and channels.

Every rule here is from LOG-FORMAT.md, "Batch payload: coded batches (version 3)"
(paragraphs "The range coder", "Integers" and "Channels"), which codec 2 payloads
("Range-coded payloads (codec 2, version 5)") use too.
"""

M64 = (1 << 64) - 1


class Damage(Exception):
    """A byte sequence no writer produces: damage (or a torn tail, by the torn-tail rule)."""


def s64(v):
    """Wrap to a signed 64-bit integer ("All of it in wrapping 64-bit arithmetic")."""
    v &= M64
    return v - (1 << 64) if v >> 63 else v


class Model:
    """"a probability P that the bit is 0 (bits 0-15, in 1/65536; fresh: 32768) and a
    count n of bits seen (bits 16-23; fresh: 0)"."""
    __slots__ = ("p", "n")

    def __init__(self):
        self.p = 32768
        self.n = 0


def tree_models(k):
    """Models for a k-bit symbol: node 1, then 2·node + bit (index 0 unused)."""
    return [Model() for _ in range(1 << k)]


class Decoder:
    """"The decoder sets range = 0xFFFFFFFF and code to the first four bytes (big-endian),
    reading 0 for every byte past the end" (the encoder's first byte, always 0, is not
    written)."""

    def __init__(self, data):
        self.data = data
        self.pos = 0
        self.range = 0xFFFFFFFF
        self.code = 0
        for _ in range(4):
            self.code = (self.code << 8) | self._byte()

    def _byte(self):
        b = self.data[self.pos] if self.pos < len(self.data) else 0
        self.pos += 1
        if self.pos > len(self.data) + 4:
            # "A decoder that has read more than four bytes past the end was given a
            # stream no encoder wrote: the batch is damaged."
            raise Damage("read more than four bytes past the end of the stream")
        return b

    def _normalise(self):
        while self.range < (1 << 24):
            self.range = (self.range << 8) & 0xFFFFFFFF
            self.code = ((self.code << 8) | self._byte()) & 0xFFFFFFFF

    def bit(self, m):
        """A decision under model m."""
        bound = (self.range >> 16) * m.p
        s = 2 + (m.n + 1).bit_length() - 1  # s = 2 + floor(log2(n + 1))
        if self.code < bound:
            self.range = bound
            b = 0
            m.p += (65536 - m.p) >> s
        else:
            self.code -= bound
            self.range -= bound
            b = 1
            m.p -= m.p >> s
        m.p = min(max(m.p, 64), 65472)  # "P is clamped to 64…65472"
        m.n = min(m.n + 1, 30)
        self._normalise()
        return b

    def direct(self):
        """A direct bit: "halves range and reads 1 when code ≥ range"."""
        self.range >>= 1
        if self.code >= self.range:
            self.code -= self.range
            b = 1
        else:
            b = 0
        self._normalise()
        return b

    def directs(self, k):
        """k direct bits, most significant first."""
        v = 0
        for _ in range(k):
            v = (v << 1) | self.direct()
        return v

    def tree(self, models, k):
        """"A symbol of k bits under a tree is k decisions" (node 1, then 2·node + bit)."""
        node = 1
        for _ in range(k):
            node = 2 * node + self.bit(models[node])
        return node - (1 << k)


class IntModel:
    """An integer model: nonzero, sign, length[1…15] (a 4-level tree), top[2…16]."""

    def __init__(self):
        self.nonzero = Model()
        self.sign = Model()
        self.length = tree_models(4)
        self.top = [Model() for _ in range(17)]


class IntCoder:
    """Reads integers ("Integers"); holds the long-length tree all integer models share."""

    def __init__(self, dec, longlen):
        self.dec = dec
        self.longlen = longlen

    def read(self, im):
        d = self.dec
        if not d.bit(im.nonzero):
            return 0
        neg = d.bit(im.sign)
        lv = d.tree(im.length, 4)  # min(b − 1, 15)
        b = 16 + d.tree(self.longlen, 6) if lv == 15 else lv + 1
        if b == 1:
            m = 1
        elif b <= 16:
            m = 2 | d.bit(im.top[b])
            if b >= 3:
                m = (m << (b - 2)) | d.directs(b - 2)
        else:
            # b may say up to 79: "this reader reads its bits all the same into a 64-bit
            # value, whose high bits they push out".
            m = ((1 << (b - 1)) | d.directs(b - 1)) & M64
        return s64(-m if neg else m)


def trailing_zeros(v):
    v &= M64
    return 64 if v == 0 else (v & -v).bit_length() - 1


def third(v):
    """third(v) = floor((3v + 32) / 64), the nearest third of a point."""
    return (3 * v + 32) // 64


def thirds(k):
    """thirds(k) = floor((128k + 3) / 6), third k in 1/64 pt."""
    return (128 * k + 3) // 6


D_NEVER = (1 << 61) - 1  # "a reader keeps it at 2^61 − 1, Int64.max / 4, which no sum reaches"


def decay(e, err):
    """E − (E >> 2) + min(|error|, 2^40)."""
    return e - (e >> 2) + min(abs(s64(err)), 1 << 40)


class Channel:
    """One of the six channels ("Channels"): last value x, last step d, grid g, error sums
    S (still), M (moving) and, for the relative scroll only, D (damped)."""

    def __init__(self, relative=False):
        self.relative = relative
        self.x = 0
        self.d = 0
        self.g = 6
        self.S = 0
        self.M = 0
        self.D = 0 if relative else D_NEVER
        self.grid_flag = Model()

    def damped(self):
        """((x − (x >> 4)) >> g) << g, ">>" shifting arithmetically."""
        return s64((s64(self.x - (self.x >> 4)) >> self.g) << self.g)

    def predict(self):
        """x + d when M < S and M ≤ D; else the damped one when D < S; else x."""
        if self.M < self.S and self.M <= self.D:
            return s64(self.x + self.d)
        if self.D < self.S:
            return self.damped()
        return self.x

    def update(self, y):
        """"After each value y, in this order": narrow g, then the sums (D's error with the
        g just narrowed by y), then d and x."""
        if y != 0:
            self.g = min(self.g, trailing_zeros(y))
        if self.relative:
            self.D = decay(self.D, y - self.damped())
        self.S = decay(self.S, y - self.x)
        self.M = decay(self.M, y - self.x - self.d)
        self.d = s64(y - self.x)
        self.x = y

    def read(self, ic, field_model, offgrid_model, version):
        """A value coded as r = y − prediction, on the grid g (before y), off it, or (version
        6, g = 0) as a number of thirds."""
        d = ic.dec
        p = self.predict()
        if self.g > 0:
            if d.bit(self.grid_flag):  # "off grid"
                y = s64(p + ic.read(offgrid_model))
            else:
                y = s64(p + s64(ic.read(field_model) << self.g))
        elif version >= 6:
            if d.bit(self.grid_flag):  # not a third
                y = s64(p + ic.read(offgrid_model))
            else:
                y = s64(thirds(third(p) + ic.read(field_model)))
        else:
            y = s64(p + ic.read(field_model))
        self.update(y)
        return y
