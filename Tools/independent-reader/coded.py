"""Coded batches (format versions 3 to 6).

Every rule here is from LOG-FORMAT.md, "Batch payload: coded batches (version 3)",
paragraph "Items" unless a comment says otherwise.
"""
from rc import Channel, Damage, Decoder, IntCoder, IntModel, Model, s64, tree_models

# LOG-FORMAT.md, "Event types and bodies": "a version 1 or 2 frame's tag and a coded
# batch's item symbol are these numbers" (1-based).
TYPES = ["configure", "viewport", "reload", "setEditing", "tap", "panBegan", "panMoved",
         "panEnded", "panCancelled", "scroll", "jumpToSection", "swipeBegan", "swipeMoved",
         "swipeEnded", "setOptionVisible", "toggleEditor", "choose", "tick", "insertRows",
         "deleteRows", "moveRow", "reloadRows", "batch", "insertSections", "deleteSections",
         "select", "deselect", "selectAll", "deselectAll", "undo", "redo"]
NO_FIELDS = {"tick", "panCancelled", "selectAll", "deselectAll", "undo", "redo"}
FINGER = ("tap", "panBegan", "panMoved", "panEnded")
PHASES = [None, "decelerate", "idle"]

END, FINGERPRINT = 0, 32
MAX_ITEMS = 2 * (1 << 20)  # "A batch holds at most 2 × 2^20 items."
MAX_BODY = 1 << 20  # LOG-FORMAT.md, "Checkpoint payload": "at most 1 MiB of fields (EventLimits.eventBytes)"


def time_group(key):
    """Item 3: "Groups: panMoved 0, tick 1, scrolls of motion by 2, swipeMoved 3, tap 4,
    panBegan, panEnded, panCancelled 5, other scrolls 6, everything else 7"."""
    if key >= 33:  # 33 + a scroll's shape
        return 2 if (key - 33) // 6 == 2 else 6
    return {"panMoved": 0, "tick": 1, "swipeMoved": 3, "tap": 4, "panBegan": 5,
            "panEnded": 5, "panCancelled": 5}.get(TYPES[key - 1], 7)


class CodedState:
    """The models, channels, time steps, time and item context: fresh at a window's first
    batch, carried on by its continued batches (the paragraph before "The range coder")."""

    def __init__(self, base_time):
        # item symbols: a "same" model and a 6-bit kind tree per previous symbol (0-32)
        self.same = [Model() for _ in range(33)]
        self.kind = [tree_models(6) for _ in range(33)]
        self.t_present = Model()
        # scroll shapes: a "same shape" model and a 5-bit tree per previous shape
        self.same_shape = [Model() for _ in range(18)]
        self.shape = [tree_models(5) for _ in range(18)]
        # time: a model per (group, sign of the previous residual under the key)
        self.time_models = [[IntModel() for _ in range(3)] for _ in range(8)]
        self.last_step = {}
        self.last_sign = {}
        # fields (item 4)
        self.finger = {(k, c): IntModel() for k in FINGER for c in "xy"}
        self.small_count = IntModel()
        self.has_point = Model()
        self.has_target = Model()
        self.has_velocity = Model()
        self.velocity = IntModel()
        self.length = IntModel()
        self.byte_tree = tree_models(8)
        self.offgrid = IntModel()  # "the shared off-grid model (one for every channel)"
        self.longlen = tree_models(6)  # "the one long-length tree all integer models share"
        # "Channels": "There are six, each with its own state and its own grid flag"
        self.finger_x = Channel()
        self.finger_y = Channel()
        self.abs_scroll = Channel()
        self.rel_scroll = Channel(relative=True)
        self.target = Channel()
        self.swipe = Channel()
        self.m_abs = IntModel()
        self.m_rel = IntModel()
        self.m_target = IntModel()
        self.m_swipe = IntModel()
        # item context: "0 at the start of the batch"; t "true at the start of the batch"
        self.prev_symbol = END
        self.prev_t = True
        self.prev_shape = 0
        self.time = base_time


def decode_coded(payload, st, version, decode_body):
    """Decode one coded batch on st (fresh for a window's first batch, the previous batch's
    for a continued one). Returns the events as dicts; gesture fingerprints are dropped."""
    dec = Decoder(payload)
    ic = IntCoder(dec, st.longlen)
    events = []
    items = 0
    while True:
        items += 1
        if items > MAX_ITEMS:
            raise Damage("more than 2 × 2^20 items in a batch")
        if dec.bit(st.same[st.prev_symbol]):
            symbol, t_present = st.prev_symbol, st.prev_t
        else:
            symbol, t_present = dec.tree(st.kind[st.prev_symbol], 6), None
        # "the end symbol (0) is coded under the models like any item symbol ..., and the
        # next item's "same" decision is taken under the context of symbol 0"
        st.prev_symbol = symbol
        if symbol == END:
            break
        if symbol == FINGERPRINT:  # "32 direct bits, the u32 value"
            dec.directs(32)
            continue
        if symbol > FINGERPRINT:
            raise Damage("item symbol %d: written by a newer selectlog" % symbol)
        if t_present is None:
            t_present = dec.bit(st.t_present)
        st.prev_t = t_present
        name = TYPES[symbol - 1]
        ev = {"type": name}
        shape = None
        if name == "scroll":  # item 2
            if dec.bit(st.same_shape[st.prev_shape]):
                shape = st.prev_shape
            else:
                shape = dec.tree(st.shape[st.prev_shape], 5)
            if shape >= 18:
                raise Damage("scroll shape %d" % shape)
            st.prev_shape = shape
        if t_present:  # item 3
            key = 33 + shape if name == "scroll" else symbol
            sign = st.last_sign.get(key, 0)
            residual = ic.read(st.time_models[time_group(key)][sign])
            step = s64(st.last_step.get(key, 0) + residual)
            st.last_step[key] = step
            st.last_sign[key] = 0 if residual == 0 else (1 if residual > 0 else 2)
            st.time = s64(st.time + step)
            ev["t"] = st.time
        # item 4, the fields
        if name in ("tap", "panMoved", "panBegan"):
            ev["x"] = st.finger_x.read(ic, st.finger[(name, "x")], st.offgrid, version)
            ev["y"] = st.finger_y.read(ic, st.finger[(name, "y")], st.offgrid, version)
            if name == "panBegan":
                ev["fingers"] = ic.read(st.small_count)
        elif name == "panEnded":
            if dec.bit(st.has_point):
                ev["x"] = st.finger_x.read(ic, st.finger[(name, "x")], st.offgrid, version)
                ev["y"] = st.finger_y.read(ic, st.finger[(name, "y")], st.offgrid, version)
            if dec.bit(st.has_target):
                ev["targetOffset"] = st.target.read(ic, st.m_target, st.offgrid, version)
        elif name == "scroll":
            # shape = motion × 6 + phase × 2 + (1 if it has a target)
            motion, rest = divmod(shape, 6)
            phase, has_target = divmod(rest, 2)
            if motion == 1:
                ev["y"] = st.abs_scroll.read(ic, st.m_abs, st.offgrid, version)
            elif motion == 2:
                ev["dy"] = st.rel_scroll.read(ic, st.m_rel, st.offgrid, version)
            if phase:
                ev["phase"] = PHASES[phase]
            if has_target:
                ev["target"] = st.target.read(ic, st.m_target, st.offgrid, version)
        elif name == "swipeMoved":
            ev["offset"] = st.swipe.read(ic, st.m_swipe, st.offgrid, version)
        elif name == "swipeEnded":
            if dec.bit(st.has_velocity):
                ev["velocity"] = ic.read(st.velocity)
        elif name not in NO_FIELDS:
            # "the length n of its version 2 body ... then n bytes as 8-bit symbols under
            # one byte tree; the bytes decode exactly as a version 2 body"
            n = ic.read(st.length)
            if not 0 <= n <= MAX_BODY:
                raise Damage("%s: body length %d" % (name, n))
            ev.update(decode_body(name, bytes(dec.tree(st.byte_tree, 8) for _ in range(n))))
        events.append(ev)
    # LOG-FORMAT.md, "Items" (the paragraph after the models): bytes of the stream after
    # the end item are not read, and are not damage (unlike a codec 2 payload's).
    return events
