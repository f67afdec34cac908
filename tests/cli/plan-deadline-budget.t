# --deadline keeps configurations that finish in time (cheapest first);
# --budget keeps those within the budget (fastest first). Offerings that
# cannot meet them are unranked with the reason.
cat > "$T/w.json" <<'J'
{"name": "llm-8b-test", "kind": "llm",
 "shape": {"model": "llama", "layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32,
           "kv_heads": 8, "seq": 8192, "vocab": 128256},
 "batch": 512, "tokens": 1e11}
J
cf plan --workload "$T/w.json" --deadline 24 --format json; expect_rc 0
expect_json_true '(.ranked | length) > 0'
expect_json_true '[.ranked[] | .time_to_train_h <= 24] | all'
expect_json_true '[.ranked[].cost] as $c | $c == ($c | sort)'
cf plan --workload "$T/w.json" --deadline 0.001 --format json; expect_rc 0
expect_json '.ranked | length' 0
expect_json_true '[.unranked[].reasons[] | select(startswith("deadline 0.001 h not met"))] | length > 0'
cf plan --workload "$T/w.json" --budget 100000 --format json; expect_rc 0
expect_json_true '(.ranked | length) > 0'
expect_json_true '[.ranked[] | .cost <= 100000] | all'
expect_json_true '[.ranked[].time_to_train_h] as $t | $t == ($t | sort)'
