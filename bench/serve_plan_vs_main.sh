#!/bin/sh
# serve_plan_vs_main.sh BUILD [OTHER_BINARY] — issue 25's bench target side
# by side in one run on one core: `clusterfit plan --workload
# deepseek-v3-serve` over the whole shipped catalog with this tree's binary
# and with another build's (the integrator's main, by default the
# SERVE_BENCH_OTHER binary), best of 5 each, alternating so that both see
# the same machine load. Prints each wall time; exit 1 when this tree's is
# 2 s or more. Skips the other binary (with a message) when it is absent.
set -eu
BUILD=${1:-build}
OTHER=${2:-${SERVE_BENCH_OTHER:-}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PIN=""
command -v taskset > /dev/null 2>&1 && PIN="taskset -c 0"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# wall seconds of one plan (the catalog in a fresh database under TMP)
once() {
    s=$(date +%s.%N)
    CLUSTERFIT_DB="$TMP/$2.db" $PIN "$1" plan --workload deepseek-v3-serve > /dev/null 2>&1 || true
    e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN{printf "%.3f\n", e - s}'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN{print (b < a) ? b : a}'; }
here=999; other=999
for i in 1 2 3 4 5; do
    here=$(min "$here" "$(once "$BUILD/clusterfit" here)")
    [ -n "$OTHER" ] && [ -x "$OTHER" ] && other=$(min "$other" "$(once "$OTHER" other)")
done
echo "serve plan vs other: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//'), $(date -u +%Y-%m-%d), one core, best of 5"
echo "  this tree ($BUILD/clusterfit): $here s"
if [ -n "$OTHER" ] && [ -x "$OTHER" ]; then echo "  other ($OTHER): $other s"
else echo "  other: skipped (no binary given)"; fi
awk -v t="$here" 'BEGIN{exit !(t < 2.0)}' || { echo "  over the 2 s target"; exit 1; }
