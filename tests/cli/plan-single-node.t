# --multinode no plans single-node offerings: one node, no inter-node fabric.
cat > "$T/w.json" <<'J'
{"name": "llm-1b-test", "kind": "llm",
 "shape": {"model": "llama", "layers": 16, "hidden": 2048, "ffn_hidden": 8192, "heads": 32,
           "kv_heads": 8, "seq": 4096, "vocab": 128256},
 "batch": 256, "tokens": 1e10}
J
cf plan --workload "$T/w.json" --multinode no --format json; expect_rc 0
expect_json_true '(.ranked | length) > 0'
expect_json_true '[.ranked[] | .nodes == 1] | all'
