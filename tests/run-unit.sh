#!/bin/sh
# run-unit.sh BIN... — runs each cmocka test binary; prints a summary line.
pass=0; fail=0
for t in "$@"; do
    if "$t" > "$t.log" 2>&1; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $t"; cat "$t.log"; fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
