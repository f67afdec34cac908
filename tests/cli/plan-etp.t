# Expert tensor parallelism in the search (issue 10): fit, plan and scale
# search etp in {1, tp} (lib/model/layouts.c). A hand-reasoned case where
# only etp > 1 fits: 2 experts of 732,416 (ep <= 2), one layer (pp 1), a
# batch of one sequence (dp 1), so TP8 is the only split of an 8-GPU node.
# Per GPU at etp 1 the experts hold 3*8192*732416 = 18.0 B parameters
# (ep 2) or 36.0 B (ep 1), x 16 B of weights, gradients and Adam states
# (dp 1: no ZeRO) = 288 or 576 GB; at etp 8 (ep 1) 2*18.0 B / 8 = 4.5 B,
# 72 GB, under an 80 GB H100 with the dense parts and 3 GiB reserve.
cat > "$T/etp.json" <<'J'
{"name": "two-giant-experts", "kind": "llm",
 "shape": {"model": "llama", "layers": 1, "hidden": 8192, "heads": 64, "kv_heads": 8,
           "seq": 512, "vocab": 32000, "params_b": 36.7,
           "moe": {"experts": 2, "top_k": 1, "ffn_hidden": 732416}},
 "batch": 1, "tokens": 1e9}
J
cf fit --workload "$T/etp.json" --gpu H100-SXM --format json
expect_rc 0
expect_json '.min_nodes' 1
expect_json '.layout.tp' 8
expect_json '.layout.ep' 1
expect_json '.layout.etp' 8
expect_json_true '.memory_per_gpu_gib < 74.5'
cf fit --workload "$T/etp.json" --gpu H100-SXM
expect_rc 0; expect_out "TP8 ETP8 DP1"
cf plan --workload "$T/etp.json" --format json
expect_rc 0
expect_json_true '(.ranked | length) >= 5'
expect_json_true '[.ranked[] | .etp == .tp and .etp > 1] | all'
expect_json_true '[.ranked[] | select(.gpus == 8) | .etp == 8 and .ep == 1] | all'
expect_json_true '([.ranked[] | select(.gpus == 8)] | length) >= 5'
# etp 8 is the expert share of predict step too: the experts' memory / 8.
F="--gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network none"
cf predict step --workload "$T/etp.json" --tp 8 --pp 1 --dp 1 --etp 8 $F --format json
expect_rc 0
expect_json '.fits_memory' true
cf predict step --workload "$T/etp.json" --tp 8 --pp 1 --dp 1 --ep 2 $F --format json
expect_rc 0
expect_json '.fits_memory' false
# fit counts ep x etp as the expert parallelism and keeps etp 1 at a tie:
# DeepSeek-V3 on H100 stays TP4 EP32 (not TP4 EP8 ETP4, the same 32 GPUs
# per expert layer).
cf fit --workload deepseek-v3 --gpu H100-SXM --format json
expect_rc 0
expect_json '.layout.etp' 1
expect_json '.layout.ep' 32
