#!/bin/sh
# check-symbols.sh LIB.so — only cf_-prefixed symbols may be exported
# (STYLE.md: -fvisibility=hidden, libuv's uv_/uv__ rule).
bad=$(nm -D --defined-only "$1" | awk '$2 ~ /^[TDBR]$/ {print $3}' | grep -v '^cf_' | grep -v '^_' || true)
if [ -n "$bad" ]; then
    echo "symbols: exported names without the cf_ prefix:"; echo "$bad"
    echo "symbols: 0 passed, 1 failed"; exit 1
fi
bad2=$(nm -D --defined-only "$1" | awk '$2 ~ /^[TDBR]$/ {print $3}' | grep '^cf__' || true)
if [ -n "$bad2" ]; then
    echo "symbols: internal cf__ names exported:"; echo "$bad2"
    echo "symbols: 0 passed, 1 failed"; exit 1
fi
echo "symbols: 1 passed, 0 failed"
