#!/bin/sh
# check-symbols.sh LIB.so — only cf_-prefixed symbols may be exported
# (docs/architecture.md: -fvisibility=hidden, libuv's uv_/uv__ rule), none
# of them cf__ (internal), and the library links no HTTP server or MPI:
# only the tool does (docs/architecture.md).
pass=0; fail=0
bad=$(nm -D --defined-only "$1" | awk '$2 ~ /^[TDBR]$/ {print $3}' | grep -v '^cf_' | grep -v '^_' || true)
if [ -n "$bad" ]; then
    echo "symbols: exported names without the cf_ prefix:"; echo "$bad"; fail=$((fail + 1))
else pass=$((pass + 1)); fi
bad2=$(nm -D --defined-only "$1" | awk '$2 ~ /^[TDBR]$/ {print $3}' | grep '^cf__' || true)
if [ -n "$bad2" ]; then
    echo "symbols: internal cf__ names exported:"; echo "$bad2"; fail=$((fail + 1))
else pass=$((pass + 1)); fi
needed=$(readelf -d "$1" 2>/dev/null | awk '/NEEDED/ {print $NF}')
if [ -z "$needed" ]; then
    echo "symbols: cannot read the NEEDED entries of $1 (readelf)"; fail=$((fail + 1))
elif echo "$needed" | grep -Eq 'microhttpd|libmpi'; then
    echo "symbols: $1 links what only the tool may:"; echo "$needed" | grep -E 'microhttpd|libmpi'
    fail=$((fail + 1))
else pass=$((pass + 1)); fi
echo "symbols: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
