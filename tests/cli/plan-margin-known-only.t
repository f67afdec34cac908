# --margin: a deadline is met when the time to train plus the margin is (the
# default: the dense class's p90 - 1 out of sample, ERR_DENSE_P90 of
# constants.def, cf_default_margin_pct); --known-only: rank on stated facts
# alone; every ranked row says which unstated facts its place rests on.
cat > "$T/w.json" <<'J'
{"name": "llm-8b-test", "kind": "llm",
 "shape": {"model": "llama", "layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32,
           "kv_heads": 8, "seq": 8192, "vocab": 128256},
 "batch": 512, "tokens": 1e11}
J
M=$(calc "int(($(K ERR_DENSE_P90) - 1) * 100 + 0.5)")
[ -n "$M" ] || fail "no ERR_DENSE_P90 in constants.def"
cf plan --workload "$T/w.json" --deadline 24 --format json; expect_rc 0
expect_json_true '(.ranked | length) > 0'
expect_json '.margin_pct' "$M"
expect_json_true "[.ranked[] | .time_to_train_h * (1 + $M / 100) <= 24 * (1 + 1e-12)] | all"
cf plan --workload "$T/w.json" --deadline 24 --margin 0 --format json; expect_rc 0
expect_json_true '[.ranked[] | .time_to_train_h <= 24] | all'
cf plan --workload "$T/w.json" --deadline 24 --margin 50 --format json; expect_rc 0
expect_json_true '[.ranked[] | .time_to_train_h * 1.5 <= 24 * (1 + 1e-12)] | all'
# A time that only meets the deadline without the margin is not ranked:
# take the first row's time as the deadline, then ask for a 20 % margin.
cf plan --workload "$T/w.json" --deadline 24 --margin 0 --top 1 --format json; expect_rc 0
t=$(jq -r '.ranked[0].time_to_train_h' "$T/out"); id=$(jq -r '.ranked[0].offering_id' "$T/out")
n=$(jq -r '.ranked[0].nodes' "$T/out")
cf plan --workload "$T/w.json" --deadline "$t" --margin 20 --format json; expect_rc 0
expect_json_true "[.ranked[] | select(.offering_id == \"$id\") | .nodes != $n] | all"
cf plan --workload "$T/w.json" --deadline 24; expect_rc 0
tr "\n" " " < "$T/out" | grep -q "finishing within 24 h with a margin of $M % (the model's p90 error out of sample)\." || fail "no margin on the objective line"
cf plan --workload "$T/w.json" --deadline 24 --margin 101; expect_rc 2
expect_err "--margin expects a percentage from 0 to 100, got '101'"
cf plan --workload "$T/w.json" --margin x; expect_rc 2; expect_err "--margin expects a percentage"
# Rows on more than one node of an offering whose largest cluster, NICs or
# topology the catalog does not state carry the facts and the table's '*'.
cf plan --workload llama3-70b --format json; expect_rc 0
expect_json_true '[.ranked[] | .rests_on_assumptions == ((.assumed_facts | length) > 0)] | all'
expect_json_true '[.ranked[] | select(.nodes == 1) | .rests_on_assumptions == false] | all'
expect_json '[.ranked[] | select(.offering_id == "sfcompute-h100-market")][0].assumed_facts | join(",")' "max_cluster,nics_per_node,fabric_topology"
expect_json_true '[.ranked[] | select(.flags | index("max_cluster_unknown")) | select(.nodes > 1) | .assumed_facts | index("max_cluster") != null] | all'
cf plan --workload llama3-70b; expect_rc 0
expect_out "*: the row's place rests on a fact the catalog does not state"
grep -q '^ [0-9]\*sfcompute-h100-market' "$T/out" || grep -q '^[0-9][0-9]\*sfcompute-h100-market' "$T/out" || fail "sfcompute row not marked"
# --known-only: no ranked row rests on an unstated fact; an offering that
# needs more nodes than its stated facts support is unranked saying why.
cf plan --workload llama3-8b --known-only --format json; expect_rc 0
expect_json_true '(.ranked | length) > 0'
expect_json_true '[.ranked[] | .rests_on_assumptions == false and (.flags | index("max_cluster_unknown") == null)] | all'
expect_json_true '[.ranked[] | select(.offering_id == "sfcompute-h100-market") | .nodes == 1] | all'
cf plan --workload llama3-70b --known-only --format json; expect_rc 0
expect_json_true '[.unranked[] | select(.offering_id == "crusoe-h100-ib") | .reasons[] | startswith("known-only: more than one node rests on facts the catalog does not state (its largest cluster")] | any'
cf plan --workload llama3-8b --known-only --top 2; expect_rc 0; expect_out "on stated facts alone (--known-only)"
expect_no_out "*: the row's place"
