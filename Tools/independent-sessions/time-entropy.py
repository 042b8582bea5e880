#!/usr/bin/env python3
"""The empirical order-0 entropy of each event's time delta (in µs), given the
event's type and the type before it: an estimate of the information the times carry.
Where their jitter is independent from one event to the next (gen.py's), no coder of
the times does much better. usage: time-entropy.py SCRIPT.jsonl [--total]"""
import sys, json, math, collections
# empirical order-0 entropy of each event's t delta (µs), conditioned on (prev type, type)
c = collections.defaultdict(collections.Counter)
prev_t = 0; prev_ty = None; n = collections.Counter()
for line in open(sys.argv[1]):
    if line[0] == '#': continue
    e = json.loads(line)
    t = round(e.get("t", prev_t) * 1000)
    ty = e["type"]
    c[(prev_ty, ty)][t - prev_t] += 1
    n[ty] += 1
    prev_t, prev_ty = t, ty
bits = collections.Counter()
for (p, ty), cnt in c.items():
    tot = sum(cnt.values())
    h = -sum(v * math.log2(v / tot) for v in cnt.values())
    bits[ty] += h
if "--total" in sys.argv[2:]:
    print(f"{sum(bits.values()) / sum(n.values()) / 8:.2f} bytes/event")
else:
    for ty, k in n.most_common(6):
        print(f"{ty:12s} n={k:7d} time-delta entropy {bits[ty]/k/8:.3f} bytes/event (empirical, order 0 given prev type)")
