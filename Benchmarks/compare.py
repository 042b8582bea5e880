#!/usr/bin/env python3
"""Runs the benchmark package and prints each benchmark against its same-run baseline.

Wall-clock time is noisy on shared machines, so the gate is on malloc counts
(deterministic); times are reported as medians and ratios. Usage:

    python3 Benchmarks/compare.py [--filter REGEX] [--gate]

--filter runs the benchmarks whose names contain a match of REGEX (the plugin
itself matches whole names).
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Benchmark -> largest allowed malloc count per iteration (p50).
MALLOC_GATES = {
    "1M.selectAll": 64,
    "1M.tap": 64,
    "1M.tapFragmented": 64,
    "1M.batch100": 2000,
    "1M.hitTest1000": 64,
    "append1000.callerSide": 400,
    "write1M.recorder": 200_000,
    "write1M.recorder.randomWalk": 200_000,
    "stateAt.random10M": 3_000,
    "stateAt.random10M.randomWalk": 3_000,
}

# Benchmark -> wall-clock target in microseconds (reported, not gated).
TIME_TARGETS = {
    "1M.selectAll": 1000,
    "1M.tap": 1000,
    "1M.batch100": 1000,
    "1M.hitTest1000": 1000,  # all 1,000 hit tests together within 1 ms
}


def wall_us(results, name):
    """The p50 wall clock of a benchmark in microseconds, whatever unit the plugin chose."""
    for k, v in results.get(name, {}).items():
        if k.startswith("Time (wall clock)"):
            unit = k[k.rfind("(") + 1:-1]
            return int(v * {"ns": 0.001, "μs": 1, "ms": 1000, "s": 1_000_000}.get(unit, 1))
    return None


def run(filter_regex):
    # Without the build manifest's cache: it does not see a source file added to the root
    # package (a path dependency here), and the build then fails on a stale file list.
    cmd = ["swift", "package", "--disable-build-manifest-caching", "--allow-writing-to-package-directory", "benchmark",
           "--format", "markdown", "--no-progress"]
    if filter_regex:
        # The plugin matches a filter against the whole name; --filter here finds it anywhere in it.
        cmd += ["--filter", f".*({filter_regex}).*"]
    out = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stdout + out.stderr)
        sys.exit(out.returncode)
    return out.stdout


SCALES = {"K": 1_000, "M": 1_000_000, "G": 1_000_000_000}


def parse(markdown):
    """{benchmark: {metric: p50}} from the plugin's markdown tables.

    A count the plugin scaled ("Malloc (total) (K)") is stored unscaled under the
    plain name ("Malloc (total)"), so a gate never misses a large count."""
    results, name = {}, None
    for line in markdown.splitlines():
        m = re.match(r"^### (\S+)", line)
        if m:
            name = m.group(1)
            results[name] = {}
            continue
        if name and line.startswith("| ") and not line.startswith("| Metric"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) >= 4 and cells[3].replace(",", "").isdigit():
                metric = re.sub(r"\s*\*$", "", cells[0])
                value = int(cells[3].replace(",", ""))
                scaled = re.match(r"^(Malloc .*?) \(([KMG])\)$", metric)
                if scaled:
                    metric, value = scaled.group(1), value * SCALES[scaled.group(2)]
                results[name][metric] = value
    return results


def sizes():
    """Bytes per event of the synthetic generators (the random walk on 2x and 3x screens): selectlog's log vs JSON Lines under zstd -19 (c)."""
    root = os.path.dirname(HERE)
    subprocess.run(["swift", "build", "-c", "release", "--product", "selectlog"], cwd=root, check=True, capture_output=True)
    exe = os.path.join(root, ".build", "release", "selectlog")
    n_log, n_json = 1_000_000, 200_000
    for generator in ["standard", "random-walk", "random-walk-3x"]:
        log, jsonl = f"/tmp/selectlog-size-{generator}.slog", f"/tmp/selectlog-size-{generator}.jsonl"
        subprocess.run([exe, "synthesize", "--generator", generator, "--events", str(n_log), "-o", log, "--durability", "none", "--force"], check=True)
        subprocess.run([exe, "synthesize", "--generator", generator, "--events", str(n_json), "--script", "-o", jsonl, "--force"], check=True)
        subprocess.run(["zstd", "-19", "-q", "-f", jsonl, "-o", jsonl + ".zst"], check=True)
        ours = os.path.getsize(log) / n_log
        plain = os.path.getsize(jsonl) / n_json
        c = os.path.getsize(jsonl + ".zst") / n_json
        print(f"size ({generator}): selectlog {ours:.2f} B/event; JSON Lines {plain:.1f} B/event (b); JSON Lines + zstd -19 {c:.2f} B/event (c)")
        print(f"      ratio to (c): {ours / c:.2f} (target <= 0.50); target <= 2.0 B/event: {'met' if ours <= 2.0 else 'MISSED'}")
        parts = breakdown(log)
        print("      where the bytes go (B/event): " + "; ".join(f"{k} {v / n_log:.3f}" for k, v in parts.items()))


def breakdown(path):
    """Bytes of a log by what holds them: record headers, and batch, checkpoint and index payloads (docs/LOG-FORMAT.md)."""
    import struct
    with open(path, "rb") as f:
        data = f.read()
    names = {0x42: "batch", 0x43: "checkpoint", 0x49: "index"}
    parts = {"record headers": 0, "batch": 0, "checkpoint": 0, "index": 0, "file header": data[10]}
    offset = data[10]
    while offset + 16 <= len(data) and data[offset:offset + 3] == b"SLR":
        if data[offset + 3] == 0x62:  # "b", a continued batch (version 4): a 16-byte header, u24 length
            header, stored, kind = 16, int.from_bytes(data[offset + 10:offset + 13], "little"), "batch"
        else:
            header, stored, kind = 48, struct.unpack_from("<I", data, offset + 12)[0], names.get(data[offset + 3], "batch")
        parts["record headers"] += header
        parts[kind] += stored
        offset += header + stored
    return parts


def time_travel():
    """Issue 5's figures on the 10M-event log the store benchmarks made: inspect vs replay, peak memory."""
    import glob
    logs = sorted(glob.glob("/tmp/selectlog-bench-10m-seed1-*.slog"))
    if not logs:
        print("time travel: no 10M-event log (run the store benchmarks first)")
        return
    log = logs[-1]
    exe = os.path.join(os.path.dirname(HERE), ".build", "release", "selectlog")

    def measure(args):
        out = subprocess.run(["/usr/bin/time", "-f", "%e %M", exe] + args, capture_output=True, text=True)
        seconds, kb = out.stderr.strip().splitlines()[-1].split()
        return float(seconds), int(kb)

    summary, summary_kb = measure(["inspect", log])
    replay, replay_kb = measure(["replay", log, "--from-start"])
    at, at_kb = measure(["inspect", log, "--at", "5123457"])
    why, why_kb = measure(["inspect", log, "--why", "3,40"])
    baseline, baseline_kb = measure(["--help"])
    print(f"inspect summary of 10M events: {summary:.2f} s; replay from the start {replay:.2f} s; "
          f"ratio {summary / replay:.2f} (target <= 2)")
    print(f"peak memory (MB): summary {summary_kb / 1024:.1f}, --at {at_kb / 1024:.1f}, --why {why_kb / 1024:.1f}, "
          f"replay {replay_kb / 1024:.1f}; the process alone ({'--help'}) {baseline_kb / 1024:.1f} (target <= 32)")
    print(f"inspect --at N (whole command, process start included): {at * 1000:.0f} ms; --why: {why * 1000:.0f} ms")


def peak_mb(results, name):
    """The p50 peak resident memory of a benchmark's process in MB, or None."""
    for k, v in results.get(name, {}).items():
        if k.startswith("Memory (resident peak)"):
            unit = k[k.rfind("(") + 1:-1]
            return v * {"K": 1_000, "M": 1_000_000, "G": 1_000_000_000}.get(unit, 1) / 1_048_576
    return None


def store_report(results):
    def p50(name):
        return wall_us(results, name)
    rec, raw, js = p50("write1M.recorder"), p50("write1M.rawStructs.baseline"), p50("write1M.jsonLines.baseline")
    if rec and raw:
        print(f"append throughput: {1e6 / rec * 1e6 / 1e6:.2f}M events/s; raw structs (a) {1e6 / raw:.2f}M/s; "
              f"JSON Lines (b) {1e6 / js:.2f}M/s; ratio to (a) {raw / rec:.0%} (target >= 50%)")
    ap = p50("apply1M.engine.baseline")
    if rec and ap:
        print(f"recorder vs the engine's apply (same run): recorder {1e6 / rec:.2f}M events/s, apply {1e6 / ap:.2f}M/s; "
              f"ratio {ap / rec:.0%} (target >= 80%: {'met' if ap / rec >= 0.8 else 'MISSED'})")
    rec_w, ap_w = p50("write1M.recorder.randomWalk"), p50("apply1M.engine.randomWalk.baseline")
    if rec_w and ap_w:
        print(f"recorder vs apply, random-walk session (same run): recorder {1e6 / rec_w:.2f}M events/s, "
              f"apply {1e6 / ap_w:.2f}M/s; ratio {ap_w / rec_w:.0%} (target >= 80%: {'met' if ap_w / rec_w >= 0.8 else 'MISSED'})")
    a, a_base = p50("append1000.callerSide"), p50("append1000.callerSide.apply.baseline")
    if a:
        alone = f"; the engine's apply alone on the same events {a_base:.0f} ns" if a_base else ""
        print(f"caller-side append: {a:.0f} ns median per event, steady state (target <= 100 ns: "
              f"{'met' if a <= 100 else 'MISSED'}){alone}")
    rp, rp_w = p50("replay10M.fromDisk"), p50("replay10M.fromDisk.randomWalk")
    if rp:
        print(f"replay from disk: {10_000_000 / rp:.1f}M events/s (target >= 20M/s)")
    if rp_w:
        print(f"replay from disk, random-walk session: {10_000_000 / rp_w:.1f}M events/s (target >= 20M/s)")
    st, base = p50("stateAt.random10M"), p50("stateAt.random10M.fromStart.baseline")
    if st:
        print(f"state at a random event of 10M: {st / 1000:.2f} ms median (target <= 2 ms); "
              f"{base / st:.0f}x faster than replaying from the start" if base else "")
    sw = p50("stateAt.random10M.randomWalk")
    if sw:
        print(f"state at a random event of 10M, random-walk session: {sw / 1000:.2f} ms median (target <= 2 ms)")
    ro, ro_base = p50("reopen10M.forAppend"), p50("reopen10M.forAppend.baseline")
    if ro and ro_base:
        mb, mb_base = peak_mb(results, "reopen10M.forAppend"), peak_mb(results, "reopen10M.forAppend.baseline")
        memory = f"; peak memory {mb:.1f} MB against {mb_base:.1f} MB" if mb and mb_base else ""
        print(f"Recorder(appendingTo:) of 10M events: {ro / 1000:.1f} ms against {ro_base / 1000:.1f} ms for 100k events{memory}")
    cold = p50("stateAt.random10M.coldReader")
    if cold:
        print(f"first seek of a reader just opened (it checks every record before the one it reads): "
              f"{cold / 1000:.2f} ms median" + (f"; {base / cold:.0f}x faster than replaying from the start" if base else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--filter", default=None)
    ap.add_argument("--gate", action="store_true", help="exit 1 when a malloc gate is exceeded")
    ap.add_argument("--sizes", action="store_true", help="also measure bytes per event against zstd -19 of JSON Lines")
    args = ap.parse_args()
    results = parse(run(args.filter))
    failed = False
    print(f"{'benchmark':<22} {'p50 µs':>10} {'baseline µs':>12} {'speed-up':>10} {'mallocs':>8}  target")
    for name in sorted(results):
        if name.endswith(".baseline"):
            continue
        r = results[name]
        t = wall_us(results, name)
        bt = wall_us(results, name + ".baseline")
        mallocs = r.get("Malloc (total)")
        ratio = f"{bt / max(t, 1):.0f}x" if t is not None and bt else "-"
        gate = MALLOC_GATES.get(name)
        target = TIME_TARGETS.get(name)
        note = []
        if target is not None and t is not None:
            note.append(f"{'met' if t < target else 'MISSED'} (< {target} µs)")
        if gate is not None and mallocs is not None and mallocs > gate:
            note.append(f"MALLOCS {mallocs} > {gate}")
            failed = True
        print(f"{name:<22} {t if t is not None else '-':>10} {bt if bt else '-':>12} {ratio:>10} {mallocs if mallocs is not None else '-':>8}  {'; '.join(note)}")
    store_report(results)
    if args.sizes:
        sizes()
        time_travel()
    if failed and args.gate:
        sys.exit(1)


if __name__ == "__main__":
    main()
