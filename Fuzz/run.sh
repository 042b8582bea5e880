#!/bin/sh
# Runs each libFuzzer harness for FUZZ_SECONDS (default 60), seeded from Examples/
# (scripts, and logs recorded from them) and from Fuzz/Seeds/ (past findings, and the
# snapshot harness's base states).
# Usage: Fuzz/run.sh [SECONDS]; exits non-zero on the first finding, whose input
# libFuzzer saves as $FUZZ_BUILD/findings/<harness>-crash-*.
set -eu
cd "$(dirname "$0")/.."
B=${FUZZ_BUILD:-.build-fuzz}
SECONDS_EACH=${1:-${FUZZ_SECONDS:-60}}
SELECTLOG=${SELECTLOG:-.build/debug/selectlog}
# A build without zstd (`SELECTLOG_WITHOUT_ZSTD=1 swift build --scratch-path .build-nozstd`),
# when there is one: its logs are format 5, their checkpoints range-coded (codec 2).
SELECTLOG_NOZSTD=${SELECTLOG_NOZSTD:-.build-nozstd/debug/selectlog}
mkdir -p "$B/corpus-script" "$B/corpus-log" "$B/corpus-snapshot" "$B/findings"
cp Examples/*.jsonl Examples/bugs/*.jsonl Fuzz/Seeds/script/* "$B/corpus-script/" 2>/dev/null || true
cp Fuzz/Seeds/log/* "$B/corpus-log/" 2>/dev/null || true
cp Fuzz/Seeds/snapshot/* "$B/corpus-snapshot/" 2>/dev/null || true
if [ -x "$SELECTLOG" ]; then
    # Each example twice, in the format this build writes: a checkpoint every 4 events, and
    # one every 64 (format 4: windows of many continued batches between checkpoints).
    for s in Examples/*.jsonl; do
        n=$(basename "$s" .jsonl)
        [ -f "$B/corpus-log/$n.slog" ] || "$SELECTLOG" record "$s" -o "$B/corpus-log/$n.slog" \
            --batch-events 3 --checkpoint-interval 4 --durability none >/dev/null 2>&1 || true
        [ -f "$B/corpus-log/$n-windows.slog" ] || "$SELECTLOG" record "$s" -o "$B/corpus-log/$n-windows.slog" \
            --batch-events 2 --checkpoint-interval 64 --durability none >/dev/null 2>&1 || true
    done
else
    echo "fuzz: no $SELECTLOG (set SELECTLOG to a selectlog binary): the examples are not recorded as log seeds"
fi
if [ -x "$SELECTLOG_NOZSTD" ]; then
    for s in Examples/*.jsonl; do
        n=$(basename "$s" .jsonl)
        [ -f "$B/corpus-log/$n-v5.slog" ] || "$SELECTLOG_NOZSTD" record "$s" -o "$B/corpus-log/$n-v5.slog" \
            --batch-events 2 --checkpoint-interval 16 --durability none >/dev/null 2>&1 || true
    done
fi
# FUZZ_HARNESSES: which harnesses to run (default all three), e.g. FUZZ_HARNESSES=log.
for h in ${FUZZ_HARNESSES:-script log snapshot}; do
    if [ ! -x "$B/fuzz-$h" ] && [ -n "${FUZZ_OPTIONAL:-}" ]; then
        echo "fuzz: no $B/fuzz-$h (this toolchain has no libFuzzer): skipped"
        continue
    fi
    echo "fuzz: $h for $SECONDS_EACH s"
    # -rss_limit_mb keeps a runaway allocation a finding; -timeout=30 leaves room for a
    # loaded shared machine (a 10 s timeout reported a 0.1 s-CPU input as a finding).
    # A log reader allocates by the format's limits (16 MiB payloads), never by a header's
    # claim: any single allocation over 64 MB is a finding.
    # A snapshot input is 3 header bytes and at most 32 patches of 4, so longer ones mean
    # nothing more; its seeds are headers alone, and libFuzzer's default, to let inputs
    # grow a byte at a time, kept it on one patch for its first minute (-len_control=0).
    extra="" max_len=65536
    [ "$h" = log ] && extra="-malloc_limit_mb=64"
    [ "$h" = snapshot ] && extra="-len_control=0" max_len=131
    "$B/fuzz-$h" -max_total_time="$SECONDS_EACH" -timeout=30 -rss_limit_mb=2048 $extra -max_len=$max_len \
        -artifact_prefix="$B/findings/$h-" -print_final_stats=1 "$B/corpus-$h" 2>"$B/fuzz-$h.log" \
        || { tail -40 "$B/fuzz-$h.log"; echo "fuzz: $h found a problem; input in $B/findings/"; exit 1; }
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$B/fuzz-$h.log" | sed "s/^/fuzz: $h /"
done
