#!/bin/sh
# audit_bench.sh [BUILD] — DESIGN §7: `clusterfit audit` parses a generated
# 1 GB log (nccl-tests tables + NCCL INFO lines of 256 ranks) at >= 300 MB/s
# on one core. Times it against `wc -l` on the same (page-cached) file and
# appends machine, date and MB/s to bench/RESULTS.md.
# BENCH_MB sets the size (default 1000 = 1 GB); BENCH_LOG the file path.
set -eu
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
MB=${BENCH_MB:-1000}
LOG=${BENCH_LOG:-${TMPDIR:-/tmp}/clusterfit-bench-$MB.log}
mkdir -p "$BUILD/bench"
cc -O2 -o "$BUILD/bench/gen_log" bench/gen_log.c
[ -s "$LOG" ] || "$BUILD/bench/gen_log" "$MB" > "$LOG"
bytes=$(wc -c < "$LOG")
now() { date +%s.%N; }
wc -l "$LOG" > /dev/null                     # warm the page cache
t0=$(now); wc -l "$LOG" > /dev/null; t1=$(now)
taskset -c 0 true 2>/dev/null && PIN="taskset -c 0" || PIN=""
t2=$(now); $PIN "$BUILD/clusterfit" audit "$LOG" > "$BUILD/bench/audit.out" || true; t3=$(now)
res=$(awk -v b="$bytes" -v a="$t0" -v c="$t1" -v d="$t2" -v e="$t3" 'BEGIN {
    printf "%.0f %.0f %.2f", b / 1e6 / (c - a), b / 1e6 / (e - d), e - d }')
wc_mbs=$(echo "$res" | cut -d' ' -f1); audit_mbs=$(echo "$res" | cut -d' ' -f2); secs=$(echo "$res" | cut -d' ' -f3)
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')
line="| $(date -u +%Y-%m-%d) | ${cpu:-unknown} ($(uname -m), $(nproc) cores) | $((bytes / 1000000)) MB | ${secs} s | **${audit_mbs} MB/s** | ${wc_mbs} MB/s |"
echo "audit: $audit_mbs MB/s ($secs s for $bytes bytes); wc -l: $wc_mbs MB/s"
head -n 3 "$BUILD/bench/audit.out"
if [ ! -f bench/RESULTS.md ] || ! grep -q '^| date' bench/RESULTS.md; then
    printf '%s\n' "# Benchmark results" "" "## audit parsing (bench/audit_bench.sh)" "" \
        "| date | machine | log | time | clusterfit audit | wc -l |" "|---|---|---|---|---|---|" >> bench/RESULTS.md
fi
echo "$line" >> bench/RESULTS.md
