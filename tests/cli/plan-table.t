# The table: header, one row per offering with its layout, a why line under
# each, and the offerings that could not be ranked with their reasons.
cat > "$T/w.json" <<'J'
{"name": "llm-8b-test", "kind": "llm",
 "shape": {"model": "llama", "layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32,
           "kv_heads": 8, "seq": 8192, "vocab": 128256},
 "batch": 512, "tokens": 1e11}
J
cf plan --workload "$T/w.json" --top 5; expect_rc 0
expect_out "provider"
expect_out "layout"
expect_out "why: "
expect_out "sticker is"
expect_out "Not ranked ("
expect_out "price unknown"
[ "$(grep -c '^    why: ' "$T/out")" = 5 ] || fail "expected 5 why lines"
awk 'length > 110 { exit 1 }' "$T/out" || fail "a line is wider than 110 columns"
# No progress on stderr when it is not a terminal.
[ ! -s "$T/err" ] || fail "stderr not empty"
