#!/bin/bash
# Log size on sessions from a generator this project's engine and coder were not tuned
# on (gen.py; see README.md). For each style: generate EVENTS events, record them, and
# print bytes/event, the ratio against `zstd -19` over the same JSON Lines, and the
# order-0 entropy of the events' time deltas.
#   SELECTLOG=path/to/selectlog EVENTS=1000000 Tools/independent-sessions/sizes.sh [style ...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
selectlog=${SELECTLOG:-$here/../../.build/release/selectlog}
events=${EVENTS:-1000000}
[ -x "$selectlog" ] || { echo "sizes.sh: no selectlog at $selectlog (swift build -c release --product selectlog, or set SELECTLOG)" >&2; exit 1; }
command -v zstd >/dev/null || { echo "sizes.sh: needs the zstd command" >&2; exit 1; }
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
styles=("$@"); [ ${#styles[@]} -gt 0 ] || styles=(feed mail settings photos)
printf '%-9s %9s %12s %12s %8s  %s\n' style events "log bytes" "bytes/event" "÷zstd-19" "time deltas"
for style in "${styles[@]}"; do
    python3 "$here/gen.py" "$style" --events "$events" --seed 7 -o "$dir/s.jsonl" >"$dir/gen.log" 2>&1 || { cat "$dir/gen.log" >&2; exit 1; }
    rm -f "$dir/s.slog"
    "$selectlog" record "$dir/s.jsonl" -o "$dir/s.slog" >/dev/null
    n=$(grep -vc '^#' "$dir/s.jsonl")
    log=$(wc -c < "$dir/s.slog")
    z=$(zstd -19 -q -c "$dir/s.jsonl" | wc -c)
    bits=$(python3 "$here/time-entropy.py" "$dir/s.jsonl" --total)
    python3 -c 'import sys; s, n, log, z, bits = sys.argv[1:]; print(f"{s:9s} {int(n):9d} {int(log):12d} {int(log) / int(n):12.2f} {int(log) / int(z):8.3f}  {bits}")' "$style" "$n" "$log" "$z" "$bits"
done
