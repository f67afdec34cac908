#!/bin/sh
# run.sh BUILD — `make bench`: runs every bench/*_bench.sh with BUILD and
# prints "bench: N passed, N failed".
BUILD=${1:-build}
DIR=$(cd "$(dirname "$0")" && pwd)
pass=0; fail=0
for b in "$DIR"/*_bench.sh; do
    [ -e "$b" ] || continue
    if sh "$b" "$BUILD"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $(basename "$b")"; fi
done
echo "bench: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
