#!/bin/bash
# Times `selectlog replay` of each cost-audit case at two sizes, N and 4N, and prints
# the ratio: about 4 is linear in the state for the whole script, 16 quadratic.
# usage: Tools/cost-audit/run.sh [CASE ...]   (SELECTLOG=path picks the binary;
# SIZE=N the smaller size, default 25000; every replay is cut off after 300 s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${SELECTLOG:-}
if [ -z "$bin" ]; then
    (cd "$root" && swift build -c release --product selectlog >/dev/null)
    bin="$root/$(cd "$root" && swift build -c release --show-bin-path | sed "s|^$root/||")/selectlog"
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
printf "%-20s %12s %12s %8s %14s\n" case "N=$n" "N=$((4 * n))" ratio "peak (4N)"
for c in "${cases[@]}"; do
    m=2000
    # Cases whose undo steps hold the whole state take fewer events (memory).
    case $c in choose|selectall_sections) m=200 ;; selectall_toggle) m=50 ;; esac
    times=() peak=
    for size in "$n" $((4 * n)); do
        python3 "$here/gen.py" "$c" "$size" "$m" > "$work/s.jsonl"
        /usr/bin/time -o "$work/t" -f "%e %M" timeout 300 "$bin" replay "$work/s.jsonl" >/dev/null 2>&1 || true
        out=$(tail -1 "$work/t")
        times+=("${out%% *}")
        peak="${out##* } KB"
    done
    ratio=$(python3 -c "a,b=float('${times[0]}' or 0),float('${times[1]}' or 0); print(f'{b/a:.1f}' if a > 0.005 else '-')")
    printf "%-20s %11ss %11ss %8s %14s\n" "$c" "${times[0]}" "${times[1]}" "$ratio" "$peak"
done
