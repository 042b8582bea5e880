#!/bin/bash
# Compares the independent reader (reader.py, written from docs/LOG-FORMAT.md and
# docs/EVENTS.md alone) with `selectlog export`, byte for byte, on logs made here: each
# synthetic generator, every example recorded (as is, and in batches of 2 with a
# checkpoint every 4 events), a script of every event type and of the canonical line's
# cases, a compacted and an upgraded log, torn copies, two copies with a broken stored
# index, and the committed logs of Fuzz/Seeds/log. On each log both read, it also checks the
# stored index (index_check below) against the records and `selectlog verify`. Prints a line
# per log; exits 1 if any differs.
# usage: Tools/independent-reader/check.sh [SELECTLOG_BINARY]   (default: .build/debug/selectlog)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
selectlog=${1:-$root/.build/debug/selectlog}
die() { echo "check.sh: $*" >&2; exit 2; }
selectlog=$(command -v "$selectlog") || die "no selectlog at ${1:-$root/.build/debug/selectlog} (swift build, or pass its path)"
command -v python3 >/dev/null || die "needs python3"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
logs=()  # "name path", in order

# A log made here that is missing or empty would be refused by both sides alike, and
# compare as the same: it stops the check instead.
add() { [ -s "$2" ] || die "$1: $2 was not made, or is empty"; logs+=("$1 $2"); }
# The logs both sides must refuse (forged seeds); any other refusal is a difference.
refusable=" seed-checkpoint-claims-730MB seed-snapshot-claims-rows "
synth() {  # NAME GENERATOR EVENTS [OPTION...]
    local name=$1 gen=$2 n=$3
    shift 3
    "$selectlog" synthesize --generator "$gen" --events "$n" --seed 3 --durability none "$@" \
        -o "$work/$name.slog" >/dev/null
    add "$name" "$work/$name.slog"
}

# Every generator the CLI lists, 20,000 events each. (Seed 3's random-walk-3x session, like
# Fuzz/Seeds/log/v6-random-walk-3x.slog, has a relative scroll that decodes wrong under
# the channel update order LOG-FORMAT.md gave before 2026-12-06.)
generators=$("$selectlog" synthesize --help | python3 -c '
import re, sys
m = re.search(r"--generator <generator>.*?\(values:\s*([^;)]*)", sys.stdin.read(), re.S)
print(" ".join(m.group(1).replace(",", " ").split()) if m else "")')
[ -n "$generators" ] || die "cannot find the generators in \`selectlog synthesize --help\`"
for g in $generators; do
    synth "$g" "$g" 20000
done
# Checkpoints every 50 events (windows of a few batches), and a continued batch per event.
synth standard-checkpoint-50 standard 6000 --checkpoint-interval 50 --batch-events 16
synth random-walk-batch-1 random-walk 4000 --batch-events 1
synth random-walk-3x-batch-7 random-walk-3x 6000 --batch-events 7 --checkpoint-interval 1000

# Every example, recorded as is and in small batches between frequent checkpoints.
for s in "$root"/Examples/*.jsonl; do
    n=example-$(basename "$s" .jsonl)
    "$selectlog" record "$s" --durability none -o "$work/$n.slog" >/dev/null
    add "$n" "$work/$n.slog"
    "$selectlog" record "$s" --durability none --batch-events 2 --checkpoint-interval 4 \
        -o "$work/$n-small.slog" >/dev/null
    add "$n-small" "$work/$n-small.slog"
done

# Every event type, every body field, and the cases of EVENTS.md section 4, "The
# canonical line" (escapes, exact decimals, fields always or never written).
cat > "$work/canonical.jsonl" <<'EOF'
{"type": "configure", "allowsSelection": true, "allowsMultipleSelection": true, "allowsSelectionDuringEditing": false, "allowsMultipleSelectionDuringEditing": true, "scrollAndSelect": {"enabled": true, "edge": "trailing", "stripWidth": 44.5, "topAnchor": 10, "bottomAnchor": 20.015625, "rowsPerSecond": 12.25, "reversal": "restore", "jitter": 3}, "multiSelectInteraction": true, "optionWidth": 88, "editorHeight": 120, "undoLimit": 50}
{"type": "viewport", "width": 390.5, "height": 600}
{"type": "reload", "sections": [{"rows": 30, "rowHeight": 44.015625, "rowHeights": [50, 0, 61.5], "header": 28, "footer": 0.5, "title": "A \"quoted\" \\ title/\t\n\r\b\f\u0000\u0007\u001b\u001f\u007f\u0085\u009f\u00a0\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069\ufeff é ✓ \ud83d\ude00"}, {"rows": 5, "title": "B"}]}
{"type": "tap", "t": 0.001, "x": -0.015625, "y": 100.333}
{"type": "panBegan", "t": 8.333, "x": 200, "y": 300, "fingers": 2}
{"type": "panMoved", "t": 16.667, "x": 201.5, "y": 310}
{"type": "panEnded", "t": 25, "x": 202, "y": 320, "targetOffset": 150.25}
{"type": "panBegan", "t": 30, "x": 200, "y": 300, "fingers": 1}
{"type": "panCancelled", "t": 31}
{"type": "panBegan", "t": 32, "x": 10, "y": 10}
{"type": "panEnded", "t": 33}
{"type": "scroll", "t": 40, "y": 120.5, "phase": "decelerate", "target": 400}
{"type": "scroll", "t": 41, "dy": -3.25}
{"type": "scroll", "t": 42, "phase": "idle"}
{"type": "jumpToSection", "section": 1}
{"type": "jumpToSection", "title": "B"}
{"type": "swipeBegan", "row": [0, 3]}
{"type": "swipeMoved", "offset": -40.5}
{"type": "swipeEnded", "velocity": -1200.75}
{"type": "setOptionVisible", "row": [0, 4], "visible": true}
{"type": "setOptionVisible", "row": [0, 4], "visible": false}
{"type": "toggleEditor", "row": [0, 5], "options": ["Spring", "x\u2028y\"", ""], "multiple": true, "chosen": [0, 2]}
{"type": "choose", "option": 1}
{"type": "toggleEditor", "row": [0, 5]}
{"type": "tick", "t": 1000000.001}
{"type": "insertRows", "at": [[0, 0], [0, 1]], "heights": [10, 20.5]}
{"type": "insertRows", "at": [[1, 0]]}
{"type": "deleteRows", "at": [[0, 2]]}
{"type": "moveRow", "from": [0, 0], "to": [0, 3]}
{"type": "reloadRows", "at": [[0, 1]], "heights": [33]}
{"type": "batch", "deletes": [[0, 0]]}
{"type": "batch", "inserts": [[0, 0]], "insertHeights": [12], "moves": [[[0, 5], [0, 6]]], "reloads": [[0, 9]], "reloadHeights": [13]}
{"type": "insertSections", "at": [1, 2], "sections": [{"rows": 2, "rowHeight": 30}, {"rows": 0}]}
{"type": "deleteSections", "at": [1, 2]}
{"type": "setEditing", "editing": true}
{"type": "select", "rows": [[0, 1], [0, 2]]}
{"type": "deselect", "rows": [[0, 1]]}
{"type": "selectAll"}
{"type": "deselectAll"}
{"type": "undo"}
{"type": "redo"}
{"type": "setEditing", "editing": false}
{"type": "scroll", "y": 102000000000000000}
{"type": "tap", "x": 1000000000, "y": -1000000000}
{"type": "configure", "undoLimit": 0, "optionWidth": -0, "scrollAndSelect": {"edge": "leading", "reversal": "flip"}}
{"type": "viewport"}
EOF
for batch in 4096 1; do
    "$selectlog" record "$work/canonical.jsonl" --durability none --batch-events $batch \
        --checkpoint-interval 3 -o "$work/canonical-batch-$batch.slog" >/dev/null
    add "canonical-batch-$batch" "$work/canonical-batch-$batch.slog"
done

"$selectlog" compact "$work/standard-checkpoint-50.slog" -o "$work/compacted.slog" >/dev/null
add compacted "$work/compacted.slog"
"$selectlog" upgrade "$work/random-walk-batch-1.slog" -o "$work/upgraded.slog" >/dev/null
add upgraded "$work/upgraded.slog"

# Torn copies of a cleanly closed log: its index cut short; its last batch cut short (the
# index gone); the same followed by zeros, as a crash leaves a preallocated file.
src=$work/random-walk-3x.slog
index_at=$(python3 -c 'import struct, sys; d = open(sys.argv[1], "rb").read(); print(struct.unpack_from("<Q", d, len(d) - 16)[0])' "$src")
head -c $(( $(wc -c < "$src") - 5 )) "$src" > "$work/torn-index.slog"
head -c $(( index_at - 3 )) "$src" > "$work/torn-batch.slog"
{ cat "$work/torn-batch.slog"; head -c 4096 /dev/zero; } > "$work/torn-batch-zeros.slog"
for n in torn-index torn-batch torn-batch-zeros; do add "$n" "$work/$n.slog"; done

# A stored index broken two ways (its payload checksum failing; an entry that disagrees
# with the records under checksums made right): both sides must pass it over and read every
# event, and `verify` must name the index's offset (LOG-FORMAT.md, the damage table).
index_at_src=$(python3 -c 'import struct, sys; d = open(sys.argv[1], "rb").read(); print(struct.unpack_from("<Q", d, len(d) - 16)[0])' "$work/random-walk-3x-batch-7.slog")
for how in checksum entry; do
    python3 "$here/break_index.py" "$work/random-walk-3x-batch-7.slog" "$work/index-$how.slog" $how
    add "index-$how" "$work/index-$how.slog"
done
# An index record header whose first event index is not the log's: used by both sides,
# damage to `verify` at the index's offset ("Index payload").
python3 "$here/break_index.py" "$work/random-walk-3x-batch-7.slog" "$work/bad-index-header.slog" header
add bad-index-header "$work/bad-index-header.slog"

# The committed logs: versions 4 to 7, and damaged ones (one of version 1).
for f in "$root"/Fuzz/Seeds/log/*.slog; do
    if [ -e "$f" ]; then add "seed-$(basename "$f" .slog)" "$f"; fi
done

# The stored index, on a log both sides read (LOG-FORMAT.md, "Index payload" and the
# damage table of "Reading, verifying, recovering"). The reader parses it and compares every
# entry with the records it walked; it passes the index over (a note) when they disagree.
# A log whose file ends in the trailer magic and that `verify` calls intact must have its
# index agree with the records: else the docs' index layout has drifted from the writer's.
# An index the reader passes over must be one `verify` reports as damage at its offset, and
# one export passes over (its stderr note) the reader must pass over too.
index_check() {  # NAME LOG; sets result and why
    local name=$1 log=$2 line vr=0 at
    line=$(grep '^reader: .*stored index' "$work/reader.err" | head -n 1)
    "$selectlog" verify "$log" > "$work/verify.out" 2>&1 || vr=$?
    at=$(sed -n 's/^reader: .*stored index at offset \([0-9]*\).*/\1/p' <<< "$line")
    if [ -z "$line" ]; then
        result="DIFF" why="the reader said nothing of a stored index"
    elif [ "$vr" = 0 ] && [ "$(tail -c 8 "$log" | tr -d '\000')" = SLINDEX1 ] && [[ $line != *": agrees with the records"* ]]; then
        result="DIFF" why="verify says intact, but ${line#reader: }"
    elif [[ $line == *"passed over"* ]] && ! { [ "$vr" = 1 ] && grep -q "byte offset $at:" "$work/verify.out"; }; then
        result="DIFF" why="${line#reader: }; verify (exit $vr) does not name offset $at: $(head -c 120 "$work/verify.out")"
    elif [[ $line == *"damage to verify"* ]] && ! { [ "$vr" = 1 ] && grep -q "byte offset $at:" "$work/verify.out"; }; then
        result="DIFF" why="${line#reader: }; verify (exit $vr) does not name offset $at: $(head -c 120 "$work/verify.out")"
    elif [[ $name == bad-index-header ]] && [[ $line != *"damage to verify"* ]]; then
        result="DIFF" why="an index record header with another first event index, and the reader did not say so: ${line#reader: }"
    elif grep -q "seek index fails" "$work/export.err" && [[ $line != *"passed over"* ]]; then
        result="DIFF" why="export passed the stored index over, the reader did not: ${line#reader: }"
    elif [[ $name == index-* ]] && ! { [[ $line == *"passed over"* ]] && [ "$at" = "$index_at_src" ] && grep -q "seek index fails" "$work/export.err"; }; then
        result="DIFF" why="a broken stored index not passed over by both: ${line#reader: }"
    elif [[ $line == *"passed over"* ]]; then
        why="$why; stored index at $at passed over (verify: damage there)"
    elif [[ $line == *"damage to verify"* ]]; then
        why="$why; stored index used, its header damage to verify there"
    elif [[ $line == *"agrees"* ]]; then
        why="$why; stored index agrees"
    fi
}

differ=0
for entry in "${logs[@]}"; do
    name=${entry%% *} log=${entry#* }
    rr=0 re=0
    python3 "$here/reader.py" "$log" --index > "$work/reader.out" 2> "$work/reader.err" || rr=$?
    "$selectlog" export "$log" > "$work/export.out" 2> "$work/export.err" || re=$?
    if [ "$rr" != "$re" ]; then
        result="DIFF" why="exit status: reader $rr, export $re ($(head -c 160 "$work/reader.err"))"
    elif [ "$re" != 0 ]; then
        # A refused log: both must name the same byte offset and intact event count (their
        # words differ by design), and only the forged seeds may be refused at all.
        at_reader=$(sed -n 's/.*at offset \([0-9]*\): .*; \([0-9]*\) intact events\{0,1\}.*/\1 \2/p' "$work/reader.err" | head -n 1)
        at_export=$(sed -n 's/.*byte offset \([0-9]*\): .*(\([0-9]*\) intact events\{0,1\} before it).*/\1 \2/p' "$work/export.err" | head -n 1)
        if [[ $refusable != *" $name "* ]]; then
            result="DIFF" why="refused by both (exit $re), and it should not be: $(head -c 160 "$work/export.err")"
        elif [ -z "$at_reader" ] || [ "$at_reader" != "$at_export" ]; then
            result="DIFF" why="refused at different places (offset, intact events): reader '$at_reader', export '$at_export'"
        else
            result="same" why="refused by both (exit $re) at offset ${at_reader% *}, ${at_reader#* } intact events"
        fi
    elif ! cmp -s "$work/reader.out" "$work/export.out"; then
        k=$(python3 -c '
import itertools, sys
a, b = (open(p, "rb").read().split(b"\n") for p in sys.argv[1:])
print(next(i + 1 for i, (x, y) in enumerate(itertools.zip_longest(a, b)) if x != y))' \
            "$work/reader.out" "$work/export.out")
        result="DIFF" why="first difference at line $k"
    elif [[ $name == torn-* ]] && ! { grep -q "torn tail" "$work/reader.err" && grep -q "torn tail" "$work/export.err"; }; then
        result="DIFF" why="not read as a torn tail by both"
    else
        result="same" why="$(wc -l < "$work/export.out" | tr -d ' ') events"
        index_check "$name" "$log"
    fi
    [ "$result" = same ] || differ=$((differ + 1))
    printf '%-4s  %-44s  %s\n' "$result" "$name" "$why"
done
if [ "$differ" -gt 0 ]; then
    echo "$differ of ${#logs[@]} logs differ"
    exit 1
fi
echo "all ${#logs[@]} logs the same"
