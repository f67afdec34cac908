# The ranking follows the objective, not the sticker price: by cost it is
# sorted by cost and differs from sticker-price order (fabrics and GPUs
# differ); by time it is sorted by time to train.
cat > "$T/w.json" <<'J'
{"name": "llm-70b-test", "kind": "llm",
 "shape": {"model": "llama", "layers": 80, "hidden": 8192, "ffn_hidden": 28672, "heads": 64,
           "kv_heads": 8, "seq": 8192, "vocab": 128256},
 "batch": 1024, "tokens": 2e11}
J
cf plan --workload "$T/w.json" --format json; expect_rc 0
expect_json_true '[.ranked[].cost] as $c | $c == ($c | sort)'
expect_json_true '[.ranked[].sticker_price_gpu_hr] as $p | $p != ($p | sort)'
cf plan --workload "$T/w.json" --objective time --format json; expect_rc 0
expect_json_true '[.ranked[].time_to_train_h] as $t | $t == ($t | sort)'
# --top keeps the best rows only.
cf plan --workload "$T/w.json" --top 3 --format json; expect_rc 0
expect_json '.ranked | length' 3
