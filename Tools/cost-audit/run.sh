#!/bin/bash
# Times `selectlog replay` of each cost-audit case at two sizes, N and 4N, each with its
# M measured events and without them (M=0: building the state alone), and prints the
# cost of one measured event at each size and their ratio: about 1 when an event's
# cost does not depend on the state, about 4 when it grows linearly with it.
# usage: Tools/cost-audit/run.sh [CASE ...]   (SELECTLOG=path picks the binary;
# SIZE=N the smaller size, default 25000; COMMAND=record records each script to a log
# instead, which adds the recorder's work, the gesture fingerprints included; every
# run is cut off after 300 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${SELECTLOG:-}
if [ -z "$bin" ]; then
    (cd "$root" && swift build -c release --product selectlog >/dev/null)
    bin="$(cd "$root" && swift build -c release --show-bin-path)/selectlog"
fi
n=${SIZE:-25000}
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
    cases=(taps tapsbuild select1 deselect1 undoredo panflip panrestore shortpans selectdesc
           deletetop insertsectionsK deletesectionsK jumptitle choose selectall_sections
           selectall_toggle ticks ticksrestore insertrows)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seconds (and peak KB) of one replay of `gen.py CASE SIZE M`.
replay() {
    python3 "$here/gen.py" "$1" "$2" "$3" > "$work/s.jsonl"
    if [ "${COMMAND:-replay}" = record ]; then
        /usr/bin/time -o "$work/t" -f "%e %M" timeout 300 "$bin" record "$work/s.jsonl" -o "$work/s.slog" --force >/dev/null 2>&1 || true
    else
        /usr/bin/time -o "$work/t" -f "%e %M" timeout 300 "$bin" replay "$work/s.jsonl" >/dev/null 2>&1 || true
    fi
    tail -1 "$work/t"
}

printf "%-20s %6s %12s %12s %7s %12s\n" case M "µs/event N" "µs/event 4N" ratio "peak (4N)"
for c in "${cases[@]}"; do
    m=2000
    # Cases whose undo steps hold the whole state take fewer events (memory).
    case $c in choose|selectall_sections) m=200 ;; selectall_toggle) m=50 ;; esac
    # Cases whose measured events are one event over the whole state (M is not a count).
    case $c in selectdesc|deletetop|insertsectionsK|deletesectionsK) m=1 ;; esac
    spent=() peak=
    for size in "$n" $((4 * n)); do
        full=$(replay "$c" "$size" "$m")
        base=$(replay "$c" "$size" 0)
        spent+=("$(python3 -c "print(max(0.0, ${full%% *} - ${base%% *}))")")
        peak="${full##* } KB"
    done
    # The measured events' seconds at each size, per event; a ratio only when both took
    # 50 ms or more (the clock's resolution is 10 ms).
    python3 - "$c" "$m" "${spent[0]}" "${spent[1]}" "$peak" <<'PY'
import sys
c, m, a, b, peak = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
ratio = f"{b / a:.1f}" if min(a, b) >= 0.05 else "-"
print(f"{c:<20} {m:>6} {a / m * 1e6:>12.0f} {b / m * 1e6:>12.0f} {ratio:>7} {peak:>12}")
PY
done
