# Bad serving input is refused with the reason (issue 25): a TPOT target
# below one decode step of the smallest batch and a request no layout holds
# (exit 2, a usage error naming the input); output tokens 0 or a mistyped
# key in a workload file (exit 3, a bad input file, as every other workload
# field); a serve workload to predict step (exit 2).
cf plan --workload deepseek-v3-serve --tpot-ms 0.5; expect_rc 2
expect_err "below one decode step"; expect_err "tpot-ms"
cat > "$T/zero.json" <<'J'
{"name": "zero-out", "kind": "serve",
 "shape": {"model": "llama", "layers": 80, "hidden": 8192, "ffn_hidden": 28672, "heads": 64,
           "kv_heads": 8, "seq": 131072, "vocab": 128256},
 "request": {"input_tokens": 2048, "output_tokens": 0}}
J
cf plan --workload "$T/zero.json"; expect_rc 3; expect_err "request.output_tokens"
# One request whose KV cache (126 layers x 2 x 256 heads x 128 x 2 bytes =
# 16.5 MB a token, x 9M tokens = 149 TB) is more than every GPU of the
# largest cluster the search tries holds (40 nodes of 8 B300: 92 TB).
cat > "$T/huge.json" <<'J'
{"name": "huge-prompt", "kind": "serve",
 "shape": {"model": "llama", "layers": 126, "hidden": 32768, "ffn_hidden": 53248, "heads": 256,
           "kv_heads": 256, "seq": 10000000, "vocab": 128256},
 "precision": "bf16", "request": {"input_tokens": 9000000, "output_tokens": 1000}}
J
cf plan --workload "$T/huge.json"; expect_rc 2; expect_err "no offering holds"
cf predict step --workload deepseek-v3-serve --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 \
    --network none --tp 8 --pp 1 --dp 1; expect_rc 2
expect_err "serve workload"; expect_err "predict step"
cat > "$T/typo.json" <<'J'
{"name": "typo", "kind": "serve",
 "shape": {"model": "llama", "layers": 2, "hidden": 64, "ffn_hidden": 128, "heads": 4,
           "seq": 4096, "vocab": 100},
 "request": {"input_tokens": 10, "output_token": 5}}
J
cf plan --workload "$T/typo.json"; expect_rc 3; expect_err "request.output_token"
