#!/bin/sh
# tests/torture/run.sh BUILD [full] — the torture runs of the catalog's
# write paths (torture.c; issue 21). By default (make test, make check) a
# strided sweep (every 23rd N of each kind, N = 1 always) and 50 kill
# trials per path: about a minute. `full` (make torture): every N of every
# kind, 1,000 kill trials per path. TORTURE_STRIDE and TORTURE_TRIALS
# override either. Prints each line of the driver, then "N passed, N failed"
# (one per path and kind, one per path's kill trials).
BIN=$1/tests/torture/torture
if [ "$2" = full ]; then stride=1; trials=1000; else stride=23; trials=50; fi
stride=${TORTURE_STRIDE:-$stride}
trials=${TORTURE_TRIALS:-$trials}
LOG=$(mktemp "${TMPDIR:-/tmp}/cf-torture-log.XXXXXX") || exit 1
rc=0
"$BIN" sweep "$stride" >> "$LOG" 2>&1 || rc=1
"$BIN" kill "$trials" >> "$LOG" 2>&1 || rc=1
cat "$LOG"
passed=$(grep -cE '^(sweep|kill) .*, 0 half' "$LOG")
failed=$(grep -cE '^(sweep|kill) ' "$LOG")
failed=$((failed - passed))
[ $rc = 0 ] || [ $failed -gt 0 ] || failed=1   # the driver itself failed
rm -f "$LOG"
echo "torture: $passed passed, $failed failed"
[ $failed = 0 ]
