# The table fits an 80-column terminal: its first lines say what the ranking
# is (workload, objective, deadline, currency, how many offerings are ranked
# and why the others are not); one row per offering with its id, nodes,
# layout, time, E, P and cost in the currency with thousands separators, a
# line with GPUs, ZeRO, recompute and the offering's name, a why line; then
# the offerings that could not be ranked with their reasons.
cat > "$T/w.json" <<'J'
{"name": "llm-8b-test", "kind": "llm",
 "shape": {"model": "llama", "layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32,
           "kv_heads": 8, "seq": 8192, "vocab": 128256},
 "batch": 512, "tokens": 1e11}
J
cf plan --workload "$T/w.json" --deadline 2160 --format json; expect_rc 0
nranked=$(jq '.ranked | length' "$T/out"); nun=$(jq '.unranked | length' "$T/out")
nprice=$(jq '[.unranked[] | select(.reasons | index("price unknown"))] | length' "$T/out")
first=$(jq -r '.ranked[0].offering_id' "$T/out")
cost0=$(jq -r '.ranked[0].cost | round' "$T/out")
cf plan --workload "$T/w.json" --deadline 2160; expect_rc 0
expect_out "Plan for llm-8b-test: 100B tokens, global batch 512 x 8192."
expect_out "Cheapest total cost first (costs in USD), finishing within 2160 h (90 days)"
# ... with the deadline's margin (the default: the dense p90 error out of sample),
# wrapped onto the next line.
expect_out "with a margin of $(calc "int(($(K ERR_DENSE_P90) - 1) * 100 + 0.5)") % (the model's p90 error out of sample)."
expect_out "$nranked ranked, $nun not ranked ("
# ... on one line: the summary ends there.
grep -q "^$nranked ranked, $nun not ranked (.*)\.\$" "$T/out" || fail "the ranked/not ranked summary is not one line"
expect_out "no price $nprice"
expect_out "E: scaling efficiency"
expect_out "cost USD"
expect_out "why: "
expect_out "sticker is"
# Many unranked: summarized per kind of reason with a few ids each (all of
# them, with every reason, in --format json).
expect_out "Not ranked ($nun), by reason (all, with every reason: --format json):"
expect_out "  no price ($nprice): "
[ "$(grep -c '^   why: ' "$T/out")" = "$nranked" ] || fail "expected $nranked why lines"
awk 'length > 79 { exit 1 }' "$T/out" || fail "a line is wider than 79 columns"
# The first row: its id, and its cost with thousands separators.
grp=$(echo "$cost0" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta')
# (an id over 21 columns is shown as its first 19 and ".."; a "*" after the
# rank marks a row resting on assumed facts)
shown=$first; [ ${#first} -le 21 ] || shown="$(printf %.19s "$first").."
grep -q "^ 1[ *]$shown .* $grp\$" "$T/out" || fail "row 1 is not '$shown ... $grp'"
# No progress on stderr when it is not a terminal.
[ ! -s "$T/err" ] || fail "stderr not empty"
# --top and --objective time say so, with how many qualified (ranked_total,
# not the rows kept: a trial read "3 ranked" where 33 qualified).
cf plan --workload "$T/w.json" --objective time --top 3 --format json; expect_rc 0
[ "$(jq '.ranked | length' "$T/out")" = 3 ] || fail "--top 3 kept other than 3 rows"
ntot=$(jq '.ranked_total' "$T/out")
cf plan --workload "$T/w.json" --objective time --format json; expect_rc 0
[ "$(jq '.ranked | length' "$T/out")" = "$ntot" ] || fail "ranked_total $ntot is not the rows without --top"
[ "$ntot" -gt 3 ] || fail "ranked_total $ntot: the case needs more than 3 to tell"
cf plan --workload "$T/w.json" --objective time --top 3; expect_rc 0
expect_out "Fastest first (costs in USD), among node counts with E of at least 0.50 and"
expect_out "Top 3 of $ntot shown, $nun not ranked"
