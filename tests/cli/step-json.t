# predict step: Llama 3 8B on 4 nodes of 8 H100 over 8x400G InfiniBand; the JSON of DESIGN §6.
cf predict step --workload llama3-8b --tp 2 --pp 2 --dp 8 --zero 1 --recompute selective \
    --gpu H100-SXM --gpus-per-node 8 --intra nvswitch-nvlink4 --network ib --nics 8 --nic-gbps 400 --format json
expect_rc 0
for k in step_time_s tflops_per_gpu mfu tokens_per_s tokens_per_s_per_gpu memory_per_gpu_gib; do
    expect_json_true ".$k > 0"
done
for k in compute_s tp_comm_s pp_bubble_s pp_comm_s dp_comm_exposed_s cp_comm_s; do
    expect_json_true ".breakdown.$k >= 0"
done
# 32 GPUs; 512 sequences of 8192 tokens per step (the preset's batch).
expect_json_true '(.tokens_per_s - .tokens_per_s_per_gpu * 32 | fabs) < 1e-6 * .tokens_per_s'
expect_json_true '(.tokens_per_s * .step_time_s - 512 * 8192 | fabs) < 1'
expect_json_true '(.step_time_s - (.breakdown | add) | fabs) < 1e-9 * .step_time_s'
# pp 2 has a bubble and point-to-point traffic; tp 2 has TP collectives.
expect_json_true '.breakdown.pp_bubble_s > 0 and .breakdown.pp_comm_s > 0 and .breakdown.tp_comm_s > 0'
# MFU = TFLOP/s per GPU / 989.5 (H100 SXM dense bf16).
expect_json_true '(.mfu - .tflops_per_gpu / 989.5 | fabs) < 1e-9'
