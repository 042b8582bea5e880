#!/usr/bin/env python3
"""Runs the benchmark package and prints each benchmark against its same-run baseline.

Wall-clock time is noisy on shared machines, so the gate is on malloc counts
(deterministic); times are reported as medians and ratios. Usage:

    python3 Benchmarks/compare.py [--filter REGEX] [--gate]
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
    "1M.batch100": 2000,
    "1M.hitTest1000": 64,
}

# Benchmark -> wall-clock target in microseconds (reported, not gated).
TIME_TARGETS = {
    "1M.selectAll": 1000,
    "1M.tap": 1000,
    "1M.batch100": 1000,
    "1M.hitTest1000": 1000,  # all 1,000 hit tests together within 1 ms
}


def run(filter_regex):
    cmd = ["swift", "package", "--allow-writing-to-package-directory", "benchmark",
           "--format", "markdown", "--no-progress"]
    if filter_regex:
        cmd += ["--filter", filter_regex]
    out = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stdout + out.stderr)
        sys.exit(out.returncode)
    return out.stdout


def parse(markdown):
    """{benchmark: {metric: p50}} from the plugin's markdown tables."""
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
                results[name][metric] = int(cells[3].replace(",", ""))
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--filter", default=None)
    ap.add_argument("--gate", action="store_true", help="exit 1 when a malloc gate is exceeded")
    args = ap.parse_args()
    results = parse(run(args.filter))
    failed = False
    print(f"{'benchmark':<22} {'p50 µs':>10} {'baseline µs':>12} {'speed-up':>10} {'mallocs':>8}  target")
    for name in sorted(results):
        if name.endswith(".baseline"):
            continue
        r = results[name]
        base = results.get(name + ".baseline", {})
        t = r.get("Time (wall clock) (μs)")
        bt = base.get("Time (wall clock) (μs)")
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
    if failed and args.gate:
        sys.exit(1)


if __name__ == "__main__":
    main()
